// `shapelog infer FILE.relay --gradual` (the program with its residual checks beside the
// calls; --checks-only: the list; --json: the typing plus `checks`) and
// `shapelog checks FILE.relay --dims n=3,h=224` (the checks evaluated for concrete sizes:
// each failing one with its call site; exit 1 if any fails).
import { readSource } from '../diagnostics/read-source.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import { closest } from '../diagnostics/suggest.js';
import type { Limits } from '../solver/engine/limits.js';
import { ProgramError } from '../solver/run.js';
import { DimError } from '../solver/terms/dims.js';
import { inferJson, type InferJson, type InferStrategy } from '../typing/infer.js';
import { gradualText, type GradualResult, inferGradualText, typeSizeVariables } from '../typing/gradual.js';
import { checkHolds, checkVariables, type ResidualCheck } from '../typing/residual-checks.js';
import { EXIT_OK, EXIT_USAGE, EXIT_USER_ERROR, printDiagnostics } from './report.js';

export interface GradualOptions {
  strategy: InferStrategy;
  json: boolean;
  checksOnly: boolean;
  limits: Partial<Limits>;
}

export interface CheckJson {
  condition: string;
  operator: string;
  relation: string | null;
  assumes: string | null;
  variables: string[];
  span: { file: string; line: number; column: number; endLine: number; endColumn: number };
}

export function checkJson(c: ResidualCheck): CheckJson {
  const s = c.span;
  return {
    condition: c.condition,
    operator: c.operator,
    relation: c.relation,
    assumes: c.assumes,
    variables: checkVariables(c),
    span: { file: s.file, line: s.start.line, column: s.start.column, endLine: s.end.line, endColumn: s.end.column },
  };
}

/** `file:line:column: operator: condition`. */
export function checkLine(c: ResidualCheck): string {
  return `${c.span.file}:${c.span.start.line}:${c.span.start.column}: ${c.operator}: ${c.condition}${c.assumes === null ? '' : ` (assumed: ${c.assumes})`}`;
}

/** Reads and types the program gradually, or reports why not (and returns the exit code). */
function typeGradually(file: string, strategy: InferStrategy, limits: Partial<Limits>, json: boolean): GradualResult | number {
  const read = readSource(file);
  if (!read.ok) {
    if (json)
      process.stdout.write(
        `${JSON.stringify({ diagnostics: [{ severity: 'error', message: `cannot read ${file}: ${read.why}`, line: null, column: null }] })}\n`,
      );
    else printDiagnostics([diagnostic('error', 'file', `cannot read ${file}: ${read.why}`, null)], new Map(), { warnings: true });
    return EXIT_USER_ERROR;
  }
  try {
    return inferGradualText(read.text, file, strategy, limits);
  } catch (e) {
    if (e instanceof ProgramError) {
      if (json)
        process.stdout.write(
          `${JSON.stringify({ functions: {}, bindings: [], checks: [], diagnostics: e.diagnostics.map((d) => ({ severity: d.severity, message: d.message, line: d.span?.start.line ?? null, column: d.span?.start.column ?? null })) })}\n`,
        );
      else printDiagnostics(e.diagnostics, e.texts, { warnings: true });
      return EXIT_USER_ERROR;
    }
    throw e;
  }
}

export function inferGradualCommand(file: string, o: GradualOptions): number {
  const g = typeGradually(file, o.strategy, o.limits, o.json);
  if (typeof g === 'number') return g;
  const failed = g.result.diagnostics.some((d) => d.severity === 'error');
  if (o.json) {
    const out: InferJson & { checks: CheckJson[]; freshDims: readonly string[] } = {
      ...inferJson(g.result),
      checks: g.checks.map(checkJson),
      freshDims: g.freshDims,
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return failed ? EXIT_USER_ERROR : EXIT_OK;
  }
  if (o.checksOnly) process.stdout.write(g.checks.map((c) => `${checkLine(c)}\n`).join(''));
  else process.stdout.write(gradualText(g));
  printDiagnostics(g.result.diagnostics, g.result.texts, { warnings: true });
  return failed ? EXIT_USER_ERROR : EXIT_OK;
}

export interface ChecksOptions {
  strategy: InferStrategy;
  /** `n=3,h=224`, possibly given several times. */
  dims: readonly string[];
  json: boolean;
  limits: Partial<Limits>;
}

/** `n=3,h=224` → sizes, or a usage message. */
export function parseDims(given: readonly string[]): Record<string, number> | string {
  const sizes: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const item of given
    .flatMap((g) => g.split(','))
    .map((x) => x.trim())
    .filter((x) => x !== '')) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(item);
    if (m === null) return `--dims: '${item}' is not NAME=SIZE (e.g. --dims n=3,h=224)`;
    const [, name, value] = m as unknown as [string, string, string];
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(Number(value)))
      return `--dims: the size of ${name} must be a non-negative integer, not '${value}'`;
    if (name in sizes) return `--dims: ${name} is given twice`;
    sizes[name] = Number(value);
  }
  return sizes;
}

/** The size variables of the program: those its (elaborated) parameter types mention, and those of its checks. */
function programSizeVariables(g: GradualResult): Set<string> {
  const names = new Set<string>(g.freshDims);
  for (const f of g.result.module.functions) for (const p of f.params) for (const n of p.type === null ? [] : typeSizeVariables(p.type)) names.add(n);
  for (const c of g.checks) for (const v of checkVariables(c)) names.add(v);
  return names;
}

function usage(message: string): number {
  process.stderr.write(`error: ${message}\n`);
  return EXIT_USAGE;
}

type Checkable = Parameters<typeof checkHolds>[0];

/**
 * Why `--dims` cannot evaluate `checks` (a name `file` has no size variable for, or a
 * check's variable without a size): the usage error printed and its exit code, or null.
 * Shared by `checks PROGRAM` and `checks MODEL.onnx`.
 */
export function sizesProblem(file: string, sizes: Record<string, number>, known: ReadonlySet<string>, checks: readonly Checkable[]): number | null {
  for (const name of Object.keys(sizes)) {
    if (known.has(name)) continue;
    const hint = closest(name, [...known]);
    return usage(
      `--dims: ${file} has no size variable ${name}${hint === null ? '' : `; did you mean ${hint}?`} (its size variables: ${[...known].sort().join(', ')})`,
    );
  }
  const missing = [...new Set(checks.flatMap(checkVariables))].filter((v) => !(v in sizes)).sort();
  if (missing.length > 0) return usage(`--dims: the checks need a size for ${missing.join(', ')} (e.g. --dims ${missing.map((m) => `${m}=1`).join(',')})`);
  return null;
}

/** Each check evaluated for `sizes`: whether it holds, and the error of a size that makes it undefined (a division by zero). */
export function evaluateChecks<C extends Checkable>(checks: readonly C[], sizes: Record<string, number>): { check: C; holds: boolean; error: string | null }[] {
  return checks.map((check) => {
    try {
      return { check, holds: checkHolds(check, sizes), error: null };
    } catch (e) {
      if (e instanceof DimError) return { check, holds: false, error: e.message };
      throw e;
    }
  });
}

export function checksCommand(file: string, o: ChecksOptions): number {
  const sizes = parseDims(o.dims);
  if (typeof sizes === 'string') return usage(sizes);
  const g = typeGradually(file, o.strategy, o.limits, o.json);
  if (typeof g === 'number') return g;
  const errors = g.result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    printDiagnostics(g.result.diagnostics, g.result.texts, { warnings: true });
    return EXIT_USER_ERROR;
  }
  const known = programSizeVariables(g);
  if (known.size === 0) {
    process.stderr.write(`error: ${file} has no size variables: its shapes are all known, so there is nothing to check at run time\n`);
    return EXIT_USER_ERROR;
  }
  const problem = sizesProblem(file, sizes, known, g.checks);
  if (problem !== null) return problem;
  const results = evaluateChecks(g.checks, sizes);
  const failing = results.filter((r) => !r.holds);
  if (o.json) {
    process.stdout.write(
      `${JSON.stringify({ dims: sizes, checks: results.map((r) => ({ ...checkJson(r.check), holds: r.holds, ...(r.error === null ? {} : { error: r.error }) })), failed: failing.length }, null, 2)}\n`,
    );
  } else {
    for (const r of failing) {
      const values = checkVariables(r.check)
        .map((v) => `${v} = ${sizes[v]}`)
        .join(', ');
      process.stdout.write(
        `${r.check.span.file}:${r.check.span.start.line}:${r.check.span.start.column}: check failed: ${r.check.operator} needs ${r.check.condition} (${values})${r.error === null ? '' : `: ${r.error}`}\n`,
      );
    }
    process.stdout.write(`${results.length - failing.length} of ${results.length} checks hold\n`);
  }
  return failing.length > 0 ? EXIT_USER_ERROR : EXIT_OK;
}
