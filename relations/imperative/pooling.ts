// Pool1D/Pool2D/Pool3D (nn.max_pool1d/2d/3d, nn.avg_pool1d/2d/3d), GlobalPool2D
// (nn.global_avg_pool2d, nn.global_max_pool2d) and AdaptivePool1D/2D/3D
// (nn.adaptive_avg_pool1d/2d/3d, nn.adaptive_max_pool1d/2d/3d), after TVM's
// Pool1DRel/Pool2DRel/Pool3DRel, GlobalPool2DRel and AdaptivePool1DRel/2D/3D
// (src/relay/op/nn/pooling.cc) and calculate_pool_dimension (pooling_common.h).
//
// The layout is NCW / NCHW / NCDHW in any order, optionally packed (NCHW16c, NCHW4n4c:
// relations/layout.ts); N, C and sub-axes are copied. For
// each spatial axis:
//   dk  = (pool_size - 1) * dilation + 1
//   num = x + pad_total - dk
//   out = floor(num / stride) + 1                      (ceil_mode = False)
//   out = floor((num + stride - 1) / stride) + 1       (ceil_mode = True)
// Any in, Any out. Padding: one value (all sides), nd values (both sides of each
// axis) or 2 * nd values (all starts, then all ends). With ceil_mode the last
// window may start in the padding, or even past it: TVM's compute pads the end by
// stride - 1 more, and this relation follows TVM's formula (no PyTorch-style
// dropping of such a window). GlobalPool2D sets H and W to 1. Adaptive pooling
// sets the spatial axes to output_size (None: unchanged; one int: all axes).
// out_layout is ignored by the type relations, as in TVM.
//
// Deviations from TVM:
//  - adaptive pooling takes permutations of the canonical layout only (TVM also
//    accepts packed layouts such as NCHW16c there);
//  - the layout's primal axes must be exactly the canonical ones (TVM only needs
//    the spatial ones) and the input rank must equal its number of axes (TVM
//    only requires rank >= 2 and indexes by layout positions);
//  - the padded input must be at least as large as the dilated window (num >= 0);
//    TVM computes a zero or negative size silently (and rounds a negative num
//    towards zero). Undecided for symbolic sizes → a residual assumption;
//  - adaptive output_size entries must be ints (TVM also accepts None entries);
//  - a hole in a spatial dim leaves that output dimension open (the relation waits).

import type { IDim } from './types.js';
import type { AttrMap, RelationFn, RelError, Reporter } from './relation.js';
import { Pending, dAdd, dDiv, dMul, dSub, expectTensor, finish, getBool, getInts, getIntsOrNull, getString } from './common.js';
import { AXIS_NAME, canonicalLayouts, padTotalsNd } from './conv.js';
import { layoutView } from '../layout.js';
import { isError } from './relation.js';
import { ANY, intDim, printDim, printType, tensorType, type TensorType } from './types.js';

/**
 * Indices in the data of N, C and the spatial axes (canonical order), or an error.
 * The layout may be packed (NCHW16c): sub-axes are copied like N and C; a split
 * spatial axis is rejected, as TVM does. Adaptive pooling takes permutations only
 * (`packed` false).
 */
function axesOf(r: Reporter, attrs: AttrMap, nd: number, data: TensorType, packed = true): readonly number[] | RelError {
  const canon = canonicalLayouts(nd).data;
  const layout = getString(attrs, 'layout');
  const view = layoutView(layout, canon);
  if (typeof view === 'string') return r.fail(view);
  if (!packed && view.subs.length > 0) return r.fail(`layout "${layout}" is not supported (supported: the permutations of ${canon})`);
  const split = view.subs.find((s) => s.of >= 2);
  if (split !== undefined) return r.fail(`layout "${layout}" splits the spatial axis ${canon[split.of]} (pooling does not support it, as in TVM)`);
  if (data.shape.length !== view.axes.length)
    return r.fail(`layout "${layout}" has ${view.axes.length} axes but data ${printType(data)} has rank ${data.shape.length}`);
  return view.primalAt;
}

function poolRel(nd: number): RelationFn {
  const names = [...canonicalLayouts(nd).spatial].map((a) => AXIS_NAME[a]!);
  return (args, out, attrs, r) => {
    const data = expectTensor(r, args[0]!, 'data');
    if (data === 'wait' || isError(data)) return data;
    const idx = axesOf(r, attrs, nd, data);
    if (isError(idx)) return idx;
    const pool = getInts(attrs, 'pool_size', nd);
    const strides = getInts(attrs, 'strides', nd);
    const dilation = getInts(attrs, 'dilation', nd);
    const pads = padTotalsNd(getInts(attrs, 'padding'), nd);
    const ceil = getBool(attrs, 'ceil_mode');
    const pending = new Pending();
    const oshape: IDim[] = [...data.shape];
    for (let k = 0; k < nd; k++) {
      const at = idx[k + 2]!;
      const x = data.shape[at]!;
      if (x.kind === 'any') {
        oshape[at] = ANY;
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
      oshape[at] = dAdd(dDiv(num, strides[k]!), 1);
    }
    const built = tensorType(oshape, data.dtype);
    const e = r.assign(out, built, 'the result');
    if (e) return e;
    return finish(r, pending, built);
  };
}

export const pool1dRel = poolRel(1);
export const pool2dRel = poolRel(2);
export const pool3dRel = poolRel(3);

export const globalPool2dRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const idx = axesOf(r, attrs, 2, data);
  if (isError(idx)) return idx;
  const oshape: IDim[] = [...data.shape];
  oshape[idx[2]!] = intDim(1);
  oshape[idx[3]!] = intDim(1);
  return r.assign(out, tensorType(oshape, data.dtype), 'the result') ?? 'done';
};

function adaptivePoolRel(nd: number): RelationFn {
  return (args, out, attrs, r) => {
    const data = expectTensor(r, args[0]!, 'data');
    if (data === 'wait' || isError(data)) return data;
    const idx = axesOf(r, attrs, nd, data, false);
    if (isError(idx)) return idx;
    const size = getIntsOrNull(attrs, 'output_size', nd);
    const oshape: IDim[] = [...data.shape];
    if (size !== null) {
      const sizes = size.length === 1 ? Array.from({ length: nd }, () => size[0]!) : size;
      for (let k = 0; k < nd; k++) oshape[idx[k + 2]!] = intDim(sizes[k]!);
    }
    return r.assign(out, tensorType(oshape, data.dtype), 'the result') ?? 'done';
  };
}

export const adaptivePool1dRel = adaptivePoolRel(1);
export const adaptivePool2dRel = adaptivePoolRel(2);
export const adaptivePool3dRel = adaptivePoolRel(3);

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Pool1D: pool1dRel,
  Pool2D: pool2dRel,
  Pool3D: pool3dRel,
  GlobalPool2D: globalPool2dRel,
  AdaptivePool1D: adaptivePool1dRel,
  AdaptivePool2D: adaptivePool2dRel,
  AdaptivePool3D: adaptivePool3dRel,
};
