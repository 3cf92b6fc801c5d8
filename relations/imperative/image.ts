// Image relations beyond Resize2D, after TVM's src/relay/op/image/resize.cc
// (Resize1DRel, Resize3DRel, CropAndResizeRel), grid_sample.cc (AffineGridRel,
// GridSampleRel), dilation2d.cc (Dilation2DRel) and nn/upsampling.cc (UpSampling3DRel):
//
//   Resize1D(data; size, layout): (N, C, size[0]) in NCW / NWC, dtype out_dtype or data's.
//   Resize3D(data; size, layout): (N, C, size[0..2]) in NCDHW / NDHWC.
//   UpSampling3D(data; scale_d, scale_h, scale_w, layout): D, H, W := round(x * scale),
//     half to even (as nn.upsampling).
//   AffineGrid(data; target_shape): data (N, 2, 3) -> (N, 2, target_shape...).
//   GridSample(data, grid): (N, C, grid.shape[2], grid.shape[3]), data's dtype.
//   CropAndResize(data, boxes, box_indices; crop_size, layout):
//     (boxes.shape[0], C, crop_size...) in the layout.
//   Dilation2D(data, weight; strides, padding, dilations): weight (I, KH, KW) in
//     IHW / HWI; out (N, I, o_h, o_w), o = floor((x + pad_total - dk) / stride) + 1,
//     dk = (k - 1) * dilation + 1; Any in, Any out.
//
// Deviations from TVM (stricter unless said):
//  - layouts: only the listed ones (TVM converts any layout its BijectiveLayout knows);
//  - Resize1D/3D: an empty signal or volume cannot be resized to a non-empty output;
//  - UpSampling3D: scales as nn.upsampling (positive ints or multiples of 1/8 up to
//    32); the result waits until D, H and W are known, and stays unknown for a
//    non-integral scale of a symbolic size;
//  - AffineGrid: another rank is an error, 2 and 3 are required (residual if symbolic);
//  - GridSample: the grid must be (N, 2, OH, OW) with the data's N; NCHW only;
//  - CropAndResize: boxes must be (B, 4) and box_indices (B);
//  - Dilation2D: the weight's I must equal C; the padded input must hold the dilated
//    window; the result waits until H, W and the kernel sizes are known.
// Each argument's own errors (a tuple, a wrong rank) are reported before the relation
// waits for another argument, as the rules do.

import type { IDim, TensorType } from './types.js';
import type { RelationFn, RelError, Reporter } from './relation.js';
import {
  Pending,
  compareDims,
  dAdd,
  dDiv,
  dMul,
  dProduct,
  dSub,
  expectTensor,
  finish,
  getDims,
  getFloat,
  getInts,
  getString,
  permutationOf,
  tensorOrHole,
} from './common.js';
import { padTotals } from './conv.js';
import { scaleFraction, scaledDim } from './nn.js';
import { isError } from './relation.js';
import { intDim, printDim, printType, tensorType } from './types.js';

/** The data's dims in canonical order (the layout is a permutation of `canonical`) and the permutation. */
function canonicalDims(data: TensorType, layout: string, canonical: string): { dims: IDim[]; perm: number[] } {
  const perm = permutationOf(layout, canonical);
  if (perm === null) throw new Error(`internal: layout ${layout} is not a permutation of ${canonical} (attributes must be checked first)`);
  return { dims: perm.map((i) => data.shape[i]!), perm };
}

/** Canonical dims back into the layout. */
function inLayout(dims: readonly IDim[], perm: readonly number[]): IDim[] {
  const out: IDim[] = new Array<IDim>(dims.length);
  perm.forEach((pos, i) => {
    out[pos] = dims[i]!;
  });
  return out;
}

/** image.resize1d / resize3d: the spatial dims become `size`. */
function resizeNdRel(canonical: string): RelationFn {
  const nd = canonical.length - 2;
  return (args, out, attrs, r) => {
    const data = expectTensor(r, args[0]!, 'data');
    if (data === 'wait' || isError(data)) return data;
    if (data.shape.length !== nd + 2) return r.fail(`the data must have rank ${nd + 2}, got ${printType(data)}`);
    const {
      dims: [n, c, ...xs],
      perm,
    } = canonicalDims(data, getString(attrs, 'layout'), canonical);
    const size = getDims(attrs, 'size');
    const pending = new Pending();
    // nothing to sample from: an empty input can only give an empty result
    if (compareDims(dProduct(xs), intDim(0), '==') === true) {
      const e = pending.check(
        r.require(
          dProduct([n!, c!, ...size]),
          '==',
          intDim(0),
          `cannot resize an empty input ${printType(data)} to size [${size.map((d) => printDim(d)).join(', ')}]`,
        ),
        'the data size is not known yet',
      );
      if (e) return e;
    }
    const built = tensorType(inLayout([n!, c!, ...size], perm), getString(attrs, 'out_dtype') || data.dtype);
    const e = r.assign(out, built, 'the result');
    if (e) return e;
    return finish(r, pending, built);
  };
}

export const resize1dRel = resizeNdRel('NCW');
export const resize3dRel = resizeNdRel('NCDHW');

export const upSampling3dRel: RelationFn = (args, out, attrs, r) => {
  const scales: [number, number][] = [];
  for (const name of ['scale_d', 'scale_h', 'scale_w']) {
    const s = scaleFraction(attrs, name);
    if (s === null) return r.fail(`${name} = ${getFloat(attrs, name)} is not supported: a scale is a positive int or a multiple of 1/8 in (0, 32]`);
    scales.push(s);
  }
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  if (data.shape.length !== 5) return r.fail(`the data must have rank 5, got ${printType(data)}`);
  const {
    dims: [n, c, ...xs],
    perm,
  } = canonicalDims(data, getString(attrs, 'layout'), 'NCDHW');
  if (xs.some((x) => x.kind === 'hole')) return r.wait('the spatial dims of the data are not known yet');
  const scaled = xs.map((x, i) => scaledDim(x, scales[i]!));
  if (scaled.some((x) => x === null)) return r.wait('round(n * scale) of a symbolic size with a non-integral scale has no exact expression');
  return r.assign(out, tensorType(inLayout([n!, c!, ...(scaled as IDim[])], perm), data.dtype), 'the result') ?? 'done';
};

export const affineGridRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  if (data.shape.length !== 3) return r.fail(`the affine matrices must have shape (N, 2, 3), got ${printType(data)}`);
  const [n, rows, cols] = data.shape as [IDim, IDim, IDim];
  const pending = new Pending();
  for (const [d, want] of [
    [rows, 2],
    [cols, 3],
  ] as const) {
    const e = pending.check(
      r.require(d, '==', intDim(want), `the affine matrices must have shape (N, 2, 3), got ${printType(data)}`),
      'the matrix shape is not known yet',
    );
    if (e) return e;
  }
  const [h, w] = getInts(attrs, 'target_shape');
  const built = tensorType([n, intDim(2), intDim(h!), intDim(w!)], data.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

export const gridSampleRel: RelationFn = (args, out, _attrs, r) => {
  const data = tensorOrHole(r, args[0]!, 'data', 4);
  if (isError(data)) return data;
  const grid = tensorOrHole(r, args[1]!, 'the grid', 4);
  if (isError(grid)) return grid;
  const pending = new Pending();
  if (grid !== null) {
    const e = pending.check(
      r.require(grid.shape[1]!, '==', intDim(2), `the grid must hold 2 coordinates (x, y), got ${printType(grid)}`),
      'the grid shape is not known yet',
    );
    if (e) return e;
  }
  if (data === null || grid === null) return r.wait('the data and the grid are not both known yet');
  const [n, c] = data.shape as [IDim, IDim];
  const e = pending.check(
    r.require(grid.shape[0]!, '==', n, `the grid has batch ${printDim(grid.shape[0]!)}, the data ${printDim(n)}`),
    'the batch sizes are not known yet',
  );
  if (e) return e;
  const built = tensorType([n, c, grid.shape[2]!, grid.shape[3]!], data.dtype);
  const e2 = r.assign(out, built, 'the result');
  if (e2) return e2;
  return finish(r, pending, built);
};

export const cropAndResizeRel: RelationFn = (args, out, attrs, r) => {
  const data = tensorOrHole(r, args[0]!, 'data', 4);
  if (isError(data)) return data;
  const boxes = tensorOrHole(r, args[1]!, 'boxes', 2);
  if (isError(boxes)) return boxes;
  const indices = tensorOrHole(r, args[2]!, 'box_indices', 1);
  if (isError(indices)) return indices;
  const pending = new Pending();
  if (boxes !== null) {
    const e = pending.check(
      r.require(boxes.shape[1]!, '==', intDim(4), `boxes must hold 4 coordinates per box, got ${printType(boxes)}`),
      'the box size is not known yet',
    );
    if (e) return e;
    if (indices !== null) {
      const e2 = pending.check(
        r.require(indices.shape[0]!, '==', boxes.shape[0]!, `${printDim(indices.shape[0]!)} box indices for ${printDim(boxes.shape[0]!)} boxes`),
        'the number of boxes is not known yet',
      );
      if (e2) return e2;
    }
  }
  if (data === null || boxes === null) return r.wait('the data and the boxes are not both known yet');
  const {
    dims: [, c],
    perm,
  } = canonicalDims(data, getString(attrs, 'layout'), 'NCHW');
  const [ch, cw] = getInts(attrs, 'crop_size').map(intDim) as [IDim, IDim];
  const built = tensorType(inLayout([boxes.shape[0]!, c!, ch, cw], perm), getString(attrs, 'out_dtype') || data.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

/** The output size of one window axis (open while x or k is a hole), after checking that the window fits. */
function windowOut(r: Reporter, pending: Pending, x: IDim, padTotal: number, k: IDim, dilation: number, stride: number, axis: string): IDim | RelError {
  const padded = dAdd(x, padTotal);
  const dk = dAdd(dMul(dSub(k, 1), dilation), 1);
  const e = pending.check(
    r.require(padded, '>=', dk, `the padded ${axis} ${printDim(padded)} is smaller than the dilated window ${printDim(dk)}`),
    `the ${axis} is not known yet`,
  );
  if (e) return e;
  return dAdd(dDiv(dSub(padded, dk), stride), 1);
}

export const dilation2dRel: RelationFn = (args, out, attrs, r) => {
  const data = tensorOrHole(r, args[0]!, 'data', 4);
  if (isError(data)) return data;
  const weight = tensorOrHole(r, args[1]!, 'the weight', 3);
  if (isError(weight)) return weight;
  if (data === null || weight === null) return r.wait('the data and the weight are not both known yet');
  const {
    dims: [n, c, h, w],
    perm,
  } = canonicalDims(data, getString(attrs, 'data_layout'), 'NCHW');
  const [i, kh, kw] = canonicalDims(weight, getString(attrs, 'kernel_layout'), 'IHW').dims as [IDim, IDim, IDim];
  const pending = new Pending();
  const e = pending.check(r.require(i, '==', c!, `the weight has ${printDim(i)} channels, the data ${printDim(c!)}`), 'the channel counts are not known yet');
  if (e) return e;
  const [sh, sw] = getInts(attrs, 'strides', 2) as [number, number];
  const [dh, dw] = getInts(attrs, 'dilations', 2) as [number, number];
  const [ph, pw] = padTotals(getInts(attrs, 'padding'));
  const oh = windowOut(r, pending, h!, ph, kh, dh, sh, 'height');
  if (isError(oh)) return oh;
  const ow = windowOut(r, pending, w!, pw, kw, dw, sw, 'width');
  if (isError(ow)) return ow;
  if ([h!, w!, kh, kw].some((d) => d.kind === 'hole')) return r.wait('the spatial sizes are not known yet');
  const built = tensorType(inLayout([n!, i, oh, ow], perm), getString(attrs, 'out_dtype') || data.dtype);
  const e2 = r.assign(out, built, 'the result');
  if (e2) return e2;
  return finish(r, pending, built);
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Resize1D: resize1dRel,
  Resize3D: resize3dRel,
  UpSampling3D: upSampling3dRel,
  AffineGrid: affineGridRel,
  GridSample: gridSampleRel,
  CropAndResize: cropAndResizeRel,
  Dilation2D: dilation2dRel,
};
