// The distinct argument tuples of a set of facts, sorted in the standard term order
// (terms/order.ts), as one flat array of term ids: what printing and answers read.
// No string keys and no term is interned. Every argument is read from the store once,
// into rows of ids; the distinct values of all columns together are ranked once (few,
// even for millions of facts: a closure over a few thousand nodes has a few thousand),
// and a tuple becomes one number made of its columns' ranks, a field of bits per column.
// When the possible numbers are few beside the rows (a closure: a few thousand values,
// keys of 20-odd bits), they are marked in a bitmap and read back in order; when they fit
// in 31 bits, ordered by a radix sort (two counting passes, no comparisons); when they
// fit in one exact double, by sorting a Float64Array;
// otherwise rows of ranks are sorted by comparing them. Equal tuples end up side by side
// and are kept once.
import { compareTerms } from './terms/order.js';
import { Kind, type TermId, type TermStore } from './terms/term-store.js';

export interface SortedTuples {
  readonly arity: number;
  readonly count: number;
  /** Row r's column c is `ids[r * arity + c]`. */
  readonly ids: Int32Array;
}

/** How the rows are ordered: chosen by the sizes (`auto`), or forced (for tests). */
export type SortPath = 'auto' | 'bitmap' | 'radix' | 'key' | 'rows';

/** Sorted distinct argument tuples of the first `n` entries of `facts` (compounds of one arity). */
export function sortedTuples(store: TermStore, facts: ArrayLike<TermId>, arity: number, path: SortPath = 'auto', n = facts.length): SortedTuples {
  if (arity === 0) return { arity, count: n > 0 ? 1 : 0, ids: new Int32Array(0) };
  const cells = n * arity;
  const rows = new Int32Array(cells);
  if (!store.argRows(facts, n, arity, rows)) throw new Error(`facts of different arities given as facts of arity ${arity}`);
  // the distinct values of every column, in order (a mark per term id finds them); then
  // the same array gives each its rank
  const rank = new Int32Array(store.size);
  const distinct: TermId[] = [];
  for (let k = 0; k < cells; k++) {
    const v = rows[k]!;
    if (rank[v] === 0) {
      rank[v] = 1;
      distinct.push(v);
    }
  }
  const values = sortTerms(store, distinct);
  for (let k = 0; k < values.length; k++) rank[values[k]!] = k;
  const width = bitsFor(values.length);
  const bits = width * arity;
  const product = values.length ** arity;
  switch (pathFor(path, n, bits, product)) {
    case 'bitmap':
      return byBitmap(rows, n, arity, values, rank, width);
    case 'radix':
      return byRadix(rows, n, arity, values, rank, width);
    case 'key':
      return byDoubleKey(rows, n, arity, values, rank);
    case 'rows':
      return byRankRows(rows, n, arity, values, rank);
  }
}

/** The paths from the fastest to the most general; each can hold fewer sizes than the next. */
const PATHS = ['bitmap', 'radix', 'key', 'rows'] as const;

/**
 * The path for `n` rows whose keys need `bits` bits as bit fields or are `product` many
 * in mixed radix: a forced path when it can hold them, else the first after it that can;
 * by the sizes (`auto`), a bitmap when it is dense enough, the radix sort for big inputs,
 * else doubles, else rows.
 */
function pathFor(path: SortPath, n: number, bits: number, product: number): (typeof PATHS)[number] {
  const holds = { bitmap: bits <= BITMAP_BITS, radix: bits <= RADIX_BITS, key: product <= Number.MAX_SAFE_INTEGER, rows: true };
  if (path !== 'auto') return PATHS.slice(PATHS.indexOf(path)).find((p) => holds[p])!;
  if (holds.bitmap && 2 ** bits <= BITMAP_SPARSEST * n) return 'bitmap';
  if (holds.radix && n >= RADIX_MIN_ROWS) return 'radix';
  return holds.key ? 'key' : 'rows';
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

/** Most bits of a key whose tuples are marked in a bitmap (2^26 bits: 8 MB). */
const BITMAP_BITS = 26;
/** A bitmap is used when it has at most this many bits per row (not mostly empty words to scan). */
const BITMAP_SPARSEST = 64;

/**
 * Each row's ranks in fields of `width` bits of one key (column 0 in the highest), marked
 * in a bitmap of every possible key; the marked keys, read in order, are the tuples
 * sorted, each once. Two passes (mark, read), no sorting and no second array of keys:
 * for a closure over a few thousand values (keys of 20-odd bits) the bitmap is smaller
 * than the rows.
 */
function byBitmap(rows: Int32Array, n: number, arity: number, values: Int32Array, rank: Int32Array, width: number): SortedTuples {
  const bits = width * arity;
  const marks = new Int32Array(Math.ceil(2 ** bits / 32));
  let count = 0;
  for (let i = 0, k = 0; i < n; i++) {
    let key = 0;
    for (let c = 0; c < arity; c++) key = (key << width) | rank[rows[k++]!]!;
    const word = key >>> 5;
    const bit = 1 << (key & 31);
    if ((marks[word]! & bit) === 0) {
      marks[word]! |= bit;
      count++;
    }
  }
  const ids = new Int32Array(count * arity);
  const mask = 2 ** width - 1;
  for (let w = 0, at = 0; w < marks.length; w++) {
    let word = marks[w]!;
    while (word !== 0) {
      // the lowest marked bit, then cleared
      const low = word & -word;
      let key = w * 32 + (31 - Math.clz32(low));
      word ^= low;
      at += arity;
      for (let c = arity - 1; c >= 0; c--) {
        ids[at - arity + c] = values[key & mask]!;
        key >>>= width;
      }
    }
  }
  return { arity, count, ids };
}

/** Most bits of a radix key (a non-negative 32-bit integer): the ranks of each column in a field of their own. */
const RADIX_BITS = 31;
/**
 * Fewer rows than this take the doubles' path (the built-in sort), unless the radix path
 * is forced (tests; see pathFor). Not only for the cost of the counting passes:
 * the radix sort's first call with few rows runs it in V8's interpreter, and the code V8
 * then optimizes for a big call was seen to be thrown away in the middle of it (printing
 * chain-1000's 999 edges and then its 500k paths: 125 ms to sort them instead of 80).
 */
const RADIX_MIN_ROWS = 16384;

/** Bits that hold the ranks 0 to `size` - 1. */
function bitsFor(size: number): number {
  return size <= 1 ? 0 : Math.ceil(Math.log2(size));
}

/**
 * Each row's ranks in fields of `width` bits of one non-negative 32-bit key (column 0 in
 * the highest), sorted by an LSD radix sort: a stable counting pass over the low half of
 * the bits, then over the high half. The keys are moved themselves, front to back, so it
 * follows no row numbers and no pointers.
 */
function byRadix(rows: Int32Array, n: number, arity: number, values: Int32Array, rank: Int32Array, width: number): SortedTuples {
  const bits = width * arity;
  const lowBits = Math.ceil(bits / 2);
  const lowMask = 2 ** lowBits - 1;
  const highMask = 2 ** (bits - lowBits) - 1;
  // the keys, and both digits counted in the same pass: starts[d + 1] counts digit d, and
  // after the prefix sums starts[d] is where digit d begins
  const keys = new Int32Array(n);
  const lowStarts = new Int32Array(lowMask + 2);
  const highStarts = new Int32Array(highMask + 2);
  for (let i = 0, k = 0; i < n; i++) {
    let key = 0;
    for (let c = 0; c < arity; c++) key = (key << width) | rank[rows[k++]!]!;
    keys[i] = key;
    lowStarts[(key & lowMask) + 1]!++;
    highStarts[(key >>> lowBits) + 1]!++;
  }
  for (let d = 1; d < lowStarts.length; d++) lowStarts[d]! += lowStarts[d - 1]!;
  for (let d = 1; d < highStarts.length; d++) highStarts[d]! += highStarts[d - 1]!;
  const spare = new Int32Array(n);
  scatter(keys, spare, n, 0, lowMask, lowStarts);
  scatter(spare, keys, n, lowBits, highMask, highStarts);
  // each distinct key back as its term ids
  const ids = new Int32Array(n * arity);
  const mask = 2 ** width - 1;
  let count = 0;
  for (let i = 0; i < n; i++) {
    let key = keys[i]!;
    if (i > 0 && key === keys[i - 1]) continue;
    const row = count * arity;
    for (let c = arity - 1; c >= 0; c--) {
      ids[row + c] = values[key & mask]!;
      key >>>= width;
    }
    count++;
  }
  return { arity, count, ids: count === n ? ids : ids.subarray(0, count * arity) };
}

/** Stably moves `from` into `to` by the digit `(key >>> shift) & mask`, digit d going from `starts[d]` on. */
function scatter(from: Int32Array, to: Int32Array, n: number, shift: number, mask: number, starts: Int32Array): void {
  for (let i = 0; i < n; i++) {
    const key = from[i]!;
    to[starts[(key >>> shift) & mask]!++] = key;
  }
}

/** Each row's ranks as one double in mixed radix (column 0 most significant), sorted by the built-in typed-array sort. */
function byDoubleKey(rows: Int32Array, n: number, arity: number, values: Int32Array, rank: Int32Array): SortedTuples {
  const size = values.length;
  const keys = new Float64Array(n);
  for (let i = 0, k = 0; i < n; i++) {
    let key = 0;
    for (let c = 0; c < arity; c++) key = key * size + rank[rows[k++]!]!;
    keys[i] = key;
  }
  keys.sort();
  const ids = new Int32Array(n * arity);
  let count = 0;
  for (let i = 0; i < n; i++) {
    let key = keys[i]!;
    if (i > 0 && key === keys[i - 1]) continue;
    const row = count * arity;
    for (let c = arity - 1; c >= 0; c--) {
      const q = Math.floor(key / size);
      ids[row + c] = values[key - q * size]!;
      key = q;
    }
    count++;
  }
  return { arity, count, ids: ids.subarray(0, count * arity) };
}

/** Rows of ranks compared column by column: tuples too many for one exact double. */
function byRankRows(rows: Int32Array, n: number, arity: number, values: Int32Array, rank: Int32Array): SortedTuples {
  const ranks = new Int32Array(n * arity);
  for (let k = 0; k < n * arity; k++) ranks[k] = rank[rows[k]!]!;
  const order = Array.from({ length: n }, (_, i) => i);
  const cmp = (a: number, b: number): number => {
    for (let c = 0; c < arity; c++) {
      const d = ranks[a * arity + c]! - ranks[b * arity + c]!;
      if (d !== 0) return d;
    }
    return 0;
  };
  order.sort(cmp);
  const ids = new Int32Array(n * arity);
  let count = 0;
  for (let k = 0; k < n; k++) {
    if (k > 0 && cmp(order[k]!, order[k - 1]!) === 0) continue;
    for (let c = 0; c < arity; c++) ids[count * arity + c] = values[ranks[order[k]! * arity + c]!]!;
    count++;
  }
  return { arity, count, ids: ids.subarray(0, count * arity) };
}
