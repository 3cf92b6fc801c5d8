// Cross-check sweep cases for the image family (relations/image.rules): resize1d/3d,
// upsampling3d, affine_grid, grid_sample, crop_and_resize, dilation2d. Per-axis
// attributes (sizes, scales, strides, dilations, paddings, kernels) differ between
// axes in some cases, so that a rule reading one axis's attribute for another is caught.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, combos, type Shape, type CaseGenerator } from '../case-kit.js';

const T1 = tuple([tensor([3])]);

function resize1d(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const shapes: Shape[] = [
    [1, 3, 5],
    [2, 1, 4],
    ['n', 3, 5],
    [1, 2, 0],
    [0, 2, 0],
    [1, '_', 4],
    ['?', 2, '?'],
    [1, 2, 'n'],
  ];
  for (const s of shapes)
    for (const a of combos({ size: [[3], [0], [8]], layout: ['NCW', 'NWC'], out_dtype: ['', 'float16'] })) out.push(call(op.name, [tensor(s)], a));
  for (const s of [[], [3], [2, 3], [1, 2, 3, 4]] as Shape[]) out.push(call(op.name, [tensor(s)], { size: [2] }));
  for (const a of combos({ method: ['nearest_neighbor', 'linear', 'cubic'], coordinate_transformation_mode: ['half_pixel', 'align_corners', 'asymmetric'] }))
    out.push(call(op.name, [tensor([1, 2, 5])], { ...a, size: [7] }));
  out.push(call(op.name, ['_'], { size: [2] }), call(op.name, [T1], { size: [2] }), call(op.name, [tensor([1, 2, 5])], { size: [2, 2] }));
  // symbolic sizes (TVM: size=(tw,) with a size variable)
  for (const s of [
    [1, 3, 5],
    ['n', 'c', 'w'],
    [1, 2, 0],
  ] as Shape[])
    for (const a of combos({ size: [['tw'], ['2*tw + 1']], layout: ['NCW', 'NWC'] })) out.push(call(op.name, [tensor(s)], a));
  out.push(call(op.name, [tensor([1, 2, 5])], { size: ['tw', 'th'] }), call(op.name, [tensor([1, 2, 5])], { size: ['-'] }));
  return out;
}

function resize3d(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const shapes: Shape[] = [
    [1, 3, 4, 5, 6],
    [2, 1, 2, 3, 1],
    ['n', 3, 2, 2, 2],
    [1, 2, 0, 3, 3],
    [1, 2, 3, 3, 0],
    [1, '_', 4, 4, 4],
    [1, 2, '?', 3, 'n'],
  ];
  for (const s of shapes)
    for (const a of combos({
      size: [
        [2, 3, 4],
        [0, 1, 1],
        [5, 1, 2],
      ],
      layout: ['NCDHW', 'NDHWC'],
      out_dtype: ['', 'float16'],
    }))
      out.push(call(op.name, [tensor(s)], a));
  for (const s of [[3], [2, 3, 4, 5], [1, 2, 3, 4, 5, 6]] as Shape[]) out.push(call(op.name, [tensor(s)], { size: [2, 2, 2] }));
  for (const method of ['nearest_neighbor', 'linear', 'cubic']) out.push(call(op.name, [tensor([1, 1, 2, 3, 4])], { method, size: [3, 2, 5] }));
  out.push(call(op.name, ['_'], { size: [2, 2, 2] }), call(op.name, [T1], { size: [2, 2, 2] }));
  // symbolic sizes (TVM: size=(td, th, tw) with size variables), mixed with ints
  for (const s of [
    [1, 3, 4, 5, 6],
    ['n', 'c', 'd', 'h', 'w'],
    [1, 2, 0, 3, 3],
  ] as Shape[]) {
    for (const a of combos({
      size: [
        ['td', 'th', 'tw'],
        [2, 'th', 4],
        ['td', 3, 'td * 2'],
      ],
      layout: ['NCDHW', 'NDHWC'],
    }))
      out.push(call(op.name, [tensor(s)], a));
  }
  return out;
}

function upsampling3d(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const shapes: Shape[] = [
    [1, 2, 3, 4, 5],
    [1, 1, 2, 2, 2],
    ['n', 2, 3, 3, 3],
    [1, 2, 'n', 3, 4],
    [1, 2, 0, 3, 3],
    [1, '_', 2, 2, 2],
    [1, 2, '_', 2, 2],
    [1, 2, '?', 3, 4],
  ];
  const scales: [number, number, number][] = [
    [1, 1, 1],
    [2, 3, 4],
    [1.5, 2, 0.5],
    [2, 2.5, 1],
    [0, 1, 1],
    [1, 1.3, 1],
    [1, 1, -2],
  ];
  for (const s of shapes)
    for (const [scale_d, scale_h, scale_w] of scales)
      for (const layout of ['NCDHW', 'NDHWC']) out.push(call(op.name, [tensor(s)], { scale_d, scale_h, scale_w, layout }));
  for (const s of [[3], [1, 2, 3, 4]] as Shape[]) out.push(call(op.name, [tensor(s)], { scale_d: 2 }));
  out.push(
    call(op.name, ['_'], { scale_d: 2 }),
    call(op.name, [T1]),
    call(op.name, [tensor([1, 2, 3, 4, 5], 'int32')], { method: 'trilinear', coordinate_transformation_mode: 'align_corners', scale_h: 2 }),
  );
  return out;
}

function affineGrid(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const shapes: Shape[] = [
    [1, 2, 3],
    [4, 2, 3],
    ['n', 2, 3],
    [2, 3, 2],
    [2, 2, 2],
    [1, '_', 3],
    [1, 'n', 3],
    ['?', 2, '?'],
    [2, 3],
    [1, 2, 3, 1],
  ];
  for (const s of shapes)
    for (const target_shape of [
      [4, 5],
      [1, 1],
      [0, 3],
    ])
      out.push(call(op.name, [tensor(s)], { target_shape }));
  out.push(
    call(op.name, ['_'], { target_shape: [2, 2] }),
    call(op.name, [T1], { target_shape: [2, 2] }),
    call(op.name, [tensor([1, 2, 3], 'float16')], { target_shape: [2, 3] }),
  );
  return out;
}

function gridSample(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const datas: string[] = [tensor([1, 3, 4, 5]), tensor([2, 1, 3, 3]), tensor(['n', 2, 4, 4]), tensor([1, '_', 2, 2]), tensor([1, 3, 4]), '_', T1];
  const grids: string[] = [
    tensor([1, 2, 3, 6]),
    tensor([2, 2, 1, 1]),
    tensor(['n', 2, 5, 5]),
    tensor([1, 3, 2, 2]),
    tensor([1, '_', 2, 2]),
    tensor([1, 2, 2]),
    '_',
    T1,
  ];
  for (const d of datas) for (const g of grids) out.push(call(op.name, [d, g]));
  for (const a of combos({ method: ['nearest', 'bilinear', 'bicubic'], padding_mode: ['zeros', 'border', 'reflection'], align_corners: [true, false] }))
    out.push(call(op.name, [tensor([1, 2, 3, 4]), tensor([1, 2, 2, 5])], a));
  return out;
}

function cropAndResize(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const datas: Shape[] = [
    [1, 3, 8, 8],
    [2, 8, 6, 4],
    ['n', 3, 5, 5],
    [1, '_', 4, 4],
    [1, 3, 4],
  ];
  const boxes: string[] = [tensor([5, 4]), tensor(['b', 4]), tensor([5, 3]), tensor([2, '_']), tensor([5]), '_'];
  const indices: string[] = [tensor([5], 'int32'), tensor(['b'], 'int32'), tensor([2], 'int32'), tensor([5, 1], 'int32'), '_'];
  for (const d of datas) for (const b of boxes) for (const i of indices) out.push(call(op.name, [tensor(d), b, i], { crop_size: [3, 2] }));
  for (const a of combos({
    crop_size: [
      [1, 1],
      [7, 5],
      [0, 2],
    ],
    layout: ['NCHW', 'NHWC'],
    method: ['bilinear', 'nearest_neighbor'],
    out_dtype: ['', 'float16'],
  }))
    out.push(call(op.name, [tensor([2, 4, 6, 3]), tensor([3, 4]), tensor([3], 'int32')], a));
  out.push(
    call(op.name, ['_', tensor([5, 4]), '_'], { crop_size: [2, 2] }),
    call(op.name, [T1, '_', '_'], { crop_size: [2, 2] }),
    call(op.name, [tensor([1, 3, 4, 4]), T1, '_'], { crop_size: [2, 2] }),
  );
  return out;
}

function dilation2d(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const datas: Shape[] = [
    [1, 3, 8, 7],
    [2, 2, 5, 9],
    ['n', 3, 6, 6],
    [1, 3, 'h', 6],
    [1, 3, '_', 6],
    [1, '_', 6, 6],
    [1, 3, '?', 5],
    [1, 3, 2, 2],
    [1, 3, 8],
  ];
  const weights: Shape[] = [
    [3, 3, 3],
    [3, 2, 4],
    [2, 3, 3],
    [3, '_', 2],
    [3, 1, 1],
    [3, 3],
  ];
  for (const d of datas) {
    for (const w of weights) {
      out.push(call(op.name, [tensor(d), tensor(w)]));
      out.push(call(op.name, [tensor(d), tensor(w)], { strides: [1, 2], dilations: [2, 1], padding: [1, 0] }));
      out.push(call(op.name, [tensor(d), tensor(w)], { strides: [3, 1], dilations: [1, 3], padding: [0, 1, 2, 0] }));
    }
  }
  for (const a of combos({ data_layout: ['NCHW', 'NHWC'], kernel_layout: ['IHW', 'HWI'], strides: [1, [2, 1]], padding: [1, [2, 0]] }))
    out.push(call(op.name, [tensor([1, 6, 5, 6]), tensor([6, 2, 3])], a));
  out.push(
    call(op.name, ['_', tensor([3, 3, 3])]),
    call(op.name, [tensor([1, 3, 8, 8]), '_']),
    call(op.name, [T1, '_']),
    call(op.name, [tensor([1, 3, 8, 8]), T1]),
    call(op.name, [tensor([1, 3, 8, 8], 'int32'), tensor([3, 2, 2], 'int32')], { out_dtype: 'float32' }),
  );
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  Resize1D: resize1d,
  Resize3D: resize3d,
  UpSampling3D: upsampling3d,
  AffineGrid: affineGrid,
  GridSample: gridSample,
  CropAndResize: cropAndResize,
  Dilation2D: dilation2d,
};
