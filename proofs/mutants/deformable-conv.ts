// Mutations of the deformable convolution twin (relations/imperative/deformable_conv.ts; see mutation.ts).
import type { Mutation } from './mutation.js';

const file = 'relations/imperative/deformable_conv.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'deformable-conv2d-offset-one-coordinate',
    file,
    find: 'intDim(2 * kh * kw * dg)',
    replace: 'intDim(kh * kw * dg)',
    ops: ['nn.deformable_conv2d'],
    what: 'a dropped factor: one offset coordinate per tap instead of (dy, dx)',
  },
  {
    id: 'deformable-conv2d-height-stride-for-width',
    file,
    find: 'sizes.push(dAdd(dDiv(dSub(padded, dk), strides[i]!), 1));',
    replace: 'sizes.push(dAdd(dDiv(dSub(padded, dk), strides[0]!), 1));',
    ops: ['nn.deformable_conv2d'],
    what: "swapped axes: the width strided by the height's stride",
  },
];
