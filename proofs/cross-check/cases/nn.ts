// Cross-check sweep cases for the nn family (relations/ops/nn.ts).
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../solver/infer/typeof.js';
import { call, tensor, combos, range, shapesOfRank, unary, axisSweep, type Shape, type CaseGenerator } from '../case-kit.js';

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

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  BatchNorm: batchNorm,
  BiasAdd: biasAdd,
  Dense: dense,
  BatchMatmul: batchMatmul,
  BatchFlatten: (op) => unary(op),
  Softmax: (op) => axisSweep(op),
  LayerNorm: layerNorm,
};
