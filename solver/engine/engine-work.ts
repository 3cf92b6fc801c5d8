// What every solver of this process has done, summed over its solve() calls: the work
// behind one command (`shapelog infer --stats`), whose typing may run several solvers (the
// relation library's own fixpoint, a program's, an ONNX model's forks and subgraphs).
// A solver adds what one solve() did when it returns; a fork starts from its parent's
// counts, so only the difference is added.
import type { SolveStats } from './solve.js';

export interface EngineWork {
  /** solve() calls. */
  solves: number;
  rounds: number;
  /** Joins run: a rule's plan run over one window of new facts. */
  planRuns: number;
  derived: number;
  bindings: number;
  /** Time inside solve(), ms. */
  millis: number;
}

const work: EngineWork = { solves: 0, rounds: 0, planRuns: 0, derived: 0, bindings: 0, millis: 0 };

/** The counts of one solver before a solve(), to add what the call did afterwards. */
export type WorkMark = Pick<SolveStats, 'rounds' | 'planRuns' | 'derived' | 'bindings' | 'millis'>;

export function workMark(s: SolveStats): WorkMark {
  return { rounds: s.rounds, planRuns: s.planRuns, derived: s.derived, bindings: s.bindings, millis: s.millis };
}

/** Adds what a solve() did: `after` minus `before` (the same solver's stats). */
export function addWork(before: WorkMark, after: SolveStats): void {
  work.solves++;
  work.rounds += after.rounds - before.rounds;
  work.planRuns += after.planRuns - before.planRuns;
  work.derived += after.derived - before.derived;
  work.bindings += after.bindings - before.bindings;
  work.millis += after.millis - before.millis;
}

/** The process's totals so far (a copy). */
export function engineWork(): EngineWork {
  return { ...work };
}
