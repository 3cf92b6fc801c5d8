// The types of the iterator IR as the original implementation shows them, shared by the
// rules strategy and its imperative twin: a small tree mirroring the original's type
// classes (Val, FunctionType, Tuple, PartialTupleVar, ValTuple, PrefixTuple,
// UniformValTupleVar, FunDef, Closure, Fencil), renumbered and printed in its notation
// (`(It[T₀¹]) → T₀¹`, `--ascii`: `(It[T0^1]) -> T0^1`) or as JSON.
//
// Type variables are numbered in the order the original numbers them: children before
// the variable itself, fields in declaration order (a Val's kind, dtype, size; a
// closure's output before its inputs), which is not always the printing order.

export type Shown =
  | { readonly k: 'var'; readonly id: number }
  | { readonly k: 'prim'; readonly name: string }
  | { readonly k: 'it' | 'value' | 'col' | 'scal' }
  | { readonly k: 'tuple'; readonly elems: readonly Shown[] }
  /** A tuple of unknown length: `null` elements are unknown (`…`). */
  | { readonly k: 'partial'; readonly id: number; readonly elems: readonly (Shown | null)[] }
  | { readonly k: 'prefix'; readonly prefix: Shown; readonly others: Shown }
  | { readonly k: 'fun'; readonly args: Shown; readonly ret: Shown }
  | { readonly k: 'val'; readonly kind: Shown; readonly dtype: Shown; readonly size: Shown }
  | { readonly k: 'valtuple'; readonly kind: Shown; readonly dtypes: Shown; readonly size: Shown }
  | { readonly k: 'uniform'; readonly id: number; readonly elem: Shown }
  | { readonly k: 'fundef'; readonly name: string; readonly fun: Shown }
  | { readonly k: 'closure'; readonly output: Shown; readonly inputs: Shown }
  | { readonly k: 'fencil'; readonly name: string; readonly fundefs: readonly Shown[]; readonly params: readonly Shown[] };

/** Renumber the variables 0, 1, 2... in the original's order (see the header). */
export function renumber(t: Shown): Shown {
  const map = new Map<number, number>();
  const id = (i: number) => {
    let n = map.get(i);
    if (n === undefined) map.set(i, (n = map.size));
    return n;
  };
  const go = (x: Shown): Shown => {
    switch (x.k) {
      case 'var':
        return { k: 'var', id: id(x.id) };
      case 'prim':
      case 'it':
      case 'value':
      case 'col':
      case 'scal':
        return x;
      case 'tuple':
        return { k: 'tuple', elems: x.elems.map(go) };
      case 'partial': {
        const elems = x.elems.map((e) => (e === null ? null : go(e)));
        return { k: 'partial', elems, id: id(x.id) };
      }
      case 'prefix': {
        const prefix = go(x.prefix);
        return { k: 'prefix', prefix, others: go(x.others) };
      }
      case 'fun': {
        const args = go(x.args);
        return { k: 'fun', args, ret: go(x.ret) };
      }
      case 'val':
      case 'valtuple': {
        const kind = go(x.kind);
        if (x.k === 'val') {
          const dtype = go(x.dtype);
          return { k: 'val', kind, dtype, size: go(x.size) };
        }
        const dtypes = go(x.dtypes);
        return { k: 'valtuple', kind, dtypes, size: go(x.size) };
      }
      case 'uniform': {
        const elem = go(x.elem);
        return { k: 'uniform', elem, id: id(x.id) };
      }
      case 'fundef':
        return { k: 'fundef', name: x.name, fun: go(x.fun) };
      case 'closure': {
        const output = go(x.output);
        return { k: 'closure', output, inputs: go(x.inputs) };
      }
      case 'fencil': {
        const fundefs = x.fundefs.map(go);
        return { k: 'fencil', name: x.name, fundefs, params: x.params.map(go) };
      }
    }
  };
  return go(t);
}

const SUB = '₀₁₂₃₄₅₆₇₈₉';
const SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹';

interface Notation {
  sub(i: number): string;
  sup(i: number): string;
  col: string;
  scal: string;
  arrow: string;
  closure: string;
  dots: string;
  times: string;
}

const UNICODE: Notation = {
  sub: (i) => [...String(i)].map((d) => SUB[Number(d)]).join(''),
  sup: (i) => [...String(i)].map((d) => SUP[Number(d)]).join(''),
  col: 'ᶜ',
  scal: 'ˢ',
  arrow: ' → ',
  closure: ' ⇒ ',
  dots: '…',
  times: ' × ',
};

const ASCII: Notation = {
  sub: (i) => String(i),
  sup: (i) => `^${i}`,
  col: '^c',
  scal: '^s',
  arrow: ' -> ',
  closure: ' => ',
  dots: '...',
  times: ' x ',
};

/** The original's notation (`ascii`: the same with `T0^1`, `^c`, `->`, `=>`). Renumbers first. */
export function showType(t: Shown, ascii = false): string {
  return print(renumber(t), ascii ? ASCII : UNICODE);
}

function print(x: Shown, n: Notation): string {
  const p = (y: Shown) => print(y, n);
  const size = (s: Shown) => (s.k === 'col' ? n.col : s.k === 'scal' ? n.scal : s.k === 'var' ? n.sup(s.id) : `^(${p(s)})`);
  const withKind = (kind: Shown, inner: string) =>
    kind.k === 'value' ? inner : kind.k === 'it' ? `It[${inner}]` : kind.k === 'var' ? `ItOrVal${n.sub(kind.id)}[${inner}]` : `${p(kind)}[${inner}]`;
  switch (x.k) {
    case 'var':
      return `T${n.sub(x.id)}`;
    case 'prim':
      return x.name;
    case 'it':
      return 'It';
    case 'value':
      return 'Val';
    case 'col':
      return 'Column';
    case 'scal':
      return 'Scalar';
    case 'tuple':
      return `(${x.elems.map(p).join(', ')})`;
    case 'partial':
      return `(${x.elems.map((e) => `${e === null ? n.dots : p(e)}, `).join('')}${n.dots})${n.sub(x.id)}`;
    case 'prefix':
      return `${p(x.prefix)}:${p(x.others)}`;
    case 'fun':
      return `${p(x.args)}${n.arrow}${p(x.ret)}`;
    case 'val':
      return withKind(x.kind, p(x.dtype) + size(x.size));
    case 'valtuple':
      return `(${withKind(x.kind, `T${size(x.size)}`)}, ${n.dots})${x.dtypes.k === 'var' ? n.sub(x.dtypes.id) : p(x.dtypes)}`;
    case 'uniform':
      return `(${p(x.elem)}${n.times}n${n.sub(x.id)})`;
    case 'fundef':
      return `${x.name} :: ${p(x.fun)}`;
    case 'closure':
      return `${p(x.inputs)}${n.closure}${p(x.output)}`;
    case 'fencil':
      return `{${x.fundefs.map((f) => `${p(f)}, `).join('')}${x.name}(${x.params.map(p).join(', ')})}`;
  }
}

/** A JSON form of a type: `{"kind": "fun", "args": ..., "ret": ...}`, variables as `{"kind": "var", "index": 0}`. Renumbers first. */
export function typeJson(t: Shown): unknown {
  const go = (x: Shown): unknown => {
    switch (x.k) {
      case 'var':
        return { kind: 'var', index: x.id };
      case 'prim':
        return { kind: 'primitive', name: x.name };
      case 'it':
        return { kind: 'iterator' };
      case 'value':
        return { kind: 'value' };
      case 'col':
        return { kind: 'column' };
      case 'scal':
        return { kind: 'scalar' };
      case 'tuple':
        return { kind: 'tuple', elems: x.elems.map(go) };
      case 'partial':
        return { kind: 'partial_tuple', index: x.id, elems: x.elems.map((e) => (e === null ? null : go(e))) };
      case 'prefix':
        return { kind: 'prefix_tuple', prefix: go(x.prefix), others: go(x.others) };
      case 'fun':
        return { kind: 'fun', args: go(x.args), ret: go(x.ret) };
      case 'val':
        return { kind: 'val', val_kind: go(x.kind), dtype: go(x.dtype), size: go(x.size) };
      case 'valtuple':
        return { kind: 'val_tuple', val_kind: go(x.kind), dtypes: go(x.dtypes), size: go(x.size) };
      case 'uniform':
        return { kind: 'uniform_tuple', index: x.id, elem: go(x.elem) };
      case 'fundef':
        return { kind: 'fundef', name: x.name, fun: go(x.fun) };
      case 'closure':
        return { kind: 'closure', output: go(x.output), inputs: go(x.inputs) };
      case 'fencil':
        return { kind: 'fencil', name: x.name, fundefs: x.fundefs.map(go), params: x.params.map(go) };
    }
  };
  return go(renumber(t));
}
