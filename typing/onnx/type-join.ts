// The join of two ONNX value types, for subgraphs whose outputs can come from either of
// two places: an If's branches, a Loop's or Scan's carried value before and after one
// more iteration. The join keeps what both types agree on: an equal dtype, an equal
// rank, each equal dim, equal known values; a dim where they differ becomes a fresh
// named size variable of the node (`If_3_out0_1`: "some size, not known here"), a
// differing dtype, rank or value becomes unknown (a hole). Unknown joined with anything
// stays unknown. The two types may live in different term stores (a scratch solver's
// store and the graph's); the result is built in the first one.
import { dimToString } from '../../solver/terms/dims.js';
import { Kind, type TermId, type TermStore } from '../../solver/terms/term-store.js';

/** A term of a store, resolved (no bound holes left in it). */
export interface StoredTerm {
  readonly store: TermStore;
  readonly term: TermId;
}

export interface JoinResult {
  /** The join, in the first term's store. */
  readonly term: TermId;
  /** Whether it is more general than the first term (a fixpoint is reached when it is not). */
  readonly changed: boolean;
}

/** Whether two terms of possibly different stores are the same term (holes are never the same). */
export function sameTerm(a: StoredTerm, b: StoredTerm): boolean {
  const ka = a.store.kind(a.term);
  const kb = b.store.kind(b.term);
  if (ka !== kb) return false;
  switch (ka) {
    case Kind.Int:
      return a.store.intValue(a.term) === b.store.intValue(b.term);
    case Kind.Float:
      return a.store.floatValue(a.term) === b.store.floatValue(b.term);
    case Kind.Atom:
    case Kind.Str:
      return a.store.text(a.term) === b.store.text(b.term);
    case Kind.Dim:
      return dimToString(a.store.dimOf(a.term)) === dimToString(b.store.dimOf(b.term));
    case Kind.Hole:
      return false;
    case Kind.Cons:
      return (
        sameTerm({ store: a.store, term: a.store.head(a.term) }, { store: b.store, term: b.store.head(b.term) }) &&
        sameTerm({ store: a.store, term: a.store.tail(a.term) }, { store: b.store, term: b.store.tail(b.term) })
      );
    case Kind.Compound: {
      if (a.store.functor(a.term) !== b.store.functor(b.term) || a.store.arity(a.term) !== b.store.arity(b.term)) return false;
      for (let i = 0; i < a.store.arity(a.term); i++)
        if (!sameTerm({ store: a.store, term: a.store.arg(a.term, i) }, { store: b.store, term: b.store.arg(b.term, i) })) return false;
      return true;
    }
  }
}

/** `t` rebuilt in store `to`, every hole a fresh one (so that binding the copy binds nothing of the original). */
export function copyTerm(from: TermStore, t: TermId, to: TermStore, holes: Map<TermId, TermId> = new Map()): TermId {
  switch (from.kind(t)) {
    case Kind.Int:
      return to.int(from.intValue(t));
    case Kind.Float:
      return to.float(from.floatValue(t));
    case Kind.Atom:
      return to.atom(from.text(t));
    case Kind.Str:
      return to.str(from.text(t));
    case Kind.Dim:
      return to.dim(from.dimOf(t));
    case Kind.Hole: {
      let h = holes.get(t);
      if (h === undefined) holes.set(t, (h = to.freshHole()));
      return h;
    }
    case Kind.Cons:
      return to.cons(copyTerm(from, from.head(t), to, holes), copyTerm(from, from.tail(t), to, holes));
    case Kind.Compound:
      return to.compound(
        from.functor(t),
        from.args(t).map((x) => copyTerm(from, x, to, holes)),
      );
  }
}

/**
 * The join of type `a` with type `b` (both resolved), built in a's store. `freshDim(i)`
 * is the size variable standing for dim i where the two differ.
 */
export function joinTypes(a: StoredTerm, b: StoredTerm, freshDim: (i: number) => TermId): JoinResult {
  const s = a.store;
  let changed = false;
  const unknown = (): TermId => {
    changed = true;
    return s.freshHole();
  };
  const sub = (x: StoredTerm, i: number): StoredTerm => ({ store: x.store, term: x.store.arg(x.term, i) });
  const join = (x: StoredTerm, y: StoredTerm): TermId => {
    const kx = s.kind(x.term);
    if (kx === Kind.Hole) return x.term;
    if (y.store.kind(y.term) === Kind.Hole) return unknown();
    if (
      kx === Kind.Compound &&
      y.store.kind(y.term) === Kind.Compound &&
      s.functor(x.term) === y.store.functor(y.term) &&
      s.arity(x.term) === y.store.arity(y.term)
    ) {
      const f = s.functor(x.term);
      if (f === 'tensor' && s.arity(x.term) === 3)
        return s.compound('tensor', [joinShape(sub(x, 0), sub(y, 0)), same(sub(x, 1), sub(y, 1)), same(sub(x, 2), sub(y, 2))]);
      if ((f === 'sequence' || f === 'optional') && s.arity(x.term) === 1) return s.compound(f, [join(sub(x, 0), sub(y, 0))]);
    }
    return same(x, y);
  };
  const same = (x: StoredTerm, y: StoredTerm): TermId => (s.kind(x.term) === Kind.Hole ? x.term : sameTerm(x, y) ? x.term : unknown());
  const joinShape = (x: StoredTerm, y: StoredTerm): TermId => {
    const xs = s.listItems(x.term);
    const ys = y.store.listItems(y.term);
    if (xs === null) return x.term; // unknown rank stays unknown
    if (ys === null || xs.length !== ys.length) return unknown();
    return s.list(
      xs.map((d, i) => {
        if (s.kind(d) === Kind.Hole || sameTerm({ store: s, term: d }, { store: y.store, term: ys[i]! })) return d;
        const f = freshDim(i);
        if (d === f) return d;
        changed = true;
        return f;
      }),
    );
  };
  const term = join(a, b);
  return { term, changed };
}
