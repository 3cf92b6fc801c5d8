// Cross-check sweep cases for relations/conv-transpose.rules: nn.conv1d_transpose and
// nn.conv3d_transpose. The 3-D cases use strides, paddings, dilations, output paddings
// and kernels that differ between axes, so that a rule reading one axis's attribute
// for another is caught.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, combos, type Attrs, type Shape, type CaseGenerator } from '../case-kit.js';

/** The sweep for nd spatial axes: data shapes, attribute sets and weights. */
function transposeSweep(nd: 1 | 3): CaseGenerator {
  const last = nd === 1 ? 'NWC' : 'NDHWC';
  const sp = (xs: readonly (number | string)[]): (number | string)[] => (nd === 1 ? [xs[0]!] : [...xs]);
  const datas: Shape[] = [
    [1, 4, ...sp([3, 2, 4])],
    ['n', 2, ...sp([4, 1, 2])],
    [1, 4, ...sp([0, 2, 2])],
    [1, 2, ...sp(['n', 2, 3])],
    [1, '_', ...sp([2, '_', 2])],
    [1, 2, ...sp(['?', 3, 2])],
  ];
  const toLast = (s: Shape): Shape => [s[0]!, ...s.slice(2), s[1]!];
  const asym: Attrs[] =
    nd === 1
      ? [
          { strides: 2, padding: [0, 1], dilation: 1, output_padding: 1 },
          { strides: 3, padding: 1, dilation: 2, output_padding: 0 },
        ]
      : [
          { strides: [1, 2, 3], padding: [0, 1, 2], dilation: [2, 1, 1], output_padding: [1, 0, 2] },
          { strides: [3, 1, 2], padding: [1, 0, 0, 0, 2, 1], dilation: [1, 3, 2], output_padding: [0, 0, 1] },
        ];
  const ks = (k: number): number[] => (nd === 1 ? [k] : [k, k + 1, Math.max(1, k - 1)]);
  return (op: OpInfo): TypeofRequest[] => {
    const out: TypeofRequest[] = [];
    for (const s of datas) {
      for (const layout of ['', last]) {
        const d = tensor(layout === '' ? s : toLast(s));
        const lay = (a: Attrs): Attrs => (layout === '' ? a : { ...a, data_layout: layout });
        for (const a of asym) {
          out.push(call(op.name, [d, '_'], lay({ ...a, channels: 4, kernel_size: ks(2) })));
          out.push(call(op.name, [d, tensor([s[1]!, 3, ...ks(2)])], lay(a)));
        }
        for (const a of combos({ groups: [2, 3], channels: [2, 3, 4] })) out.push(call(op.name, [d, '_'], lay({ ...a, kernel_size: ks(1) })));
        const cin = s[1]!;
        for (const k of [1, 3]) {
          out.push(call(op.name, [d, tensor([cin, 3, ...ks(k)])], lay({ kernel_size: ks(k) })));
          out.push(call(op.name, [d, tensor([cin, 3, ...ks(k)])], lay({ kernel_size: ks(2) })));
          out.push(call(op.name, [d, tensor([cin, 3, ...ks(k)])], lay({ channels: 3 })));
          out.push(call(op.name, [d, tensor([cin, 3, ...ks(k)])], lay({ channels: 6, groups: 2 })));
          out.push(call(op.name, [d, tensor([cin, 3, ...ks(k)])], lay({ groups: 2 })));
          out.push(call(op.name, [d, tensor([cin, 3, ...ks(k)])], lay({ channels: 4, kernel_size: ks(k) })));
        }
        out.push(call(op.name, [d, tensor([3, 3, ...ks(1)])], lay({})));
        out.push(call(op.name, [d, tensor([cin, 2, ...sp([0, 1, 1])])], lay({})));
        out.push(call(op.name, [d, tensor([cin, 2, ...ks(3)])], lay({ padding: 6 })));
        out.push(call(op.name, [d, tensor([cin, '_', ...sp(['_', 2, 2])])], lay({})));
      }
    }
    const s0: Shape = [1, 4, ...sp([3, 3, 3])];
    out.push(
      call(op.name, [tensor(s0), '_'], { channels: 4, kernel_size: ks(3), output_padding: 1 }),
      call(op.name, ['_', '_'], { channels: 4, kernel_size: ks(3), output_padding: 2, strides: 2 }),
      call(op.name, [tensor(s0), '_'], { channels: 4, kernel_size: ks(3), out_layout: last, out_dtype: 'float16' }),
      call(op.name, [tensor([1, 4, 3, 3]), '_'], { channels: 4, kernel_size: ks(3) }),
      call(op.name, [tensor(s0), tensor([4, 3])]),
      call(op.name, ['_', tensor([4, 3, ...ks(3)])]),
      call(op.name, [tensor(s0), '_']),
      call(op.name, [tuple([tensor(s0)]), '_']),
      call(op.name, [tensor(s0), tuple([tensor(s0)])]),
      call(op.name, [tensor(s0), tensor([4, 3, ...ks(3)], 'float16')], { out_dtype: 'float32' }),
    );
    return out;
  };
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  Conv1DTranspose: transposeSweep(1),
  Conv3DTranspose: transposeSweep(3),
};
