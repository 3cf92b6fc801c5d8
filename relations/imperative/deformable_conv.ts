// DeformableConv2D (nn.deformable_conv2d), after TVM's DeformableConv2DRel
// (src/relay/op/nn/convolution.cc), NCHW data and OIHW weight:
//
//   weight := (channels, C / groups, kh, kw) (dtype: the weight's, else the data's);
//   o = floor((x + pad_total - ((k - 1) * dilation + 1)) / stride) + 1 per spatial axis;
//   offset := (N, 2 * kh * kw * deformable_groups, o_h, o_w); result (N, channels, o_h, o_w),
//   dtype out_dtype or the data's. Any in, Any out.
//
// Deviations from TVM (stricter): channels is required (TVM's ICHECK aborts); C and
// channels divisible by groups, C by deformable_groups; the padded input at least the
// dilated kernel (residual when symbolic); NCHW / OIHW only. The offset and the result
// wait until H and W are known; the weight waits for C.

import type { IDim } from './types.js';
import type { RelationFn } from './relation.js';
import { Pending, dAdd, dDiv, dMod, dMul, dSub, expectTensor, finish, getInt, getIntOrNull, getInts, getString } from './common.js';
import { padTotals } from './conv.js';
import { isError } from './relation.js';
import { intDim, printDim, printType, tensorType } from './types.js';

export const deformableConv2dRel: RelationFn = (args, out, attrs, r) => {
  const channels = getIntOrNull(attrs, 'channels');
  if (channels === null) return r.fail('nn.deformable_conv2d needs channels');
  for (const [i, name] of [
    [1, 'offset'],
    [2, 'weight'],
  ] as const) {
    const t = args[i]!;
    if (t.kind !== 'tensor' && t.kind !== 'hole') return r.fail(`${name} must be a tensor, got ${printType(t)}`);
  }
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  if (data.shape.length !== 4) return r.fail(`the data must have rank 4, got ${printType(data)}`);
  const [n, c, h, w] = data.shape as [IDim, IDim, IDim, IDim];
  const groups = getInt(attrs, 'groups');
  const dg = getInt(attrs, 'deformable_groups');
  if (channels % groups !== 0) return r.fail(`channels = ${channels} must be divisible by groups = ${groups}`);
  const pending = new Pending();
  for (const [g, name] of [
    [groups, 'groups'],
    [dg, 'deformable_groups'],
  ] as const) {
    const e = pending.check(
      r.require(dMod(c, g), '==', intDim(0), `the input channels ${printDim(c)} must be divisible by ${name} = ${g}`),
      'the input channels are not known yet',
    );
    if (e) return e;
  }
  const [kh, kw] = getInts(attrs, 'kernel_size', 2) as [number, number];
  const perGroup = dDiv(c, groups);
  if (perGroup.kind !== 'open') {
    const weight = args[2]!;
    const e = r.assign(
      weight,
      tensorType([intDim(channels), perGroup, intDim(kh), intDim(kw)], weight.kind === 'tensor' ? weight.dtype : data.dtype),
      'the weight',
    );
    if (e) return e;
  }
  const strides = getInts(attrs, 'strides', 2);
  const dilation = getInts(attrs, 'dilation', 2);
  const pads = padTotals(getInts(attrs, 'padding'));
  const sizes: IDim[] = [];
  for (const [i, x] of [h, w].entries()) {
    const padded = dAdd(x, pads[i]!);
    const dk = dAdd(dMul(dSub(intDim([kh, kw][i]!), 1), dilation[i]!), 1);
    const e = pending.check(
      r.require(padded, '>=', dk, `the padded input ${printDim(padded)} is smaller than the dilated kernel ${printDim(dk)}`),
      'the spatial sizes are not known yet',
    );
    if (e) return e;
    sizes.push(dAdd(dDiv(dSub(padded, dk), strides[i]!), 1));
  }
  if (h.kind === 'hole' || w.kind === 'hole') return r.wait('the spatial sizes are not known yet');
  const offset = args[1]!;
  const e1 = r.assign(offset, tensorType([n, intDim(2 * kh * kw * dg), ...sizes], offset.kind === 'tensor' ? offset.dtype : data.dtype), 'the offset');
  if (e1) return e1;
  const built = tensorType([n, intDim(channels), ...sizes], getString(attrs, 'out_dtype') || data.dtype);
  const e2 = r.assign(out, built, 'the result');
  if (e2) return e2;
  return finish(r, pending, built);
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  DeformableConv2D: deformableConv2dRel,
};
