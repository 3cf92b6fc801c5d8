// Persistent union-find over holes. A hole maps either to another hole (merged into
// it) or to a non-hole term (bound). Unmapped holes are roots. Every version is an
// Immutable.js map, so each round's bindings are a snapshot.
import { Map as IMap } from 'immutable';
import { Kind, type TermId, type TermStore } from '../terms/term-store.js';

export class UnionFind {
  static readonly empty = new UnionFind(IMap<number, number>());

  private constructor(readonly parent: IMap<TermId, TermId>) {}

  get size(): number {
    return this.parent.size;
  }

  /** The representative of a hole: a root hole or the term it is bound to. */
  find(store: TermStore, hole: TermId): TermId {
    let t = hole;
    for (;;) {
      const next = this.parent.get(t);
      if (next === undefined) return t;
      if (store.kind(next) !== Kind.Hole) return next;
      t = next;
    }
  }

  /** Point a root hole at a term (another root hole, or a non-hole term). */
  link(root: TermId, target: TermId): UnionFind {
    return new UnionFind(this.parent.set(root, target));
  }

  withMutations(fn: (m: IMap<TermId, TermId>) => void): UnionFind {
    return new UnionFind(this.parent.withMutations(fn));
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

/** The distinct holes occurring in a term (ids of Hole terms). */
export function holesOf(store: TermStore, id: TermId, out: Set<TermId> = new Set()): Set<TermId> {
  if (store.isGround(id)) return out;
  const stack = [id];
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (store.isGround(t)) continue;
    const k = store.kind(t);
    if (k === Kind.Hole) out.add(t);
    else if (k === Kind.Cons) stack.push(store.head(t), store.tail(t));
    else if (k === Kind.Compound) for (let i = 0; i < store.arity(t); i++) stack.push(store.arg(t, i));
  }
  return out;
}
