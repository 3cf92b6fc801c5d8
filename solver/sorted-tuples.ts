// The distinct argument tuples of a set of facts, sorted in the standard term order
// (terms/order.ts), as one flat array of term ids: what printing and answers read.
// No string keys and no term is interned: each column's distinct values are ranked once
// (few, even for millions of facts), a tuple becomes one number (its ranks in mixed
// radix), and the numbers are sorted as a Float64Array, where duplicates end up side by
// side. When the ranks do not fit in one exact double, rows are sorted by comparing ranks.
import { compareTerms } from './terms/order.js';
import type { TermId, TermStore } from './terms/term-store.js';

export interface SortedTuples {
  readonly arity: number;
  readonly count: number;
  /** Row r's column c is `ids[r * arity + c]`. */
  readonly ids: Int32Array;
}

/** Sorted distinct argument tuples of `facts` (compounds of one arity); `byRows` forces the row comparison (for tests). */
export function sortedTuples(store: TermStore, facts: readonly TermId[], arity: number, byRows = false): SortedTuples {
  const n = facts.length;
  if (arity === 0) return { arity, count: n > 0 ? 1 : 0, ids: new Int32Array(0) };
  // per column: the distinct values in order, and each value's rank
  const values: Int32Array[] = [];
  const ranks: Map<TermId, number>[] = [];
  let radixFits = true;
  let product = 1;
  for (let c = 0; c < arity; c++) {
    const distinct = new Set<TermId>();
    for (let i = 0; i < n; i++) distinct.add(store.arg(facts[i]!, c));
    const sorted = [...distinct].sort((a, b) => compareTerms(store, a, b));
    const rank = new Map<TermId, number>();
    for (let k = 0; k < sorted.length; k++) rank.set(sorted[k]!, k);
    values.push(Int32Array.from(sorted));
    ranks.push(rank);
    product *= sorted.length;
    if (product > Number.MAX_SAFE_INTEGER) radixFits = false;
  }
  return radixFits && !byRows ? byRadixKey(store, facts, arity, values, ranks) : byRankRows(store, facts, arity, values, ranks);
}

function byRadixKey(store: TermStore, facts: readonly TermId[], arity: number, values: Int32Array[], ranks: Map<TermId, number>[]): SortedTuples {
  const n = facts.length;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const f = facts[i]!;
    let key = 0;
    for (let c = 0; c < arity; c++) key = key * values[c]!.length + ranks[c]!.get(store.arg(f, c))!;
    keys[i] = key;
  }
  keys.sort();
  let count = 0;
  for (let i = 0; i < n; i++) if (i === 0 || keys[i] !== keys[i - 1]) keys[count++] = keys[i]!;
  const ids = new Int32Array(count * arity);
  for (let r = 0; r < count; r++) {
    let key = keys[r]!;
    for (let c = arity - 1; c >= 0; c--) {
      const size = values[c]!.length;
      const q = Math.floor(key / size);
      ids[r * arity + c] = values[c]![key - q * size]!;
      key = q;
    }
  }
  return { arity, count, ids };
}

function byRankRows(store: TermStore, facts: readonly TermId[], arity: number, values: Int32Array[], ranks: Map<TermId, number>[]): SortedTuples {
  const n = facts.length;
  const rows = new Int32Array(n * arity);
  for (let i = 0; i < n; i++) for (let c = 0; c < arity; c++) rows[i * arity + c] = ranks[c]!.get(store.arg(facts[i]!, c))!;
  const order = Array.from({ length: n }, (_, i) => i);
  const cmp = (a: number, b: number): number => {
    for (let c = 0; c < arity; c++) {
      const d = rows[a * arity + c]! - rows[b * arity + c]!;
      if (d !== 0) return d;
    }
    return 0;
  };
  order.sort(cmp);
  const ids = new Int32Array(n * arity);
  let count = 0;
  for (let k = 0; k < n; k++) {
    if (k > 0 && cmp(order[k]!, order[k - 1]!) === 0) continue;
    for (let c = 0; c < arity; c++) ids[count * arity + c] = values[c]![rows[order[k]! * arity + c]!]!;
    count++;
  }
  return { arity, count, ids: ids.subarray(0, count * arity) };
}
