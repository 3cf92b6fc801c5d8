// Facts as lines of text (`path(0, 1)`), straight from sorted tuples of term ids: the
// text of each distinct argument is made once and reused (an integer's is made each time:
// cheaper than keeping millions of them), and no fact term is built.
import type { SortedTuples } from './sorted-tuples.js';
import { functorText, termText } from './terms/print.js';
import { Kind, type TermId, type TermStore } from './terms/term-store.js';

/** Calls `line` with each tuple as a fact of `pred`, in order (without the final `.`). */
export function writeFactLines(store: TermStore, pred: string, tuples: SortedTuples, line: (text: string) => void): void {
  const { arity, count, ids } = tuples;
  const name = functorText(pred);
  if (arity === 0) {
    if (count > 0) line(name);
    return;
  }
  const texts = new Map<TermId, string>();
  const text = (id: TermId): string => {
    if (store.kind(id) === Kind.Int) return String(store.intValue(id));
    let t = texts.get(id);
    if (t === undefined) texts.set(id, (t = termText(store, id)));
    return t;
  };
  const open = `${name}(`;
  for (let r = 0; r < count; r++) {
    let s = open + text(ids[r * arity]!);
    for (let c = 1; c < arity; c++) s += ', ' + text(ids[r * arity + c]!);
    line(s + ')');
  }
}
