// Conv2D (nn.conv2d), after TVM's Conv2DRel (src/relay/op/nn/convolution.cc).
//
// Data in `data_layout` (a permutation of NCHW), weight in `kernel_layout` (a
// permutation of OIHW, e.g. OIHW or HWIO), result in `out_layout` ("" = the data
// layout). With C the input channels, g = groups:
//
//   channels and kernel_size given: the weight is ASSIGNED (backward inference)
//     grouped / plain:  (channels, C / g, kh, kw)
//     depthwise (g == C == the weight's O, all known ints, as TVM's check):
//                       (C, channels / C, kh, kw)
//     in OIHW order, permuted into kernel_layout; dtype: the weight's if known,
//     else the data's. Result channels = channels.
//   otherwise the weight must be known: kernel_size (if given) must match its
//     H, W; channels (if given) its O; its I must be C / g. Result channels = O.
//   out H = floor((H + pad_top + pad_bottom - dkh) / stride_h) + 1 with
//     dkh = (kh - 1) * dilation_h + 1 (Any in, Any out); likewise W.
//   padding: one value (all sides), two (top = bottom, left = right) or four
//     (top, left, bottom, right); out dtype: out_dtype, or the data dtype.
//
// Deviations from TVM (stricter unless said):
//  - layouts must be permutations of NCHW / OIHW (TVM also accepts packed
//    layouts such as NCHW16c and group layouts such as GOIHW): an error here;
//  - TVM reports an error when groups > 1 and the weight type is unknown, even
//    with channels and kernel_size. Here the weight is inferred when that is
//    unambiguous (channels == groups, or C known and != groups); otherwise the
//    relation waits for the weight (more permissive);
//  - C must be divisible by groups, and so must the output channels (channels,
//    or the weight's O) — TVM floors C / groups silently and never checks the
//    output channels; with channels and kernel_size on a depthwise weight,
//    channels must be a multiple of C;
//  - the padded input must be at least as large as the dilated kernel (out >= 1);
//    TVM computes a zero or negative size silently;
//  - symbolic sizes: the divisibility and size conditions above become residual
//    assumptions when undecided (e.g. `n + 6 >= 7`); weight dimensions are
//    unified with the expected ones, so `n` vs `3` is a residual `n = 3`, not
//    TVM's silent pass;
//  - a hole in the data's C, H or W makes the relation wait for the dimensions
//    that need it (others are assigned already).

import type { IDim, TensorType } from './types.js';
import type { RelationFn } from './relation.js';
import { Pending, dAdd, dDiv, dMod, dMul, dSub, expectRank, expectTensor, finish, getInt, getIntOrNull, getInts, getIntsOrNull, getString, intDims, isInt, permutationOf } from './common.js';
import { isError } from './relation.js';
import { ANY, intDim, printDim, printType, tensorType } from './types.js';

/** Total padding (height, width) from 1, 2 or 4 values, as TVM's GetPaddingHeightWidth. */
export function padTotals(p: readonly number[]): [number, number] {
  if (p.length === 1) return [2 * p[0]!, 2 * p[0]!];
  if (p.length === 2) return [2 * p[0]!, 2 * p[1]!];
  return [p[0]! + p[2]!, p[1]! + p[3]!];
}

export const conv2dRel: RelationFn = (args, out, attrs, r) => {
  const weightArg = args[1]!;
  if (weightArg.kind !== 'tensor' && weightArg.kind !== 'hole') return r.fail(`weight must be a tensor, got ${printType(weightArg)}`);
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;

  const dataLayout = getString(attrs, 'data_layout');
  const kernelLayout = getString(attrs, 'kernel_layout');
  const outLayout = getString(attrs, 'out_layout') || dataLayout;
  const dIdx = permutationOf(dataLayout, 'NCHW');
  if (dIdx === null) return r.fail(`data_layout "${dataLayout}" is not supported (supported: the permutations of NCHW)`);
  const kIdx = permutationOf(kernelLayout, 'OIHW');
  if (kIdx === null) return r.fail(`kernel_layout "${kernelLayout}" is not supported (supported: the permutations of OIHW)`);
  const oIdx = permutationOf(outLayout, 'NCHW');
  if (oIdx === null) return r.fail(`out_layout "${outLayout}" is not supported (supported: the permutations of NCHW)`);

  const rankErr = expectRank(r, data, 4, 'data');
  if (rankErr) return rankErr;
  const [N, C, H, W] = dIdx.map((i) => data.shape[i]!) as [IDim, IDim, IDim, IDim];
  const strides = getInts(attrs, 'strides', 2);
  const dilation = getInts(attrs, 'dilation', 2);
  const [padH, padW] = padTotals(getInts(attrs, 'padding'));
  const groups = getInt(attrs, 'groups');
  const channels = getIntOrNull(attrs, 'channels');
  const kernelSize = getIntsOrNull(attrs, 'kernel_size', 2);

  let weight: TensorType | null = null;
  if (weightArg.kind === 'tensor') {
    const e = expectRank(r, weightArg, 4, 'weight');
    if (e) return e;
    weight = weightArg;
  }
  /** The weight's dimensions in OIHW order. */
  const wDims = weight === null ? null : (kIdx.map((i) => weight.shape[i]!) as [IDim, IDim, IDim, IDim]);

  const pending = new Pending();
  let cout: IDim;
  let kh: IDim;
  let kw: IDim;
  if (kernelSize !== null && channels !== null) {
    const depthwise = groups > 1 && wDims !== null && isInt(C, groups) && isInt(wDims[0], groups);
    if (groups > 1 && wDims === null && channels !== groups && !(C.kind === 'int' && C.value !== groups)) {
      return r.wait(
        `with groups = ${groups} and channels = ${channels}, the weight type is needed to tell a depthwise weight (C, channels / C, kh, kw) from a grouped one (channels, C / groups, kh, kw)`,
      );
    }
    let expected: IDim[];
    if (depthwise) {
      const e = pending.check(r.require(dMod(channels, C), '==', intDim(0), `channels = ${channels} must be a multiple of the input channels ${printDim(C)} (depthwise)`), 'input channels unknown');
      if (e) return e;
      expected = [C, dDiv(channels, C), ...intDims(kernelSize)];
    } else {
      if (groups > 1) {
        const e = pending.check(r.require(dMod(C, groups), '==', intDim(0), `the input channels ${printDim(C)} must be divisible by groups = ${groups}`), 'the input channels are not known yet');
        if (e) return e;
        if (channels % groups !== 0) return r.fail(`channels = ${channels} must be divisible by groups = ${groups}`);
      }
      // groups = 1: the weight's I is the data's C itself (shared, even if a hole).
      expected = [intDim(channels), groups === 1 ? C : dDiv(C, groups), ...intDims(kernelSize)];
    }
    const wShape: IDim[] = new Array<IDim>(4);
    kIdx.forEach((pos, j) => (wShape[pos] = expected[j]!));
    const e = r.assign(weightArg, tensorType(wShape, weight?.dtype ?? data.dtype), 'the weight');
    if (e) return e;
    cout = intDim(channels);
    [kh, kw] = intDims(kernelSize) as [IDim, IDim];
  } else {
    if (wDims === null) return r.wait('the weight type is needed (or give both channels and kernel_size)');
    const [O, I, KH, KW] = wDims;
    if (kernelSize !== null) {
      const e =
        r.assignDim(KH, intDim(kernelSize[0]!), `the weight's kernel height does not match kernel_size[0]`) ??
        r.assignDim(KW, intDim(kernelSize[1]!), `the weight's kernel width does not match kernel_size[1]`);
      if (e) return e;
    }
    if (channels !== null) {
      const e = r.assignDim(O, intDim(channels), `the weight's output channels (axis O of ${kernelLayout}) do not match channels`);
      if (e) return e;
    }
    if (groups === 1) {
      const e = r.assignDim(I, C, `the weight's input channels (axis I of ${kernelLayout}) must be the data's channels`);
      if (e) return e;
    } else if (C.kind !== 'any' && I.kind !== 'any') {
      const e1 = pending.check(r.require(dMod(C, groups), '==', intDim(0), `the input channels ${printDim(C)} must be divisible by groups = ${groups}`), 'the input channels are not known yet');
      if (e1) return e1;
      if (C.kind === 'hole') pending.note('the input channels are not known yet');
      else {
        const e2 = r.assignDim(I, dDiv(C, groups), `the weight's input channels (axis I of ${kernelLayout}) must be the data's channels ${printDim(C)} divided by groups = ${groups}`);
        if (e2) return e2;
      }
    }
    if (groups > 1) {
      const e3 = pending.check(r.require(dMod(O, groups), '==', intDim(0), `the weight's output channels ${printDim(O)} must be divisible by groups = ${groups}`), "the weight's output channels are not known yet");
      if (e3) return e3;
    }
    cout = O;
    kh = KH;
    kw = KW;
  }

  const spatial: IDim[] = [];
  const sides: [IDim, number, IDim, number, number, string][] = [
    [H, padH, kh, dilation[0]!, strides[0]!, 'height'],
    [W, padW, kw, dilation[1]!, strides[1]!, 'width'],
  ];
  for (const [x, pad, k, dil, stride, what] of sides) {
    if (x.kind === 'any') {
      spatial.push(ANY);
      continue;
    }
    const dk = dAdd(dMul(dSub(k, 1), dil), 1);
    const padded = dAdd(x, pad);
    const e = pending.check(
      r.require(padded, '>=', dk, `the padded input ${what} ${printDim(padded)} is smaller than the dilated kernel ${what} ${printDim(dk)}`),
      `the input ${what} is not known yet`,
    );
    if (e) return e;
    spatial.push(dAdd(dDiv(dSub(padded, dk), stride), 1));
  }

  const nchw: IDim[] = [N, cout, spatial[0]!, spatial[1]!];
  const oshape: IDim[] = new Array<IDim>(4);
  oIdx.forEach((pos, j) => (oshape[pos] = nchw[j]!));
  const built = tensorType(oshape, getString(attrs, 'out_dtype') || data.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Conv2D: conv2dRel,
};
