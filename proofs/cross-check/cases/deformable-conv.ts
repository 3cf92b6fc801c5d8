// Cross-check sweep cases for relations/deformable-conv.rules (nn.deformable_conv2d),
// with strides, paddings, dilations and kernels that differ between the two axes.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, combos, type Attrs, type Shape, type CaseGenerator } from '../case-kit.js';

function deformableConv2d(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const datas: Shape[] = [
    [1, 4, 6, 5],
    [2, 2, 4, 7],
    ['n', 4, 5, 5],
    [1, 4, 'h', 5],
    [1, '_', 5, 5],
    [1, 4, '_', 5],
    [1, 4, '?', 6],
    [1, 4, 2, 2],
    [1, 3, 6, 6],
    [1, 4, 6],
  ];
  const attrSets: Attrs[] = [
    { channels: 6 },
    { channels: 6, kernel_size: [3, 1], strides: [1, 2], padding: [1, 0], dilation: [2, 1] },
    { channels: 4, kernel_size: [1, 2], strides: [2, 1], padding: [0, 1, 1, 0], dilation: [1, 2], groups: 2, deformable_groups: 2 },
    { channels: 3, groups: 2 },
    { channels: 4, deformable_groups: 3 },
  ];
  for (const d of datas) for (const a of attrSets) out.push(call(op.name, [tensor(d), '_', '_'], a));
  for (const a of combos({
    kernel_size: [
      [3, 3],
      [2, 1],
    ],
    out_dtype: ['', 'float16'],
  })) {
    out.push(call(op.name, [tensor([1, 4, 6, 5]), tensor([1, 18, 4, 3]), tensor([6, 4, 3, 3])], { ...a, channels: 6 }));
    out.push(call(op.name, [tensor([1, 4, 6, 5]), tensor([1, 4, 5, 5]), tensor([6, 4, 2, 1])], { ...a, channels: 6 }));
  }
  out.push(
    call(op.name, [tensor([1, 4, 6, 5]), '_', '_']),
    call(op.name, ['_', '_', '_'], { channels: 2 }),
    call(op.name, [tuple([tensor([1])]), '_', '_'], { channels: 2 }),
    call(op.name, [tensor([1, 4, 6, 5]), tuple([tensor([1])]), '_'], { channels: 2 }),
    call(op.name, [tensor([1, 4, 6, 5]), '_', tuple([tensor([1])])], { channels: 2 }),
    call(op.name, [tensor([1, 4, 6, 5]), '_', tensor([6, 4, 3, 3], 'float16')], { channels: 6 }),
    call(op.name, [tensor([1, 4, 6, 5]), '_', tensor([6, 2, 3, 3])], { channels: 6 }),
  );
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  DeformableConv2D: deformableConv2d,
};
