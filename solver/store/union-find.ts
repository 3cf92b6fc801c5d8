// Persistent union-find over holes. A hole maps either to another hole (merged into
// it) or to a non-hole term (bound). Unmapped holes are roots.
//
// Every version is a snapshot: the links live in a table shared by a lineage of
// versions, each link stamped with the version that made it (the "fat node" technique,
// as the fact tables in fact-meta.ts), so a version reads only links stamped at or
// before it. Linking from the newest version writes into the table in place; linking
// from an older one (a branch) first copies the links it can see. A hole is linked at
// most once along a lineage (only roots are linked), so a find is a few array reads.
import { Kind, type TermId, type TermStore } from '../terms/term-store.js';

class LinkTable {
  /** hole id → the term it is linked to (0: none) */
  target: Int32Array;
  /** hole id → the version that linked it */
  at: Int32Array;
  /** The newest version written. */
  version = 0;

  constructor(capacity = 64) {
    this.target = new Int32Array(capacity);
    this.at = new Int32Array(capacity);
  }

  set(hole: TermId, target: TermId, version: number): void {
    if (hole >= this.target.length) {
      let n = this.target.length;
      while (n <= hole) n *= 2;
      const t = new Int32Array(n);
      t.set(this.target);
      const a = new Int32Array(n);
      a.set(this.at);
      this.target = t;
      this.at = a;
    }
    this.target[hole] = target;
    this.at[hole] = version;
    this.version = version;
  }

  /** A table with only the links of versions up to `version`. */
  upTo(version: number): LinkTable {
    const c = new LinkTable(this.target.length);
    for (let h = 0; h < this.target.length; h++) {
      const v = this.at[h]!;
      if (v !== 0 && v <= version) {
        c.target[h] = this.target[h]!;
        c.at[h] = v;
      }
    }
    c.version = version;
    return c;
  }
}

export class UnionFind {
  /** A new, empty union-find (its own lineage). */
  static get empty(): UnionFind {
    return new UnionFind(new LinkTable(), 0, 0);
  }

  private constructor(
    private readonly table: LinkTable,
    private readonly version: number,
    /** How many holes are linked in this version. */
    readonly size: number,
  ) {}

  /** What a hole is directly linked to in this version (another hole or a term), or undefined for a root. */
  parentOf(hole: TermId): TermId | undefined {
    const t = this.table;
    if (hole >= t.at.length) return undefined;
    const v = t.at[hole]!;
    return v !== 0 && v <= this.version ? t.target[hole]! : undefined;
  }

  /** The representative of a hole: a root hole or the term it is bound to. */
  find(store: TermStore, hole: TermId): TermId {
    const t = this.table;
    const at = t.at;
    const version = this.version;
    let h = hole;
    for (;;) {
      const v = h < at.length ? at[h]! : 0;
      if (v === 0 || v > version) return h;
      const next = t.target[h]!;
      if (store.kind(next) !== Kind.Hole) return next;
      h = next;
    }
  }

  /** Point a root hole at a term (another root hole, or a non-hole term). */
  link(root: TermId, target: TermId): UnionFind {
    const table = this.table.version === this.version ? this.table : this.table.upTo(this.version);
    table.set(root, target, this.version + 1);
    return new UnionFind(table, this.version + 1, this.size + 1);
  }
}

/**
 * The resolved form of a term: every hole replaced by its representative, recursively.
 * Terms without holes are returned as they are (the common case costs one flag read).
 */
export function resolve(store: TermStore, uf: UnionFind, id: TermId): TermId {
  if (store.isGround(id) || uf.size === 0) return id;
  const k = store.kind(id);
  if (k === Kind.Hole) {
    const r = uf.find(store, id);
    return r === id || store.kind(r) === Kind.Hole ? r : resolve(store, uf, r);
  }
  if (k === Kind.Cons) {
    // iterate along the list spine, recurse into heads only
    const heads: TermId[] = [];
    let t = id;
    let changed = false;
    while (store.kind(t) === Kind.Cons && !store.isGround(t)) {
      const h = store.head(t);
      const rh = resolve(store, uf, h);
      if (rh !== h) changed = true;
      heads.push(rh);
      t = store.tail(t);
    }
    const rt = store.kind(t) === Kind.Cons ? t : resolve(store, uf, t);
    if (rt !== t) changed = true;
    if (!changed) return id;
    return store.list(heads, rt);
  }
  if (k === Kind.Compound) {
    const n = store.arity(id);
    let args: TermId[] | null = null;
    for (let i = 0; i < n; i++) {
      const a = store.arg(id, i);
      const r = resolve(store, uf, a);
      if (r !== a) {
        if (args === null) args = store.args(id);
        args[i] = r;
      }
    }
    return args === null ? id : store.compoundSym(store.functorSym(id), args);
  }
  return id;
}

/**
 * Calls `visit` with each hole occurring in the term (ground subterms are skipped),
 * until it returns true; returns whether it did. `pending` is scratch space for the walk
 * (left empty), so a caller walking many terms can lend one array.
 */
export function someHole(store: TermStore, id: TermId, visit: (hole: TermId) => boolean, pending: TermId[] = []): boolean {
  pending.push(id);
  while (pending.length > 0) {
    const t = pending.pop()!;
    if (store.isGround(t)) continue;
    const k = store.kind(t);
    if (k === Kind.Hole) {
      if (visit(t)) {
        pending.length = 0;
        return true;
      }
    } else if (k === Kind.Cons) pending.push(store.head(t), store.tail(t));
    else if (k === Kind.Compound) for (let i = store.arity(t) - 1; i >= 0; i--) pending.push(store.arg(t, i));
  }
  return false;
}

/** Does the term mention the hole? The occurs check: stops at the first occurrence, builds no set. */
export function mentionsHole(store: TermStore, id: TermId, hole: TermId): boolean {
  return someHole(store, id, (h) => h === hole);
}

/** The distinct holes occurring in a term (ids of Hole terms). */
export function holesOf(store: TermStore, id: TermId, out: Set<TermId> = new Set()): Set<TermId> {
  someHole(store, id, (h) => {
    out.add(h);
    return false;
  });
  return out;
}
