// Cross-check sweep cases for relations/nn-spatial.rules: dilate, mirror_pad,
// space_to_batch_nd, batch_to_space_nd, global pool 1d, correlation. Per-axis
// attributes (strides, pads, blocks, crops) differ between axes in some cases.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, ALL_SHAPES, type Shape, type CaseGenerator } from '../case-kit.js';

const T1 = tuple([tensor([3])]);

/** Shapes with holes and Any, for the per-axis ops. */
const PARTIAL: Shape[] = [
  ['_', 3],
  [2, '_'],
  ['?', 3],
  [0, 'n'],
  ['_', '?', 2],
];

function dilate(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of [...ALL_SHAPES, ...PARTIAL]) {
    const n = s.length;
    out.push(call(op.name, [tensor(s)], { strides: Array(n).fill(1) }));
    out.push(call(op.name, [tensor(s)], { strides: Array.from({ length: n }, (_, i) => i + 1) }));
    out.push(call(op.name, [tensor(s)], { strides: Array.from({ length: n }, (_, i) => n - i + 1) }));
    out.push(call(op.name, [tensor(s)], { strides: Array(n + 1).fill(2) }));
  }
  out.push(
    call(op.name, ['_'], { strides: [2] }),
    call(op.name, [T1], { strides: [2] }),
    call(op.name, [tensor([2, 3])], { strides: [2, 3], dilation_value: 1.5 }),
  );
  return out;
}

function mirrorPad(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const widths = (n: number): number[][][] => [
    Array.from({ length: n }, () => [0, 0]),
    Array.from({ length: n }, (_, i) => [i % 2, 1]),
    Array.from({ length: n }, (_, i) => [i + 1, 2 - (i % 2)]),
    Array.from({ length: n }, () => [3, 0]),
  ];
  for (const s of [...ALL_SHAPES, ...PARTIAL, [4, 2, 1]] as Shape[]) {
    for (const pad_width of widths(s.length)) for (const mode of ['SYMMETRIC', 'REFLECT']) out.push(call(op.name, [tensor(s)], { pad_width, mode }));
  }
  out.push(
    call(op.name, [tensor([2, 3])], { pad_width: [[1, 1]] }),
    call(op.name, ['_'], { pad_width: [[1, 1]] }),
    call(op.name, [T1], { pad_width: [[1, 1]] }),
  );
  return out;
}

const BLOCK_DATA: Shape[] = [
  [1, 4, 6, 3],
  [2, 4, 6],
  [6, 2, 3, 1],
  [4, 3, 3, 2],
  ['n', 4, 6, 1],
  [2, 'h', 6, 1],
  [2, '_', 6],
  ['_', 2, 2],
  [2, '?', 4],
  [8, 2],
  [3],
  [12, 1, 1, 2],
];
const BLOCKS: number[][] = [[2, 2], [2, 3], [3, 1], [1], [2], [2, 2, 2]];

function pairsFor(block: readonly number[], kind: number): number[][] {
  return block.map((_, i) => (kind === 0 ? [0, 0] : kind === 1 ? [i, 1 - (i % 2)] : [2, i]));
}

function spaceToBatch(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of BLOCK_DATA)
    for (const block_shape of BLOCKS) for (const k of [0, 1, 2]) out.push(call(op.name, [tensor(s)], { block_shape, paddings: pairsFor(block_shape, k) }));
  out.push(
    call(op.name, [tensor([1, 4, 4])], { block_shape: [2, 2], paddings: [[0, 0]] }),
    call(op.name, ['_'], { block_shape: [2], paddings: [[0, 0]] }),
    call(op.name, [T1], { block_shape: [2], paddings: [[0, 0]] }),
  );
  out.push(
    call(op.name, [tensor([1, 4, 4])], {
      block_shape: [2, 2],
      paddings: [
        [0, 0],
        [0, 0],
      ],
      pad_value: 1.5,
    }),
  );
  return out;
}

function batchToSpace(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of BLOCK_DATA)
    for (const block_shape of BLOCKS) for (const k of [0, 1, 2]) out.push(call(op.name, [tensor(s)], { block_shape, crops: pairsFor(block_shape, k) }));
  out.push(
    call(op.name, [tensor([4, 4, 4])], { block_shape: [2, 2], crops: [[0, 0]] }),
    call(op.name, ['_'], { block_shape: [2], crops: [[0, 0]] }),
    call(op.name, [T1], { block_shape: [2], crops: [[0, 0]] }),
  );
  return out;
}

function globalPool1d(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of [...ALL_SHAPES, [1, '_', 4], ['?', 2, '_']] as Shape[]) for (const layout of ['NCW', 'NWC']) out.push(call(op.name, [tensor(s)], { layout }));
  out.push(call(op.name, ['_']), call(op.name, [T1]), call(op.name, [tensor([1, 2, 3])], { out_layout: 'NWC' }));
  return out;
}

function correlation(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const maps: Shape[] = [
    [1, 2, 6, 8],
    [2, 3, 5, 4],
    ['n', 2, 7, 7],
    [1, 2, 'h', 6],
    [1, 2, '_', 6],
    ['_', 2, 5, 5],
    [1, 2, 2, 2],
    [1, 2, 6],
  ];
  const attrSets = [
    {},
    { max_displacement: 2, stride2: 2, padding: 2 },
    { kernel_size: 3, max_displacement: 1, stride1: 2, padding: 1 },
    { kernel_size: 3, max_displacement: 3, stride1: 3, stride2: 2 },
    { kernel_size: 2 },
    { max_displacement: 0, is_multiply: false },
  ];
  for (const s of maps) {
    for (const a of attrSets) {
      out.push(call(op.name, [tensor(s), tensor(s)], a));
      out.push(call(op.name, [tensor(s), '_'], a));
    }
  }
  out.push(
    call(op.name, [tensor([1, 2, 6, 8]), tensor([1, 2, 8, 6])]),
    call(op.name, [tensor([1, 2, 6, 8]), tensor([1, 2, 6, 8], 'float16')]),
    call(op.name, [tensor([1, 2, 6, 8]), tensor(['n', 2, 6, 8])]),
    call(op.name, ['_', tensor([1, 2, 6])]),
    call(op.name, [T1, '_']),
    call(op.name, ['_', T1]),
  );
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  Dilate: dilate,
  MirrorPad: mirrorPad,
  SpaceToBatchND: spaceToBatch,
  BatchToSpaceND: batchToSpace,
  GlobalPool1D: globalPool1d,
  Correlation: correlation,
};
