// Mutations of the transposed convolution twin as nn.conv1d_transpose and
// nn.conv3d_transpose use it (relations/imperative/conv.ts, convTransposeRel; see
// mutation.ts). The 2-D operator's mutations are in conv.ts beside this file.
import type { Mutation } from './mutation.js';

const file = 'relations/imperative/conv.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'conv3d-transpose-first-output-padding',
    file,
    find: 'const o = dAdd(dSub(dAdd(dMul(dSub(x, 1), strides[i]!), dk), pads[i]!), outPad[i]!);',
    replace: 'const o = dAdd(dSub(dAdd(dMul(dSub(x, 1), strides[i]!), dk), pads[i]!), outPad[0]!);',
    ops: ['nn.conv3d_transpose'],
    what: "swapped axes: every axis gets the depth's output_padding",
  },
  {
    id: 'conv3d-transpose-strides-reversed',
    file,
    find: 'const o = dAdd(dSub(dAdd(dMul(dSub(x, 1), strides[i]!), dk), pads[i]!), outPad[i]!);',
    replace: 'const o = dAdd(dSub(dAdd(dMul(dSub(x, 1), strides[nd - 1 - i]!), dk), pads[i]!), outPad[i]!);',
    ops: ['nn.conv3d_transpose'],
    what: 'swapped axes: the strides applied in reverse axis order',
  },
  {
    id: 'conv1d-transpose-undilated-kernel',
    file,
    find: 'const dk = dAdd(dMul(dSub(ks[i]!, 1), dilation[i]!), 1);\n      const o = ',
    replace: 'const dk = ks[i]!;\n      const o = ',
    ops: ['nn.conv1d_transpose'],
    what: 'a dropped term: the kernel extent ignores the dilation',
  },
];
