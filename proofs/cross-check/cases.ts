// Call cases for the cross-check: for each catalogued operator, a bounded and
// deterministic sweep of argument types and attributes (see `casesFor`).
//
// Shapes use dims from {1, 2, 3, 5}, a few 0s, and a symbolic `n`; some arguments
// are unknown (`_`). Every dtype is float32, except one mismatch case per
// operator with several tensor arguments.
import type { AttrJs } from '../../relations/imperative/solve-one.js';
import { allOps, type OpInfo } from '../../relations/catalogue.js';
import type { TypeofRequest } from '../../solver/infer/typeof.js';

export type Dim = number | string;
export type Shape = readonly Dim[];
export type Attrs = Record<string, AttrJs>;

/** Relay text of a tensor type: `Tensor[(1, 3), float32]`. */
export function tensor(shape: Shape, dtype = 'float32'): string {
  return `Tensor[(${shape.join(', ')}), ${dtype}]`;
}

/** Relay text of a tuple type: `(T1, T2)`. */
export function tuple(fields: readonly string[]): string {
  return fields.length === 1 ? `(${fields[0]},)` : `(${fields.join(', ')})`;
}

/** A small fixed set of shapes per rank. */
export const SHAPES: readonly (readonly Shape[])[] = [
  [[]],
  [[1], [3], [5], [0]],
  [[2, 3], [1, 5], ['n', 3]],
  [[2, 3, 5], [1, 3, 1], ['n', 2, 3]],
  [[1, 3, 5, 5], [2, 1, 3, 2], ['n', 3, 5, 5], [1, 2, 0, 3]],
];

const shapesOfRank = (ranks: readonly number[]): Shape[] => ranks.flatMap((r) => SHAPES[r] ?? []);
const ALL_SHAPES = shapesOfRank([0, 1, 2, 3, 4]);
const range = (lo: number, hi: number): number[] => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);

/** Every combination of the given attribute values, in order (first key slowest). */
export function combos(choices: Readonly<Record<string, readonly AttrJs[]>>): Attrs[] {
  let out: Attrs[] = [{}];
  for (const [name, values] of Object.entries(choices)) out = out.flatMap((a) => values.map((v) => ({ ...a, [name]: v })));
  return out;
}

const call = (op: string, args: readonly string[], attrs: Attrs = {}): TypeofRequest => (Object.keys(attrs).length === 0 ? { op, args } : { op, attrs, args });

// ─── Per-relation sweeps ─────────────────────────────────────────────────────

function broadcast(op: OpInfo): TypeofRequest[] {
  const shapes: Shape[] = [[], [1], [3], [2, 3], [1, 3], [2, 1], ['n', 3], [5, 1, 3], [2, 5], [1, 0]];
  const out = shapes.flatMap((a) => shapes.map((b) => call(op.name, [tensor(a), tensor(b)])));
  out.push(call(op.name, [tensor([2, 3]), '_']), call(op.name, ['_', tensor([3])]), call(op.name, ['_', '_']));
  out.push(call(op.name, [tensor([2, 3]), tensor([2, 3], 'int32')]));
  return out;
}

function unary(op: OpInfo, extraArgs: readonly string[] = []): TypeofRequest[] {
  return [...ALL_SHAPES.map((s) => call(op.name, [tensor(s), ...extraArgs])), call(op.name, ['_', ...extraArgs])];
}

function conv2d(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const attrSets = combos({ strides: [1, 2], padding: [0, 1, [1, 2]], kernel_size: [[1, 1], [3, 3]], channels: [4] });
  for (const layout of ['NCHW', 'NHWC'] as const) {
    const data: Shape[] = layout === 'NCHW' ? [[1, 3, 5, 5], ['n', 2, 5, 3]] : [[1, 5, 5, 3], ['n', 5, 3, 2]];
    const kernelLayout = layout === 'NCHW' ? 'OIHW' : 'HWIO';
    for (const d of data) {
      for (const a of attrSets) {
        const attrs: Attrs = layout === 'NCHW' ? a : { ...a, data_layout: layout, kernel_layout: kernelLayout };
        out.push(call(op.name, [tensor(d), '_'], attrs));
      }
      // A given weight, no channels/kernel_size.
      const cin = layout === 'NCHW' ? d[1]! : d[3]!;
      for (const k of [1, 3]) {
        const w = layout === 'NCHW' ? [4, cin, k, k] : [k, k, cin, 4];
        for (const a of combos({ strides: [1, 2], padding: [0, 1] })) {
          out.push(call(op.name, [tensor(d), tensor(w)], layout === 'NCHW' ? a : { ...a, data_layout: layout, kernel_layout: kernelLayout }));
        }
      }
    }
  }
  out.push(call(op.name, [tensor([1, 3, 5, 5]), tensor([4, 2, 3, 3])])); // channel mismatch
  out.push(call(op.name, [tensor([1, 3, 5, 5]), tensor([4, 3, 3, 3], 'float16')]));
  out.push(call(op.name, [tensor([1, 3, 5]), '_'], { kernel_size: [3, 3], channels: 4 }));
  out.push(call(op.name, ['_', tensor([4, 3, 3, 3])]));
  return out;
}

function pool2d(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const attrSets = combos({ pool_size: [1, [2, 2], [3, 2]], strides: [1, 2], padding: [0, 1, [1, 2]], ceil_mode: [false, true] });
  for (const [layout, shapes] of [
    ['NCHW', [[1, 3, 5, 5], ['n', 2, 5, 3]]],
    ['NHWC', [[1, 5, 5, 3]]],
  ] as const) {
    for (const s of shapes) for (const a of attrSets) out.push(call(op.name, [tensor(s)], layout === 'NCHW' ? a : { ...a, layout }));
  }
  out.push(call(op.name, [tensor([1, 3, 5])]), call(op.name, ['_']));
  return out;
}

function globalPool(op: OpInfo): TypeofRequest[] {
  return [...shapesOfRank([3, 4]).flatMap((s) => [call(op.name, [tensor(s)]), call(op.name, [tensor(s)], { layout: 'NHWC' })]), call(op.name, ['_'])];
}

function batchNorm(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([1, 2, 3, 4])) {
    for (const axis of range(-s.length, s.length)) {
      const c = s[axis < 0 ? s.length + axis : axis] ?? 3;
      out.push(call(op.name, [tensor(s), '_', '_', '_', '_'], { axis }));
      out.push(call(op.name, [tensor(s), ...Array(4).fill(tensor([c]))], { axis }));
    }
  }
  out.push(call(op.name, [tensor([2, 3]), tensor([3]), tensor([3]), tensor([3]), tensor([3], 'float16')]));
  out.push(call(op.name, [tensor([2, 3]), tensor([2]), '_', '_', '_']));
  return out;
}

function biasAdd(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([1, 2, 3, 4])) {
    for (const axis of range(-s.length, s.length)) {
      out.push(call(op.name, [tensor(s), '_'], { axis }), call(op.name, [tensor(s), tensor([3])], { axis }));
    }
  }
  out.push(call(op.name, ['_', tensor([3])]), call(op.name, [tensor([2, 3]), tensor([3], 'int32')]));
  return out;
}

function dense(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([1, 2, 3])) {
    const k = s[s.length - 1]!;
    for (const w of ['_', tensor([4, k]), tensor([4, 2])]) for (const a of combos({ units: [null, 4] })) out.push(call(op.name, [tensor(s), w], a.units === null ? {} : a));
  }
  out.push(call(op.name, ['_', tensor([4, 3])]), call(op.name, [tensor([2, 3]), tensor([4, 3], 'float16')]));
  return out;
}

function batchMatmul(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const shapes: Shape[] = [[2, 3, 5], [1, 5, 3], [2, 5, 3], ['n', 3, 5], [2, 3], [1, 3, 3]];
  for (const a of shapes) for (const b of shapes) for (const t of combos({ transpose_a: [false, true], transpose_b: [false, true] })) out.push(call(op.name, [tensor(a), tensor(b)], t));
  out.push(call(op.name, [tensor([2, 3, 5]), '_']), call(op.name, [tensor([2, 3, 5]), tensor([2, 3, 5], 'int32')]));
  return out;
}

function reshape(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([0, 1, 2, 3, 4])) {
    const known = s.every((d) => typeof d === 'number');
    const size = known ? (s as number[]).reduce((a, b) => a * b, 1) : null;
    const news: AttrJs[] = [[-1], [...s], s.map(() => 0), [0, -1], [-2], [-3, -2], [-1, 1]];
    if (s.length >= 2) news.push([-3, ...s.slice(2)], [0, -3], [s[0]!, -1]);
    if (typeof s[0] === 'number' && s[0] > 1) news.push([-4, 1, -1, -2], [-4, -1, 1, -2]);
    if (size !== null) news.push([size], [size, 1], [1, size]);
    news.push([7], [-1, -1]);
    for (const newshape of news) {
      out.push(call(op.name, [tensor(s)], { newshape }));
      if (s.length > 0 && Array.isArray(newshape) && newshape.includes(0)) out.push(call(op.name, [tensor(s)], { newshape, allowzero: true }));
    }
  }
  out.push(call(op.name, ['_'], { newshape: [2, 3] }), call(op.name, ['_'], { newshape: [-1] }), call(op.name, [tensor([2, 3])], { newshape: 6 }));
  return out;
}

function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((p) => range(0, n - 1).map((i) => [...p.slice(0, i), n - 1, ...p.slice(i)]));
}

function transpose(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([0, 1, 2, 3, 4])) {
    const perms: AttrJs[] = [null, ...permutations(s.length).slice(0, 6)];
    if (s.length > 0) perms.push(range(0, s.length - 1).map((i) => i - s.length), [0]);
    for (const axes of perms) out.push(call(op.name, [tensor(s)], axes === null ? {} : { axes }));
  }
  out.push(call(op.name, ['_'], { axes: [1, 0] }), call(op.name, [tensor([2, 3])], { axes: [0, 0] }));
  return out;
}

function axisSweep(op: OpInfo, extra: (s: Shape, axis: number) => TypeofRequest[] = () => []): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES) {
    for (const axis of range(-s.length - 1, s.length)) out.push(call(op.name, [tensor(s)], { axis }), ...extra(s, axis));
  }
  out.push(call(op.name, ['_'], { axis: 0 }));
  return out;
}

function concatenate(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const groups: Shape[][] = [[[3]], [[2], [3]], [[2, 3], [1, 3]], [[2, 3], [2, 5]], [[2, 3], [1, 3], [2, 3]], [['n', 3], [2, 3]], [[2, 3, 5], [2, 3, 1]], [[1, 3, 5, 5], [1, 2, 5, 5]], [[2, 3], [3]]];
  for (const g of groups) for (const axis of range(-g[0]!.length - 1, g[0]!.length)) out.push(call(op.name, [tuple(g.map((s) => tensor(s)))], { axis }));
  out.push(call(op.name, [tuple([tensor([2, 3]), '_'])], { axis: 0 }), call(op.name, ['_'], { axis: 0 }));
  out.push(call(op.name, [tuple([tensor([2, 3]), tensor([1, 3], 'int32')])], { axis: 0 }));
  return out;
}

function split(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([1, 2, 3, 4])) {
    for (const axis of range(-s.length, s.length)) {
      for (const ios of [1, 2, 3, [1], [1, 2], [2, 4], [3, 1]] as AttrJs[]) out.push(call(op.name, [tensor(s)], { indices_or_sections: ios, axis }));
    }
  }
  out.push(call(op.name, ['_'], { indices_or_sections: 2 }), call(op.name, [tensor([])], { indices_or_sections: 1 }));
  return out;
}

function layerNorm(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([1, 2, 3, 4])) {
    for (const axis of range(-s.length, s.length)) {
      const c = s[axis < 0 ? s.length + axis : axis] ?? 3;
      out.push(call(op.name, [tensor(s), '_', '_'], { axis }), call(op.name, [tensor(s), tensor([c]), tensor([c])], { axis }));
    }
  }
  out.push(call(op.name, [tensor([2, 3]), tensor([2]), tensor([2])]), call(op.name, [tensor([2, 3]), tensor([3]), tensor([3], 'int32')]));
  return out;
}

function expandDims(op: OpInfo): TypeofRequest[] {
  return axisSweep(op, (s, axis) => [0, 2].map((num_newaxis) => call(op.name, [tensor(s)], { axis, num_newaxis })));
}

function squeeze(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES) {
    const axes: AttrJs[] = [null, []];
    for (const i of range(-s.length, s.length)) axes.push([i]);
    if (s.length >= 2) axes.push([0, s.length - 1], [0, 0]);
    for (const axis of axes) out.push(call(op.name, [tensor(s)], axis === null ? {} : { axis }));
  }
  out.push(call(op.name, ['_'], { axis: [0] }), call(op.name, ['_']));
  return out;
}

function reduce(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([0, 1, 2, 3, 4]).filter((_, i) => i % 2 === 0)) {
    const axes: AttrJs[] = [null, [], ...range(-s.length, s.length)];
    if (s.length >= 2) axes.push([0, -1], [1, 0], [0, 0]);
    for (const axis of axes) for (const a of combos({ keepdims: [false, true], exclude: [false, true] })) out.push(call(op.name, [tensor(s)], axis === null ? a : { ...a, axis }));
  }
  out.push(call(op.name, ['_'], { axis: 1 }));
  return out;
}

function take(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const indices: Shape[] = [[], [2], [2, 3], [1, 'n']];
  for (const d of shapesOfRank([1, 2, 3])) {
    for (const i of indices) {
      for (const axis of [null, ...range(-d.length, d.length)]) {
        for (const batch_dims of [0, 1]) {
          if (axis === null && batch_dims === 1) continue;
          const attrs: Attrs = { ...(axis === null ? {} : { axis }), ...(batch_dims === 0 ? {} : { batch_dims }) };
          out.push(call(op.name, [tensor(d), tensor(i, 'int32')], attrs));
        }
      }
    }
  }
  out.push(call(op.name, [tensor([2, 3]), '_'], { axis: 1 }), call(op.name, ['_', tensor([2], 'int32')], { axis: 0 }));
  out.push(call(op.name, [tensor([2, 3]), tensor([2], 'float32')], { axis: 0, mode: 'wrap' }));
  return out;
}

function cast(op: OpInfo): TypeofRequest[] {
  return ['float32', 'int32', 'float16', 'bool'].flatMap((dtype) => [...ALL_SHAPES.map((s) => call(op.name, [tensor(s)], { dtype })), call(op.name, ['_'], { dtype })]);
}

function where(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const shapes: Shape[] = [[], [3], [2, 3], [2, 1], [1, 3], ['n', 3], [5]];
  for (const c of shapes) for (const x of shapes) for (const y of [[], [3], [2, 3]] as Shape[]) out.push(call(op.name, [tensor(c, 'bool'), tensor(x), tensor(y)]));
  out.push(call(op.name, ['_', tensor([3]), tensor([3])]), call(op.name, [tensor([3], 'bool'), tensor([3]), tensor([3], 'int32')]));
  return out;
}

const BY_RELATION: Readonly<Record<string, (op: OpInfo) => TypeofRequest[]>> = {
  Broadcast: broadcast,
  BroadcastCompare: broadcast,
  Identity: (op) => unary(op),
  Conv2D: conv2d,
  Pool2D: pool2d,
  GlobalPool2D: globalPool,
  BatchNorm: batchNorm,
  BiasAdd: biasAdd,
  Dense: dense,
  BatchMatmul: batchMatmul,
  BatchFlatten: (op) => unary(op),
  Reshape: reshape,
  Transpose: transpose,
  Softmax: (op) => axisSweep(op),
  Concatenate: concatenate,
  Split: split,
  LayerNorm: layerNorm,
  ExpandDims: expandDims,
  Squeeze: squeeze,
  Reduce: reduce,
  Take: take,
  Cast: cast,
  Where: where,
};

/** The call cases of one catalogued operator, in a fixed order. */
export function casesFor(opName: string): TypeofRequest[] {
  const op = allOps().find((o) => o.name === opName);
  if (op === undefined) throw new Error(`unknown operator '${opName}'`);
  const gen = BY_RELATION[op.relation];
  if (gen === undefined) throw new Error(`no case generator for relation ${op.relation} (${op.name})`);
  return gen(op);
}

/** The names of every catalogued operator, in catalogue order. */
export function opNames(): string[] {
  return allOps().map((o) => o.name);
}
