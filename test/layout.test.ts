// Packed layouts (relations/layout.ts, the one parser) and the pools that accept them,
// typed by both strategies. Every expected value was worked out by hand from TVM's
// layout grammar (include/tvm/tir/data_layout.h: primal axes A-Z, sub-axes a factor
// and a-z, a sub-axis needs its primal axis) and Pool2DRel's formula.
import test from 'ava';
import { layoutView, packedIndex, packedShape, parseLayout, primalIndex, primalShape } from '../relations/layout.js';
import { typeofCall, type TypeofRequest } from '../typing/typeof.js';

test('parseLayout splits primal axes and sub-axes', (t) => {
  t.deepEqual(parseLayout('NCHW16c'), {
    ok: true,
    axes: [
      { primal: 'N', factor: null },
      { primal: 'C', factor: null },
      { primal: 'H', factor: null },
      { primal: 'W', factor: null },
      { primal: 'C', factor: 16 },
    ],
  });
  t.deepEqual(parseLayout('OIHW4o4i'), {
    ok: true,
    axes: [
      { primal: 'O', factor: null },
      { primal: 'I', factor: null },
      { primal: 'H', factor: null },
      { primal: 'W', factor: null },
      { primal: 'O', factor: 4 },
      { primal: 'I', factor: 4 },
    ],
  });
});

test('parseLayout rejects what TVM rejects, saying why', (t) => {
  t.deepEqual(parseLayout('NCHW4x'), { ok: false, reason: 'sub-axis x without its primal axis X' });
  t.deepEqual(parseLayout('NCHWC'), { ok: false, reason: 'axis C appears twice' });
  t.deepEqual(parseLayout('NCHW4c4c'), { ok: false, reason: 'axis c appears twice' });
  t.deepEqual(parseLayout('NCHW0c'), { ok: false, reason: 'a sub-axis factor must be positive' });
  t.false(parseLayout('NC_HW').ok);
  t.false(parseLayout('NCHW16').ok);
});

test('layoutView places a packed layout over the canonical one', (t) => {
  const v = layoutView('NHWC8c', 'NCHW');
  if (typeof v === 'string') return t.fail(v);
  t.deepEqual(v.primalAt, [0, 3, 1, 2]);
  t.deepEqual(v.subs, [{ at: 4, of: 1, factor: 8 }]);
  t.regex(layoutView('NCHWD', 'NCHW') as string, /not supported/);
  t.regex(layoutView('NCW', 'NCHW') as string, /not supported/);
});

test('shapes map between packed and primal; the way back needs divisibility', (t) => {
  const v = layoutView('NCHW4n4c', 'NCHW');
  if (typeof v === 'string') return t.fail(v);
  // (2, 3, 5, 6, 4, 4): N = 2 * 4, C = 3 * 4
  t.deepEqual(primalShape(v, [2, 3, 5, 6, 4, 4]), [8, 12, 5, 6]);
  t.deepEqual(packedShape(v, [8, 12, 5, 6]), [2, 3, 5, 6, 4, 4]);
  t.regex(packedShape(v, [8, 10, 5, 6]) as string, /axis C of size 10 is not divisible by the factor 4/);
  // element (n, c, h, w) = (5, 7, 1, 2) sits at (5 / 4, 7 / 4, 1, 2, 5 % 4, 7 % 4)
  t.deepEqual(packedIndex(v, [5, 7, 1, 2]), [1, 1, 1, 2, 1, 3]);
  t.deepEqual(primalIndex(v, [1, 1, 1, 2, 1, 3]), [5, 7, 1, 2]);
});

const POOLS: [TypeofRequest, string][] = [
  // H: (9 - 3) / 2 + 1 = 4; W: (9 - 2) / 1 + 1 = 8; the sub-axis 4 is copied
  [
    { op: 'nn.max_pool2d', attrs: { pool_size: [3, 2], strides: [2, 1], layout: 'NCHW4c' }, args: ['Tensor[(1, 2, 9, 9, 4), float32]'] },
    'Tensor[(1, 2, 4, 8, 4), float32]',
  ],
  // N and C both split (TVM's NCHW4n4c): H (9 - 3) + 1 = 7, W (9 - 2) + 1 = 8
  [
    { op: 'nn.avg_pool2d', attrs: { pool_size: [3, 2], layout: 'NCHW4n4c' }, args: ['Tensor[(1, 2, 9, 9, 4, 4), float32]'] },
    'Tensor[(1, 2, 7, 8, 4, 4), float32]',
  ],
  // channels last and split: H and W become 1
  [{ op: 'nn.global_avg_pool2d', attrs: { layout: 'NHWC16c' }, args: ['Tensor[(1, 7, 7, 2, 16), float32]'] }, 'Tensor[(1, 1, 1, 2, 16), float32]'],
  // D: 5 - 2 + 1 = 4, H: 6, W: 7 - 3 + 1 = 5; an unknown H stays unknown
  [
    { op: 'nn.max_pool3d', attrs: { pool_size: [2, 1, 3], layout: 'NCDHW8c' }, args: ['Tensor[(1, 2, 5, 6, 7, 8), float32]'] },
    'Tensor[(1, 2, 4, 6, 5, 8), float32]',
  ],
  [{ op: 'nn.avg_pool3d', attrs: { layout: 'NCDHW4n4c' }, args: ['Tensor[(1, 1, 1, ?, 1, 4, 4), float32]'] }, 'Tensor[(1, 1, 1, ?, 1, 4, 4), float32]'],
];

const REJECTED: [TypeofRequest, RegExp][] = [
  [{ op: 'nn.max_pool2d', attrs: { layout: 'NCHW4h' }, args: ['Tensor[(1, 2, 9, 9, 4), float32]'] }, /splits the spatial axis/],
  [{ op: 'nn.max_pool2d', attrs: { layout: 'NCHW4x' }, args: ['Tensor[(1, 2, 9, 9, 4), float32]'] }, /sub-axis x without its primal axis X/],
  [{ op: 'nn.global_max_pool2d', attrs: { layout: 'NCHWD' }, args: ['Tensor[(1, 2, 9, 9, 4), float32]'] }, /not supported/],
  [{ op: 'nn.max_pool1d', attrs: { layout: 'NCW4c' }, args: ['Tensor[(1, 2, 9), float32]'] }, /rank/],
];

for (const strategy of ['rules', 'relay'] as const) {
  test(`pools over packed layouts (${strategy})`, (t) => {
    for (const [req, want] of POOLS) t.deepEqual(typeofCall(req, strategy), { type: want, args: [...req.args] }, JSON.stringify(req));
    for (const [req, want] of REJECTED) {
      const a = typeofCall(req, strategy);
      t.true('error' in a && want.test(a.error), `${JSON.stringify(req)}: ${JSON.stringify(a)}`);
    }
  });
}

// Convolutions over packed layouts (TVM's BijectiveLayout in Conv2DRel): a split axis is
// outer * factor, the inferred weight and the result are split back by the factors.
const CONVS: [TypeofRequest, string, string][] = [
  // TVM's test_conv2d_infer_type: data NCHW (4, 32, 224, 224) as NCHW4n4c; weight OIHW
  // (16, 32, 3, 3) as OIHW4o4i = (4, 8, 3, 3, 4, 4); result NCHW (4, 16, 224, 224) as NCHW4n4c
  [
    {
      op: 'nn.conv2d',
      attrs: { kernel_size: [3, 3], padding: [1, 1], channels: 16, data_layout: 'NCHW4n4c', kernel_layout: 'OIHW4o4i', out_dtype: 'int32' },
      args: ['Tensor[(1, 8, 224, 224, 4, 4), int8]', '_'],
    },
    'Tensor[(1, 4, 224, 224, 4, 4), int32]',
    'Tensor[(4, 8, 3, 3, 4, 4), int8]',
  ],
  // C = 2 * 4 = 8; weight (8, 8, 3, 1) given as OIHW4o4i; H (7 - 3) / 1 + 1 = 5, W (6 - 1) / 2 + 1 = 3; result NCHW
  [
    {
      op: 'nn.conv2d',
      attrs: { strides: [1, 2], data_layout: 'NCHW4c', kernel_layout: 'OIHW4o4i', out_layout: 'NCHW' },
      args: ['Tensor[(1, 2, 7, 6, 4), float32]', 'Tensor[(2, 2, 3, 1, 4, 4), float32]'],
    },
    'Tensor[(1, 8, 5, 3), float32]',
    'Tensor[(2, 2, 3, 1, 4, 4), float32]',
  ],
  // plain data, a packed result: 8 channels as NCHW8c
  [
    { op: 'nn.conv2d', attrs: { channels: 8, kernel_size: 1, out_layout: 'NCHW8c' }, args: ['Tensor[(2, 3, 5, 5), float32]', '_'] },
    'Tensor[(2, 1, 5, 5, 8), float32]',
    'Tensor[(8, 3, 1, 1), float32]',
  ],
];

const CONV_REJECTED: [TypeofRequest, RegExp][] = [
  // 6 output channels do not split by 4 (TVM floors 6 / 4 silently)
  [
    { op: 'nn.conv2d', attrs: { channels: 6, kernel_size: 1, out_layout: 'NCHW4c' }, args: ['Tensor[(1, 3, 5, 5), float32]', 'Tensor[(6, 3, 1, 1), float32]'] },
    /not divisible by the factor 4/,
  ],
  // a data sub-axis of extent 3 in a layout that says 4
  [{ op: 'nn.conv2d', attrs: { channels: 4, kernel_size: 1, data_layout: 'NCHW4c' }, args: ['Tensor[(1, 2, 5, 5, 3), float32]', '_'] }, /3/],
];

for (const strategy of ['rules', 'relay'] as const) {
  test(`convolutions over packed layouts (${strategy})`, (t) => {
    for (const [req, want, weight] of CONVS) t.deepEqual(typeofCall(req, strategy), { type: want, args: [req.args[0]!, weight] }, JSON.stringify(req));
    for (const [req, want] of CONV_REJECTED) {
      const a = typeofCall(req, strategy);
      t.true('error' in a && want.test(a.error), `${JSON.stringify(req)}: ${JSON.stringify(a)}`);
    }
  });
}

test('more distinct layouts in one process than a compiled part keeps built: each still types as its twin does', (t) => {
  // packed channel factors 1..300: past the part's bound, a layout's facts are built per inference
  let typed = 0;
  for (let k = 1; k <= 300; k++) {
    const req: TypeofRequest = { op: 'nn.max_pool2d', args: [`Tensor[(1, 2, 8, 8, ${k}), float32]`], attrs: { pool_size: [2, 2], layout: `NCHW${k}c` } };
    const rules = typeofCall(req, 'rules');
    t.deepEqual(rules, typeofCall(req, 'relay'), `layout NCHW${k}c`);
    if (!('error' in rules)) typed++;
  }
  t.is(typed, 300);
});
