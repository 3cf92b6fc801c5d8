// Cross-check sweep cases for the shape family (relations/ops/shape.ts).
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../solver/infer/typeof.js';
import type { AttrJs } from '../../../relations/imperative/solve-one.js';
import { call, tensor, tuple, range, shapesOfRank, ALL_SHAPES, axisSweep, permutations, type Attrs, type Shape, type CaseGenerator } from '../case-kit.js';

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

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  Reshape: reshape,
  Transpose: transpose,
  Concatenate: concatenate,
  Split: split,
  ExpandDims: expandDims,
  Squeeze: squeeze,
  Take: take,
};
