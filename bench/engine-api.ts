// The slice of the engine's public API (solver/index.ts) the benchmarks use, and its loader.
// The types are restated here rather than imported so that the bench folder type-checks
// on its own; keep them in step with solver/index.ts.

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export type StrategyName = 'naive' | 'seminaive' | 'demand' | 'mutable';

export interface RunOptions {
  file?: string;
  strategy?: StrategyName;
  goal?: string;
  limits?: Partial<{ maxRounds: number; maxFacts: number; maxMillis: number; maxTermDepth: number }>;
}

export interface RunResult {
  answers: readonly Record<string, unknown>[] | null;
  factCount(pred: string): number;
  stats: { rounds: number; facts: number; millis: number };
}

export interface EngineApi {
  runText(source: string, options?: RunOptions): RunResult;
  /** Parse and compile once; each `solve()` evaluates afresh (optional: an engine without it is timed through runText). */
  prepareText?(source: string, options?: RunOptions): { solve(): RunResult };
}

/** Limits generous enough that no workload here hits them (the largest derives ~2.5M facts). */
export const BENCH_LIMITS: NonNullable<RunOptions['limits']> = {
  maxRounds: 1_000_000,
  maxFacts: 100_000_000,
  maxMillis: 30 * 60 * 1000,
};

/**
 * Imports the engine: `solver/index.ts`, or the module named by SHAPELOG_ENGINE (a path,
 * e.g. a stub used to test the harness). Exits with a clear message when that fails.
 */
export async function loadEngine(): Promise<{ api: EngineApi; from: string }> {
  const override = process.env['SHAPELOG_ENGINE'];
  const from = override ? pathToFileURL(resolve(override)).href : '../solver/index.js';
  let mod: Partial<EngineApi>;
  try {
    mod = (await import(from)) as Partial<EngineApi>;
  } catch (e) {
    fail(`cannot import the engine from ${override ?? 'solver/index.ts'}:\n  ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof mod.runText !== 'function') fail(`${override ?? 'solver/index.ts'} does not export a function runText(source, options)`);
  return { api: mod as EngineApi, from: override ?? 'solver/index.ts' };
}

function fail(message: string): never {
  console.error(`bench: ${message}\n(the benchmarks need runText from solver/index.ts; SHAPELOG_ENGINE=/path/to/module overrides it)`);
  process.exit(1);
}
