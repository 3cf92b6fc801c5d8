// Mutations of the spatial nn twins (relations/imperative/nn_spatial.ts; see mutation.ts).
import type { Mutation } from './mutation.js';

const file = 'relations/imperative/nn_spatial.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'dilate-off-by-one',
    file,
    find: 'const o = dAdd(dMul(dSub(d, 1), strides[i]!), 1);',
    replace: 'const o = dMul(d, strides[i]!);',
    ops: ['nn.dilate'],
    what: 'an off-by-one: d * s instead of (d - 1) * s + 1',
  },
  {
    id: 'mirror-pad-reflect-margin',
    file,
    find: "const margin = getString(attrs, 'mode') === 'REFLECT' ? 1 : 0;",
    replace: 'const margin = 0;',
    ops: ['nn.mirror_pad'],
    what: 'a dropped check: REFLECT accepts a pad equal to the dim',
  },
  {
    id: 'space-to-batch-pads-one-side',
    file,
    find: 'const padded = dAdd(rest[i]!, pads[2 * i]! + pads[2 * i + 1]!);',
    replace: 'const padded = dAdd(rest[i]!, pads[2 * i]!);',
    ops: ['nn.space_to_batch_nd'],
    what: 'a dropped term: only the padding before counted',
  },
  {
    id: 'space-to-batch-first-block-for-all',
    file,
    find: 'oshape.push(dDiv(padded, b));',
    replace: 'oshape.push(dDiv(padded, blocks[0]!));',
    ops: ['nn.space_to_batch_nd'],
    what: "swapped axes: every spatial axis divided by the first axis's block",
  },
  {
    id: 'batch-to-space-crop-begin-only',
    file,
    find: 'const o = dSub(dMul(rest[i]!, b), crops[2 * i]! + crops[2 * i + 1]!);',
    replace: 'const o = dSub(dMul(rest[i]!, b), crops[2 * i]!);',
    ops: ['nn.batch_to_space_nd'],
    what: 'a dropped term: the end crop ignored',
  },
  {
    id: 'batch-to-space-no-divisibility',
    file,
    find: "r.require(dMod(n, count), '==', intDim(0), `the batch",
    replace: "r.require(dMod(n, 1), '==', intDim(0), `the batch",
    ops: ['nn.batch_to_space_nd'],
    what: 'a dropped check: a batch not divisible by the blocks accepted',
  },
  {
    id: 'global-pool1d-first-spatial',
    file,
    find: "oshape[getString(attrs, 'layout').indexOf('W')] = intDim(1);",
    replace: 'oshape[2] = intDim(1);',
    ops: ['nn.global_avg_pool1d', 'nn.global_max_pool1d'],
    what: 'a wrong layout: W assumed last whatever the layout',
  },
  {
    id: 'correlation-ceil-as-floor',
    file,
    find: 'sizes.push(dDiv(dAdd(room, s1 - 1), s1));',
    replace: 'sizes.push(dDiv(room, s1));',
    ops: ['nn.correlation'],
    what: 'an off-by-one: the output size floored instead of ceiled',
  },
  {
    id: 'correlation-displacements-ignore-stride2',
    file,
    find: 'const span = Math.floor(md / s2) * 2 + 1;',
    replace: 'const span = md * 2 + 1;',
    ops: ['nn.correlation'],
    what: 'a wrong attribute: the displacement grid ignores stride2',
  },
];
