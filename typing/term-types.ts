// Types as engine terms, and back: `tensor([1, n, ?], float32)`, `tuple([...])`,
// `fn([params], ret)`, `adt(List, [args])`, `tparam(A)`; holes for unknowns; the atom
// `'?'` for Any. And the Relay text of a resolved type term.
import { dimToString } from '../solver/terms/dims.js';
import { dimTerm } from '../solver/terms/arith.js';
import { Kind, type TermId, type TermStore } from '../solver/terms/term-store.js';
import type { CDim, CDType, CType } from './ctypes.js';

export const ANY_DIM = '?';

export class TypeTerms {
  private readonly holes: TermId[] = [];
  /** Constraint types are shared objects (a binding's type is also an argument's): each becomes a term once. */
  private readonly terms = new Map<CType, TermId>();

  constructor(readonly store: TermStore) {}

  /** The hole standing for constraint variable v. */
  hole(v: number): TermId {
    let h = this.holes[v];
    if (h === undefined) this.holes[v] = h = this.store.hole(v + 1);
    return h;
  }

  dim(d: CDim): TermId {
    switch (d.k) {
      case 'int':
        return this.store.int(d.value);
      case 'any':
        return this.store.atom(ANY_DIM);
      case 'sym':
        return dimTerm(this.store, d.dim);
      case 'var':
        return this.hole(d.v);
    }
  }

  dtype(d: CDType): TermId {
    return d.k === 'dtype' ? this.store.atom(d.name) : this.hole(d.v);
  }

  type(t: CType): TermId {
    let id = this.terms.get(t);
    if (id === undefined) this.terms.set(t, (id = this.build(t)));
    return id;
  }

  private build(t: CType): TermId {
    const s = this.store;
    switch (t.k) {
      case 'var':
        return this.hole(t.v);
      case 'tensor':
        return s.compound('tensor', [s.list(t.shape.map((d) => this.dim(d))), this.dtype(t.dtype)]);
      case 'tuple':
        return s.compound('tuple', [s.list(t.fields.map((f) => this.type(f)))]);
      case 'func':
        return s.compound('fn', [s.list(t.params.map((p) => this.type(p))), this.type(t.ret)]);
      case 'adt':
        return s.compound('adt', [s.atom(t.name), s.list(t.args.map((a) => this.type(a)))]);
      case 'rigid':
        return s.compound('tparam', [s.atom(t.name)]);
    }
  }
}

/** Relay text of a type term; holes print as `_`. */
export function relayTypeText(store: TermStore, t: TermId): string {
  const k = store.kind(t);
  if (k === Kind.Hole) return '_';
  if (k === Kind.Compound) {
    const f = store.functor(t);
    const n = store.arity(t);
    if (f === 'tensor' && n === 2) {
      const dims = store.listItems(store.arg(t, 0));
      const dtype = store.arg(t, 1);
      const dt = store.kind(dtype) === Kind.Atom ? store.text(dtype) : '_';
      if (dims === null) return `Tensor[_, ${dt}]`;
      if (dims.length === 0) return dt;
      const ds = dims.map((d) => dimText(store, d));
      return `Tensor[(${ds.join(', ')}), ${dt}]`;
    }
    if (f === 'tuple' && n === 1) {
      const fields = store.listItems(store.arg(t, 0));
      if (fields === null) return '_';
      return fields.length === 1 ? `(${relayTypeText(store, fields[0]!)},)` : `(${fields.map((x) => relayTypeText(store, x)).join(', ')})`;
    }
    if (f === 'fn' && n === 2) {
      const params = store.listItems(store.arg(t, 0)) ?? [];
      return `fn (${params.map((x) => relayTypeText(store, x)).join(', ')}) -> ${relayTypeText(store, store.arg(t, 1))}`;
    }
    if (f === 'adt' && n === 2) {
      const args = store.listItems(store.arg(t, 1)) ?? [];
      const name = store.text(store.arg(t, 0));
      return args.length === 0 ? name : `${name}[${args.map((x) => relayTypeText(store, x)).join(', ')}]`;
    }
    if (f === 'tparam' && n === 1) return store.text(store.arg(t, 0));
  }
  // a dim or a dtype (in clash messages)
  if (k === Kind.Int || k === Kind.Dim) return dimText(store, t);
  if (k === Kind.Atom) return store.text(t);
  return '_';
}

function dimText(store: TermStore, d: TermId): string {
  switch (store.kind(d)) {
    case Kind.Int:
      return String(store.intValue(d));
    case Kind.Atom:
      return store.text(d) === ANY_DIM ? '?' : store.text(d);
    case Kind.Dim:
      return dimToString(store.dimOf(d));
    default:
      return '_';
  }
}
