// Facts as lines of text (`path(0, 1)`), straight from sorted tuples of term ids: the
// text of each distinct argument is made once and reused (an integer's is made each time:
// cheaper than keeping millions of them), and no fact term is built. Rows are sorted, so
// consecutive rows mostly share all but their last argument: that prefix (`path(0, `) is
// made once per run of rows that share it.
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
  const last = arity - 1;
  let prefix = open;
  for (let r = 0; r < count; r++) {
    const row = r * arity;
    let same = r > 0;
    for (let c = 0; c < last && same; c++) same = ids[row + c] === ids[row - arity + c];
    if (!same) {
      prefix = open;
      for (let c = 0; c < last; c++) prefix += `${text(ids[row + c]!)}, `;
    }
    line(`${prefix + text(ids[row + last]!)})`);
  }
}
