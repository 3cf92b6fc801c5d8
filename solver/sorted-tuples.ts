// The distinct argument tuples of a set of facts, sorted in the standard term order
// (terms/order.ts), as one flat array of term ids: what printing and answers read.
// No string keys and no term is interned: each column's distinct values are ranked once
// (few, even for millions of facts), a tuple becomes one number (its ranks in mixed
// radix), and the numbers are sorted as a Float64Array, where duplicates end up side by
// side. When the ranks do not fit in one exact double, rows are sorted by comparing ranks.
import { compareTerms } from './terms/order.js';
import { Kind, type TermId, type TermStore } from './terms/term-store.js';

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
  // per column: the distinct values in order (a mark per term id finds them)
  const mark = new Int32Array(store.size);
  const values: Int32Array[] = [];
  let product = 1;
  for (let c = 0; c < arity; c++) {
    const distinct: TermId[] = [];
    for (let i = 0; i < n; i++) {
      const v = store.arg(facts[i]!, c);
      if (mark[v] !== c + 1) {
        mark[v] = c + 1;
        distinct.push(v);
      }
    }
    values.push(sortTerms(store, distinct));
    product *= distinct.length;
  }
  if (product > Number.MAX_SAFE_INTEGER || byRows) return byRankRows(store, facts, arity, values);
  return byRadixKey(store, facts, arity, values, mark);
}

/** Most integers one double holds beside an index below 2^INDEX_BITS. */
const INDEX_BITS = 22;
const MAX_PACKED_INT = 2 ** (52 - INDEX_BITS);

/**
 * Distinct terms in the standard order. A column of integers (the common case of big
 * inputs) is ordered without comparing terms: by value in a table when the values are
 * dense (each distinct, so one slot each), else each value and its index packed into
 * one double and sorted as numbers when they fit; anything else through `compareTerms`.
 */
function sortTerms(store: TermStore, distinct: TermId[]): Int32Array {
  const n = distinct.length;
  let ints = n < 2 ** INDEX_BITS;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n && ints; i++) {
    const id = distinct[i]!;
    const v = store.intValue(id);
    ints = store.kind(id) === Kind.Int && Math.abs(v) < MAX_PACKED_INT;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!ints) return Int32Array.from(distinct.sort((a, b) => compareTerms(store, a, b)));
  const out = new Int32Array(n);
  if (n === 0) return out;
  if (max - min < 4 * n + 1024) {
    const slots = new Int32Array(max - min + 1);
    for (let i = 0; i < n; i++) slots[store.intValue(distinct[i]!) - min] = distinct[i]!;
    let k = 0;
    for (let v = 0; v < slots.length; v++) if (slots[v] !== 0) out[k++] = slots[v]!;
    return out;
  }
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = store.intValue(distinct[i]!) * 2 ** INDEX_BITS + i;
  keys.sort();
  for (let k = 0; k < n; k++) {
    const key = keys[k]!;
    const value = Math.floor(key / 2 ** INDEX_BITS);
    out[k] = distinct[key - value * 2 ** INDEX_BITS]!;
  }
  return out;
}

/** Each tuple as one number, its ranks in mixed radix; `rank` is scratch space indexed by term id. */
function byRadixKey(store: TermStore, facts: readonly TermId[], arity: number, values: Int32Array[], rank: Int32Array): SortedTuples {
  const n = facts.length;
  const keys = new Float64Array(n);
  for (let c = 0; c < arity; c++) {
    const vs = values[c]!;
    const size = vs.length;
    for (let k = 0; k < size; k++) rank[vs[k]!] = k;
    for (let i = 0; i < n; i++) keys[i] = keys[i]! * size + rank[store.arg(facts[i]!, c)]!;
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

function byRankRows(store: TermStore, facts: readonly TermId[], arity: number, values: Int32Array[]): SortedTuples {
  const n = facts.length;
  const ranks = values.map((vs) => new Map<TermId, number>(Array.from(vs, (v, k) => [v, k])));
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
