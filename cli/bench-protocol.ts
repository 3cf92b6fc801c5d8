// What `shapelog bench` sends to each sample's worker process and what the worker prints
// back (one JSON line on stdout). Types only: the parent never loads the engine.
import type { Limits } from '../solver/engine/limits.js';

/** A rule file (the engine's strategies) or a Relay program (the typing strategies). */
export type ProgramKind = 'rules' | 'relay';

export interface WorkerRequest {
  readonly kind: ProgramKind;
  readonly file: string;
  readonly strategy: string;
  /** For rule files: a goal such as `path(0, X)`; its answers are the result compared. */
  readonly goal: string | null;
  /** Warm-up runs until this much time has passed (none when 0). */
  readonly warmupMs: number;
  /** Timed runs until this much time has passed (at least one), at most `maxTimedRuns`. */
  readonly timedBudgetMs: number;
  readonly maxTimedRuns: number;
  /** The engine's limits for each run (--max-rounds, --max-facts, --max-time, --max-depth). */
  readonly limits: Partial<Limits>;
}

/** What a run computed, reduced to a count and a hash of its text, for comparing strategies. */
export interface AnswerDigest {
  /** facts: every derived fact (rule file); answers: the goal's answers; types: every binding's type (Relay). */
  readonly what: 'facts' | 'answers' | 'types';
  /** Number of facts, answers or typed bindings. */
  readonly count: number;
  /** sha256 (hex) of the sorted text of the facts and error messages, the answers, or the types. */
  readonly digest: string;
  /** Errors the program reports (error facts, type errors): part of its result, not a failure. */
  readonly errors: number;
}

export interface WorkerReport {
  /** The first run in the fresh process (loading and solving the program once). */
  readonly coldMs: number;
  readonly warmupRuns: number;
  /** Every timed run after warm-up, in order. */
  readonly timedMs: readonly number[];
  readonly answer: AnswerDigest;
}
