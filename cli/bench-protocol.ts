// What `shapelog bench` sends to each sample's worker process and what the worker prints
// back (one JSON line on stdout). Types only: the parent never loads the engine.
import type { Limits } from '../solver/engine/limits.js';
import type { DimJson } from '../typing/onnx/known-shapes.js';

/** A rule file (the engine's strategies), a Relay program (the typing strategies) or an ONNX model (shapelog's rules, ONNX's own inference). */
export type ProgramKind = 'rules' | 'relay' | 'onnx';

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
  /** The `onnx` strategy (ONNX's own shape inference): the Python that runs it. */
  readonly python?: string;
}

/** What a run computed, reduced to a count and a hash of its text, for comparing strategies. */
export interface AnswerDigest {
  /** facts: every derived fact (rule file); answers: the goal's answers; types: every binding's type (Relay); shapes: every node output's shape (ONNX). */
  readonly what: 'facts' | 'answers' | 'types' | 'shapes';
  /** Number of facts, answers or typed bindings; of node outputs whose shape is fully known (ONNX). */
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
  /**
   * ONNX models: the shape of each node output of the main graph, in node order (a dim: an
   * integer, a symbolic dim, or null; null for an unknown rank or type), for comparing
   * strategies value by value: two relation libraries agree when no dim both know differs,
   * not when their digests are equal (one may know more than the other).
   */
  readonly shapes?: readonly (readonly DimJson[] | null)[];
  /** ONNX models: what a fully known symbolic dim is made of (the graph inputs' dim_params and anonymous dims' names). */
  readonly inputDims?: readonly string[];
}
