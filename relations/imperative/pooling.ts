// Pool2D (nn.max_pool2d, nn.avg_pool2d) and GlobalPool2D (nn.global_avg_pool2d),
// after TVM's Pool2DRel / GlobalPool2DRel (src/relay/op/nn/pooling.cc) and
// calculate_pool_dimension (pooling_common.h).
//
// The layout names the axes (`NCHW`, `NHWC`, `NCHW16c`); H and W must be primal
// axes (not split). Every other dimension is copied. For H (likewise W):
//   dk  = (pool_size - 1) * dilation + 1
//   num = H + pad_top + pad_bottom - dk
//   out = floor(num / stride) + 1                      (ceil_mode = False)
//   out = floor((num + stride - 1) / stride) + 1       (ceil_mode = True)
// Any in, Any out. Padding: one value, (top = bottom, left = right) or
// (top, left, bottom, right). GlobalPool2D sets H and W to 1. out_layout is
// ignored by the type relation, as in TVM.
//
// Deviations from TVM:
//  - the input rank must equal the number of axes of the layout (TVM only
//    requires rank >= 2 and indexes the shape by the layout's positions);
//  - the padded input must be at least as large as the dilated window (num >= 0);
//    TVM computes a zero or negative size silently (and rounds a negative num
//    towards zero). Undecided for symbolic sizes → a residual assumption;
//  - a hole in H or W leaves that output dimension open (the relation waits).

import type { IDim } from './types.js';
import type { RelationFn, RelError, Reporter } from './relation.js';
import { Pending, dAdd, dDiv, dMul, dSub, expectTensor, finish, getBool, getInts, getString, layoutAxes } from './common.js';
import { padTotals } from './conv.js';
import { isError } from './relation.js';
import { ANY, intDim, printDim, printType, tensorType } from './types.js';

/** Indices of H and W in the layout, or an error. */
function spatialAxes(r: Reporter, layout: string, rank: number, dataText: string): [number, number] | RelError {
  const axes = layoutAxes(layout);
  if (axes === null) return r.fail(`layout "${layout}" is not a valid layout`);
  const h = axes.indexOf('H');
  const w = axes.indexOf('W');
  if (h < 0 || w < 0 || axes.some((a) => /^[0-9]+[hw]$/.test(a))) {
    return r.fail(`layout "${layout}" must have H and W axes, which cannot be split`);
  }
  if (axes.length !== rank) return r.fail(`layout "${layout}" has ${axes.length} axes but data ${dataText} has rank ${rank}`);
  return [h, w];
}

export const pool2dRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const hw = spatialAxes(r, getString(attrs, 'layout'), data.shape.length, printType(data));
  if (isError(hw)) return hw;
  const pool = getInts(attrs, 'pool_size', 2);
  const strides = getInts(attrs, 'strides', 2);
  const dilation = getInts(attrs, 'dilation', 2);
  const pads = padTotals(getInts(attrs, 'padding'));
  const ceil = getBool(attrs, 'ceil_mode');
  const pending = new Pending();
  const oshape: IDim[] = [...data.shape];
  const names = ['height', 'width'];
  for (let k = 0; k < 2; k++) {
    const idx = hw[k]!;
    const x = data.shape[idx]!;
    if (x.kind === 'any') {
      oshape[idx] = ANY;
      continue;
    }
    const dk = dAdd(dMul(intDim(pool[k]! - 1), dilation[k]!), 1);
    const padded = dAdd(x, pads[k]!);
    const e = pending.check(
      r.require(padded, '>=', dk, `the padded input ${names[k]} ${printDim(padded)} is smaller than the (dilated) pool window ${printDim(dk)}`),
      `the input ${names[k]} is not known yet`,
    );
    if (e) return e;
    let num = dSub(padded, dk);
    if (ceil) num = dAdd(num, strides[k]! - 1);
    oshape[idx] = dAdd(dDiv(num, strides[k]!), 1);
  }
  const built = tensorType(oshape, data.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

export const globalPool2dRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const hw = spatialAxes(r, getString(attrs, 'layout'), data.shape.length, printType(data));
  if (isError(hw)) return hw;
  const oshape: IDim[] = [...data.shape];
  oshape[hw[0]] = intDim(1);
  oshape[hw[1]] = intDim(1);
  return r.assign(out, tensorType(oshape, data.dtype), 'the result') ?? 'done';
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Pool2D: pool2dRel,
  GlobalPool2D: globalPool2dRel,
};
