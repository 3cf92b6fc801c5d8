// Neural-network relations after TVM's src/relay/op/nn/nn.cc and nn.h:
// BatchNorm, BiasAdd, Dense, BatchMatmul, BatchFlatten, Softmax, LayerNorm.
//
//   BatchNorm(data, gamma, beta, moving_mean, moving_var; axis) :
//     C = data.shape[axis] (axis in [-1, ndim), as TVM: only -1 is accepted
//     among negative axes); gamma, beta, moving_mean, moving_var := Tensor[(C),
//     data.dtype] (backward inference); result := (data type, [C], [C]).
//   BiasAdd(data, bias; axis): bias := Tensor[(data.shape[axis]), data.dtype];
//     result := data. axis in [-ndim, ndim).
//   Dense(data, weight; units): data rank >= 1, K = data.shape[-1]; with units:
//     weight := Tensor[(units, K)] (dtype: the weight's if known, else data's);
//     without: weight must be 2-D (units, K'). result: data.shape[:-1] + (units,),
//     dtype out_dtype or data's.
//   BatchMatmul(a, b; transpose_a = False, transpose_b = True): both 3-D;
//     a = (B, M, K) or (B, K, M) if transpose_a; b = (B', K, N) or (B', N, K) if
//     transpose_b; result (broadcast(B, B'), M, N), dtype out_dtype or a's.
//   BatchFlatten(data): (d0, d1, ..., dk) -> (d0, d1*...*dk); Any in the tail
//     gives Any.
//   Softmax(data; axis): result := data; axis in [-ndim, ndim).
//   LayerNorm(data, gamma, beta; axis): gamma, beta := Tensor[(data.shape[axis]),
//     data.dtype]; result := data type.
//
// Deviations from TVM:
//  - Dense checks that the reduction dimensions agree (K of data vs the weight's
//    second dimension) by unification, also when units is given and the weight
//    known; older Relay never checked it. Symbolic K vs a different expression
//    is a residual (`n = 3`) or a clash, never a silent pass.
//  - BatchMatmul: the reduction dims are unified (Relay skips every check as soon
//    as one dimension is Any, and passes symbolic ones silently); the batch
//    dims broadcast as in `broadcastDim` (TVM takes max(B, B') for symbolic
//    batch sizes without checking); undecided → wait.
//  - BatchFlatten of a rank-0 tensor is an error (TVM waits forever, which ends
//    as "cannot infer"); a hole in the tail leaves the flattened dim open.
//  - BatchNorm/BiasAdd/LayerNorm/Softmax: as TVM; out-of-range axes are errors
//    naming the attribute.

import type { IDim } from './types.js';
import type { RelationFn } from './relation.js';
import { Pending, broadcastDim, dProduct, expectRank, expectTensor, finish, getBool, getInt, getIntOrNull, getString, normAxis } from './common.js';
import { isError } from './relation.js';
import { ANY, OPEN, intDim, printType, tensorType, tupleType } from './types.js';

export const batchNormRel: RelationFn = (args, out, attrs, r) => {
  for (const [i, name] of ['gamma', 'beta', 'moving_mean', 'moving_var'].entries()) {
    const a = args[i + 1]!;
    if (a.kind !== 'tensor' && a.kind !== 'hole') return r.fail(`${name} must be a tensor, got ${printType(a)}`);
  }
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const ndim = data.shape.length;
  const axis = getInt(attrs, 'axis');
  if (axis < -1 || axis >= ndim) return r.fail(`axis = ${axis} is out of range for rank ${ndim} (must be -1 or in [0, ${ndim - 1}])`);
  const c = data.shape[axis === -1 ? ndim - 1 : axis]!;
  const vec = tensorType([c], data.dtype);
  const names = ['gamma', 'beta', 'moving_mean', 'moving_var'];
  for (let i = 0; i < 4; i++) {
    const e = r.assign(args[i + 1]!, vec, names[i]!);
    if (e) return e;
  }
  return r.assign(out, tupleType([tensorType(data.shape, data.dtype), vec, vec]), 'the result') ?? 'done';
};

/** gamma, beta (or bias) := Tensor[(data.shape[axis]), data.dtype]; result := data. */
function channelVectors(names: readonly string[]): RelationFn {
  return (args, out, attrs, r) => {
    for (const [i, name] of names.entries()) {
      const a = args[i + 1]!;
      if (a.kind !== 'tensor' && a.kind !== 'hole') return r.fail(`${name} must be a tensor, got ${printType(a)}`);
    }
    const data = expectTensor(r, args[0]!, 'data');
    if (data === 'wait' || isError(data)) return data;
    const axis = normAxis(r, getInt(attrs, 'axis'), data.shape.length, 'axis');
    if (isError(axis)) return axis;
    const vec = tensorType([data.shape[axis]!], data.dtype);
    for (const [i, name] of names.entries()) {
      const e = r.assign(args[i + 1]!, vec, name);
      if (e) return e;
    }
    return r.assign(out, data, 'the result') ?? 'done';
  };
}

export const biasAddRel: RelationFn = channelVectors(['bias']);
export const layerNormRel: RelationFn = channelVectors(['gamma', 'beta']);

export const softmaxRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const axis = normAxis(r, getInt(attrs, 'axis'), data.shape.length, 'axis');
  if (isError(axis)) return axis;
  return r.assign(out, data, 'the result') ?? 'done';
};

export const denseRel: RelationFn = (args, out, attrs, r) => {
  const weightArg = args[1]!;
  if (weightArg.kind !== 'tensor' && weightArg.kind !== 'hole') return r.fail(`weight must be a tensor, got ${printType(weightArg)}`);
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  if (data.shape.length === 0) return r.fail(`data must have rank >= 1, got ${printType(data)}`);
  const k = data.shape[data.shape.length - 1]!;
  const units = getIntOrNull(attrs, 'units');
  let n: IDim;
  if (units !== null) {
    const w = tensorType([units, k], weightArg.kind === 'tensor' ? weightArg.dtype : data.dtype);
    const e = r.assign(weightArg, w, 'the weight');
    if (e) return e;
    n = intDim(units);
  } else {
    if (weightArg.kind !== 'tensor') return r.wait('the weight type is needed (or give units)');
    const e = expectRank(r, weightArg, 2, 'weight');
    if (e) return e;
    const e2 = r.assignDim(weightArg.shape[1]!, k, `the reduction dimensions differ: weight ${printType(weightArg)} vs data ${printType(data)} (weight.shape[1] vs data.shape[-1])`);
    if (e2) return e2;
    n = weightArg.shape[0]!;
  }
  const built = tensorType([...data.shape.slice(0, -1), n], getString(attrs, 'out_dtype') || data.dtype);
  return r.assign(out, built, 'the result') ?? 'done';
};

export const batchMatmulRel: RelationFn = (args, out, attrs, r) => {
  const a = expectTensor(r, args[0]!, 'tensor_a');
  const b = expectTensor(r, args[1]!, 'tensor_b');
  if (isError(a)) return a;
  if (isError(b)) return b;
  if (a === 'wait' || b === 'wait') return r.wait('the types of tensor_a and tensor_b are not known yet');
  const e0 = expectRank(r, a, 3, 'tensor_a') ?? expectRank(r, b, 3, 'tensor_b');
  if (e0) return e0;
  const ta = getBool(attrs, 'transpose_a');
  const tb = getBool(attrs, 'transpose_b');
  const [xb, xi, xk] = [a.shape[0]!, a.shape[ta ? 2 : 1]!, a.shape[ta ? 1 : 2]!];
  const [yb, yk, yj] = [b.shape[0]!, b.shape[tb ? 2 : 1]!, b.shape[tb ? 1 : 2]!];
  const e = r.assignDim(xk, yk, `the reduction dimensions differ: tensor_a ${printType(a)} vs tensor_b ${printType(b)} (transpose_a = ${ta ? 'True' : 'False'}, transpose_b = ${tb ? 'True' : 'False'})`);
  if (e) return e;
  const pending = new Pending();
  const bd = broadcastDim(xb, yb);
  let batch: IDim;
  if ('clash' in bd) return r.fail(`the batch dimensions do not broadcast (${bd.clash}): tensor_a ${printType(a)}, tensor_b ${printType(b)}`);
  if ('wait' in bd) {
    pending.note(bd.wait);
    batch = OPEN;
  } else batch = bd.dim;
  const built = tensorType([batch, xi, yj], getString(attrs, 'out_dtype') || a.dtype);
  const e2 = r.assign(out, built, 'the result');
  if (e2) return e2;
  return finish(r, pending, built);
};

export const batchFlattenRel: RelationFn = (args, out, _attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  if (data.shape.length === 0) return r.fail(`data must have rank >= 1, got ${printType(data)}`);
  const tail = data.shape.slice(1);
  const flat = tail.some((d) => d.kind === 'any') ? ANY : dProduct(tail);
  const built = tensorType([data.shape[0]!, flat], data.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, new Pending(), built);
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  BatchNorm: batchNormRel,
  BiasAdd: biasAddRel,
  Dense: denseRel,
  BatchMatmul: batchMatmulRel,
  BatchFlatten: batchFlattenRel,
  Softmax: softmaxRel,
  LayerNorm: layerNormRel,
};
