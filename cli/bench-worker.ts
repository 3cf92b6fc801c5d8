// One sample of `shapelog bench`, run by the parent in a fresh process:
//   node cli/bench-worker.(ts|js) '<WorkerRequest as JSON>'
// Loads and solves the program once (the cold first run), warms up for the requested time,
// then times runs until the timed budget is spent (at least one), and prints one JSON line,
// a WorkerReport, with a digest of the result for comparing strategies. A program that does
// not load (syntax, static errors) or hits a limit: its diagnostics on stderr, exit 1.
import { readFileSync } from 'node:fs';
import { ProgramError, runFiles, type RunResult, type StrategyName } from '../solver/run.js';
import { inferText, type InferResult, type InferStrategy } from '../typing/infer.js';
import { rulesDigest, typesDigest } from './answer-digest.js';
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
  const report = req.kind === 'rules' ? sample(rulesRunner(req), req) : sample(relayRunner(req), req);
  if (report === null) process.exitCode = EXIT_USER_ERROR;
  else process.stdout.write(`${JSON.stringify(report)}\n`);
} catch (e) {
  if (!(e instanceof ProgramError)) throw e;
  printDiagnostics(e.diagnostics, e.texts, { warnings: false });
  process.exitCode = EXIT_USER_ERROR;
}
