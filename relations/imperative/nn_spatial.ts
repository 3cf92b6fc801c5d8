// Spatial relations of the nn family beyond nn.ts, conv.ts and pooling.ts, after TVM's
// src/relay/op/nn/nn.cc (DilateRel, SpaceToBatchNDRel, BatchToSpaceNDRel), pad.cc
// (MirrorPadRel) and correlation.cc (CorrelationRel):
//
//   Dilate(data; strides): out_i = (d_i - 1) * strides_i + 1, len(strides) = rank.
//   MirrorPad(data; pad_width, mode): out_i = d_i + before_i + after_i.
//   SpaceToBatchND(data; block_shape b (M axes), paddings p): (N * prod(b),
//     (d_1 + p_1) / b_1, ..., (d_M + p_M) / b_M, rest...).
//   BatchToSpaceND(data; block_shape b, crops c): (N / prod(b), d_1 * b_1 - c_1, ...,
//     rest...).
//   GlobalPool1D(data; layout NCW / NWC): W := 1 (the Python API's global_*_pool1d,
//     which TVM builds as adaptive pooling with output_size [1]).
//   Correlation(data1, data2; kernel_size k, max_displacement md, stride1 s1,
//     stride2 s2, padding p): (N, (2 * floor(md / s2) + 1)^2, o_h, o_w) with
//     o = ceil((x + 2p - 2 * border) / s1), border = md + floor((k - 1) / 2).
//
// Deviations from TVM (stricter):
//  - Dilate: a size that would be negative (d = 0 with a stride > 1) is an error;
//  - MirrorPad: SYMMETRIC needs pad <= d, REFLECT pad < d where it pads (TOPI reads
//    out of bounds otherwise);
//  - SpaceToBatchND: every padded spatial size divisible by its block; BatchToSpaceND:
//    N divisible by prod(block_shape) and crops leaving sizes >= 0 (TVM divides and
//    subtracts silently); both need rank > M (TVM waits forever on rank <= 1);
//  - Correlation: data2 must have data1's shape and dtype, kernel_size must be odd,
//    and every output size >= 1; NCHW only.
// Undecided symbolic conditions are residual assumptions. A result dim computed from a
// dim that is not known yet (a hole) makes the relation wait without a result, as the
// rules (their arithmetic needs known dims).

import type { IDim, IType, TensorType } from './types.js';
import type { RelationFn, RelError, Reporter } from './relation.js';
import { Pending, dAdd, dDiv, dMod, dMul, dSub, expectTensor, finish, getInt, getInts, getString, hasOpen, tensorOrHole } from './common.js';
import { isError } from './relation.js';
import { intDim, printDim, printType, tensorType } from './types.js';

/** Assigns the result unless some dim is open (then waits without one); finishes with the pending checks. */
function assignKnown(r: Reporter, out: IType, pending: Pending, built: TensorType): 'done' | 'wait' | RelError {
  if (hasOpen(built)) return r.wait('some dimensions of data are not known yet');
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
}

export const dilateRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const strides = getInts(attrs, 'strides');
  if (strides.length !== data.shape.length) return r.fail(`strides [${strides.join(', ')}] must have one entry per axis of ${printType(data)}`);
  const pending = new Pending();
  const oshape: IDim[] = [];
  for (const [i, d] of data.shape.entries()) {
    const o = dAdd(dMul(dSub(d, 1), strides[i]!), 1);
    const e = pending.check(
      r.require(o, '>=', intDim(0), `axis ${i} of size ${printDim(d)} dilated by ${strides[i]} would have a negative size`),
      'a dimension is not known yet',
    );
    if (e) return e;
    oshape.push(o);
  }
  return assignKnown(r, out, pending, tensorType(oshape, data.dtype));
};

export const mirrorPadRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const pw = getInts(attrs, 'pad_width');
  if (pw.length !== 2 * data.shape.length) return r.fail(`pad_width [${pw.join(', ')}] must hold a (before, after) pair per axis of ${printType(data)}`);
  // SYMMETRIC mirrors the edge element too (pad <= d), REFLECT does not (pad < d)
  const margin = getString(attrs, 'mode') === 'REFLECT' ? 1 : 0;
  const pending = new Pending();
  const oshape: IDim[] = [];
  for (const [i, d] of data.shape.entries()) {
    const [before, after] = [pw[2 * i]!, pw[2 * i + 1]!];
    for (const p of [before, after]) {
      if (p === 0) continue;
      const e = pending.check(
        r.require(d, '>=', intDim(p + margin), `mode ${getString(attrs, 'mode')} cannot mirror axis ${i} of ${printType(data)} by ${p}`),
        'a padded dimension is not known yet',
      );
      if (e) return e;
    }
    oshape.push(dAdd(d, before + after));
  }
  return assignKnown(r, out, pending, tensorType(oshape, data.dtype));
};

/** The data of a block relation (SpaceToBatchND, BatchToSpaceND): a tensor of rank > M with one pair per block axis. */
function blockData(r: Reporter, arg: IType, blocks: readonly number[], pairs: readonly number[], pairName: string): TensorType | 'wait' | RelError {
  if (pairs.length !== 2 * blocks.length)
    return r.fail(`${pairName} must hold one pair per block axis: ${2 * blocks.length} ints for block_shape [${blocks.join(', ')}]`);
  const data = expectTensor(r, arg, 'data');
  if (data === 'wait' || isError(data)) return data;
  if (data.shape.length <= blocks.length) return r.fail(`data ${printType(data)} has no ${blocks.length} spatial axes after the batch`);
  return data;
}

export const spaceToBatchNdRel: RelationFn = (args, out, attrs, r) => {
  const blocks = getInts(attrs, 'block_shape');
  const pads = getInts(attrs, 'paddings');
  const data = blockData(r, args[0]!, blocks, pads, 'paddings');
  if (data === 'wait' || isError(data)) return data;
  const pending = new Pending();
  const [n, ...rest] = data.shape as [IDim, ...IDim[]];
  const oshape: IDim[] = [
    dMul(
      n,
      blocks.reduce((a, b) => a * b, 1),
    ),
  ];
  for (const [i, b] of blocks.entries()) {
    const padded = dAdd(rest[i]!, pads[2 * i]! + pads[2 * i + 1]!);
    const e = pending.check(
      r.require(dMod(padded, b), '==', intDim(0), `spatial axis ${i} padded to ${printDim(padded)} is not divisible by its block size ${b}`),
      'a spatial dimension is not known yet',
    );
    if (e) return e;
    oshape.push(dDiv(padded, b));
  }
  oshape.push(...rest.slice(blocks.length));
  return assignKnown(r, out, pending, tensorType(oshape, data.dtype));
};

export const batchToSpaceNdRel: RelationFn = (args, out, attrs, r) => {
  const blocks = getInts(attrs, 'block_shape');
  const crops = getInts(attrs, 'crops');
  const data = blockData(r, args[0]!, blocks, crops, 'crops');
  if (data === 'wait' || isError(data)) return data;
  const pending = new Pending();
  const [n, ...rest] = data.shape as [IDim, ...IDim[]];
  const count = blocks.reduce((a, b) => a * b, 1);
  const e = pending.check(
    r.require(dMod(n, count), '==', intDim(0), `the batch ${printDim(n)} is not divisible by the number of blocks ${count}`),
    'the batch is not known yet',
  );
  if (e) return e;
  const oshape: IDim[] = [dDiv(n, count)];
  for (const [i, b] of blocks.entries()) {
    const o = dSub(dMul(rest[i]!, b), crops[2 * i]! + crops[2 * i + 1]!);
    const e2 = pending.check(
      r.require(o, '>=', intDim(0), `spatial axis ${i} of size ${printDim(rest[i]!)} cannot lose ${crops[2 * i]! + crops[2 * i + 1]!} to crops`),
      'a spatial dimension is not known yet',
    );
    if (e2) return e2;
    oshape.push(o);
  }
  oshape.push(...rest.slice(blocks.length));
  return assignKnown(r, out, pending, tensorType(oshape, data.dtype));
};

export const globalPool1dRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  if (data.shape.length !== 3) return r.fail(`the data must have rank 3, got ${printType(data)}`);
  const oshape = [...data.shape];
  oshape[getString(attrs, 'layout').indexOf('W')] = intDim(1);
  return r.assign(out, tensorType(oshape, data.dtype), 'the result') ?? 'done';
};

export const correlationRel: RelationFn = (args, out, attrs, r) => {
  const k = getInt(attrs, 'kernel_size');
  if (k % 2 === 0) return r.fail(`kernel_size ${k} must be odd`);
  const a = tensorOrHole(r, args[0]!, 'data1', 4);
  if (isError(a)) return a;
  const b = tensorOrHole(r, args[1]!, 'data2', 4);
  if (isError(b)) return b;
  if (a === null || b === null) return r.wait('data1 and data2 are not both known yet');
  if (typeof a.dtype === 'string' && typeof b.dtype === 'string' && a.dtype !== b.dtype) return r.fail(`data2 has dtype ${b.dtype}, data1 ${a.dtype}`);
  const pending = new Pending();
  for (const [i, d] of a.shape.entries()) {
    const e = pending.check(r.require(b.shape[i]!, '==', d, `data2 ${printType(b)} must have data1's shape ${printType(a)}`), 'the shapes are not known yet');
    if (e) return e;
  }
  const md = getInt(attrs, 'max_displacement');
  const [s1, s2, p] = [getInt(attrs, 'stride1'), getInt(attrs, 'stride2'), getInt(attrs, 'padding')];
  const border = md + Math.floor((k - 1) / 2);
  const span = Math.floor(md / s2) * 2 + 1;
  const sizes: IDim[] = [];
  for (const x of [a.shape[2]!, a.shape[3]!]) {
    const room = dSub(dAdd(x, 2 * p), 2 * border);
    const e = pending.check(
      r.require(room, '>=', intDim(1), `the padded map ${printDim(dAdd(x, 2 * p))} is not larger than twice the border ${border}`),
      'the map size is not known yet',
    );
    if (e) return e;
    sizes.push(dDiv(dAdd(room, s1 - 1), s1));
  }
  return assignKnown(r, out, pending, tensorType([a.shape[0]!, intDim(span * span), ...sizes], a.dtype));
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Dilate: dilateRel,
  MirrorPad: mirrorPadRel,
  SpaceToBatchND: spaceToBatchNdRel,
  BatchToSpaceND: batchToSpaceNdRel,
  GlobalPool1D: globalPool1dRel,
  Correlation: correlationRel,
};
