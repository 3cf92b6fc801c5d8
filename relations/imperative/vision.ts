// Vision relations after TVM's src/relay/op/vision/yolo.cc (YoloReorgRel), rcnn_op.cc
// (ROIAlignRel, ROIPoolRel) and multibox_op.cc (MultiboxPriorRel):
//
//   YoloReorg(data; stride s): (N, C, H, W) -> (N, C * s^2, H / s, W / s).
//   ROIAlign, ROIPool(data, rois; pooled_size): (R, C, ph, pw) in NCHW / NHWC,
//     R = rois.shape[0], data's dtype.
//   MultiboxPrior(data; sizes, ratios): (1, H * W * (len(sizes) + len(ratios) - 1), 4).
//
// Deviations from TVM (stricter): YoloReorg needs H and W divisible by the stride
// (residual when symbolic) and waits until C, H and W are known; rois must be (R, 5);
// MultiboxPrior needs non-empty sizes and ratios and waits until H and W are known.
// Each argument's own errors come before waiting for another argument.

import type { IDim, IType, TensorType } from './types.js';
import type { AttrMap, RelationFn, RelError, Reporter } from './relation.js';
import { Pending, dDiv, dMod, dMul, expectTensor, finish, getInt, getInts, getString, permutationOf } from './common.js';
import { isError } from './relation.js';
import { intDim, printDim, printType, tensorType } from './types.js';

/** A tensor argument of the given rank, a hole (null), or an error. */
function ranked(r: Reporter, t: IType, name: string, rank: number): TensorType | null | RelError {
  if (t.kind === 'hole') return null;
  if (t.kind !== 'tensor') return r.fail(`${name} must be a tensor, got ${printType(t)}`);
  if (t.shape.length !== rank) return r.fail(`${name} must have rank ${rank}, got ${printType(t)}`);
  return t;
}

/** The length of a list attribute. */
function listLength(attrs: AttrMap, name: string): number {
  const v = attrs.get(name);
  if (v === undefined || v.kind !== 'list') throw new Error(`internal: attribute '${name}' is not a list`);
  return v.items.length;
}

export const yoloReorgRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  if (data.shape.length !== 4) return r.fail(`the data must have rank 4, got ${printType(data)}`);
  const [n, c, h, w] = data.shape as [IDim, IDim, IDim, IDim];
  const s = getInt(attrs, 'stride');
  const pending = new Pending();
  for (const [what, d] of [['height', h], ['width', w]] as const) {
    const e = pending.check(r.require(dMod(d, s), '==', intDim(0), `${what} ${printDim(d)} is not divisible by stride = ${s}`), `the ${what} is not known yet`);
    if (e) return e;
  }
  if ([c, h, w].some((d) => d.kind === 'hole')) return r.wait('C, H and W are not known yet');
  const built = tensorType([n, dMul(c, s * s), dDiv(h, s), dDiv(w, s)], data.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

export const roiRel: RelationFn = (args, out, attrs, r) => {
  const data = ranked(r, args[0]!, 'data', 4);
  if (isError(data)) return data;
  const rois = ranked(r, args[1]!, 'rois', 2);
  if (isError(rois)) return rois;
  const pending = new Pending();
  if (rois !== null) {
    const e = pending.check(r.require(rois.shape[1]!, '==', intDim(5), `rois must hold 5 values per region, got ${printType(rois)}`), 'the region size is not known yet');
    if (e) return e;
  }
  if (data === null || rois === null) return r.wait('the data and the rois are not both known yet');
  const perm = permutationOf(getString(attrs, 'layout'), 'NCHW')!;
  const [ph, pw] = getInts(attrs, 'pooled_size');
  const canonical = [rois.shape[0]!, data.shape[perm[1]!]!, intDim(ph!), intDim(pw!)];
  const shape: IDim[] = new Array<IDim>(4);
  perm.forEach((pos, i) => (shape[pos] = canonical[i]!));
  const built = tensorType(shape, data.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

export const multiboxPriorRel: RelationFn = (args, out, attrs, r) => {
  const boxes = listLength(attrs, 'sizes') + listLength(attrs, 'ratios') - 1;
  if (listLength(attrs, 'sizes') === 0 || listLength(attrs, 'ratios') === 0) return r.fail('sizes and ratios must not be empty');
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  if (data.shape.length !== 4) return r.fail(`the data must have rank 4, got ${printType(data)}`);
  const [, , h, w] = data.shape as [IDim, IDim, IDim, IDim];
  if (h.kind === 'hole' || w.kind === 'hole') return r.wait('H and W are not known yet');
  return r.assign(out, tensorType([intDim(1), dMul(dMul(h, w), boxes), intDim(4)], data.dtype), 'the result') ?? 'done';
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  YoloReorg: yoloReorgRel,
  ROIAlign: roiRel,
  ROIPool: roiRel,
  MultiboxPrior: multiboxPriorRel,
};
