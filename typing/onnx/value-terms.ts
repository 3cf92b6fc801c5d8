// ONNX values as engine terms, and back. A tensor value is `tensor(Shape, DType, Data)`:
// Shape a list of dims (an int, a size variable for a dim_param, a hole when unknown) or
// a hole for an unknown rank; DType an atom (float32, int64, ...) or a hole; Data the
// row-major elements of a small integer tensor when they are known (data propagation:
// the shape arithmetic of exported models), else a hole. An omitted optional input is
// the atom `absent`; a sequence is `sequence(Elem)`, an optional `optional(Elem)`.
import { dimTerm } from '../../solver/terms/arith.js';
import { dimToString, dimVar } from '../../solver/terms/dims.js';
import { Kind, type TermId, type TermStore } from '../../solver/terms/term-store.js';
import type { OnnxDim, OnnxTensor, OnnxType } from '../../frontends/onnx/model.js';

/** A value's type as shapelog reports it: a dim is an int, a symbolic dim in canonical form, or null (unknown). */
export type ValueType =
  | {
      readonly kind: 'tensor';
      readonly dtype: string | null;
      readonly shape: readonly (number | string | null)[] | null;
      readonly values?: readonly (number | string)[];
    }
  | { readonly kind: 'sequence' | 'optional'; readonly elem: ValueType | null }
  | { readonly kind: 'absent' };

export class ValueTerms {
  constructor(
    readonly store: TermStore,
    /** --dim PARAM=N: a dim_param fixed everywhere (gradual typing: a size variable renamed, typing/onnx/gradual.ts). */
    readonly fixedDims: ReadonlyMap<string, number | string> = new Map(),
  ) {}

  hole(): TermId {
    return this.store.freshHole();
  }

  dim(d: OnnxDim): TermId {
    if (d === null) return this.hole();
    if (typeof d === 'number') return this.store.int(d);
    const fixed = this.fixedDims.get(d);
    if (fixed === undefined) return dimTerm(this.store, dimVar(d));
    return typeof fixed === 'number' ? this.store.int(fixed) : dimTerm(this.store, dimVar(fixed));
  }

  /** A declared type (graph input, value_info); null (no type) is a hole. */
  type(t: OnnxType | null): TermId {
    const s = this.store;
    if (t === null) return this.hole();
    switch (t.kind) {
      case 'tensor':
        return s.compound('tensor', [
          t.shape === null ? this.hole() : s.list(t.shape.map((d) => this.dim(d))),
          t.dtype === null ? this.hole() : s.atom(t.dtype),
          this.hole(),
        ]);
      case 'sequence':
      case 'optional':
        return s.compound(t.kind, [this.type(t.elem)]);
      case 'map':
        return s.compound('map', [s.atom(t.key), this.type(t.value)]);
    }
  }

  /** Tensor type `t` (a term of type()) with its values given: the data of a graph input fixed by --value. */
  withValues(t: TermId, values: readonly number[]): TermId {
    const s = this.store;
    if (s.kind(t) !== Kind.Compound || s.functor(t) !== 'tensor') return t;
    return s.compound('tensor', [s.arg(t, 0), s.arg(t, 1), s.list(values.map((v) => s.int(v)))]);
  }

  /** A tensor whose dims are known, with its values when kept. */
  tensor(t: Pick<OnnxTensor, 'dims' | 'dtype' | 'values' | 'fractions'>): TermId {
    const s = this.store;
    const fraction = ([n, d]: readonly [number, number]) => (d === 1 ? s.int(n) : s.compound('ratio', [s.int(n), s.int(d)]));
    const data = t.values !== null ? s.list(t.values.map((v) => s.int(v))) : t.fractions !== undefined ? s.list(t.fractions.map(fraction)) : this.hole();
    return s.compound('tensor', [s.list(t.dims.map((d) => s.int(d))), s.atom(t.dtype), data]);
  }
}

function dimValue(store: TermStore, d: TermId): number | string | null {
  switch (store.kind(d)) {
    case Kind.Int:
      return store.intValue(d);
    case Kind.Atom:
      return store.text(d);
    case Kind.Dim:
      return dimToString(store.dimOf(d));
    default:
      return null;
  }
}

/** The type a resolved term stands for (null: nothing is known). */
export function valueType(store: TermStore, t: TermId): ValueType | null {
  const k = store.kind(t);
  if (k === Kind.Atom && store.text(t) === 'absent') return { kind: 'absent' };
  if (k !== Kind.Compound) return null;
  const f = store.functor(t);
  if (f === 'tensor' && store.arity(t) === 3) {
    const dims = store.listItems(store.arg(t, 0));
    const dt = store.arg(t, 1);
    const data = store.listItems(store.arg(t, 2));
    const values = data?.map((x) => dimValue(store, x));
    return {
      kind: 'tensor',
      dtype: store.kind(dt) === Kind.Atom ? store.text(dt) : null,
      shape: dims === null ? null : dims.map((d) => dimValue(store, d)),
      ...(values?.every((v) => v !== null) ? { values: values as (number | string)[] } : {}),
    };
  }
  if ((f === 'sequence' || f === 'optional') && store.arity(t) === 1) return { kind: f, elem: valueType(store, store.arg(t, 0)) };
  return null;
}
