// Terms interned to small integer ids (hash-consing). Two terms are structurally
// equal exactly when their ids are equal, so joins compare ints, and a fact is just
// the id of the compound `pred(args...)`.
//
// The store is append-only: an id never changes meaning, so it can be shared by every
// snapshot of the persistent database and by every strategy that starts from one.
import type { Dim } from './dims.js';
import { dimKey } from './dims.js';

// biome-ignore lint/suspicious/noConstEnum: inlined as numbers by tsc and esbuild; never crosses a package boundary
export const enum Kind {
  Int = 1,
  Float = 2,
  Atom = 3,
  Str = 4,
  Hole = 5,
  Compound = 6,
  Cons = 7, // a list cell [Head | Tail]; the empty list is the atom `[]`
  Dim = 8, // a symbolic dimension that is neither an integer nor a single size variable
}

export type TermId = number;

/** Raised when a term would exceed the depth limit (list tails do not add depth). */
export class TermDepthError extends Error {}

const EMPTY = 0;

/**
 * A map that clones in O(1): entries live in a shared, frozen base plus this copy's own
 * additions. `fork()` folds the own additions into a new base (once, when there are any)
 * and gives the fork the same base, so a store cloned many times (the relation library's,
 * once per inference) is not copied each time.
 */
/** Integers below this are interned through a table rather than a map. */
const SMALL_INTS = 1 << 12;

class LayeredMap<K, V> {
  constructor(
    private base: ReadonlyMap<K, V> = new Map(),
    private own: Map<K, V> = new Map(),
  ) {}

  get(k: K): V | undefined {
    const v = this.own.get(k);
    return v !== undefined ? v : this.base.get(k);
  }

  set(k: K, v: V): void {
    this.own.set(k, v);
  }

  /** Every entry, as one map (a fork's base: not to be modified). */
  entries(): ReadonlyMap<K, V> {
    return this.base;
  }

  fork(): LayeredMap<K, V> {
    if (this.own.size > 0) {
      const merged = new Map(this.base);
      for (const [k, v] of this.own) merged.set(k, v);
      this.base = merged;
      this.own = new Map();
    }
    return new LayeredMap(this.base);
  }
}

/** A term store as plain data (TermStore.snapshot). */
export interface TermStoreSnapshot {
  readonly fields: Readonly<Record<string, unknown>>;
  /** The fields that are layered maps (stored as plain maps). */
  readonly layered: readonly string[];
}

/**
 * A term's cell: CELL ints side by side, so that what a lookup or a join reads of one
 * term is one place in memory. [header, symbol, a, b]: the header holds the kind, whether
 * the term is ground, its arity when it is at most INLINE (else POOLED) and its depth;
 * the symbol is a compound's functor (0 for a list cell). A term of at most INLINE
 * arguments keeps them in a and b; a larger one keeps in a where its arguments start in
 * the pool, and in b their number.
 */
const CELL = 4;
const SYM = 1;
const A = 2;
const B = 3;
const INLINE = 2;
const POOLED = 3;
const KIND_MASK = 0b1111;
const GROUND_BIT = 1 << 4;
const ARITY_SHIFT = 5;
const ARITY_MASK = 0b11;
const DEPTH_SHIFT = 7;
/** The deepest term a header can record. */
const MAX_TERM_DEPTH = 2 ** (31 - DEPTH_SHIFT) - 1;

export class TermStore {
  private cells = new Int32Array(1024 * CELL);
  private data = new Float64Array(1024); // Int/Float value, Hole number, Atom/Str symbol
  private argPool = new Int32Array(4096);
  private argTop = 0;
  private count = 1; // id 0 is reserved as "no term"

  private readonly symbols: string[] = [];
  private readonly symbolIds = new LayeredMap<string, number>();
  private readonly atomIds = new LayeredMap<string, TermId>();
  private readonly strIds = new LayeredMap<string, TermId>();
  private readonly intIds = new LayeredMap<number, TermId>();
  private smallInts = new Int32Array(SMALL_INTS);
  private readonly floatIds = new LayeredMap<number, TermId>();
  private readonly holeIds = new LayeredMap<number, TermId>();
  private readonly dimIds = new LayeredMap<string, TermId>();
  private readonly dims = new LayeredMap<TermId, Dim>();
  // open addressing table for compounds and cons cells: per slot the id (0 = empty) and
  // its hash side by side, so a probe reads one place before it reads the term itself
  private table = new Int32Array(2 << 12);
  private tableUsed = 0;
  private nextHole = 1;

  maxDepth = 100_000;
  readonly nil: TermId;

  constructor() {
    this.nil = this.atom('[]');
  }

  get size(): number {
    return this.count;
  }

  /**
   * An independent copy: the same ids mean the same terms, and what either side interns
   * next is invisible to the other. Used to give every inference its own store that
   * starts from a compiled relation library's terms.
   */
  clone(): TermStore {
    const c = Object.create(TermStore.prototype) as TermStore;
    const self = this as unknown as Record<string, unknown>;
    const copy = c as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(self)) {
      if (v instanceof LayeredMap) copy[k] = v.fork();
      else if (v instanceof Map) copy[k] = new Map(v);
      else if (Array.isArray(v)) copy[k] = v.slice();
      else if (ArrayBuffer.isView(v)) copy[k] = (v as Uint8Array).slice();
      else copy[k] = v;
    }
    return c;
  }

  /**
   * The store's state as plain data (typed arrays, arrays, maps, numbers), which
   * `v8.serialize` can write and `TermStore.restore` turns back into an equal store.
   * Used to cache a compiled relation library on disk.
   */
  snapshot(): TermStoreSnapshot {
    const fields: Record<string, unknown> = {};
    const layered: string[] = [];
    for (const [k, v] of Object.entries(this as unknown as Record<string, unknown>)) {
      if (v instanceof LayeredMap) {
        layered.push(k);
        fields[k] = v.fork().entries();
      } else fields[k] = v;
    }
    return { fields, layered };
  }

  static restore(s: TermStoreSnapshot): TermStore {
    const c = Object.create(TermStore.prototype) as TermStore;
    const copy = c as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(s.fields)) copy[k] = s.layered.includes(k) ? new LayeredMap(v as Map<unknown, unknown>) : v;
    return c;
  }

  // ---- constructors -------------------------------------------------------

  int(value: number): TermId {
    // small non-negative integers (sizes, axes, attributes) through a plain table
    const small = value >= 0 && value < SMALL_INTS && Number.isInteger(value);
    if (small) {
      const id = this.smallInts[value]!;
      if (id !== 0) return id;
    }
    const found = small ? undefined : this.intIds.get(value);
    if (found !== undefined) return found;
    const id = this.alloc(Kind.Int, 1, 0);
    this.data[id] = value;
    if (small) this.smallInts[value] = id;
    else this.intIds.set(value, id);
    return id;
  }

  float(value: number): TermId {
    const found = this.floatIds.get(value);
    if (found !== undefined) return found;
    const id = this.alloc(Kind.Float, 1, 0);
    this.data[id] = value;
    this.floatIds.set(value, id);
    return id;
  }

  atom(name: string): TermId {
    const found = this.atomIds.get(name);
    if (found !== undefined) return found;
    const id = this.alloc(Kind.Atom, 1, 0);
    this.data[id] = this.symbol(name);
    this.atomIds.set(name, id);
    return id;
  }

  str(value: string): TermId {
    const found = this.strIds.get(value);
    if (found !== undefined) return found;
    const id = this.alloc(Kind.Str, 1, 0);
    this.data[id] = this.symbol(value);
    this.strIds.set(value, id);
    return id;
  }

  /** The hole numbered `n` (`?n`). */
  hole(n: number): TermId {
    const found = this.holeIds.get(n);
    if (found !== undefined) return found;
    const id = this.alloc(Kind.Hole, 0, 0);
    this.data[id] = n;
    this.holeIds.set(n, id);
    if (n >= this.nextHole) this.nextHole = n + 1;
    return id;
  }

  /** A hole never seen before. */
  freshHole(): TermId {
    return this.hole(this.nextHole);
  }

  /** A symbolic dim that the caller has already checked is not an integer or a single variable. */
  dim(d: Dim): TermId {
    const key = dimKey(d);
    const found = this.dimIds.get(key);
    if (found !== undefined) return found;
    const id = this.alloc(Kind.Dim, 1, 0);
    this.dims.set(id, d);
    this.dimIds.set(key, id);
    return id;
  }

  compound(functor: string, args: readonly TermId[]): TermId {
    return this.internStructure(Kind.Compound, this.symbol(functor), args, true);
  }

  /** Compound by functor symbol id (hot path: no string lookup). */
  compoundSym(functorSym: number, args: readonly TermId[]): TermId {
    return this.internStructure(Kind.Compound, functorSym, args, true);
  }

  /** The id of `functor(args)` if it was ever built, else 0; never allocates. */
  findCompoundSym(functorSym: number, args: readonly TermId[]): TermId {
    return this.internStructure(Kind.Compound, functorSym, args, false);
  }

  cons(head: TermId, tail: TermId): TermId {
    return this.internStructure(Kind.Cons, 0, [head, tail], true);
  }

  list(items: readonly TermId[], tail: TermId = this.nil): TermId {
    let t = tail;
    for (let i = items.length - 1; i >= 0; i--) t = this.cons(items[i]!, t);
    return t;
  }

  symbol(name: string): number {
    let s = this.symbolIds.get(name);
    if (s === undefined) {
      s = this.symbols.length;
      this.symbols.push(name);
      this.symbolIds.set(name, s);
    }
    return s;
  }

  symbolName(sym: number): string {
    return this.symbols[sym]!;
  }

  // ---- accessors ----------------------------------------------------------

  kind(id: TermId): Kind {
    return (this.cells[id * CELL]! & KIND_MASK) as Kind;
  }
  isGround(id: TermId): boolean {
    return (this.cells[id * CELL]! & GROUND_BIT) !== 0;
  }
  depth(id: TermId): number {
    return this.cells[id * CELL]! >>> DEPTH_SHIFT;
  }
  intValue(id: TermId): number {
    return this.data[id]!;
  }
  floatValue(id: TermId): number {
    return this.data[id]!;
  }
  holeNumber(id: TermId): number {
    return this.data[id]!;
  }
  /** Name of an atom, or text of a string. */
  text(id: TermId): string {
    return this.symbols[this.data[id]!]!;
  }
  dimOf(id: TermId): Dim {
    return this.dims.get(id)!;
  }
  functorSym(id: TermId): number {
    return this.cells[id * CELL + SYM]!;
  }
  functor(id: TermId): string {
    return this.symbols[this.cells[id * CELL + SYM]!]!;
  }
  arity(id: TermId): number {
    const c = id * CELL;
    const small = (this.cells[c]! >>> ARITY_SHIFT) & ARITY_MASK;
    return small === POOLED ? this.cells[c + B]! : small;
  }
  arg(id: TermId, i: number): TermId {
    const c = id * CELL;
    const cells = this.cells;
    return ((cells[c]! >>> ARITY_SHIFT) & ARITY_MASK) === POOLED ? this.argPool[cells[c + A]! + i]! : cells[c + A + i]!;
  }
  /**
   * The arguments of each of the first `n` of `ids`, row after row, into `out` (`n` rows
   * of `arity`), when each has `arity` arguments; false, with `out` incomplete, when one has not.
   */
  argRows(ids: ArrayLike<TermId>, n: number, arity: number, out: Int32Array): boolean {
    const cells = this.cells;
    const pool = this.argPool;
    for (let k = 0, at = 0; k < n; k++) {
      const c = ids[k]! * CELL;
      const small = (cells[c]! >>> ARITY_SHIFT) & ARITY_MASK;
      if (small === POOLED) {
        if (cells[c + B] !== arity) return false;
        const start = cells[c + A]!;
        for (let i = 0; i < arity; i++) out[at++] = pool[start + i]!;
      } else {
        if (small !== arity) return false;
        for (let i = 0; i < arity; i++) out[at++] = cells[c + A + i]!;
      }
    }
    return true;
  }
  args(id: TermId): TermId[] {
    const c = id * CELL;
    const cells = this.cells;
    const small = (cells[c]! >>> ARITY_SHIFT) & ARITY_MASK;
    if (small === 0) return [];
    if (small === 1) return [cells[c + A]!];
    if (small === INLINE) return [cells[c + A]!, cells[c + B]!];
    const start = cells[c + A]!;
    return Array.from(this.argPool.subarray(start, start + cells[c + B]!));
  }
  head(id: TermId): TermId {
    return this.cells[id * CELL + A]!;
  }
  tail(id: TermId): TermId {
    return this.cells[id * CELL + B]!;
  }
  isNil(id: TermId): boolean {
    return id === this.nil;
  }

  /** The items of a proper list, or null when the list ends in a hole or a non-list. */
  listItems(id: TermId): TermId[] | null {
    const out: TermId[] = [];
    let t = id;
    while ((this.cells[t * CELL]! & KIND_MASK) === Kind.Cons) {
      out.push(this.head(t));
      t = this.tail(t);
    }
    return t === this.nil ? out : null;
  }

  // ---- interning ----------------------------------------------------------

  private alloc(kind: Kind, ground: number, depth: number): TermId {
    if (this.count >= this.data.length) this.grow();
    const id = this.count++;
    this.cells[id * CELL] = kind | (ground === 1 ? GROUND_BIT : 0) | (depth << DEPTH_SHIFT); // arity 0
    return id;
  }

  private grow(): void {
    const n = this.data.length * 2;
    this.cells = growI32(this.cells, n * CELL);
    const d = new Float64Array(n);
    d.set(this.data);
    this.data = d;
  }

  private internStructure(kind: Kind, sym: number, args: readonly TermId[], insert: boolean): TermId {
    const n = args.length;
    let h = (kind * 0x9e3779b1) ^ sym;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ args[i]!, 0x85ebca6b) ^ (h >>> 13);
    h ^= h >>> 16;
    const table = this.table;
    const mask = (table.length >> 1) - 1;
    let slot = h & mask;
    const cells = this.cells;
    const inline = n <= INLINE;
    for (;;) {
      const id = table[slot << 1]!;
      if (id === EMPTY) break;
      const c = id * CELL;
      if (table[(slot << 1) + 1] === h && cells[c + SYM] === sym && (cells[c]! & KIND_MASK) === kind) {
        const small = (cells[c]! >>> ARITY_SHIFT) & ARITY_MASK;
        if (inline) {
          if (small === n && (n < 1 || cells[c + A] === args[0]) && (n < 2 || cells[c + B] === args[1])) return id;
        } else if (small === POOLED && cells[c + B] === n) {
          const start = cells[c + A]!;
          let same = true;
          for (let i = 0; i < n; i++) {
            if (this.argPool[start + i] !== args[i]) {
              same = false;
              break;
            }
          }
          if (same) return id;
        }
      }
      slot = (slot + 1) & mask;
    }
    if (!insert) return EMPTY;
    let ground = 1;
    let depth = 0;
    for (let i = 0; i < n; i++) {
      const header = cells[args[i]! * CELL]!;
      if ((header & GROUND_BIT) === 0) ground = 0;
      // list tails do not add depth: a long flat list is shallow
      const d = kind === Kind.Cons && i === 1 ? header >>> DEPTH_SHIFT : (header >>> DEPTH_SHIFT) + 1;
      if (d > depth) depth = d;
    }
    if (depth > this.maxDepth || depth > MAX_TERM_DEPTH) throw new TermDepthError(`term nested deeper than ${Math.min(this.maxDepth, MAX_TERM_DEPTH)} levels`);
    const id = this.alloc(kind, ground, depth);
    const c = id * CELL;
    const at = this.cells; // alloc may have grown the cells
    at[c + SYM] = sym;
    if (inline) {
      at[c] = at[c]! | (n << ARITY_SHIFT);
      if (n > 0) at[c + A] = args[0]!;
      if (n > 1) at[c + B] = args[1]!;
    } else {
      at[c] = at[c]! | (POOLED << ARITY_SHIFT);
      if (this.argTop + n > this.argPool.length) this.argPool = growI32(this.argPool, Math.max(this.argPool.length * 2, this.argTop + n));
      at[c + A] = this.argTop;
      at[c + B] = n;
      for (let i = 0; i < n; i++) this.argPool[this.argTop++] = args[i]!;
    }
    table[slot << 1] = id;
    table[(slot << 1) + 1] = h;
    if (++this.tableUsed * 4 > this.table.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const old = this.table;
    const table = new Int32Array(old.length * 2);
    const mask = (table.length >> 1) - 1;
    for (let i = 0; i < old.length; i += 2) {
      const id = old[i]!;
      if (id === EMPTY) continue;
      let slot = old[i + 1]! & mask;
      while (table[slot << 1] !== EMPTY) slot = (slot + 1) & mask;
      table[slot << 1] = id;
      table[(slot << 1) + 1] = old[i + 1]!;
    }
    this.table = table;
  }
}

function growI32(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}
