// Cross-check sweep cases for relations/bitserial.rules (nn.bitpack, nn.bitserial_conv2d,
// nn.bitserial_dense): pack and bit axes in and out of range for every pack type,
// strides, paddings and kernels that differ between the two axes in both layouts,
// weights that fit and weights off in one dim, unknown and symbolic dims, tuples.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, combos, range, type Attrs, type Shape, type CaseGenerator } from '../case-kit.js';

const T1 = tuple([tensor([3])]);

function bitPack(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const datas: Shape[] = [
    [8],
    [2, 8],
    [8, 3],
    [1, 8, 2, 3],
    [2, 16, 3],
    [2, 64, 3],
    [3, 5],
    [],
    ['n', 8, 3],
    [2, 'c', 3],
    [2, '_', 3],
    ['_', 8, 3],
    [2, '?', 3],
    [2, '8*n', 3],
  ];
  for (const d of datas) {
    for (const pack_axis of range(0, d.length)) {
      for (const bit_axis of range(0, d.length + 1)) out.push(call(op.name, [tensor(d, 'int16')], { pack_axis, bit_axis, pack_type: 'uint8', bits: 2 }));
    }
  }
  for (const a of combos({ pack_type: ['uint8', 'uint16', 'uint32', 'uint64'], bits: [1, 3] })) {
    out.push(call(op.name, [tensor([1, 64, 2, 2], 'int32')], a), call(op.name, [tensor([1, 8, 2, 2], 'uint8')], { ...a, pack_axis: 1, bit_axis: 4 }));
  }
  out.push(
    call(op.name, [tensor([2, 32, 3], 'int8')]),
    call(op.name, ['_']),
    call(op.name, [T1]),
    call(op.name, [tensor([2, 32, 3], 'uint16')], { pack_type: 'int32' }),
  );
  for (const dtype of ['float32', 'float16', 'bool', 'int4']) out.push(call(op.name, [tensor([2, 8, 3], dtype)], { pack_type: 'uint8' }));
  return out;
}

function bitserialConv2d(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  // (data shape in NCHW order, weight (O, I, KH, KW)) pairs; the attribute sets below fix channels = 4
  const windows: Attrs[] = [
    { channels: 4, kernel_size: [3, 3] },
    { channels: 4, kernel_size: [3, 1], strides: [1, 2], padding: [1, 0] },
    { channels: 4, kernel_size: [1, 2], strides: [2, 1], padding: [1, 0, 2, 0] },
    { channels: 4, kernel_size: [2, 3], strides: 2, padding: 1 },
    { channels: 4, kernel_size: 2, padding: [2] },
  ];
  const layouts = [
    {
      data_layout: 'NCHW',
      kernel_layout: 'OIHW',
      data: (n: string | number, c: string | number, h: string | number, w: string | number): Shape => [n, c, h, w],
    },
    {
      data_layout: 'NHWC',
      kernel_layout: 'HWIO',
      data: (n: string | number, c: string | number, h: string | number, w: string | number): Shape => [n, h, w, c],
    },
  ];
  const weightIn = (kl: string, o: number, i: number, kh: number, kw: number): Shape => (kl === 'OIHW' ? [o, i, kh, kw] : [kh, kw, i, o]);
  for (const l of layouts) {
    const datas: Shape[] = [
      l.data(1, 3, 6, 5),
      l.data(2, 2, 4, 7),
      l.data('n', 3, 5, 5),
      l.data(1, 3, 'h', 5),
      l.data(1, '_', 5, 5),
      l.data(1, 3, '_', 5),
      l.data(1, 3, '?', 6),
      l.data(1, 3, 2, 1),
      [1, 3, 6],
    ];
    for (const win of windows) {
      const ks = typeof win['kernel_size'] === 'number' ? [win['kernel_size'], win['kernel_size']] : (win['kernel_size'] as number[]);
      const attrs = { ...win, data_layout: l.data_layout, kernel_layout: l.kernel_layout };
      for (const d of datas) out.push(call(op.name, [tensor(d, 'int16'), '_'], attrs));
      const fits = tensor(weightIn(l.kernel_layout, 4, 3, ks[0]!, ks[1]!), 'int16');
      const offs = [
        weightIn(l.kernel_layout, 5, 3, ks[0]!, ks[1]!),
        weightIn(l.kernel_layout, 4, 2, ks[0]!, ks[1]!),
        weightIn(l.kernel_layout, 4, 3, ks[0]! + 1, ks[1]!),
        weightIn(l.kernel_layout, 4, 3, ks[0]!, ks[1]! + 1),
      ];
      out.push(call(op.name, [tensor(l.data(1, 3, 6, 5), 'int16'), fits], attrs), call(op.name, ['_', fits], attrs));
      for (const w of offs) out.push(call(op.name, [tensor(l.data(1, 3, 6, 5), 'int16'), tensor(w, 'int16')], attrs));
    }
  }
  for (const a of combos({ out_dtype: ['int16', 'int32', 'uint8'], kernel_layout: ['OIHW', 'OHWI', 'HWOI'], unipolar: [true, false] })) {
    const w = a['kernel_layout'] === 'OIHW' ? [4, 3, 3, 3] : a['kernel_layout'] === 'OHWI' ? [4, 3, 3, 3] : [3, 3, 4, 3];
    out.push(
      call(op.name, [tensor([1, 3, 5, 4], 'uint8'), tensor(w, 'uint8')], { ...a, channels: 4, activation_bits: 2, weight_bits: 2, pack_dtype: 'uint8' }),
    );
  }
  out.push(
    call(op.name, ['_', '_'], { channels: 2 }),
    call(op.name, [T1, '_'], { channels: 2 }),
    call(op.name, [tensor([1, 3, 6, 5], 'int8'), T1], { channels: 2 }),
    call(op.name, [tensor([1, 3, 6, 5], 'int8'), tensor([4, 3, 3, 3, 1], 'int8')], { channels: 4 }),
    call(op.name, [tensor([1, 3, 6, 5], 'int8'), tensor([4, '_', 3, 3], 'int8')], { channels: 4 }),
    call(op.name, [tensor([1, 3, 6, 5], 'int8'), tensor(['o', 3, 3, 3], 'int8')], { channels: 4 }),
    call(op.name, [tensor([1, 3, 6, 5, 1], 'int8'), '_'], { channels: 4 }),
  );
  for (const [d, w] of [
    ['float32', 'int8'],
    ['int8', 'float16'],
    ['int4', 'int8'],
    ['bool', 'bool'],
  ])
    out.push(call(op.name, [tensor([1, 3, 6, 5], d), tensor([4, 3, 3, 3], w)], { channels: 4 }));
  return out;
}

function bitserialDense(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const datas: Shape[] = [[6], [2, 6], [3, 2, 6], [1, 2, 2, 6], [], ['n', 6], [2, '_'], ['_', 6], ['?', 6], [2, 'k']];
  const weights: string[] = [
    tensor([4, 6], 'int16'),
    tensor([4, 5], 'int16'),
    tensor([3, 6], 'int16'),
    tensor([4, 'k'], 'int16'),
    tensor(['_', 6], 'int16'),
    tensor([4, 6, 1], 'int16'),
    '_',
    T1,
  ];
  for (const d of datas) for (const w of weights) out.push(call(op.name, [tensor(d, 'int16'), w], { units: 4 }));
  for (const a of combos({ out_dtype: ['int16', '', 'int32'], data_bits: [1, 2], unipolar: [true, false] })) {
    out.push(call(op.name, [tensor([2, 6], 'uint8'), tensor([3, 6], 'uint8')], { ...a, units: 3, pack_dtype: 'uint8' }));
  }
  out.push(call(op.name, ['_', tensor([4, 6], 'int32')], { units: 4 }), call(op.name, [T1, '_'], { units: 4 }));
  for (const [d, w] of [
    ['float32', 'int8'],
    ['int8', 'float16'],
    ['int4', 'int8'],
    ['bool', 'uint8'],
  ])
    out.push(call(op.name, [tensor([2, 6], d), tensor([4, 6], w)], { units: 4 }), call(op.name, [tensor([2, 6], d), '_'], { units: 4 }));
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  BitPack: bitPack,
  BitserialConv2D: bitserialConv2d,
  BitserialDense: bitserialDense,
};
