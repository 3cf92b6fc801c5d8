// Limits that turn a runaway rule set into a clear error instead of a hang or a crash.
import { getHeapStatistics } from 'node:v8';

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

/** V8's heap limit of this process, in MB. */
export const HEAP_LIMIT_MB = Math.floor(getHeapStatistics().heap_size_limit / 2 ** 20);

let memoryBudgetBytes = HEAP_LIMIT_MB * 2 ** 20 * HEAP_FRACTION;

/** The memory budget (`--max-memory`, in MB): the heap may grow to it, at most to HEAP_FRACTION of V8's limit. */
export function setMemoryBudget(mb: number): void {
  memoryBudgetBytes = Math.min(mb, HEAP_LIMIT_MB * HEAP_FRACTION) * 2 ** 20;
}

/** The memory budget in MB. */
export function memoryBudgetMb(): number {
  return Math.round(memoryBudgetBytes / 2 ** 20);
}

/** Throws a memory LimitError when the heap in use exceeds the budget; `while` says what was being done. */
export function checkMemory(while_: string): void {
  // V8's count: process.memoryUsage() gives the same heapUsed but also reads the resident
  // set size; typing ResNet-50 in a loop, its calls took 50 us (median) and up to 5 ms,
  // these 6 us (median)
  if (getHeapStatistics().used_heap_size > memoryBudgetBytes)
    throw new LimitError('memory', `stopped ${while_}: the memory budget of ${memoryBudgetMb()} MB is used up (--max-memory raises it)`);
}

export class LimitError extends Error {
  constructor(
    readonly kind: LimitKind,
    message: string,
  ) {
    super(message);
    this.name = 'LimitError';
  }
}
