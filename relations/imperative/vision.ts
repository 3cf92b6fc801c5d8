// Vision relations after TVM's src/relay/op/vision/yolo.cc (YoloReorgRel), rcnn_op.cc
// (ROIAlignRel, ROIPoolRel), multibox_op.cc (MultiboxPriorRel, MultiBoxTransformLocRel)
// and nms.cc (NMSRel):
//
//   YoloReorg(data; stride s): (N, C, H, W) -> (N, C * s^2, H / s, W / s).
//   ROIAlign, ROIPool(data, rois; pooled_size): (R, C, ph, pw) in NCHW / NHWC,
//     R = rois.shape[0], data's dtype.
//   MultiboxPrior(data; sizes, ratios): (1, H * W * (len(sizes) + len(ratios) - 1), 4).
//   NonMaxSuppression(data (B, N, K), valid_count (B), indices, max_output_size,
//     iou_threshold; return_indices): ((B, N) int32, (B, 1) int32), else data's type.
//     The number of kept boxes is data (indices padded with -1), as in TVM: no size
//     depends on it.
//   MultiboxTransformLoc(cls_prob (B, C, N), loc_pred (B, 4N), anchor (1, N, 4)):
//     ((B, N, 6) cls_prob's dtype, (B) int32).
//   Proposal(cls_prob (B, 2A, H, W), bbox_pred (B, 4A, H, W), im_info (B, 3);
//     scales, ratios, rpn_post_nms_top_n): (B * rpn_post_nms_top_n, 5) cls_prob's
//     dtype, A = len(scales) * len(ratios).
//
// Deviations from TVM (stricter): YoloReorg needs H and W divisible by the stride
// (residual when symbolic) and waits until C, H and W are known; rois must be (R, 5);
// MultiboxPrior needs non-empty sizes and ratios and waits until H and W are known;
// NonMaxSuppression needs one valid count per batch and boxes that hold the coordinates,
// score and class id it reads; MultiboxTransformLoc needs anchor (1, N, 4) and loc_pred
// with cls_prob's batch; Proposal needs 2A and 4A channels, bbox_pred with cls_prob's
// batch and map size, im_info with its batch, and non-empty scales and ratios (TVM
// checks the ranks and im_info's 3 only).
// Each argument's own errors come before waiting for another argument.

import type { IDim, IType } from './types.js';
import type { AttrMap, RelationFn } from './relation.js';
import { Pending, dDiv, dMod, dMul, expectTensor, finish, getBool, getInt, getInts, getString, permutationOf, tensorOrHole } from './common.js';
import { isError } from './relation.js';
import { intDim, printDim, printType, tensorType, tupleType } from './types.js';

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
  for (const [what, d] of [
    ['height', h],
    ['width', w],
  ] as const) {
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
  const data = tensorOrHole(r, args[0]!, 'data', 4);
  if (isError(data)) return data;
  const rois = tensorOrHole(r, args[1]!, 'rois', 2);
  if (isError(rois)) return rois;
  const pending = new Pending();
  if (rois !== null) {
    const e = pending.check(
      r.require(rois.shape[1]!, '==', intDim(5), `rois must hold 5 values per region, got ${printType(rois)}`),
      'the region size is not known yet',
    );
    if (e) return e;
  }
  if (data === null || rois === null) return r.wait('the data and the rois are not both known yet');
  const perm = permutationOf(getString(attrs, 'layout'), 'NCHW')!;
  const [ph, pw] = getInts(attrs, 'pooled_size');
  const canonical = [rois.shape[0]!, data.shape[perm[1]!]!, intDim(ph!), intDim(pw!)];
  const shape: IDim[] = new Array<IDim>(4);
  perm.forEach((pos, i) => {
    shape[pos] = canonical[i]!;
  });
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

export const nonMaxSuppressionRel: RelationFn = (args, out, attrs, r) => {
  const data = tensorOrHole(r, args[0]!, 'the boxes', 3);
  if (isError(data)) return data;
  const counts = tensorOrHole(r, args[1]!, 'valid_count', 1);
  if (isError(counts)) return counts;
  const pending = new Pending();
  const checks: [IDim, '==' | '>=', IDim, string][] = [];
  if (data !== null) {
    const k = data.shape[2]!;
    checks.push(
      [k, '>=', intDim(getInt(attrs, 'coord_start') + 4), `boxes of ${printDim(k)} values have no 4 coordinates from coord_start`],
      [k, '>=', intDim(getInt(attrs, 'score_index') + 1), `boxes of ${printDim(k)} values have no score at score_index`],
      [k, '>=', intDim(getInt(attrs, 'id_index') + 1), `boxes of ${printDim(k)} values have no class id at id_index`],
    );
    if (counts !== null)
      checks.push([counts.shape[0]!, '==', data.shape[0]!, `${printDim(counts.shape[0]!)} valid counts for a batch of ${printDim(data.shape[0]!)}`]);
  }
  for (const [have, op, want, message] of checks) {
    const e = pending.check(r.require(have, op, want, message), 'the box sizes are not known yet');
    if (e) return e;
  }
  if (data === null || counts === null) return r.wait('the boxes and the valid counts are not both known yet');
  const [b, n] = data.shape as [IDim, IDim];
  const built: IType = getBool(attrs, 'return_indices') ? tupleType([tensorType([b, n], 'int32'), tensorType([b, intDim(1)], 'int32')]) : data;
  const e2 = r.assign(out, built, 'the result');
  if (e2) return e2;
  return finish(r, pending, built);
};

export const multiboxTransformLocRel: RelationFn = (args, out, _attrs, r) => {
  const cls = tensorOrHole(r, args[0]!, 'cls_prob', 3);
  if (isError(cls)) return cls;
  const loc = tensorOrHole(r, args[1]!, 'loc_pred', 2);
  if (isError(loc)) return loc;
  const anchor = tensorOrHole(r, args[2]!, 'anchor', 3);
  if (isError(anchor)) return anchor;
  const pending = new Pending();
  const n = cls?.shape[2];
  const pairs: [IDim, IDim, string][] = [];
  if (n !== undefined && anchor !== null) pairs.push([anchor.shape[1]!, n, 'anchors in anchor vs cls_prob']);
  if (n !== undefined && loc !== null)
    pairs.push([loc.shape[1]!, dMul(n, 4), 'offsets in loc_pred vs 4 per anchor'], [loc.shape[0]!, cls!.shape[0]!, 'the batch of loc_pred vs cls_prob']);
  if (anchor !== null) pairs.push([anchor.shape[0]!, intDim(1), 'anchor batch vs 1'], [anchor.shape[2]!, intDim(4), 'anchor coordinates vs 4']);
  for (const [a, want, what] of pairs) {
    const e = pending.check(r.require(a, '==', want, `${what}: ${printDim(a)} vs ${printDim(want)}`), 'the anchor counts are not known yet');
    if (e) return e;
  }
  if (cls === null || loc === null || anchor === null) return r.wait('cls_prob, loc_pred and anchor are not all known yet');
  const built = tupleType([tensorType([cls.shape[0]!, n!, intDim(6)], cls.dtype), tensorType([cls.shape[0]!], 'int32')]);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

export const proposalRel: RelationFn = (args, out, attrs, r) => {
  const anchors = listLength(attrs, 'scales') * listLength(attrs, 'ratios');
  if (anchors === 0) return r.fail('scales and ratios must not be empty');
  const cls = tensorOrHole(r, args[0]!, 'cls_prob', 4);
  if (isError(cls)) return cls;
  const bbox = tensorOrHole(r, args[1]!, 'bbox_pred', 4);
  if (isError(bbox)) return bbox;
  const info = tensorOrHole(r, args[2]!, 'im_info', 2);
  if (isError(info)) return info;
  const checks: [IDim, IDim, string][] = [];
  if (info !== null) checks.push([info.shape[1]!, intDim(3), `im_info must hold 3 values per image, got ${printType(info)}`]);
  if (cls !== null) checks.push([cls.shape[1]!, intDim(2 * anchors), `cls_prob has ${printDim(cls.shape[1]!)} channels, 2 per anchor of ${anchors}`]);
  if (bbox !== null) checks.push([bbox.shape[1]!, intDim(4 * anchors), `bbox_pred has ${printDim(bbox.shape[1]!)} channels, 4 per anchor of ${anchors}`]);
  if (cls !== null && bbox !== null) {
    for (const i of [0, 2, 3]) checks.push([bbox.shape[i]!, cls.shape[i]!, `bbox_pred ${printType(bbox)} and cls_prob ${printType(cls)} differ in dim ${i}`]);
  }
  if (cls !== null && info !== null)
    checks.push([info.shape[0]!, cls.shape[0]!, `im_info has batch ${printDim(info.shape[0]!)}, cls_prob ${printDim(cls.shape[0]!)}`]);
  const pending = new Pending();
  for (const [have, want, message] of checks) {
    const e = pending.check(r.require(have, '==', want, message), 'the dims of the proposal inputs are not known yet');
    if (e) return e;
  }
  if (cls === null || bbox === null || info === null) return r.wait('cls_prob, bbox_pred and im_info are not all known yet');
  const batch = cls.shape[0]!;
  if (batch.kind === 'hole') return r.wait('the batch is not known yet');
  const built = tensorType([dMul(batch, getInt(attrs, 'rpn_post_nms_top_n')), intDim(5)], cls.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  YoloReorg: yoloReorgRel,
  ROIAlign: roiRel,
  ROIPool: roiRel,
  MultiboxPrior: multiboxPriorRel,
  NonMaxSuppression: nonMaxSuppressionRel,
  MultiboxTransformLoc: multiboxTransformLocRel,
  Proposal: proposalRel,
};
