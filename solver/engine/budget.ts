// A time and memory budget for work outside the fixpoint loop (parsing, loading): a
// `tick` that callers invoke once per unit of work (a statement, a binding). It throws a
// LimitError once the deadline has passed or the heap is close to its limit, so that
// `--max-time` and the memory stop bound parsing as they bound solving.
import { checkMemory, LimitError } from './limits.js';

/** A tick that checks the clock every 256 calls and the heap every 4096. */
export function budgetTick(deadline: number): () => void {
  let n = 0;
  return () => {
    n++;
    if ((n & 0xff) !== 0) return;
    if (Date.now() > deadline) throw new LimitError('time', 'stopped while reading the input: time limit reached');
    if ((n & 0xfff) === 0) checkMemory('while reading the input');
  };
}
