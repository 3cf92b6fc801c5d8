// The distinct argument tuples of a set of facts, sorted in the standard term order
// (terms/order.ts), as one flat array of term ids: what printing and answers read.
// No string keys and no term is interned: each column's distinct values are ranked once
// (few, even for millions of facts). When every column has at most COUNTING_MAX distinct
// values (the common case: a closure over a few thousand nodes), the rows are ordered
// by a stable counting sort per column, last column first (O(n) per column, no
// comparisons; a 16-bit rank per row and column and two Int32Arrays of row numbers); otherwise a
// tuple becomes one number (its ranks in mixed radix) and the numbers are sorted as a
// Float64Array; when the ranks do not fit in one exact double, rows are sorted by
// comparing ranks. Equal tuples end up side by side and are kept once.
import { compareTerms } from './terms/order.js';
import { Kind, type TermId, type TermStore } from './terms/term-store.js';

export interface SortedTuples {
  readonly arity: number;
  readonly count: number;
  /** Row r's column c is `ids[r * arity + c]`. */
  readonly ids: Int32Array;
}

/** How the rows are ordered: chosen by the sizes (`auto`), or forced (for tests). */
export type SortPath = 'auto' | 'counting' | 'key' | 'rows';

/** Most distinct values of a column for the counting sort (its count table is this long). */
const COUNTING_MAX = 1 << 16;

/** Sorted distinct argument tuples of the first `n` entries of `facts` (compounds of one arity). */
export function sortedTuples(store: TermStore, facts: ArrayLike<TermId>, arity: number, path: SortPath = 'auto', n = facts.length): SortedTuples {
  if (arity === 0) return { arity, count: n > 0 ? 1 : 0, ids: new Int32Array(0) };
  // per column: the distinct values in order (a mark per term id finds them)
  const mark = new Int32Array(store.size);
  const values: Int32Array[] = [];
  let product = 1;
  let widest = 0;
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
    widest = Math.max(widest, distinct.length);
  }
  const chosen = path !== 'auto' ? path : widest <= COUNTING_MAX ? 'counting' : product <= Number.MAX_SAFE_INTEGER ? 'key' : 'rows';
  // (a forced path that cannot hold the sizes falls back: 16-bit ranks, exact doubles)
  if (chosen === 'counting' && widest <= COUNTING_MAX) return byCounting(store, facts, n, arity, values, mark);
  if (chosen !== 'rows' && product <= Number.MAX_SAFE_INTEGER) return byRadixKey(store, facts, n, arity, values, mark);
  return byRankRows(store, facts, n, arity, values);
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

/**
 * LSD counting sort: each column's ranks read once, in the facts' order (the store is
 * read front to back, not at random); the row numbers ordered by the last column's
 * ranks, then (stably) by each column before it, so they end in lexicographic order of
 * ranks; then each row's ids, skipping a row equal to the one before. `rank` is scratch
 * space indexed by term id.
 */
function byCounting(store: TermStore, facts: ArrayLike<TermId>, n: number, arity: number, values: Int32Array[], rank: Int32Array): SortedTuples {
  const ranks: Uint16Array[] = [];
  for (let c = 0; c < arity; c++) {
    const vs = values[c]!;
    for (let k = 0; k < vs.length; k++) rank[vs[k]!] = k;
    const column = new Uint16Array(n);
    for (let i = 0; i < n; i++) column[i] = rank[store.arg(facts[i]!, c)]!;
    ranks.push(column);
  }
  let order = new Int32Array(n);
  let next = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let c = arity - 1; c >= 0; c--) {
    const column = ranks[c]!;
    // starts[k + 1] counts rank k; after the prefix sum, starts[k] is where rank k begins
    const starts = new Int32Array(values[c]!.length + 1);
    for (let i = 0; i < n; i++) starts[column[i]! + 1]!++;
    for (let k = 1; k < starts.length; k++) starts[k]! += starts[k - 1]!;
    for (let j = 0; j < n; j++) {
      const row = order[j]!;
      next[starts[column[row]!]!++] = row;
    }
    const t = order;
    order = next;
    next = t;
  }
  const ids = new Int32Array(n * arity);
  let count = 0;
  let previous = -1;
  for (let j = 0; j < n; j++) {
    const row = order[j]!;
    let same = previous >= 0;
    for (let c = 0; c < arity && same; c++) same = ranks[c]![row] === ranks[c]![previous];
    previous = row;
    if (same) continue;
    for (let c = 0; c < arity; c++) ids[count * arity + c] = values[c]![ranks[c]![row]!]!;
    count++;
  }
  return { arity, count, ids: count === n ? ids : ids.subarray(0, count * arity) };
}

/** Each tuple as one number, its ranks in mixed radix; `rank` is scratch space indexed by term id. */
function byRadixKey(store: TermStore, facts: ArrayLike<TermId>, n: number, arity: number, values: Int32Array[], rank: Int32Array): SortedTuples {
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

function byRankRows(store: TermStore, facts: ArrayLike<TermId>, n: number, arity: number, values: Int32Array[]): SortedTuples {
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
