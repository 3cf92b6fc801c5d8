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
];
