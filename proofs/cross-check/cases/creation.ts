// Cross-check sweep cases for the creation family (declared in relations/creation.rules).
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import type { AttrJs } from '../../../relations/imperative/solve-one.js';
import { ALL_SHAPES, call, combos, range, tensor, tuple, unary, type CaseGenerator, type Shape } from '../case-kit.js';

/** The shapes of ALL_SHAPES without symbolic dims (attribute shapes are ints). */
const INT_SHAPES = ALL_SHAPES.filter((s) => s.every((d) => typeof d === 'number')) as number[][];
/** Supported dtypes, and two the catalogue accepts but the relations do not. */
const DTYPES = ['float32', 'int64', 'bool', 'float16', 'uint8', 'float32x4', 'int4'];

function initOp(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const shape of INT_SHAPES) for (const dtype of DTYPES) out.push(call(op.name, [], { shape, dtype }));
  // attribute errors: a negative size, a bad dtype, a missing attribute, an argument too many
  out.push(call(op.name, [], { shape: [2, -1], dtype: 'float32' }), call(op.name, [], { shape: [2], dtype: 'floaty' }));
  out.push(call(op.name, [], { shape: [2] }), call(op.name, [tensor([2])], { shape: [2], dtype: 'float32' }));
  return out;
}

function initLike(op: OpInfo): TypeofRequest[] {
  return [
    ...unary(op),
    call(op.name, [tensor([2, 3], 'int32')]),
    call(op.name, [tensor([], 'bool')]),
    call(op.name, [tuple([tensor([2]), tensor([3])])]),
    call(op.name, ['fn (float32) -> float32']),
  ];
}

const FILLS = ['float32', 'int32', 'bool', tensor([1]), tensor([2, 3]), '_', tuple([tensor([]), tensor([])])];

function full(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const fill of FILLS) {
    for (const shape of [null, ...INT_SHAPES]) {
      for (const dtype of [null, '', 'int64', 'float16', 'float32x4']) {
        const attrs: Record<string, AttrJs> = {};
        if (shape !== null) attrs.shape = shape;
        if (dtype !== null) attrs.dtype = dtype;
        out.push(call(op.name, [fill], attrs));
      }
    }
  }
  out.push(call(op.name, ['float32'], { shape: [-2] }), call(op.name, ['float32'], { dtype: 'floaty' }), call(op.name, []));
  return out;
}

function fullLike(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const datas: string[] = [...ALL_SHAPES.map((s: Shape) => tensor(s)), tensor([2, 3], 'int8'), '_', tuple([tensor([2])])];
  for (const data of datas) for (const fill of FILLS) out.push(call(op.name, [data, fill]));
  return out;
}

function arange(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const a of combos({ start: range(-3, 5), stop: [null, -2, 0, 3, 7], step: [1, 2, 3, -1, -2, 0] })) {
    const attrs: Record<string, AttrJs> = { start: a.start! };
    if (a.stop !== null) attrs.stop = a.stop!;
    if (a.step !== 1) attrs.step = a.step!;
    out.push(call(op.name, [], attrs));
  }
  for (const dtype of DTYPES) out.push(call(op.name, [], { start: 2, stop: 9, step: 2, dtype }));
  // float bounds and steps (TVM computes the length in real arithmetic): exact and inexact binary fractions, empty ranges, stop None
  for (const a of combos({ start: [0.5, -2.5, 1, 0.1], stop: [null, 3.2, 20, -1.75, 0.5], step: [0.5, 1.5, -1.5, 0.3, 0.0] })) {
    const attrs: Record<string, AttrJs> = { start: a.start! };
    if (a.stop !== null) attrs.stop = a.stop!;
    attrs.step = a.step!;
    out.push(call(op.name, [], attrs));
  }
  out.push(call(op.name, [], { start: 0.5, dtype: 'int32' }), call(op.name, [], { start: 0, stop: 1, step: 0.1, dtype: 'float64' }));
  // attribute errors: a string, no start, an unknown attribute
  out.push(call(op.name, [], { start: 'x' }), call(op.name, [], {}), call(op.name, [], { start: 1, end: 3 }));
  return out;
}

function meshgrid(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const fields = [tensor([]), tensor([3]), tensor([0]), tensor([1]), tensor(['n']), tensor([2, 3]), '_'];
  const groups: string[][] = [];
  for (const a of fields) groups.push([a]);
  for (const a of fields) for (const b of fields) groups.push([a, b]);
  for (const a of fields) for (const b of [tensor([2]), tensor([5])]) for (const c of [tensor([4]), tensor(['n']), '_']) groups.push([a, b, c]);
  groups.push([tensor([2]), tensor([3]), tensor([5]), tensor([1])]);
  groups.push([tensor([2]), tensor([3], 'int32')], [tensor([2], 'int32'), tensor([3], 'int32')], [tensor([2]), tensor([3]), tensor([4], 'float16')]);
  groups.push(['_', tensor([2]), tensor([3], 'int32')], [tensor([2]), tuple([tensor([2])])]);
  for (const g of groups) for (const indexing of ['ij', 'xy']) out.push(call(op.name, [tuple(g)], indexing === 'ij' ? {} : { indexing }));
  out.push(call(op.name, ['()']), call(op.name, [tensor([3])]), call(op.name, ['_']), call(op.name, [tuple([tensor([2])])], { indexing: 'yx' }));
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  InitOp: initOp,
  InitLike: initLike,
  Full: full,
  FullLike: fullLike,
  Arange: arange,
  Meshgrid: meshgrid,
};
