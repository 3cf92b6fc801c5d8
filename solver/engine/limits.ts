// Limits that turn a runaway rule set into a clear error instead of a hang or a crash.

export interface Limits {
  /** Rounds across all strata. */
  readonly maxRounds: number;
  /** Facts in the database (given + derived). */
  readonly maxFacts: number;
  /** Wall-clock time for one solve. */
  readonly maxMillis: number;
  /** Nesting depth of any term built (list tails do not count). */
  readonly maxTermDepth: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxRounds: 100_000,
  maxFacts: 5_000_000,
  maxMillis: 30_000,
  maxTermDepth: 1_000,
};

export type LimitKind = 'rounds' | 'facts' | 'time' | 'depth' | 'memory';

/**
 * The heap may grow to this fraction of V8's limit before solving stops with a clear
 * error instead of the process dying out of memory.
 */
export const HEAP_FRACTION = 0.8;

export class LimitError extends Error {
  constructor(
    readonly kind: LimitKind,
    message: string,
  ) {
    super(message);
    this.name = 'LimitError';
  }
}
