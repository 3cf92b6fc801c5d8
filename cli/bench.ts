// `shapelog bench FILE.rules|PROGRAM.relay|MODEL.onnx`: times the user's program with each
// strategy that applies (the engine's for rule files, the typing strategies for Relay
// programs; for ONNX models shapelog's rules and ONNX's own shape inference, `onnx`, when a
// Python with the onnx package is found), one fresh process per sample, the strategies'
// samples alternating (s1 s2 s3 s1 s2 s3 ...) so that a slow spell of the machine falls on
// all of them; checks that they compute the same result (ONNX: that no dim both know
// differs); prints a table (or --json) and writes an offline chart (--html). Exit 1 when
// the strategies disagree, the program does not load or a strategy cannot run here; 2 on
// bad usage.
import { accessSync, constants, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Limits } from '../solver/engine/limits.js';
import { findPython, ONNX_PYTHON_HINT } from '../proofs/onnx-cross-check/onnx-inference.js';
import { ENGINE_STRATEGY_NAMES } from '../solver/strategy-names.js';
import { INFER_STRATEGY_NAMES } from '../typing/strategy-names.js';
import { renderBenchHtml } from './bench-html.js';
import type { ProgramKind, WorkerReport, WorkerRequest } from './bench-protocol.js';
import { benchJson, renderTable, summarize } from './bench-report.js';
import { processSampler, type Sampler } from './bench-sampler.js';
import { EXIT_OK, EXIT_USAGE, EXIT_USER_ERROR, printDiagnostics, ProgressLine } from './report.js';
import { commaList } from './program.js';

export interface BenchOptions {
  /** Comma-separated strategy names; every strategy that applies when absent. */
  readonly strategies?: string;
  /** Samples (fresh processes) per strategy. */
  readonly runs: number;
  /** Warm-up time per sample, after the cold first run. */
  readonly warmup: number;
  /** Time for the timed runs of each sample: as many runs as fit (at least one), at most MAX_TIMED_RUNS. */
  readonly time: number;
  readonly goal?: string;
  readonly json: boolean;
  readonly html?: string;
  /** The engine's limits for each run, as `shapelog query` takes them. */
  readonly limits?: Partial<Limits>;
}

export const MAX_TIMED_RUNS = 50;

/** For ONNX models: shapelog's rules, and ONNX's own shape inference (its C++ relations, through Python). */
const ONNX_BENCH_STRATEGIES = ['rules', 'onnx'] as const;

export const STRATEGIES_BY_KIND: Readonly<Record<ProgramKind, readonly string[]>> = {
  rules: ENGINE_STRATEGY_NAMES,
  relay: INFER_STRATEGY_NAMES,
  onnx: ONNX_BENCH_STRATEGIES,
};

const KIND_BY_EXTENSION: Readonly<Record<string, ProgramKind>> = { '.rules': 'rules', '.relay': 'relay', '.onnx': 'onnx' };

const NO_PYTHON = `ONNX's own shape inference needs a Python that can import onnx (${ONNX_PYTHON_HINT})`;

class UsageError extends Error {}

function programKind(file: string): ProgramKind {
  const kind = KIND_BY_EXTENSION[extname(file)];
  if (kind === undefined) throw new UsageError(`bench takes a rule file (.rules), a Relay program (.relay) or an ONNX model (.onnx), not ${file}`);
  return kind;
}

/** The strategies to time, in the order given (duplicates dropped); all that apply by default. */
export function chooseStrategies(kind: ProgramKind, list: string | undefined): string[] {
  const applicable = STRATEGIES_BY_KIND[kind];
  if (list === undefined) return [...applicable];
  const names = commaList(list);
  if (names.length === 0) throw new UsageError(`--strategies needs at least one name (for .${kind} files: ${applicable.join(', ')})`);
  for (const name of names) {
    if (applicable.includes(name)) continue;
    const other = (Object.keys(STRATEGIES_BY_KIND) as ProgramKind[]).find((k) => STRATEGIES_BY_KIND[k].includes(name));
    throw new UsageError(
      other !== undefined
        ? `the ${name} strategy does not apply to .${kind} files (it types .${other} files); for .${kind} files: ${applicable.join(', ')}`
        : `unknown strategy '${name}'; for .${kind} files: ${applicable.join(', ')}`,
    );
  }
  return names;
}

function fileProblem(path: string, what: string, why: string): number {
  printDiagnostics([diagnostic('error', 'file', `cannot ${what} ${path}: ${why}`, null)], new Map(), { warnings: true });
  return EXIT_USER_ERROR;
}

type Samples = { readonly ok: true; readonly byStrategy: Map<string, WorkerReport[]> } | { readonly ok: false; readonly stderr: string };

/** Runs the samples, alternating strategies; the first failing sample stops it with its diagnostics. */
async function takeSamples(requests: readonly WorkerRequest[], runs: number, sampler: Sampler): Promise<Samples> {
  const samples = new Map<string, WorkerReport[]>(requests.map((r) => [r.strategy, []]));
  const progress = new ProgressLine();
  const started = performance.now();
  const total = runs * requests.length;
  try {
    for (let round = 0; round < runs; round++) {
      for (const [i, req] of requests.entries()) {
        // shown at once (the line waits for a second otherwise): every sample takes seconds
        progress.update(`sample ${round * requests.length + i + 1}/${total}: ${req.strategy}`, Math.max(1000, performance.now() - started));
        const outcome = await sampler(req);
        if (!outcome.ok)
          return { ok: false, stderr: outcome.stderr !== '' ? outcome.stderr : `error: the ${req.strategy} sample failed (exit code ${outcome.exitCode})\n` };
        samples.get(req.strategy)!.push(outcome.report);
      }
    }
  } finally {
    progress.done();
  }
  return { ok: true, byStrategy: samples };
}

export async function benchCommand(file: string, o: BenchOptions, sampler: Sampler = processSampler): Promise<number> {
  let kind: ProgramKind;
  let strategies: string[];
  try {
    kind = programKind(file);
    strategies = chooseStrategies(kind, o.strategies);
    if (o.goal !== undefined && kind !== 'rules') throw new UsageError('--goal applies to rule files (.rules) only');
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`error: ${e.message}\n(run shapelog bench --help for usage)\n`);
    return EXIT_USAGE;
  }
  // ONNX's own inference runs in Python: by default only when one with onnx is found
  let python: string | null = null;
  if (strategies.includes('onnx')) {
    python = findPython();
    if (python === null) {
      if (o.strategies !== undefined) {
        process.stderr.write(`error: ${NO_PYTHON}\n`);
        return EXIT_USER_ERROR;
      }
      strategies = strategies.filter((s) => s !== 'onnx');
      process.stderr.write(`note: the onnx strategy is left out: ${NO_PYTHON}\n`);
    }
  }
  try {
    readFileSync(file);
  } catch (e) {
    return fileProblem(file, 'read', e instanceof Error && 'code' in e && e.code === 'ENOENT' ? 'no such file' : e instanceof Error ? e.message : String(e));
  }
  if (o.html !== undefined) {
    const folder = dirname(resolve(o.html));
    if (!existsSync(folder) || !statSync(folder).isDirectory()) return fileProblem(o.html, 'write', `no folder ${folder}`);
    try {
      accessSync(folder, constants.W_OK);
    } catch {
      return fileProblem(o.html, 'write', `${folder} is not writable`);
    }
  }

  const requests: WorkerRequest[] = strategies.map((strategy) => ({
    kind,
    file,
    strategy,
    goal: o.goal ?? null,
    warmupMs: o.warmup,
    timedBudgetMs: o.time,
    maxTimedRuns: MAX_TIMED_RUNS,
    limits: o.limits ?? {},
    ...(strategy === 'onnx' && python !== null ? { python } : {}),
  }));
  const samples = await takeSamples(requests, o.runs, sampler);
  if (!samples.ok) {
    process.stderr.write(samples.stderr);
    return EXIT_USER_ERROR;
  }
  const summary = summarize({ file, kind, goal: o.goal ?? null, runs: o.runs, warmupMs: o.warmup, timedBudgetMs: o.time }, samples.byStrategy);
  process.stdout.write(o.json ? `${JSON.stringify(benchJson(summary), null, 2)}\n` : renderTable(summary));
  if (o.html !== undefined) {
    try {
      writeFileSync(o.html, renderBenchHtml(summary));
    } catch (e) {
      return fileProblem(o.html, 'write', e instanceof Error ? e.message : String(e));
    }
    if (!o.json) process.stdout.write(`Chart written to ${o.html} (self-contained: opens offline).\n`);
  }
  if (!summary.agree) {
    process.stderr.write(
      kind === 'onnx'
        ? "error: the strategies contradict each other: a dim both know differs (see the table's 'agree' column)\n"
        : `error: the strategies do not compute the same ${summary.strategies[0]!.answer.what}\n`,
    );
    return EXIT_USER_ERROR;
  }
  return EXIT_OK;
}
