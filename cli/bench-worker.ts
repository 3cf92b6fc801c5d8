// One sample of `shapelog bench`, run by the parent in a fresh process:
//   node cli/bench-worker.(ts|js) '<WorkerRequest as JSON>'
// (the `onnx` strategy's samples run proofs/onnx-cross-check/onnx_bench_worker.py instead, the same protocol).
// Loads and solves the program once (the cold first run), warms up for the requested time,
// then times runs until the timed budget is spent (at least one), and prints one JSON line,
// a WorkerReport, with a digest of the result for comparing strategies. A program that does
// not load (syntax, static errors) or hits a limit: its diagnostics on stderr, exit 1.
import { readFileSync } from 'node:fs';
import { UserError } from '../diagnostics/diagnostic.js';
import { ProgramError, runFiles, type RunResult, type StrategyName } from '../solver/run.js';
import { inferText, type InferResult, type InferStrategy } from '../typing/infer.js';
import type { TypedGraph } from '../typing/onnx/graph-types.js';
import { graphInputDims } from '../typing/onnx/input-dims.js';
import { type DimJson, fullyKnownShape } from '../typing/onnx/known-shapes.js';
import { readModel, typeModel } from '../typing/onnx/model-types.js';
import { rulesDigest, sha256, typesDigest } from './answer-digest.js';
import type { AnswerDigest, WorkerReport, WorkerRequest } from './bench-protocol.js';
import { EXIT_USER_ERROR, printDiagnostics } from './report.js';

/** One way to load and solve the program, and to read what it computed. */
interface Runner<R> {
  run(): R;
  /** The result's digest, or null when the run failed (its diagnostics are then printed). */
  digest(result: R): AnswerDigest | null;
}

function rulesRunner(req: WorkerRequest): Runner<RunResult> {
  return {
    run: () => runFiles([req.file], { strategy: req.strategy as StrategyName, limits: req.limits, ...(req.goal !== null ? { goal: req.goal } : {}) }),
    digest(result) {
      if (result.solver.limitHit === null) return rulesDigest(result);
      printDiagnostics(
        result.diagnostics.filter((d) => d.code === 'limit'),
        result.texts,
        { warnings: false },
      );
      return null;
    },
  };
}

function relayRunner(req: WorkerRequest): Runner<InferResult> {
  return {
    run: () => inferText(readFileSync(req.file, 'utf8'), req.file, req.strategy as InferStrategy, req.limits),
    digest(result) {
      // a limit hit by the rules strategy's engine run is a failed run, not a type error
      if ((result.outcome.run?.solver.limitHit ?? null) === null) return typesDigest(result);
      printDiagnostics(
        result.outcome.run!.diagnostics.filter((d) => d.code === 'limit'),
        result.texts,
        { warnings: false },
      );
      return null;
    },
  };
}

/** An ONNX model typed by shapelog's rules: a run reads, decodes and types the file, as `infer` does. */
function onnxRunner(req: WorkerRequest): Runner<TypedGraph> & { extra(): Pick<WorkerReport, 'shapes' | 'inputDims'> } {
  let last: TypedGraph | null = null;
  let inputDims: string[] = [];
  return {
    run() {
      const model = readModel(req.file);
      inputDims = [...graphInputDims(model.graph)];
      last = typeModel(model);
      return last;
    },
    digest(typed) {
      const params = new Set(inputDims);
      const shapes = shapesOf(typed);
      const errors = typed.diagnostics.filter((d) => d.severity === 'error').length;
      return { what: 'shapes', count: shapes.filter((s) => fullyKnownShape(s, params)).length, digest: sha256(JSON.stringify(shapes)), errors };
    },
    extra: () => ({ shapes: last === null ? [] : shapesOf(last), inputDims }),
  };
}

/** Each node output's shape, in node order (null: no tensor type or an unknown rank). */
function shapesOf(typed: TypedGraph): (readonly DimJson[] | null)[] {
  return typed.values.map((v) => (v.type !== null && v.type.kind === 'tensor' ? v.type.shape : null));
}

function sample<R>(runner: Runner<R>, req: WorkerRequest): WorkerReport | null {
  const t0 = performance.now();
  const first = runner.run();
  const coldMs = performance.now() - t0;
  const answer = runner.digest(first);
  if (answer === null) return null;

  let warmupRuns = 0;
  const warmStart = performance.now();
  while (performance.now() - warmStart < req.warmupMs) {
    runner.run();
    warmupRuns++;
  }
  const timedMs: number[] = [];
  const timedStart = performance.now();
  while (timedMs.length === 0 || (performance.now() - timedStart < req.timedBudgetMs && timedMs.length < req.maxTimedRuns)) {
    const t = performance.now();
    runner.run();
    timedMs.push(performance.now() - t);
  }
  return { coldMs, warmupRuns, timedMs, answer };
}

const req = JSON.parse(process.argv[2] ?? '{}') as WorkerRequest;
try {
  let report: WorkerReport | null;
  if (req.kind === 'onnx') {
    const runner = onnxRunner(req);
    const r = sample(runner, req);
    report = r === null ? null : { ...r, ...runner.extra() };
  } else report = req.kind === 'rules' ? sample(rulesRunner(req), req) : sample(relayRunner(req), req);
  if (report === null) process.exitCode = EXIT_USER_ERROR;
  else process.stdout.write(`${JSON.stringify(report)}\n`);
} catch (e) {
  // a program that does not load, a model that does not read or decode: its located errors
  if (!(e instanceof UserError)) throw e;
  printDiagnostics(e.diagnostics, e instanceof ProgramError ? e.texts : new Map(), { warnings: false });
  process.exitCode = EXIT_USER_ERROR;
}
