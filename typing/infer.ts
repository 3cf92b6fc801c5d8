// Type inference of a Relay program: parse, generate constraints, solve them with a
// strategy (`rules`: the rule engine and relations/*.rules; `relay`: Relay's own
// algorithm with the hand-coded relations), and report the typed program.
import type { Module, Param, RExpr } from '../frontends/relay/ast.js';
import { MAX_NESTING, parseRelay } from '../frontends/relay/parse.js';
import { checkModuleDepth } from '../frontends/relay/depth.js';
import { bindingLimitError, DEFAULT_MAX_BINDINGS } from '../frontends/relay/binding-count.js';
import { printModule } from '../frontends/relay/print.js';
import { checkAttrs, lookupOp } from '../relations/catalogue.js';
import { ruleLibrary, type RuleLibrary } from '../relations/library.js';
import { DEFAULT_LIMITS, LimitError, type Limits } from '../solver/engine/limits.js';
import { budgetTick } from '../solver/engine/budget.js';
import { type Diagnostic, diagnostic, UserError } from '../diagnostics/diagnostic.js';
import { ProgramError, readingLimit } from '../solver/run.js';
import { generate, type Generated, type GenerateOptions, type OpCatalogue } from './constraints.js';
import { inferWithRelay } from './relay-strategy.js';
import { oneDiagnosticPerMistake } from './call-site-diagnostics.js';
import { inferWithRules, type InferOutcome } from './rules-strategy.js';
import { timed } from '../diagnostics/phase-times.js';

export type InferStrategy = 'rules' | 'relay';

/** The catalogue of another library than the current one (an older version of its files, say). */
export function catalogueOf(library: RuleLibrary): OpCatalogue {
  return {
    find(name) {
      return library.opsByName.get(name) ?? { error: `unknown operator '${name}'` };
    },
    checkAttrs(op, attrs) {
      const full = library.opsByName.get(op.name);
      return full === undefined ? { values: new Map(), errors: [] } : checkAttrs(full, attrs);
    },
  };
}

export const catalogue: OpCatalogue = {
  find(name) {
    const r = lookupOp(name);
    return r.ok ? r.op : { error: r.message };
  },
  checkAttrs(op, attrs) {
    const full = lookupOp(op.name);
    if (!full.ok) return { values: new Map(), errors: [] };
    return checkAttrs(full.op, attrs);
  },
};

export interface InferResult {
  readonly module: Module;
  readonly strategy: InferStrategy;
  readonly outcome: InferOutcome;
  readonly diagnostics: Diagnostic[];
  readonly texts: ReadonlyMap<string, string>;
}

/** Solvers by strategy name. */
export const strategies = new Map<InferStrategy, (gen: Generated, limits: Partial<Limits>) => InferOutcome>([
  ['rules', (gen, limits) => inferWithRules(gen, ruleLibrary(), limits)],
  ['relay', (gen) => inferWithRelay(gen)],
]);

/**
 * `library`: type with another rule library than the current one (the rules strategy only);
 * `generateOptions`: departures from the program as written (gradual typing).
 */
export function inferModule(
  module: Module,
  texts: ReadonlyMap<string, string>,
  strategy: InferStrategy,
  limits: Partial<Limits> = {},
  library?: RuleLibrary,
  generateOptions: GenerateOptions = {},
): InferResult {
  const gen = generate(module, library === undefined ? catalogue : catalogueOf(library), generateOptions);
  const solve =
    library === undefined ? strategies.get(strategy) : strategy === 'rules' ? (g: Generated, l: Partial<Limits>) => inferWithRules(g, library, l) : undefined;
  if (solve === undefined)
    throw new UserError([{ severity: 'error', code: 'usage', message: `the ${strategy} strategy is not available`, span: null, notes: [] }]);
  if (gen.diagnostics.length > 0)
    return {
      module,
      strategy,
      outcome: { bindings: [], results: new Map(), functions: new Map(), returns: new Map(), diagnostics: [], instances: 0, millis: 0, run: null },
      diagnostics: gen.diagnostics,
      texts,
    };
  const outcome = solve(gen, limits);
  return { module, strategy, outcome, diagnostics: oneDiagnosticPerMistake(outcome.diagnostics), texts };
}

/** The solver's limits, and the most bindings a program may have (frontends/relay/binding-count.ts). */
export interface InferLimits extends Partial<Limits> {
  readonly maxBindings?: number;
}

/**
 * Parses and types a Relay program; the time limit covers parsing too (solving gets what
 * is left). A program of more than `maxBindings` bindings is refused before parsing.
 */
export function inferText(text: string, file: string, strategy: InferStrategy, inferLimits: InferLimits = {}): InferResult {
  const read = readProgram(text, file, inferLimits);
  return inferModule(read.module, read.texts, strategy, read.limits);
}

/** Parses a Relay program for typing: its module, its text by file, and the limits left for solving. */
export function readProgram(
  text: string,
  file: string,
  inferLimits: InferLimits = {},
): { module: Module; texts: ReadonlyMap<string, string>; limits: Partial<Limits> } {
  const texts = new Map([[file, text]]);
  const { maxBindings, ...solverLimits } = inferLimits;
  let limits: Partial<Limits> = solverLimits;
  // a program too big to type within the memory budget is refused before it is parsed
  const tooBig = bindingLimitError(text, file, maxBindings ?? DEFAULT_MAX_BINDINGS);
  if (tooBig !== null) throw new ProgramError([tooBig], texts);
  const maxMillis = limits.maxMillis ?? DEFAULT_LIMITS.maxMillis;
  const started = Date.now();
  let module: Module;
  try {
    module = timed('parse', () => parseRelay(text, file, budgetTick(started + maxMillis)));
    // inference and printing recurse over expressions: deeper ones are refused here, at their place
    checkModuleDepth(module, MAX_NESTING);
  } catch (e) {
    if (e instanceof UserError) throw new ProgramError(e.diagnostics, texts);
    if (e instanceof LimitError) throw new ProgramError([readingLimit(e, maxMillis)], texts);
    throw e;
  }
  limits = { ...limits, maxMillis: Math.max(1, maxMillis - (Date.now() - started)) };
  if (module.functions.length === 0) {
    const start = { offset: 0, line: 1, column: 1 };
    const what = text.trim() === '' ? 'the file is empty' : 'the file defines no function';
    throw new ProgramError(
      [
        diagnostic('error', 'empty', `${what}: a Relay program defines at least one function, e.g. def @main(%x: Tensor[(2), float32]) { %x }`, {
          file,
          start,
          end: start,
        }),
      ],
      texts,
    );
  }
  return { module, texts, limits };
}

/** The program printed back with every binding's inferred type, TVM-style (and a remark comment beside a call where `remark` gives one). */
export function typedText(r: InferResult, remark?: (e: RExpr) => string | null): string {
  const byNode = new Map<RExpr | Param, string>();
  for (const b of r.outcome.bindings) byNode.set(b.node, b.type);
  return printModule(r.module, {
    annotate: (e) => byNode.get(e) ?? r.outcome.results.get(e) ?? null,
    typeOfParam: (p) => (p.type === null ? (byNode.get(p) ?? null) : null),
    // a result type with a part unknown is not printed: `_` is no Relay type syntax
    returnType: (f) => {
      const t = r.outcome.returns.get(f.name);
      return t === undefined || /(^|[^\w])_([^\w]|$)/.test(t) ? null : t;
    },
    ...(remark === undefined ? {} : { remark }),
  });
}

export interface InferJson {
  functions: Record<string, string>;
  bindings: { function: string; name: string; type: string; line: number }[];
  diagnostics: { severity: string; message: string; line: number | null; column: number | null }[];
}

export function inferJson(r: InferResult): InferJson {
  return {
    functions: Object.fromEntries(r.outcome.functions),
    bindings: r.outcome.bindings.map((b) => ({ function: b.fn, name: b.name, type: b.type, line: b.span.start.line })),
    diagnostics: r.diagnostics.map((d) => ({
      severity: d.severity,
      message: d.message,
      line: d.span?.start.line ?? null,
      column: d.span?.start.column ?? null,
    })),
  };
}
