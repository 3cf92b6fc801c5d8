// When the join checks its limits: a clock of ticks (a fact read or offered), and the
// time and heap checks it makes now and then, stopping a long join past its deadline or
// near the memory budget with a LimitError.
import { checkMemory, LimitError } from './limits.js';

/** Throws a memory LimitError when the heap in use exceeds the memory budget. */
export function checkHeap(): void {
  checkMemory('while solving');
}

/** Ticks (facts read or offered) between two checks of the time limit, once warm. */
const CHECK_PERIOD = 1 << 14;
/** The heap is checked at every 64th time check (reading V8's heap statistics is not free). */
const HEAP_CHECK_MASK = 63;
/**
 * The first checks come sooner (every WARM_PERIOD ticks, the first WARM_HEAP_CHECKS of
 * them checking the heap too): code that first runs after V8 has optimized the join
 * (engine/join.ts: `scan` and `emit`, with `tick` inlined into them) deoptimizes it, and when V8 has by
 * then compiled an on-stack replacement of `scan`'s loop it can keep running that loop's
 * code and not optimize `scan` again for the rest of the solve (chain-1000 closure: 1.2 s
 * instead of 0.7 s in about half the processes). So every branch of the join's hot path
 * runs early, with its type feedback recorded: these checks, and the search for a
 * window's first fact (`scan`).
 */
const WARM_CHECKS = 16;
const WARM_PERIOD = 256;
const WARM_HEAP_CHECKS = 4;

/** When the join checks the limits: counts ticks, and knows the tick of the next check. */
export interface LimitClock {
  ticks: number;
  nextCheck: number;
  checks: number;
}

export function newLimitClock(): LimitClock {
  return { ticks: 0, nextCheck: WARM_PERIOD, checks: 0 };
}

/** The check a tick makes now and then: past the deadline or near the heap limit, a LimitError. */
export function checkLimits(clock: LimitClock, deadline: number): void {
  if (Date.now() > deadline) throw new LimitError('time', 'stopped: time limit reached');
  const checks = ++clock.checks;
  if (checks <= WARM_HEAP_CHECKS || (checks & HEAP_CHECK_MASK) === 0) checkHeap();
  clock.nextCheck = clock.ticks + (checks < WARM_CHECKS ? WARM_PERIOD : CHECK_PERIOD);
}
