// Cross-check sweep cases for relations/vision.rules.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, combos, type Attrs, type Shape, type CaseGenerator } from '../case-kit.js';

const T1 = tuple([tensor([3])]);
const MAPS: Shape[] = [
  [1, 4, 6, 4],
  [2, 3, 4, 8],
  ['n', 2, 6, 6],
  [1, '_', 4, 4],
  [1, 2, '_', 4],
  [1, 2, '?', 4],
  [1, 2, 'h', 4],
  [1, 2, 0, 3],
  [1, 2, 3],
  [1, 2, 3, 4, 5],
];

function yoloReorg(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of MAPS) for (const stride of [1, 2, 3]) out.push(call(op.name, [tensor(s)], { stride }));
  out.push(call(op.name, ['_'], { stride: 2 }), call(op.name, [T1], { stride: 2 }), call(op.name, [tensor([1, 2, 4, 6], 'float16')], { stride: 2 }));
  return out;
}

function roi(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const rois: string[] = [tensor([3, 5]), tensor(['r', 5]), tensor([3, 4]), tensor([3, '_']), tensor([5]), '_', T1];
  for (const s of MAPS) for (const r of rois) out.push(call(op.name, [tensor(s), r], { pooled_size: [2, 3], spatial_scale: 0.5 }));
  for (const a of combos({
    pooled_size: [
      [1, 1],
      [3, 2],
    ],
    layout: ['NCHW', 'NHWC'],
  }))
    out.push(call(op.name, [tensor([1, 4, 6, 3]), tensor([2, 5])], { ...a, spatial_scale: 1 }));
  out.push(
    call(op.name, ['_', tensor([2, 5])], { pooled_size: [2, 2], spatial_scale: 1 }),
    call(op.name, [T1, '_'], { pooled_size: [2, 2], spatial_scale: 1 }),
  );
  return out;
}

function roiAlign(op: OpInfo): TypeofRequest[] {
  const out = roi(op);
  for (const a of combos({ sample_ratio: [-1, 2], mode: ['avg', 'max'] }))
    out.push(call(op.name, [tensor([1, 2, 5, 4]), tensor([2, 5])], { ...a, pooled_size: [2, 1], spatial_scale: 0.25 }));
  return out;
}

function multiboxPrior(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const sets = [
    {},
    { sizes: [0.2, 0.3], ratios: [1, 2, 0.5] },
    { sizes: [0.5], ratios: [1.0, 2.0], steps: [0.25, 0.125], offsets: [0.5, 0.25], clip: true },
    { sizes: [] },
    { ratios: [] },
  ];
  for (const s of MAPS) for (const a of sets) out.push(call(op.name, [tensor(s)], a));
  out.push(call(op.name, ['_']), call(op.name, [T1]), call(op.name, ['_'], { sizes: [] }));
  return out;
}

function nonMaxSuppression(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const boxes: string[] = [tensor([1, 5, 6]), tensor([2, 4, 5]), tensor(['b', 'n', 6]), tensor(['_', 3, 6]), tensor([2, 3]), '_', T1];
  const counts: string[] = [tensor([1], 'int32'), tensor([2], 'int32'), tensor(['b'], 'int32'), tensor(['_'], 'int32'), tensor([1, 1], 'int32'), '_', T1];
  const rest = [tensor([1, 5], 'int32'), tensor([], 'int32'), tensor([], 'float32')];
  for (const d of boxes) for (const c of counts) for (const return_indices of [true, false]) out.push(call(op.name, [d, c, ...rest], { return_indices }));
  for (const a of combos({ force_suppress: [false, true], top_k: [-1, 2], id_index: [0, -1], invalid_to_bottom: [false, true] }))
    out.push(call(op.name, [tensor([1, 4, 6]), tensor([1], 'int32'), ...rest], a));
  // a box of 6 values: the indices at and just past its end
  for (const a of [{ score_index: 5 }, { score_index: 6 }, { id_index: 5 }, { id_index: 6 }, { coord_start: 2 }, { coord_start: 3 }])
    out.push(call(op.name, [tensor([1, 4, 6]), tensor([1], 'int32'), ...rest], a));
  return out;
}

function multiboxTransformLoc(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const cls: string[] = [tensor([1, 3, 5]), tensor([2, 2, 4]), tensor(['b', 3, 'n']), tensor([1, 3, '_']), tensor([1, 3]), '_', T1];
  const locs: string[] = [tensor([1, 20]), tensor([2, 16]), tensor(['b', '_']), tensor([1, 12]), tensor([20]), '_', T1];
  const anchors: string[] = [tensor([1, 5, 4]), tensor([1, 4, 4]), tensor([1, 'n', 4]), tensor([1, '_', 4]), tensor([5, 4]), '_'];
  for (const c of cls) for (const l of locs) for (const a of anchors) out.push(call(op.name, [c, l, a]));
  out.push(
    call(op.name, [tensor([1, 3, 5]), tensor([1, 20]), tensor([1, 5, 4])], {
      clip: false,
      threshold: 0.5,
      variances: [0.2, 0.2, 0.1, 0.1],
      keep_background: true,
    }),
  );
  out.push(call(op.name, [tensor([1, 3, 5], 'float16'), tensor([1, 20], 'float16'), tensor([1, 5, 4], 'float16')]));
  return out;
}

function proposal(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  // one scale and two ratios: 2 anchors, so 4 score and 8 delta channels
  const anchors = { scales: [2.0], ratios: [0.5, 2.0], feature_stride: 4, rpn_min_size: 1 };
  const cls: string[] = [
    tensor([1, 4, 3, 5]),
    tensor([2, 4, 2, 2]),
    tensor(['b', 4, 'h', 5]),
    tensor(['_', 4, 3, 5]),
    tensor([1, 6, 3, 5]),
    tensor([1, 4, 3]),
    '_',
    T1,
  ];
  const bbox: string[] = [
    tensor([1, 8, 3, 5]),
    tensor([2, 8, 2, 2]),
    tensor(['b', 8, 'h', 5]),
    tensor([1, 8, 3, 4]),
    tensor([1, 8, 2, 5]),
    tensor([1, 12, 3, 5]),
    tensor([1, 8, 3, 5, 1]),
    '_',
    T1,
  ];
  const infos: string[] = [tensor([1, 3]), tensor([2, 3]), tensor(['b', 3]), tensor([1, 4]), tensor([3]), '_', T1];
  for (const c of cls) for (const b of bbox) for (const i of infos) out.push(call(op.name, [c, b, i], { ...anchors, rpn_post_nms_top_n: 3 }));
  const sets: Attrs[] = [
    {},
    { scales: [1.0, 2.0], ratios: [1.0], rpn_post_nms_top_n: 2, rpn_pre_nms_top_n: -1, threshold: 0.5 },
    { scales: [2.0], ratios: [1.0, 0.5], rpn_post_nms_top_n: 5, rpn_pre_nms_top_n: 3, feature_stride: 2, iou_loss: true },
    { scales: [], ratios: [1.0] },
    { scales: [1.0], ratios: [] },
  ];
  for (const a of sets) {
    const n = a['scales'] === undefined ? 12 : (a['scales'] as number[]).length * (a['ratios'] as number[]).length;
    out.push(call(op.name, [tensor([1, 2 * n, 2, 3]), tensor([1, 4 * n, 2, 3]), tensor([1, 3])], { ...a, rpn_min_size: 0 }));
    out.push(call(op.name, [tensor([2, 2 * n, 3, 2], 'float16'), tensor([2, 4 * n, 3, 2], 'float16'), tensor([2, 3], 'float16')], a));
  }
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  YoloReorg: yoloReorg,
  ROIAlign: roiAlign,
  ROIPool: roi,
  MultiboxPrior: multiboxPrior,
  NonMaxSuppression: nonMaxSuppression,
  MultiboxTransformLoc: multiboxTransformLoc,
  Proposal: proposal,
};
