// Mutations of the vision twins (relations/imperative/vision.ts; see mutation.ts).
import type { Mutation } from './mutation.js';

const file = 'relations/imperative/vision.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'yolo-reorg-channels-times-stride',
    file,
    find: 'const built = tensorType([n, dMul(c, s * s), dDiv(h, s), dDiv(w, s)], data.dtype);',
    replace: 'const built = tensorType([n, dMul(c, s), dDiv(h, s), dDiv(w, s)], data.dtype);',
    ops: ['vision.yolo_reorg'],
    what: 'a dropped factor: C * s instead of C * s^2',
  },
  {
    id: 'roi-pooled-size-swapped',
    file,
    find: 'const canonical = [rois.shape[0]!, data.shape[perm[1]!]!, intDim(ph!), intDim(pw!)];',
    replace: 'const canonical = [rois.shape[0]!, data.shape[perm[1]!]!, intDim(pw!), intDim(ph!)];',
    ops: ['vision.roi_align', 'vision.roi_pool'],
    what: 'swapped axes: the pooled (height, width) in the wrong order',
  },
  {
    id: 'roi-channels-ignore-layout',
    file,
    find: 'const canonical = [rois.shape[0]!, data.shape[perm[1]!]!,',
    replace: 'const canonical = [rois.shape[0]!, data.shape[1]!,',
    ops: ['vision.roi_pool'],
    what: 'a wrong layout: the channels read from axis 1 whatever the layout',
  },
  {
    id: 'multibox-prior-boxes-off-by-one',
    file,
    find: "const boxes = listLength(attrs, 'sizes') + listLength(attrs, 'ratios') - 1;",
    replace: "const boxes = listLength(attrs, 'sizes') + listLength(attrs, 'ratios');",
    ops: ['vision.multibox_prior'],
    what: 'an off-by-one: the first size-ratio pair counted twice',
  },
  {
    id: 'nms-counts-shape-from-boxes',
    file,
    find: "tensorType([b, intDim(1)], 'int32')",
    replace: "tensorType([b, n], 'int32')",
    ops: ['vision.non_max_suppression'],
    what: 'a wrong shape: the counts (B, N) instead of (B, 1)',
  },
  {
    id: 'nms-score-index-unchecked',
    file,
    find: "[k, '>=', intDim(getInt(attrs, 'score_index') + 1),",
    replace: "[k, '>=', intDim(getInt(attrs, 'score_index')),",
    ops: ['vision.non_max_suppression'],
    what: 'an off-by-one: a score index equal to K accepted',
  },
  {
    id: 'multibox-transform-loc-anchors-from-loc',
    file,
    find: 'const built = tupleType([tensorType([cls.shape[0]!, n!, intDim(6)], cls.dtype)',
    replace: 'const built = tupleType([tensorType([cls.shape[0]!, cls.shape[1]!, intDim(6)], cls.dtype)',
    ops: ['vision.multibox_transform_loc'],
    what: 'a swapped axis: the box count taken from the classes',
  },
  {
    id: 'proposal-count-ignores-batch',
    file,
    find: "const built = tensorType([dMul(batch, getInt(attrs, 'rpn_post_nms_top_n')), intDim(5)], cls.dtype);",
    replace: "const built = tensorType([intDim(getInt(attrs, 'rpn_post_nms_top_n')), intDim(5)], cls.dtype);",
    ops: ['vision.proposal'],
    what: 'a dropped factor: rpn_post_nms_top_n rows in all instead of per image',
  },
  {
    id: 'proposal-anchor-channels-unchecked',
    file,
    find: 'if (cls !== null) checks.push([cls.shape[1]!, intDim(2 * anchors),',
    replace: 'if (cls !== null) checks.push([cls.shape[1]!, cls.shape[1]!,',
    ops: ['vision.proposal'],
    what: "a dropped check: cls_prob's channels never compared with 2 per anchor",
  },
];
