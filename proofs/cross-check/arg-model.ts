// Argument types of a call case as editable structures: a tensor's dims (ints,
// symbols such as `n`, `_` for unknown, `?` for Any) and dtype, tuples, or `_`.
// Used by the random case generator and the shrinker to rewrite cases.
import { parseType } from '../../relations/imperative/type-text.js';
import { type IType, printDim, TypeSolverState } from '../../relations/imperative/types.js';

export type ArgDim = number | string;

export type Arg =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'tensor'; readonly dims: readonly ArgDim[]; readonly dtype: string }
  | { readonly kind: 'tuple'; readonly fields: readonly Arg[] }
  /** Anything else, kept as text. */
  | { readonly kind: 'text'; readonly text: string };

function fromIType(t: IType, text: string): Arg {
  switch (t.kind) {
    case 'hole':
      return { kind: 'unknown' };
    case 'tensor':
      return { kind: 'tensor', dims: t.shape.map((d) => (d.kind === 'int' ? d.value : printDim(d))), dtype: typeof t.dtype === 'string' ? t.dtype : '_' };
    case 'tuple':
      return { kind: 'tuple', fields: t.fields.map((f) => fromIType(f, text)) };
    default:
      return { kind: 'text', text };
  }
}

export function parseArg(text: string): Arg {
  const p = parseType(text, new TypeSolverState());
  return p.ok ? fromIType(p.type, text) : { kind: 'text', text };
}

export function printArg(a: Arg): string {
  switch (a.kind) {
    case 'unknown':
      return '_';
    case 'text':
      return a.text;
    case 'tensor':
      return `Tensor[(${a.dims.join(', ')}), ${a.dtype}]`;
    case 'tuple':
      return a.fields.length === 1 ? `(${printArg(a.fields[0]!)},)` : `(${a.fields.map(printArg).join(', ')})`;
  }
}

/** Every tensor inside the argument (tuple fields included), with a way to replace it. */
export function tensorsOf(a: Arg): { t: Extract<Arg, { kind: 'tensor' }>; put: (t: Arg) => Arg }[] {
  if (a.kind === 'tensor') return [{ t: a, put: (t) => t }];
  if (a.kind === 'tuple') {
    return a.fields.flatMap((f, i) =>
      tensorsOf(f).map(({ t, put }) => ({ t, put: (x: Arg) => ({ kind: 'tuple' as const, fields: a.fields.map((g, j) => (j === i ? put(x) : g)) }) })),
    );
  }
  return [];
}

/** Replaces every dim of every tensor through `f`. */
export function mapDims(a: Arg, f: (d: ArgDim) => ArgDim): Arg {
  if (a.kind === 'tensor') return { ...a, dims: a.dims.map(f) };
  if (a.kind === 'tuple') return { kind: 'tuple', fields: a.fields.map((x) => mapDims(x, f)) };
  return a;
}
