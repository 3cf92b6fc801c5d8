// Cross-check sweep cases for the nn family (declared in relations/nn.rules).
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import {
  call,
  tensor,
  tuple,
  combos,
  range,
  shapesOfRank,
  unary,
  axisSweep,
  ALL_SHAPES,
  type Attrs,
  type Dim,
  type Shape,
  type CaseGenerator,
} from '../case-kit.js';

function batchNorm(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([1, 2, 3, 4])) {
    for (const axis of range(-s.length, s.length)) {
      const c = s[axis < 0 ? s.length + axis : axis] ?? 3;
      out.push(call(op.name, [tensor(s), '_', '_', '_', '_'], { axis }));
      out.push(call(op.name, [tensor(s), ...Array(4).fill(tensor([c]))], { axis }));
    }
  }
  out.push(call(op.name, [tensor([2, 3]), tensor([3]), tensor([3]), tensor([3]), tensor([3], 'float16')]));
  out.push(call(op.name, [tensor([2, 3]), tensor([2]), '_', '_', '_']));
  return out;
}

function biasAdd(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([1, 2, 3, 4])) {
    for (const axis of range(-s.length, s.length)) {
      out.push(call(op.name, [tensor(s), '_'], { axis }), call(op.name, [tensor(s), tensor([3])], { axis }));
    }
  }
  out.push(call(op.name, ['_', tensor([3])]), call(op.name, [tensor([2, 3]), tensor([3], 'int32')]));
  return out;
}

function dense(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([1, 2, 3])) {
    const k = s[s.length - 1]!;
    for (const w of ['_', tensor([4, k]), tensor([4, 2])])
      for (const a of combos({ units: [null, 4] })) out.push(call(op.name, [tensor(s), w], a.units === null ? {} : a));
  }
  out.push(call(op.name, ['_', tensor([4, 3])]), call(op.name, [tensor([2, 3]), tensor([4, 3], 'float16')]));
  return out;
}

function batchMatmul(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const shapes: Shape[] = [
    [2, 3, 5],
    [1, 5, 3],
    [2, 5, 3],
    ['n', 3, 5],
    [2, 3],
    [1, 3, 3],
  ];
  for (const a of shapes)
    for (const b of shapes)
      for (const t of combos({ transpose_a: [false, true], transpose_b: [false, true] })) out.push(call(op.name, [tensor(a), tensor(b)], t));
  out.push(call(op.name, [tensor([2, 3, 5]), '_']), call(op.name, [tensor([2, 3, 5]), tensor([2, 3, 5], 'int32')]));
  return out;
}

/** LayerNorm and InstanceNorm: gamma and beta along one axis. */
function layerNorm(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([1, 2, 3, 4])) {
    for (const axis of range(-s.length, s.length)) {
      const c = s[axis < 0 ? s.length + axis : axis] ?? 3;
      out.push(call(op.name, [tensor(s), '_', '_'], { axis }), call(op.name, [tensor(s), tensor([c]), tensor([c])], { axis }));
    }
  }
  out.push(call(op.name, [tensor([2, 3]), tensor([2]), tensor([2])]), call(op.name, [tensor([2, 3]), tensor([3]), tensor([3], 'int32')]));
  out.push(call(op.name, [tensor([2, 3, 4]), '_', '_']), call(op.name, ['_', '_', '_']), call(op.name, [tensor([2, 3]), tensor([3, 1]), '_']));
  return out;
}

function matmul(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const as: Shape[] = [[], [3], [2, 3], [1, 5], ['n', 3], [3, 'n'], [2, 3, 5], ['n', 2, 3]];
  const bs: string[] = ['_', tensor([3, 4]), tensor([4, 3]), tensor([5, 4]), tensor(['n', 4]), tensor([3]), tensor([2, 3, 4])];
  for (const a of as) {
    for (const b of bs) {
      for (const t of combos({ units: [null, 4], transpose_a: [false, true], transpose_b: [false, true] })) {
        const attrs: Attrs = t.units === null ? { transpose_a: t.transpose_a!, transpose_b: t.transpose_b! } : t;
        out.push(call(op.name, [tensor(a), b], attrs));
      }
    }
  }
  out.push(
    call(op.name, ['_', tensor([3, 4])]),
    call(op.name, ['_', tensor([3, 4])], { units: 5 }),
    call(op.name, ['_', tensor([2, 3, 4])]),
    call(op.name, ['_', '_'], { units: 4 }),
    call(op.name, [tensor([2, 3]), tensor([3, 4], 'float16')]),
    call(op.name, [tensor([2, 3]), tensor([3, 4])], { out_dtype: 'float16' }),
    call(op.name, [tensor([2, 3]), '_'], { units: 4, out_dtype: 'int32' }),
    call(op.name, [tensor([2, 3]), tuple([tensor([3, 4])])]),
  );
  return out;
}

function groupNorm(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([0, 1, 2, 3, 4])) {
    for (const axis of range(-s.length - 1, s.length)) {
      const c = s[axis < 0 ? s.length + axis : axis] ?? 3;
      for (const num_groups of [1, 3]) out.push(call(op.name, [tensor(s), '_', '_'], { num_groups, axis }));
      out.push(call(op.name, [tensor(s), tensor([c]), tensor([c])], { num_groups: 1, axis }));
    }
  }
  out.push(
    call(op.name, [tensor([1, 6, 2, 2]), '_', '_'], { num_groups: 3 }),
    call(op.name, [tensor([1, 6, 2, 2]), '_', '_'], { num_groups: 4 }),
    call(op.name, [tensor([1, 6, 2, 2]), tensor([6]), tensor([6], 'float16')], { num_groups: 2 }),
    call(op.name, [tensor([1, 6, 2, 2]), tensor([3]), '_'], { num_groups: 3 }),
    call(op.name, [tensor([1, 'n', 2, 2]), '_', '_'], { num_groups: 2 }),
    call(op.name, [tensor([1, 0, 2, 2]), '_', '_'], { num_groups: 2 }),
    call(op.name, ['_', '_', '_'], { num_groups: 2 }),
    call(op.name, [tensor([1, 6, 2, 2]), '_', tuple([tensor([6])])], { num_groups: 2 }),
  );
  return out;
}

function leakyRelu(op: OpInfo): TypeofRequest[] {
  return [
    ...unary(op),
    ...ALL_SHAPES.map((s) => call(op.name, [tensor(s)], { alpha: 0.2 })),
    call(op.name, [tuple([tensor([2]), tensor([3])])]),
    call(op.name, [tensor([2, 3], 'int32')], { alpha: 1 }),
  ];
}

function prelu(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES) {
    for (const axis of range(-s.length - 1, s.length)) {
      const c = s[axis < 0 ? s.length + axis : axis] ?? 3;
      out.push(call(op.name, [tensor(s), '_'], { axis }), call(op.name, [tensor(s), tensor([c])], { axis }));
    }
    out.push(call(op.name, [tensor(s), '_']));
  }
  out.push(
    call(op.name, [tensor([2, 3]), tensor([2])]),
    call(op.name, [tensor([2, 3]), tensor([3], 'float16')]),
    call(op.name, [tensor([2, 3]), tensor([3, 1])]),
    call(op.name, ['_', tensor([3])]),
    call(op.name, [tensor([2, 3]), tuple([tensor([3])])]),
  );
  return out;
}

function dropout(op: OpInfo): TypeofRequest[] {
  return [
    ...unary(op),
    ...ALL_SHAPES.map((s) => call(op.name, [tensor(s)], { rate: 0.1 })),
    call(op.name, [tuple([tensor([2])])]),
    call(op.name, [tensor([2, 3], 'int8')], { rate: 0 }),
  ];
}

/** 4-D shapes (NCHW or NHWC alike), some of the wrong rank. */
const IMAGES: Shape[] = [
  [1, 3, 5, 5],
  [2, 1, 3, 2],
  ['n', 3, 5, 5],
  [1, 2, 0, 3],
  [1, 2, 'n', 3],
  [1, 2, 3, 'n'],
  [1, 4, 2, 4],
  [2, 8, 6, 6],
];
const NOT_IMAGES: Shape[] = [[], [3], [2, 3, 5], [1, 2, 3, 4, 5]];

function upsampling(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const scales: [number, number][] = [
    [1, 1],
    [2, 2],
    [2, 3],
    [1.5, 2],
    [0.5, 0.5],
    [2.5, 1.25],
    [0.125, 31.875],
    [0, 1],
    [1, -2],
    [1.3, 1],
    [0.1, 2],
  ];
  for (const s of IMAGES) {
    for (const [scale_h, scale_w] of scales) for (const layout of ['NCHW', 'NHWC']) out.push(call(op.name, [tensor(s)], { scale_h, scale_w, layout }));
    out.push(call(op.name, [tensor(s)]));
  }
  for (const s of NOT_IMAGES) out.push(call(op.name, [tensor(s)], { scale_h: 2, scale_w: 2 }));
  for (const a of combos({ method: ['nearest_neighbor', 'bilinear', 'bicubic'], align_corners: [false, true] }))
    out.push(call(op.name, [tensor([1, 2, 3, 4])], { ...a, scale_h: 2, scale_w: 1.5 }));
  out.push(call(op.name, ['_'], { scale_h: 2 }), call(op.name, ['_'], { scale_h: 1.3 }), call(op.name, [tensor([1, 2, 3, 4], 'int32')], { scale_h: 3 }));
  return out;
}

function depthToSpace(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const shapes: Shape[] = [...IMAGES, [1, 8, 1, 1], [2, 9, 2, 2], [1, 'n', 2, 2], [1, 0, 2, 2], [1, 2, 2, 8], [1, 2, 2, 9]];
  for (const s of shapes)
    for (const a of combos({ block_size: [1, 2, 3], layout: ['NCHW', 'NHWC'], mode: ['DCR', 'CDR', 'CRD'] })) out.push(call(op.name, [tensor(s)], a));
  for (const s of NOT_IMAGES) out.push(call(op.name, [tensor(s)], { block_size: 2 }));
  out.push(call(op.name, ['_'], { block_size: 2 }), call(op.name, [tensor([1, 4, 1, 1])], { block_size: 0 }));
  return out;
}

function spaceToDepth(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const shapes: Shape[] = [...IMAGES, [1, 3, 4, 4], [1, 2, 6, 6], [1, 2, 'n', 4], [1, 2, 0, 0], [1, 4, 6, 2]];
  for (const s of shapes) for (const a of combos({ block_size: [1, 2, 3], layout: ['NCHW', 'NHWC'] })) out.push(call(op.name, [tensor(s)], a));
  for (const s of NOT_IMAGES) out.push(call(op.name, [tensor(s)], { block_size: 2 }));
  out.push(call(op.name, ['_'], { block_size: 2 }), call(op.name, [tensor([1, 4, 2, 2])], { block_size: -1 }));
  return out;
}

function resize2d(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of [...IMAGES, ['n', 3, 0, 5], [0, 3, 0, 5]] as Shape[]) {
    for (const a of combos({
      size: [
        [3, 4],
        [0, 2],
        [1, 1],
        [8, 8],
      ],
      layout: ['NCHW', 'NHWC'],
      out_dtype: ['', 'float16'],
    }))
      out.push(call(op.name, [tensor(s)], a));
  }
  for (const s of NOT_IMAGES) out.push(call(op.name, [tensor(s)], { size: [2, 2] }));
  const modes = ['half_pixel', 'align_corners', 'asymmetric', 'pytorch_half_pixel', 'tf_half_pixel_for_nn'];
  for (const a of combos({ method: ['nearest_neighbor', 'linear', 'cubic'], coordinate_transformation_mode: modes }))
    out.push(call(op.name, [tensor([1, 2, 3, 5])], { ...a, size: [4, 2] }));
  for (const rounding_method of ['round', 'floor', 'ceil', 'round_prefer_floor', 'round_prefer_ceil']) {
    out.push(call(op.name, [tensor([1, 2, 3, 5])], { method: 'nearest_neighbor', rounding_method, size: [5, 3] }));
  }
  out.push(
    call(op.name, [tensor([1, 2, 3, 5])], { method: 'cubic', cubic_alpha: -0.75, cubic_exclude: 1, size: [6, 7] }),
    call(op.name, [tensor([1, 2, 3, 5])], { size: [6] }),
    call(op.name, [tensor([1, 2, 3, 5])], { size: [-1, 2] }),
    call(op.name, [tensor([1, 2, 3, 5])], { size: [2, 2], layout: 'HWCN' }),
    call(op.name, [tensor([1, 2, 3, 5], 'uint8')], { size: [2, 2], out_dtype: 'float32' }),
    call(op.name, ['_'], { size: [2, 2] }),
  );
  // symbolic sizes (TVM: size=(th, tw) with size variables), mixed with ints, on known, symbolic and empty images
  for (const s of [
    [1, 3, 4, 5],
    ['n', 'c', 'h', 'w'],
    [1, 2, 0, 3],
  ] as Shape[]) {
    for (const a of combos({
      size: [
        ['th', 'tw'],
        ['th', 3],
        [2, 'tw'],
        ['2*th', 'th + 1'],
      ],
      layout: ['NCHW', 'NHWC'],
    }))
      out.push(call(op.name, [tensor(s)], a));
  }
  out.push(
    call(op.name, ['_'], { size: ['th', 'tw'] }),
    call(op.name, [tensor([1, 2, 3, 5])], { size: ['th'] }),
    call(op.name, [tensor([1, 2, 3, 5])], { size: ['th', 't w'] }),
  );
  return out;
}

// ─── Partially known arguments: `_` dims (holes), Any dims (`?`), tuples ──────

const T1 = tuple([tensor([3])]);

/** Data and channel vectors with holes and Any on either side (BiasAdd, the norms, PRelu). */
function channelPartial(op: OpInfo, vectors: number, attrs: Attrs = {}): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const vec = (d: Dim | null): string => (d === null ? '_' : tensor([d]));
  for (const c of ['_', '?', 3] as Dim[]) {
    for (const v of [null, '_', '?', 3] as (Dim | null)[]) {
      const rest = Array<string>(vectors - 1).fill(vec(v === 3 ? null : v));
      out.push(call(op.name, [tensor([2, c, 4]), vec(v), ...rest], { ...attrs, axis: 1 }));
    }
  }
  out.push(call(op.name, [tensor(['?']), tensor(['_']), ...Array<string>(vectors - 1).fill('_')], { ...attrs, axis: 0 }));
  out.push(call(op.name, [tensor(['_']), '_', ...Array<string>(vectors - 1).fill(tensor(['?']))], { ...attrs, axis: 0 }));
  out.push(call(op.name, [T1, ...Array<string>(vectors).fill('_')], attrs));
  for (let i = 0; i < vectors; i++) out.push(call(op.name, ['_', ...Array.from({ length: vectors }, (_, j) => (j === i ? T1 : '_'))], attrs));
  return out;
}

function densePartial(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const datas: Shape[] = [['n'], [0], ['_'], ['?'], [2, '_'], [2, 3]];
  const weights: string[] = [tensor([0, 'm']), tensor(['_']), tensor([]), tensor([4, '_']), tensor(['_', 3]), tensor([4, '?']), tensor(['?', '_'])];
  for (const d of datas) for (const w of weights) for (const units of [null, 4]) out.push(call(op.name, [tensor(d), w], units === null ? {} : { units }));
  out.push(call(op.name, ['_', tensor([2])]), call(op.name, [T1, '_']), call(op.name, ['_', T1]));
  return out;
}

function matmulPartial(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const as: Shape[] = [['n'], [0], ['_'], ['?'], ['_', 0], [2, '_']];
  const bs: string[] = [tensor([0, 'm']), tensor(['_', 0]), tensor([0, '_']), tensor(['?', '_'])];
  for (const a of as) {
    for (const b of bs) {
      for (const t of combos({ transpose_a: [false, true], transpose_b: [false, true] })) out.push(call(op.name, [tensor(a), b], t));
      out.push(call(op.name, [tensor(a), b], { units: 4 }));
    }
  }
  out.push(call(op.name, [T1, '_']), call(op.name, [T1, tensor([3, 4])]));
  return out;
}

function batchMatmulPartial(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const batches: Dim[] = ['_', 1, 2, 3, 'n', 'm', '?'];
  for (const x of batches) for (const y of batches) out.push(call(op.name, [tensor([x, 2, 3]), tensor([y, 4, 3])]));
  out.push(
    call(op.name, [tensor(['_', 2, 3]), tensor(['_', 4, 3])]),
    call(op.name, [tensor([2, 2, '_']), tensor([2, 4, 3])]),
    call(op.name, [tensor([2, 2, '?']), tensor([2, 4, '_'])]),
    call(op.name, [tensor([2, 2, 'n']), tensor([2, 4, 'm'])]),
    call(op.name, [tensor([]), '_']),
    call(op.name, ['_', tensor(['_'])]),
    call(op.name, [T1, '_']),
    call(op.name, ['_', T1]),
  );
  return out;
}

function batchFlattenPartial(op: OpInfo): TypeofRequest[] {
  const shapes: Shape[] = [
    [0, '_'],
    ['_', '_'],
    [0, 0, '_'],
    [0, '?', '_'],
    [0, '_', '?'],
    ['_', 2, 3],
    [2, '?', 3],
    ['n', '_', 5],
  ];
  return [...shapes.map((s) => call(op.name, [tensor(s)])), call(op.name, [T1])];
}

/** 4-D data with holes and Any dims, for the resampling ops. */
const PARTIAL_IMAGES: Shape[] = [
  [0, 0, '_', 0],
  [1, '_', 4, 4],
  ['_', '_', '_', 0],
  [1, 4, 6, '_'],
  ['?', 4, '?', 4],
  [1, '?', 'n', '_'],
];

function imagePartial(op: OpInfo, attrSets: readonly Attrs[]): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of PARTIAL_IMAGES) for (const a of attrSets) out.push(call(op.name, [tensor(s)], a));
  out.push(call(op.name, [T1], attrSets[0]));
  return out;
}

const withPartial =
  (gen: CaseGenerator, partial: CaseGenerator): CaseGenerator =>
  (op) => [...gen(op), ...partial(op)];

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  BatchNorm: withPartial(batchNorm, (op) => channelPartial(op, 4)),
  BiasAdd: withPartial(biasAdd, (op) => channelPartial(op, 1)),
  Dense: withPartial(dense, densePartial),
  BatchMatmul: withPartial(batchMatmul, batchMatmulPartial),
  BatchFlatten: withPartial((op) => unary(op), batchFlattenPartial),
  Softmax: withPartial(
    (op) => axisSweep(op),
    (op) => [call(op.name, [T1])],
  ),
  LayerNorm: withPartial(layerNorm, (op) => channelPartial(op, 2)),
  InstanceNorm: withPartial(layerNorm, (op) => channelPartial(op, 2)),
  Matmul: withPartial(matmul, matmulPartial),
  GroupNorm: withPartial(groupNorm, (op) => channelPartial(op, 2, { num_groups: 1 })),
  LeakyRelu: leakyRelu,
  PRelu: withPartial(prelu, (op) => channelPartial(op, 1)),
  Dropout: dropout,
  UpSampling: withPartial(upsampling, (op) => imagePartial(op, [{}, { scale_h: 2, scale_w: 1.5, layout: 'NHWC' }, { scale_h: 0.5, scale_w: 3 }])),
  DepthToSpace: withPartial(depthToSpace, (op) => imagePartial(op, [{ block_size: 1 }, { block_size: 2, layout: 'NHWC' }])),
  SpaceToDepth: withPartial(spaceToDepth, (op) => imagePartial(op, [{ block_size: 1 }, { block_size: 2, layout: 'NHWC' }])),
  Resize2D: withPartial(resize2d, (op) => imagePartial(op, [{ size: [3, 4] }])),
};
