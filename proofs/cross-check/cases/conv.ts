// Cross-check sweep cases for the conv family (relations/ops/conv.ts).
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../solver/infer/typeof.js';
import { call, tensor, combos, shapesOfRank, type Attrs, type Shape, type CaseGenerator } from '../case-kit.js';

function conv2d(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const attrSets = combos({ strides: [1, 2], padding: [0, 1, [1, 2]], kernel_size: [[1, 1], [3, 3]], channels: [4] });
  for (const layout of ['NCHW', 'NHWC'] as const) {
    const data: Shape[] = layout === 'NCHW' ? [[1, 3, 5, 5], ['n', 2, 5, 3]] : [[1, 5, 5, 3], ['n', 5, 3, 2]];
    const kernelLayout = layout === 'NCHW' ? 'OIHW' : 'HWIO';
    for (const d of data) {
      for (const a of attrSets) {
        const attrs: Attrs = layout === 'NCHW' ? a : { ...a, data_layout: layout, kernel_layout: kernelLayout };
        out.push(call(op.name, [tensor(d), '_'], attrs));
      }
      // A given weight, no channels/kernel_size.
      const cin = layout === 'NCHW' ? d[1]! : d[3]!;
      for (const k of [1, 3]) {
        const w = layout === 'NCHW' ? [4, cin, k, k] : [k, k, cin, 4];
        for (const a of combos({ strides: [1, 2], padding: [0, 1] })) {
          out.push(call(op.name, [tensor(d), tensor(w)], layout === 'NCHW' ? a : { ...a, data_layout: layout, kernel_layout: kernelLayout }));
        }
      }
    }
  }
  out.push(call(op.name, [tensor([1, 3, 5, 5]), tensor([4, 2, 3, 3])])); // channel mismatch
  out.push(call(op.name, [tensor([1, 3, 5, 5]), tensor([4, 3, 3, 3], 'float16')]));
  out.push(call(op.name, [tensor([1, 3, 5]), '_'], { kernel_size: [3, 3], channels: 4 }));
  out.push(call(op.name, ['_', tensor([4, 3, 3, 3])]));
  return out;
}

function pool2d(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const attrSets = combos({ pool_size: [1, [2, 2], [3, 2]], strides: [1, 2], padding: [0, 1, [1, 2]], ceil_mode: [false, true] });
  for (const [layout, shapes] of [
    ['NCHW', [[1, 3, 5, 5], ['n', 2, 5, 3]]],
    ['NHWC', [[1, 5, 5, 3]]],
  ] as const) {
    for (const s of shapes) for (const a of attrSets) out.push(call(op.name, [tensor(s)], layout === 'NCHW' ? a : { ...a, layout }));
  }
  out.push(call(op.name, [tensor([1, 3, 5])]), call(op.name, ['_']));
  return out;
}

function globalPool(op: OpInfo): TypeofRequest[] {
  return [...shapesOfRank([3, 4]).flatMap((s) => [call(op.name, [tensor(s)]), call(op.name, [tensor(s)], { layout: 'NHWC' })]), call(op.name, ['_'])];
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  Conv2D: conv2d,
  Pool2D: pool2d,
  GlobalPool2D: globalPool,
};
