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
//    batch sizes without checking); undecided → the result has an open batch
//    dim and the relation waits. Each argument's rank is checked as soon as
//    that argument is known.
//  - Dense: a weight of rank != 2, and units that disagrees with a known
//    weight's rows, are errors even before the data is known.
//  - BatchFlatten of a rank-0 tensor is an error (TVM waits forever, which ends
//    as "cannot infer"); a hole in the tail leaves the flattened dim open.
//  - BatchNorm/BiasAdd/LayerNorm/Softmax: as TVM; out-of-range axes are errors
//    naming the attribute.
//
// New relations (nn.cc, nn.h, upsampling.cc, image/resize.cc):
//
//   Matmul(a, b; units, transpose_a = False, transpose_b = False) (MatmulRel):
//     a = (..., M, K), or (..., K, M) with transpose_a (rank >= 2 then, else
//     >= 1); b = (K, N), or (N, K) with transpose_b. With units: b := that shape
//     with N = units (dtype: b's if known, else a's); without: b must be 2-D and
//     known. result a.shape[:-2] + (M, N) (rank-1 a: (N)), dtype out_dtype or a's.
//   GroupNorm(data, gamma, beta; num_groups, axis): gamma, beta := (C), C =
//     data.shape[axis], axis in [-ndim, ndim); result := data.
//   InstanceNorm(data, gamma, beta; axis = 1): as LayerNorm.
//   LeakyRelu(data; alpha): result := data (IdentityRel).
//   PRelu(data, alpha; axis = 1): axis < ndim (TVM indexes the shape with it, so
//     a negative axis fails there too); alpha := (data.shape[axis]), data.dtype;
//     result := data.
//   Dropout(data; rate): result := (data, data) (DropoutRel).
//   UpSampling(data; scale_h, scale_w, layout): 4-D; H' = round(H * scale_h),
//     W' = round(W * scale_w), tvm::round of a constant is nearbyint: half to even.
//   DepthToSpace(data; block_size b, layout): (N, C / b^2, H * b, W * b).
//   SpaceToDepth(data; block_size b, layout): (N, C * b^2, H / b, W / b).
//   Resize2D(data; size, layout, out_dtype): (N, C, size[0], size[1]), dtype
//     out_dtype or data's.
//
// Deviations of the new relations from TVM:
//  - Matmul: the reduction dims are unified also when units is given and b is
//    known; units must agree with b's N (checked before waiting for a).
//  - GroupNorm: C % num_groups == 0 is required (TVM does not check);
//    DepthToSpace: C % b^2 == 0; SpaceToDepth: H % b == 0 and W % b == 0 (TVM
//    floors silently). Undecided symbolic conditions are residual assumptions.
//  - LeakyRelu, Dropout: a tuple argument is an error.
//  - UpSampling: a scale is a positive int or a float multiple of 1/8 in (0, 32]
//    (the rules keep floats as data and look them up in a table), else an error;
//    a symbolic H or W with a non-integral scale leaves that result dim open
//    (round(n * 1.5) has no exact expression); Any gives Any.
//  - All: a dim that is not known yet (a hole) leaves the result dims computed
//    from it open; the others are given. Any (`?`) in one argument never binds a
//    hole of another (a channel vector, a reduction dim): Any binds nothing.
//  - Resize2D: roi and tf_crop_and_resize are not supported; an image with
//    H * W = 0 provably cannot be resized to a non-empty output (nothing to
//    sample); when the output size is symbolic, that is a residual.
//  - UpSampling, DepthToSpace, SpaceToDepth, Resize2D: layout NCHW or NHWC only.

import type { IDim, TensorType } from './types.js';
import type { AttrMap, RelationFn, RelError, Reporter } from './relation.js';
import {
  Pending,
  broadcastDim,
  compareDims,
  dDiv,
  dMod,
  dMul,
  dProduct,
  expectRank,
  expectTensor,
  finish,
  getBool,
  getDims,
  getInt,
  getFloat,
  getIntOrNull,
  getString,
  normAxis,
  permutationOf,
} from './common.js';
import { isError } from './relation.js';
import { ANY, OPEN, intDim, printDim, printType, tensorType, tupleType } from './types.js';

export const batchNormRel: RelationFn = (args, out, attrs, r) => {
  for (const [i, name] of ['gamma', 'beta', 'moving_mean', 'moving_var'].entries()) {
    const a = args[i + 1]!;
    if (a.kind !== 'tensor' && a.kind !== 'hole') return r.fail(`${name} must be a tensor, got ${printType(a)}`);
  }
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const ndim = data.shape.length;
  const axis = getInt(attrs, 'axis');
  // a rank-0 input has no axis at all, not even the last one
  if (axis < -1 || axis >= ndim || ndim === 0) return r.fail(`axis = ${axis} is out of range for rank ${ndim} (must be -1 or in [0, ${ndim - 1}])`);
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
export const instanceNormRel: RelationFn = channelVectors(['gamma', 'beta']);

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
  const units = getIntOrNull(attrs, 'units');
  // a known weight is 2-D, and its rows agree with units, before waiting for the data
  if (weightArg.kind === 'tensor') {
    const e = expectRank(r, weightArg, 2, 'weight');
    if (e) return e;
  }
  if (units !== null && weightArg.kind === 'tensor' && compareDims(weightArg.shape[0]!, intDim(units), '!=') === true) {
    return r.fail(`units = ${units} but the weight ${printType(weightArg)} has ${printDim(weightArg.shape[0]!)} rows`);
  }
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  if (data.shape.length === 0) return r.fail(`data must have rank >= 1, got ${printType(data)}`);
  const k = data.shape[data.shape.length - 1]!;
  let n: IDim;
  if (units !== null) {
    const w = tensorType([units, k], weightArg.kind === 'tensor' ? weightArg.dtype : data.dtype);
    const e = r.assign(weightArg, w, 'the weight');
    if (e) return e;
    n = intDim(units);
  } else {
    if (weightArg.kind !== 'tensor') return r.wait('the weight type is needed (or give units)');
    const e2 = r.assignDim(
      weightArg.shape[1]!,
      k,
      `the reduction dimensions differ: weight ${printType(weightArg)} vs data ${printType(data)} (weight.shape[1] vs data.shape[-1])`,
    );
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
  // each rank on its own, before waiting for the other argument
  const e0 = (a === 'wait' ? null : expectRank(r, a, 3, 'tensor_a')) ?? (b === 'wait' ? null : expectRank(r, b, 3, 'tensor_b'));
  if (e0) return e0;
  if (a === 'wait' || b === 'wait') return r.wait('the types of tensor_a and tensor_b are not known yet');
  const ta = getBool(attrs, 'transpose_a');
  const tb = getBool(attrs, 'transpose_b');
  const [xb, xi, xk] = [a.shape[0]!, a.shape[ta ? 2 : 1]!, a.shape[ta ? 1 : 2]!];
  const [yb, yk, yj] = [b.shape[0]!, b.shape[tb ? 2 : 1]!, b.shape[tb ? 1 : 2]!];
  const e = r.assignDim(
    xk,
    yk,
    `the reduction dimensions differ: tensor_a ${printType(a)} vs tensor_b ${printType(b)} (transpose_a = ${ta ? 'True' : 'False'}, transpose_b = ${tb ? 'True' : 'False'})`,
  );
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

export const matmulRel: RelationFn = (args, out, attrs, r) => {
  const b = args[1]!;
  if (b.kind !== 'tensor' && b.kind !== 'hole') return r.fail(`tensor_b must be a tensor, got ${printType(b)}`);
  const ta = getBool(attrs, 'transpose_a');
  const tb = getBool(attrs, 'transpose_b');
  const units = getIntOrNull(attrs, 'units');
  // tensor_b on its own: 2-D, and its N agrees with units
  if (b.kind === 'tensor') {
    const e = expectRank(r, b, 2, 'tensor_b');
    if (e) return e;
    const bn = b.shape[tb ? 0 : 1]!;
    if (units !== null && compareDims(bn, intDim(units), '!=') === true)
      return r.fail(`units = ${units} but tensor_b ${printType(b)} has ${printDim(bn)} units`);
  }
  const a = expectTensor(r, args[0]!, 'tensor_a');
  if (a === 'wait' || isError(a)) return a;
  const rank = a.shape.length;
  const minRank = ta ? 2 : 1;
  if (rank < minRank) return r.fail(`tensor_a must have rank >= ${minRank} (transpose_a = ${ta ? 'True' : 'False'}), got ${printType(a)}`);
  const k = a.shape[ta ? rank - 2 : rank - 1]!;
  const prefix = ta ? [...a.shape.slice(0, -2), a.shape[rank - 1]!] : a.shape.slice(0, -1);
  let n: IDim;
  if (units !== null) {
    const w = tensorType(tb ? [intDim(units), k] : [k, intDim(units)], b.kind === 'tensor' ? b.dtype : a.dtype);
    const e = r.assign(b, w, 'tensor_b');
    if (e) return e;
    n = intDim(units);
  } else {
    if (b.kind !== 'tensor') return r.wait('the type of tensor_b is needed (or give units)');
    const bk = b.shape[tb ? 1 : 0]!;
    const e = r.assignDim(
      bk,
      k,
      `the reduction dimensions differ: tensor_a ${printType(a)} vs tensor_b ${printType(b)} (transpose_a = ${ta ? 'True' : 'False'}, transpose_b = ${tb ? 'True' : 'False'})`,
    );
    if (e) return e;
    n = b.shape[tb ? 0 : 1]!;
  }
  const built = tensorType([...prefix, n], getString(attrs, 'out_dtype') || a.dtype);
  return r.assign(out, built, 'the result') ?? 'done';
};

export const groupNormRel: RelationFn = (args, out, attrs, r) => {
  for (const [i, name] of ['gamma', 'beta'].entries()) {
    const g = args[i + 1]!;
    if (g.kind !== 'tensor' && g.kind !== 'hole') return r.fail(`${name} must be a tensor, got ${printType(g)}`);
  }
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const axis = normAxis(r, getInt(attrs, 'axis'), data.shape.length, 'axis');
  if (isError(axis)) return axis;
  const c = data.shape[axis]!;
  const groups = getInt(attrs, 'num_groups');
  const pending = new Pending();
  const e0 = pending.check(
    r.require(dMod(c, groups), '==', intDim(0), `${printDim(c)} channels (axis ${axis} of ${printType(data)}) are not divisible by num_groups = ${groups}`),
    'the channel count is not known yet',
  );
  if (e0) return e0;
  const vec = tensorType([c], data.dtype);
  for (const [i, name] of ['gamma', 'beta'].entries()) {
    const e = r.assign(args[i + 1]!, vec, name);
    if (e) return e;
  }
  const e = r.assign(out, data, 'the result');
  if (e) return e;
  return finish(r, pending, data);
};

/** result := data for a tensor (IdentityRel); a tuple is an error. */
export const leakyReluRel: RelationFn = (args, out, _attrs, r) => {
  const data = args[0]!;
  if (data.kind === 'tuple') return r.fail(`data must be a tensor, got ${printType(data)}`);
  const e = r.assign(out, data, 'the result');
  if (e) return e;
  return data.kind === 'hole' ? r.wait('the type of data is not known yet') : 'done';
};

export const preluRel: RelationFn = (args, out, attrs, r) => {
  const alpha = args[1]!;
  if (alpha.kind !== 'tensor' && alpha.kind !== 'hole') return r.fail(`alpha must be a tensor, got ${printType(alpha)}`);
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const ndim = data.shape.length;
  const axis = getInt(attrs, 'axis');
  if (axis < 0 || axis >= ndim) return r.fail(`axis = ${axis} is out of range for rank ${ndim} (nn.prelu takes an axis in [0, ${ndim - 1}], as TVM)`);
  const e = r.assign(alpha, tensorType([data.shape[axis]!], data.dtype), 'alpha');
  if (e) return e;
  return r.assign(out, data, 'the result') ?? 'done';
};

export const dropoutRel: RelationFn = (args, out, _attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  return r.assign(out, tupleType([data, data]), 'the result') ?? 'done';
};

// ─── Resampling (4-D, NCHW or NHWC) ───────────────────────────────────────────

/** The data as (N, C, H, W) with the layout's permutation; an error for another rank or layout. */
function nchwDims(r: Reporter, data: TensorType, attrs: AttrMap): { dims: IDim[]; perm: number[] } | RelError {
  const layout = getString(attrs, 'layout');
  const perm = permutationOf(layout, 'NCHW');
  if (perm === null) return r.fail(`layout must be a permutation of NCHW, got "${layout}"`);
  if (data.shape.length !== 4) return r.fail(`the data must have rank 4, got ${printType(data)}`);
  return { dims: perm.map((i) => data.shape[i]!), perm };
}

/** (N, C, H, W) back into the layout. */
function inLayout(dims: readonly IDim[], perm: readonly number[]): IDim[] {
  const out: IDim[] = new Array<IDim>(4);
  perm.forEach((pos, i) => {
    out[pos] = dims[i]!;
  });
  return out;
}

/** A scale as a fraction p / q: a positive int, or a float multiple of 1/8 in (0, 32]; null otherwise. */
export function scaleFraction(attrs: AttrMap, name: string): [number, number] | null {
  const v = attrs.get(name);
  if (v === undefined || (v.kind !== 'int' && v.kind !== 'float')) return null;
  if (v.kind === 'int') return v.value > 0 ? [v.value, 1] : null;
  const eighths = v.value * 8;
  if (!Number.isInteger(eighths) || eighths < 1 || eighths > 256) return null;
  let [p, q] = [eighths, 8];
  while (q > 1 && p % 2 === 0) [p, q] = [p / 2, q / 2];
  return [p, q];
}

/** round(d * p / q), half to even (Any gives Any); null when it has no exact expression (symbolic d or a hole, q > 1). */
export function scaledDim(d: IDim, [p, q]: [number, number]): IDim | null {
  if (q === 1 || d.kind === 'any') return dMul(d, p);
  if (d.kind !== 'int') return null;
  const x = d.value * p;
  const f = Math.floor(x / q);
  const twice = 2 * (x - f * q);
  return intDim(twice > q ? f + 1 : twice < q ? f : f + (f % 2));
}

export const upSamplingRel: RelationFn = (args, out, attrs, r) => {
  const scales: [number, number][] = [];
  for (const name of ['scale_h', 'scale_w']) {
    const s = scaleFraction(attrs, name);
    if (s === null) return r.fail(`${name} = ${getFloat(attrs, name)} is not supported: a scale is a positive int or a multiple of 1/8 in (0, 32]`);
    scales.push(s);
  }
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const nchw = nchwDims(r, data, attrs);
  if (isError(nchw)) return nchw;
  const [n, c, h, w] = nchw.dims as [IDim, IDim, IDim, IDim];
  // round(H * scale) of a symbolic size has no exact expression: that dim stays open
  const oh = scaledDim(h, scales[0]!) ?? OPEN;
  const ow = scaledDim(w, scales[1]!) ?? OPEN;
  const built = tensorType(inLayout([n, c, oh, ow], nchw.perm), data.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, new Pending(), built);
};

export const depthToSpaceRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const nchw = nchwDims(r, data, attrs);
  if (isError(nchw)) return nchw;
  const [n, c, h, w] = nchw.dims as [IDim, IDim, IDim, IDim];
  const b = getInt(attrs, 'block_size');
  const pending = new Pending();
  const e = pending.check(
    r.require(dMod(c, b * b), '==', intDim(0), `${printDim(c)} channels are not divisible by block_size^2 = ${b * b} (${printType(data)})`),
    'the channel count is not known yet',
  );
  if (e) return e;
  const built = tensorType(inLayout([n, dDiv(c, b * b), dMul(h, b), dMul(w, b)], nchw.perm), data.dtype);
  const e2 = r.assign(out, built, 'the result');
  if (e2) return e2;
  return finish(r, pending, built);
};

export const spaceToDepthRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const nchw = nchwDims(r, data, attrs);
  if (isError(nchw)) return nchw;
  const [n, c, h, w] = nchw.dims as [IDim, IDim, IDim, IDim];
  const b = getInt(attrs, 'block_size');
  const pending = new Pending();
  for (const [what, d] of [
    ['height', h],
    ['width', w],
  ] as const) {
    const e = pending.check(
      r.require(dMod(d, b), '==', intDim(0), `${what} ${printDim(d)} is not divisible by block_size = ${b} (${printType(data)})`),
      `the ${what} is not known yet`,
    );
    if (e) return e;
  }
  const built = tensorType(inLayout([n, dMul(c, b * b), dDiv(h, b), dDiv(w, b)], nchw.perm), data.dtype);
  const e2 = r.assign(out, built, 'the result');
  if (e2) return e2;
  return finish(r, pending, built);
};

export const resize2dRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const nchw = nchwDims(r, data, attrs);
  if (isError(nchw)) return nchw;
  const [n, c, h, w] = nchw.dims as [IDim, IDim, IDim, IDim];
  const [oh, ow] = getDims(attrs, 'size') as [IDim, IDim];
  const pending = new Pending();
  // nothing to sample from: an empty image can only give an empty result
  if (compareDims(dMul(h, w), intDim(0), '==') === true) {
    const e = pending.check(
      r.require(
        dProduct([n, c, oh, ow]),
        '==',
        intDim(0),
        `cannot resize an empty ${printDim(h)} x ${printDim(w)} image to ${printDim(oh)} x ${printDim(ow)} (${printType(data)})`,
      ),
      'the data size is not known yet',
    );
    if (e) return e;
  }
  const built = tensorType(inLayout([n, c, oh, ow], nchw.perm), getString(attrs, 'out_dtype') || data.dtype);
  const e2 = r.assign(out, built, 'the result');
  if (e2) return e2;
  return finish(r, pending, built);
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
  Matmul: matmulRel,
  GroupNorm: groupNormRel,
  InstanceNorm: instanceNormRel,
  LeakyRelu: leakyReluRel,
  PRelu: preluRel,
  Dropout: dropoutRel,
  UpSampling: upSamplingRel,
  DepthToSpace: depthToSpaceRel,
  SpaceToDepth: spaceToDepthRel,
  Resize2D: resize2dRel,
};
