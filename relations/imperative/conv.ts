// Conv1D, Conv2D, Conv3D (nn.conv1d/2d/3d) and Conv2DTranspose (nn.conv2d_transpose),
// after TVM's Conv1DRel, Conv2DRel, Conv3DRel and Conv2DTransposeRel
// (src/relay/op/nn/convolution.cc). One implementation for nd = 1, 2, 3 spatial axes.
//
// Data in `data_layout` (NCW / NCHW / NCDHW in any order, optionally packed such as
// NCHW4c or NCHW4n4c), weight in `kernel_layout` (OIW / OIHW / OIDHW in any order,
// optionally packed such as OIHW4o4i; IOHW permutations for the transpose), result in
// `out_layout` ("" = the data layout). As TVM's BijectiveLayout (convolution.h):
// the data and a given weight are read in canonical order with a split axis = its
// outer extent * the factor (a sub-axis must have its factor as extent), and the
// inferred weight and the result are written back with a split axis divided by the
// factor (which must divide it: TVM floors silently) and the sub-axes = the factors.
// With C the input channels, g = groups:
//
//   channels and kernel_size given: the weight is ASSIGNED (backward inference)
//     grouped / plain:  (channels, C / g, k...)
//     depthwise (nd >= 2; g == C == the weight's O, all known ints, as TVM's check):
//                       (C, channels / C, k...)
//     in canonical order, permuted into kernel_layout; dtype: the weight's if
//     known, else the data's. Result channels = channels.
//   otherwise the weight must be known: kernel_size (if given) must match its
//     spatial dims, channels (if given) its O; its I must be C / g. Result channels = O.
//   out_i = floor((x_i + pad_total_i - dk_i) / stride_i) + 1 with
//     dk_i = (k_i - 1) * dilation_i + 1 (Any in, Any out).
//   padding: one value (all sides), nd values (both sides of each axis) or 2 * nd
//     (all starts, then all ends); out dtype: out_dtype, or the data dtype.
//
// Transposed (IOHW: I = C, O = output channels per group):
//   channels and kernel_size given: the weight is (C, channels / g, kh, kw);
//     result channels = channels; otherwise result channels = the weight's O * g.
//   out_i = (x_i - 1) * stride_i + dk_i - pad_total_i + output_padding_i.
//
// Deviations from TVM (stricter unless said):
//  - layouts must have exactly the canonical primal axes (TVM also accepts group
//    layouts such as GOIHW): an error here; the transpose takes permutations only;
//  - packed layouts: a split axis of the inferred weight or of the result must be
//    divisible by its factor (TVM floors the quotient silently);
//  - TVM reports an error when groups > 1 and the weight type is unknown, even
//    with channels and kernel_size (conv2d/3d). Here the weight is inferred when
//    that is unambiguous (channels == groups, or C known and != groups);
//    otherwise the relation waits for the weight (more permissive). conv1d has no
//    depthwise case in TVM, so its weight is always (channels, C / g, k);
//  - C must be divisible by groups, and so must the output channels (channels,
//    or the weight's O) — TVM floors C / groups silently and never checks the
//    output channels; with channels and kernel_size on a depthwise weight,
//    channels must be a multiple of C. conv1d: TVM compares the weight's I with C
//    even when groups > 1; here I must be C / groups;
//  - the padded input must be at least as large as the dilated kernel (out >= 1);
//    TVM computes a zero or negative size silently;
//  - transpose: with a given weight the result has O * groups channels (TVM
//    says O, which disagrees with its compute for groups > 1); output_padding
//    must be smaller than the stride or the dilation of its axis; input spatial
//    sizes and kernel sizes must be >= 1 and the output sizes >= 0;
//  - symbolic sizes: the divisibility and size conditions above become residual
//    assumptions when undecided (e.g. `n + 6 >= 7`); weight dimensions are
//    unified with the expected ones, so `n` vs `3` is a residual `n = 3`, not
//    TVM's silent pass;
//  - a hole in the data's C or spatial dims makes the relation wait for the
//    dimensions that need it (others are assigned already).

import type { IDim, TensorType } from './types.js';
import type { AttrMap, RelError, RelationFn, Reporter } from './relation.js';
import {
  Pending,
  dAdd,
  dDiv,
  dMod,
  dMul,
  dSub,
  expectRank,
  expectTensor,
  finish,
  getInt,
  getIntOrNull,
  getInts,
  getIntsOrNull,
  getString,
  intDims,
  isInt,
  permutationOf,
} from './common.js';
import { layoutView, splitFactor, type LayoutView } from '../layout.js';
import { isError } from './relation.js';
import { ANY, intDim, printDim, printType, tensorType } from './types.js';

const SPATIAL = ['DHW', 'HW', 'W'];
/** The word for a spatial axis letter, for messages. */
export const AXIS_NAME: Readonly<Record<string, string>> = { D: 'depth', H: 'height', W: 'width' };
/** The canonical data and kernel layouts for nd spatial axes. */
export function canonicalLayouts(nd: number, transpose = false): { data: string; kernel: string; spatial: string } {
  const spatial = SPATIAL[3 - nd]!;
  return { data: `NC${spatial}`, kernel: `${transpose ? 'IO' : 'OI'}${spatial}`, spatial };
}

/** Total padding per spatial axis from 1, nd or 2 * nd values (TVM's GetPadding*). */
export function padTotalsNd(p: readonly number[], nd: number): number[] {
  if (p.length === 1) return Array.from({ length: nd }, () => 2 * p[0]!);
  if (p.length === nd && nd > 1) return p.map((x) => 2 * x);
  if (p.length === 2 * nd) return Array.from({ length: nd }, (_, i) => p[i]! + p[i + nd]!);
  throw new Error(`internal: padding of length ${p.length} for ${nd} spatial axes (attributes must be checked first)`);
}

/** Total padding (height, width) from 1, 2 or 4 values, as TVM's GetPaddingHeightWidth. */
export function padTotals(p: readonly number[]): [number, number] {
  return padTotalsNd(p, 2) as [number, number];
}

/** The index in `layout` of each canonical axis, or an error naming the attribute. */
function layoutIndex(r: Reporter, attrs: AttrMap, name: string, canonical: string, fallback?: string): number[] | RelError {
  const layout = getString(attrs, name) || (fallback ?? '');
  const idx = permutationOf(layout, canonical);
  if (idx === null) return r.fail(`${name} "${layout}" is not supported (supported: the permutations of ${canonical})`);
  return idx;
}

/** A convolution's layout attribute over its canonical layout (packed allowed), or an error naming the attribute. */
function layoutOf(r: Reporter, attrs: AttrMap, name: string, canonical: string, fallback?: string): LayoutView | RelError {
  const layout = getString(attrs, name) || (fallback ?? '');
  const view = layoutView(layout, canonical);
  if (typeof view === 'string') return r.fail(`${name}: ${view}`);
  return view;
}

/** The canonical dims of a shape in the view's layout (ForwardShape): a split axis is outer * factor; each sub-axis is unified with its factor. */
function unpack(r: Reporter, view: LayoutView, shape: readonly IDim[], what: string): IDim[] | RelError {
  for (const sub of view.subs) {
    const e = r.assignDim(
      shape[sub.at]!,
      intDim(sub.factor),
      `the ${what}'s sub-axis ${sub.factor}${view.axes[sub.at]!.primal.toLowerCase()} (axis ${sub.at}) must have extent ${sub.factor}`,
    );
    if (e) return e;
  }
  return view.primalAt.map((at, c) => {
    const f = splitFactor(view, c);
    return f === null ? shape[at]! : dMul(shape[at]!, f);
  });
}

/** Canonical dims in the view's layout (BackwardShape): a split axis divided by its factor, which must divide it; each sub-axis its factor. */
function pack(r: Reporter, pending: Pending, view: LayoutView, dims: readonly IDim[], what: string, layout: string): IDim[] | RelError {
  for (const [c, d] of dims.entries()) {
    const f = splitFactor(view, c);
    if (f === null || f === 1) continue;
    const e = pending.check(
      r.require(
        dMod(d, f),
        '==',
        intDim(0),
        `the ${what}'s dimension ${printDim(d)} (axis ${c} in canonical order) is not divisible by the factor ${f} of ${layout}`,
      ),
      `the ${what}'s dimensions are not known yet`,
    );
    if (e) return e;
  }
  return view.axes.map((a, at) => {
    if (a.factor !== null) return intDim(a.factor);
    const c = view.primalAt.indexOf(at);
    const f = splitFactor(view, c);
    return f === null || f === 1 ? dims[c]! : dDiv(dims[c]!, f);
  });
}

/** `canonical` dims placed into a layout given by its index list. */
function place(dims: readonly IDim[], idx: readonly number[]): IDim[] {
  const out: IDim[] = new Array<IDim>(dims.length);
  idx.forEach((pos, j) => {
    out[pos] = dims[j]!;
  });
  return out;
}

/** The result channels and the kernel's spatial sizes a convolution's weight gives. */
interface ConvKernel {
  readonly cout: IDim;
  readonly ks: IDim[];
}

function convRel(nd: number): RelationFn {
  const canon = canonicalLayouts(nd);
  return (args, out, attrs, r) => {
    const weightArg = args[1]!;
    if (weightArg.kind !== 'tensor' && weightArg.kind !== 'hole') return r.fail(`weight must be a tensor, got ${printType(weightArg)}`);
    const data = expectTensor(r, args[0]!, 'data');
    if (data === 'wait' || isError(data)) return data;

    const dView = layoutOf(r, attrs, 'data_layout', canon.data);
    if (isError(dView)) return dView;
    const kView = layoutOf(r, attrs, 'kernel_layout', canon.kernel);
    if (isError(kView)) return kView;
    const oView = layoutOf(r, attrs, 'out_layout', canon.data, getString(attrs, 'data_layout'));
    if (isError(oView)) return oView;

    const rankErr = expectRank(r, data, dView.axes.length, 'data');
    if (rankErr) return rankErr;
    const dims = unpack(r, dView, data.shape, 'data');
    if (isError(dims)) return dims;
    const [N, C, ...X] = dims as IDim[];
    const strides = getInts(attrs, 'strides', nd);
    const dilation = getInts(attrs, 'dilation', nd);
    const pads = padTotalsNd(getInts(attrs, 'padding'), nd);
    const groups = getInt(attrs, 'groups');
    const channels = getIntOrNull(attrs, 'channels');
    const kernelSize = getIntsOrNull(attrs, 'kernel_size', nd);

    let weight: TensorType | null = null;
    if (weightArg.kind === 'tensor') {
      const e = expectRank(r, weightArg, kView.axes.length, 'weight');
      if (e) return e;
      weight = weightArg;
    }
    /** The weight's dimensions in canonical (O, I, spatial...) order. */
    const wDims = weight === null ? null : unpack(r, kView, weight.shape, 'weight');
    if (isError(wDims)) return wDims;

    const pending = new Pending();
    let kernel: ConvKernel;
    if (kernelSize !== null && channels !== null) {
      const expected = expectedWeight(r, pending, nd, C!, wDims, groups, channels, kernelSize);
      if (expected === 'wait' || isError(expected)) return expected;
      const wShape = pack(r, pending, kView, expected, 'weight', `kernel_layout "${getString(attrs, 'kernel_layout')}"`);
      if (isError(wShape)) return wShape;
      const e = r.assign(weightArg, tensorType(wShape, weight?.dtype ?? data.dtype), 'the weight');
      if (e) return e;
      kernel = { cout: intDim(channels), ks: intDims(kernelSize) };
    } else {
      if (wDims === null) return r.wait('the weight type is needed (or give both channels and kernel_size)');
      const checked = checkedWeight(r, pending, attrs, canon.spatial, C!, wDims, groups, channels, kernelSize);
      if (isError(checked)) return checked;
      kernel = checked;
    }

    const spatial = convOutSpatial(r, pending, canon.spatial, X, kernel.ks, strides, dilation, pads);
    if (isError(spatial)) return spatial;

    const oShape = pack(
      r,
      pending,
      oView,
      [N!, kernel.cout, ...spatial],
      'result',
      `out_layout "${getString(attrs, 'out_layout') || getString(attrs, 'data_layout')}"`,
    );
    if (isError(oShape)) return oShape;
    const built = tensorType(oShape, getString(attrs, 'out_dtype') || data.dtype);
    const e = r.assign(out, built, 'the result');
    if (e) return e;
    return finish(r, pending, built);
  };
}

/**
 * With channels and kernel_size given: the weight's dimensions in canonical order
 * (grouped / plain, or depthwise; see the header), checking the channels against groups;
 * C: the data's channels, wDims: the given weight's canonical dims (null: a hole).
 */
function expectedWeight(
  r: Reporter,
  pending: Pending,
  nd: number,
  C: IDim,
  wDims: readonly IDim[] | null,
  groups: number,
  channels: number,
  kernelSize: readonly number[],
): IDim[] | RelError | 'wait' {
  const depthwise = nd > 1 && groups > 1 && wDims !== null && isInt(C, groups) && isInt(wDims[0]!, groups);
  if (nd > 1 && groups > 1 && wDims === null && channels !== groups && !(C.kind === 'int' && C.value !== groups)) {
    return r.wait(
      `with groups = ${groups} and channels = ${channels}, the weight type is needed to tell a depthwise weight (C, channels / C, k...) from a grouped one (channels, C / groups, k...)`,
    );
  }
  if (depthwise) {
    const e = pending.check(
      r.require(dMod(channels, C), '==', intDim(0), `channels = ${channels} must be a multiple of the input channels ${printDim(C)} (depthwise)`),
      'input channels unknown',
    );
    if (e) return e;
    return [C, dDiv(channels, C), ...intDims(kernelSize)];
  }
  if (groups > 1) {
    const e = pending.check(
      r.require(dMod(C, groups), '==', intDim(0), `the input channels ${printDim(C)} must be divisible by groups = ${groups}`),
      'the input channels are not known yet',
    );
    if (e) return e;
    if (channels % groups !== 0) return r.fail(`channels = ${channels} must be divisible by groups = ${groups}`);
  }
  // groups = 1: the weight's I is the data's C itself (shared, even if a hole).
  return [intDim(channels), groups === 1 ? C : dDiv(C, groups), ...intDims(kernelSize)];
}

/**
 * Without channels and kernel_size both: the given weight (canonical dims wDims) checked
 * against kernel_size, channels, the data's channels C and groups; its O and kernel sizes.
 */
function checkedWeight(
  r: Reporter,
  pending: Pending,
  attrs: AttrMap,
  spatialAxes: string,
  C: IDim,
  wDims: readonly IDim[],
  groups: number,
  channels: number | null,
  kernelSize: readonly number[] | null,
): ConvKernel | RelError {
  const [O, I, ...K] = wDims as IDim[];
  if (kernelSize !== null) {
    for (let i = 0; i < spatialAxes.length; i++) {
      const e = r.assignDim(K[i]!, intDim(kernelSize[i]!), `the weight's kernel ${AXIS_NAME[spatialAxes[i]!]} does not match kernel_size[${i}]`);
      if (e) return e;
    }
  }
  if (channels !== null) {
    const e = r.assignDim(O!, intDim(channels), `the weight's output channels (axis O of ${getString(attrs, 'kernel_layout')}) do not match channels`);
    if (e) return e;
  }
  if (groups === 1) {
    const e = r.assignDim(I!, C, `the weight's input channels (axis I of ${getString(attrs, 'kernel_layout')}) must be the data's channels`);
    if (e) return e;
  } else if (C.kind !== 'any' && I!.kind !== 'any') {
    const e1 = pending.check(
      r.require(dMod(C, groups), '==', intDim(0), `the input channels ${printDim(C)} must be divisible by groups = ${groups}`),
      'the input channels are not known yet',
    );
    if (e1) return e1;
    if (C.kind === 'hole') pending.note('the input channels are not known yet');
    else {
      const e2 = r.assignDim(
        I!,
        dDiv(C, groups),
        `the weight's input channels (axis I of ${getString(attrs, 'kernel_layout')}) must be the data's channels ${printDim(C)} divided by groups = ${groups}`,
      );
      if (e2) return e2;
    }
  }
  if (groups > 1) {
    const e3 = pending.check(
      r.require(dMod(O!, groups), '==', intDim(0), `the weight's output channels ${printDim(O!)} must be divisible by groups = ${groups}`),
      "the weight's output channels are not known yet",
    );
    if (e3) return e3;
  }
  return { cout: O!, ks: K };
}

/**
 * The result's spatial sizes, floor((x + pad_total - dk) / stride) + 1 per axis of
 * `spatialAxes` with dk the dilated kernel (Any in, Any out), checking the padded input
 * is at least dk.
 */
function convOutSpatial(
  r: Reporter,
  pending: Pending,
  spatialAxes: string,
  X: readonly IDim[],
  ks: readonly IDim[],
  strides: readonly number[],
  dilation: readonly number[],
  pads: readonly number[],
): IDim[] | RelError {
  const spatial: IDim[] = [];
  for (let i = 0; i < spatialAxes.length; i++) {
    const x = X[i]!;
    const what = AXIS_NAME[spatialAxes[i]!]!;
    if (x.kind === 'any') {
      spatial.push(ANY);
      continue;
    }
    const dk = dAdd(dMul(dSub(ks[i]!, 1), dilation[i]!), 1);
    const padded = dAdd(x, pads[i]!);
    const e = pending.check(
      r.require(padded, '>=', dk, `the padded input ${what} ${printDim(padded)} is smaller than the dilated kernel ${what} ${printDim(dk)}`),
      `the input ${what} is not known yet`,
    );
    if (e) return e;
    spatial.push(dAdd(dDiv(dSub(padded, dk), strides[i]!), 1));
  }
  return spatial;
}

export const conv1dRel = convRel(1);
export const conv2dRel = convRel(2);
export const conv3dRel = convRel(3);

export function convTransposeRel(nd: number): RelationFn {
  const canon = canonicalLayouts(nd, true);
  const dataCanon = canonicalLayouts(nd).data;
  return (args, out, attrs, r) => {
    const strides = getInts(attrs, 'strides', nd);
    const dilation = getInts(attrs, 'dilation', nd);
    const outPad = getInts(attrs, 'output_padding', nd);
    for (let i = 0; i < nd; i++) {
      if (outPad[i]! >= strides[i]! && outPad[i]! >= dilation[i]!) {
        return r.fail(`output_padding[${i}] = ${outPad[i]} must be smaller than the stride ${strides[i]} or the dilation ${dilation[i]} of its axis`);
      }
    }
    const weightArg = args[1]!;
    if (weightArg.kind !== 'tensor' && weightArg.kind !== 'hole') return r.fail(`weight must be a tensor, got ${printType(weightArg)}`);
    const data = expectTensor(r, args[0]!, 'data');
    if (data === 'wait' || isError(data)) return data;

    const dIdx = layoutIndex(r, attrs, 'data_layout', dataCanon);
    if (isError(dIdx)) return dIdx;
    const kIdx = layoutIndex(r, attrs, 'kernel_layout', canon.kernel);
    if (isError(kIdx)) return kIdx;
    const oIdx = layoutIndex(r, attrs, 'out_layout', dataCanon, getString(attrs, 'data_layout'));
    if (isError(oIdx)) return oIdx;

    const rankErr = expectRank(r, data, nd + 2, 'data');
    if (rankErr) return rankErr;
    const [N, C, ...X] = dIdx.map((i) => data.shape[i]!) as IDim[];
    const pads = padTotalsNd(getInts(attrs, 'padding'), nd);
    const groups = getInt(attrs, 'groups');
    const channels = getIntOrNull(attrs, 'channels');
    const kernelSize = getIntsOrNull(attrs, 'kernel_size', nd);

    let weight: TensorType | null = null;
    if (weightArg.kind === 'tensor') {
      const e = expectRank(r, weightArg, nd + 2, 'weight');
      if (e) return e;
      weight = weightArg;
    }
    const wDims = weight === null ? null : kIdx.map((i) => weight.shape[i]!);
    const pending = new Pending();
    const divisible = (d: IDim, what: string): RelError | null =>
      groups === 1
        ? null
        : pending.check(
            r.require(dMod(d, groups), '==', intDim(0), `${what} ${printDim(d)} must be divisible by groups = ${groups}`),
            `${what} is not known yet`,
          );

    let cout: IDim;
    let ks: IDim[];
    if (kernelSize !== null && channels !== null) {
      const e0 = divisible(C!, 'the input channels');
      if (e0) return e0;
      if (channels % groups !== 0) return r.fail(`channels = ${channels} must be divisible by groups = ${groups}`);
      const expected = [C!, intDim(channels / groups), ...intDims(kernelSize)];
      const e = r.assign(weightArg, tensorType(place(expected, kIdx), weight?.dtype ?? data.dtype), 'the weight');
      if (e) return e;
      cout = intDim(channels);
      ks = intDims(kernelSize);
    } else {
      if (wDims === null) return r.wait('the weight type is needed (or give both channels and kernel_size)');
      const [I, O, ...K] = wDims as IDim[];
      if (kernelSize !== null) {
        for (let i = 0; i < nd; i++) {
          const e = r.assignDim(K[i]!, intDim(kernelSize[i]!), `the weight's kernel ${AXIS_NAME[canon.spatial[i]!]} does not match kernel_size[${i}]`);
          if (e) return e;
        }
      }
      cout = dMul(O!, groups);
      if (channels !== null) {
        const e = pending.check(
          r.require(cout, '==', intDim(channels), `channels = ${channels} but the weight gives ${printDim(O!)} x ${groups} groups output channels`),
          "the weight's output channels are not known yet",
        );
        if (e) return e;
      }
      const e1 = r.assignDim(I!, C!, `the weight's input channels (axis I of ${getString(attrs, 'kernel_layout')}) must be the data's channels`);
      if (e1) return e1;
      const e2 = divisible(C!, 'the input channels');
      if (e2) return e2;
      ks = K;
    }

    const spatial: IDim[] = [];
    for (let i = 0; i < nd; i++) {
      const x = X[i]!;
      const what = AXIS_NAME[canon.spatial[i]!]!;
      if (x.kind === 'any') {
        spatial.push(ANY);
        continue;
      }
      const e1 = pending.check(
        r.require(x, '>=', intDim(1), `transposed convolution needs an input ${what} >= 1, got ${printDim(x)}`),
        `the input ${what} is not known yet`,
      );
      if (e1) return e1;
      const e2 = pending.check(
        r.require(ks[i]!, '>=', intDim(1), `transposed convolution needs a kernel ${what} >= 1, got ${printDim(ks[i]!)}`),
        `the kernel ${what} is not known yet`,
      );
      if (e2) return e2;
      const dk = dAdd(dMul(dSub(ks[i]!, 1), dilation[i]!), 1);
      const o = dAdd(dSub(dAdd(dMul(dSub(x, 1), strides[i]!), dk), pads[i]!), outPad[i]!);
      const e3 = pending.check(
        r.require(o, '>=', intDim(0), `the output ${what} ${printDim(o)} is negative (the padding is larger than the transposed output)`),
        `the input ${what} is not known yet`,
      );
      if (e3) return e3;
      spatial.push(o);
    }
    const built = tensorType(place([N!, cout, ...spatial], oIdx), getString(attrs, 'out_dtype') || data.dtype);
    const e = r.assign(out, built, 'the result');
    if (e) return e;
    return finish(r, pending, built);
  };
}

export const conv2dTransposeRel = convTransposeRel(2);

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Conv1D: conv1dRel,
  Conv2D: conv2dRel,
  Conv3D: conv3dRel,
  Conv2DTranspose: conv2dTransposeRel,
};
