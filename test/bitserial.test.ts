// nn.bitpack, nn.bitserial_conv2d, nn.bitserial_dense and vision.proposal: the calls of
// TVM's own tests (tests/python/relay/test_op_level2.py test_bitserial_conv2d_infer_type
// and test_bitpack_infer_type, test_op_level5.py test_proposal) type as TVM types them
// under both strategies; the reference executors pack bits as worked out by hand and
// produce TVM's proposal shape on TVM's inputs; bad calls get a clear error from both.
import test from 'ava';
import { executorFor } from '../proofs/reference/registry.js';
import { NDArray } from '../proofs/reference/tensor.js';
import { typeofCall, type TypeofRequest } from '../typing/typeof.js';

const TVM_CASES: { req: TypeofRequest; type: string }[] = [
  {
    req: { op: 'nn.bitpack', attrs: { bit_axis: 4, pack_axis: 1, pack_type: 'uint16', bits: 1 }, args: ['Tensor[(32, 32, 128, 128), int16]'] },
    type: 'Tensor[(32, 2, 128, 128, 1), uint16]',
  },
  {
    req: {
      op: 'nn.bitserial_conv2d',
      attrs: { kernel_size: [3, 3], padding: [0, 0], channels: 32 },
      args: ['Tensor[(n, 32, 224, 224), int16]', 'Tensor[(32, 32, 3, 3), int16]'],
    },
    type: 'Tensor[(n, 32, 222, 222), int16]',
  },
  {
    req: {
      op: 'vision.proposal',
      attrs: {
        scales: [0.5],
        ratios: [0.5],
        feature_stride: 16,
        iou_loss: false,
        rpn_min_size: 16,
        threshold: 0.7,
        rpn_pre_nms_top_n: 200,
        rpn_post_nms_top_n: 4,
      },
      args: ['Tensor[(1, 2, 3, 3), float32]', 'Tensor[(1, 4, 3, 3), float32]', 'Tensor[(1, 3), float32]'],
    },
    type: 'Tensor[(4, 5), float32]',
  },
  // the per-axis shape: asymmetric strides, four-way padding and kernel in NHWC
  {
    req: {
      op: 'nn.bitserial_conv2d',
      attrs: { kernel_size: [3, 1], strides: [2, 1], padding: [1, 0, 0, 0], channels: 16, data_layout: 'NHWC', kernel_layout: 'HWIO' },
      args: ['Tensor[(1, 8, 9, 32), int16]', 'Tensor[(3, 1, 32, 16), int16]'],
    },
    type: 'Tensor[(1, 4, 9, 16), int16]',
  },
  { req: { op: 'nn.bitserial_dense', attrs: { units: 32, out_dtype: '' }, args: ['Tensor[(2, 8, 128), uint8]', '_'] }, type: 'Tensor[(2, 8, 32), uint8]' },
];

for (const { req, type } of TVM_CASES) {
  test(`as TVM types it: ${req.op} ${JSON.stringify(req.attrs)}`, (t) => {
    for (const strategy of ['rules', 'relay'] as const) t.deepEqual(typeofCall(req, strategy), { type, args: req.args }, strategy);
  });
}

const BAD: { req: TypeofRequest; words: RegExp[] }[] = [
  { req: { op: 'nn.bitpack', attrs: { pack_type: 'uint8' }, args: ['Tensor[(2, 12, 3), int8]'] }, words: [/12/, /8/, /divisible/] },
  { req: { op: 'nn.bitpack', attrs: { bit_axis: 4 }, args: ['Tensor[(2, 32, 3), int8]'] }, words: [/bit_axis/, /4/] },
  { req: { op: 'nn.bitpack', args: ['Tensor[(2, 32, 3), float32]'] }, words: [/float32/, /integer dtype/] },
  {
    req: { op: 'nn.bitserial_conv2d', attrs: { channels: 4 }, args: ['Tensor[(1, 3, 6, 5), int8]', 'Tensor[(4, 2, 3, 3), int8]'] },
    words: [/input channels/, /2/, /3/],
  },
  {
    req: { op: 'nn.bitserial_conv2d', attrs: { channels: 4 }, args: ['Tensor[(1, 3, 6, 5), int8]', 'Tensor[(4, 3, 3, 3, 1), int8]'] },
    words: [/unpacked 4-D weight/],
  },
  { req: { op: 'nn.bitserial_conv2d', args: ['Tensor[(1, 3, 6, 5), int8]', '_'] }, words: [/channels/] },
  { req: { op: 'nn.bitserial_dense', attrs: { units: 4 }, args: ['Tensor[(2, 6), int8]', 'Tensor[(4, 5), int8]'] }, words: [/5 columns/, /6/] },
  {
    req: { op: 'vision.proposal', args: ['Tensor[(1, 6, 3, 3), float32]', 'Tensor[(1, 48, 3, 3), float32]', 'Tensor[(1, 3), float32]'] },
    words: [/cls_prob has 6 channels/, /12/],
  },
  {
    req: { op: 'vision.proposal', args: ['Tensor[(1, 24, 3, 3), float32]', 'Tensor[(1, 48, 3, 3), float32]', 'Tensor[(1, 4), float32]'] },
    words: [/im_info/, /3/],
  },
];

for (const { req, words } of BAD) {
  test(`a clear error from both strategies: ${req.op} ${JSON.stringify(req.args)}`, (t) => {
    for (const strategy of ['rules', 'relay'] as const) {
      const a = typeofCall(req, strategy);
      if (!('error' in a)) return t.fail(`${strategy} accepts it: ${JSON.stringify(a)}`);
      for (const w of words) t.regex(a.error, w, `${strategy}: ${a.error}`);
      t.notRegex(a.error, /internal|TypeError|undefined|at .*\.ts:\d+/, strategy);
    }
  });
}

const tensor = (shape: number[], dtype: string, values: number[]): NDArray => new NDArray(shape, dtype, Float64Array.from(values));

test('the bitpack executor packs the low bits of 8 values MSB first into one uint8 word per bit plane', (t) => {
  const run = executorFor('nn.bitpack')!;
  // planes of [3, 2, 1, 0, 1, 0, 0, 1]: bit 0 = 1,0,1,0,1,0,0,1 = 0b10101001; bit 1 = 1,1,0,0,0,0,0,0 = 0b11000000
  const out = run([tensor([1, 8], 'int16', [3, 2, 1, 0, 1, 0, 0, 1])], { bits: 2, pack_axis: 1, bit_axis: 2, pack_type: 'uint8', name: 'BitPack' }) as NDArray;
  t.deepEqual([out.shape, out.dtype, [...out.data]], [[1, 1, 2], 'uint8', [0b10101001, 0b11000000]]);
});

test('the bitserial_dense executor computes X W^T of the values cut to their bits (bipolar off)', (t) => {
  const run = executorFor('nn.bitserial_dense')!;
  // data (1, 2) = [3, 5] cut to 2 bits = [3, 1]; weight (2, 2) = [[1, 2], [3, 0]]
  const out = run([tensor([1, 2], 'int8', [3, 5]), tensor([2, 2], 'int8', [1, 2, 3, 0])], {
    units: 2,
    data_bits: 2,
    weight_bits: 2,
    pack_dtype: 'uint32',
    out_dtype: 'int16',
    unipolar: false,
  }) as NDArray;
  t.deepEqual([out.shape, out.dtype, [...out.data]], [[1, 2], 'int16', [3 * 1 + 1 * 2, 3 * 3 + 1 * 0]]);
});

test("the proposal executor gives TVM's test its (4, 5) rows on TVM's inputs", (t) => {
  const run = executorFor('vision.proposal')!;
  const cls = tensor([1, 2, 3, 3], 'float32', [0.3, 0.6, 0.2, 0.4, 0.7, 0.5, 0.1, 0.4, 0.3, 0.7, 0.5, 0.3, 0.6, 0.4, 0.8, 0.9, 0.2, 0.5]);
  const bbox = tensor(
    [1, 4, 3, 3],
    'float32',
    Array.from({ length: 36 }, (_, i) => 0.5 + (i % 7) / 5),
  );
  const info = tensor([1, 3], 'float32', [48, 48, 1]);
  const attrs = {
    scales: [0.5],
    ratios: [0.5],
    feature_stride: 16,
    threshold: 0.7,
    rpn_pre_nms_top_n: 200,
    rpn_post_nms_top_n: 4,
    rpn_min_size: 16,
    iou_loss: false,
  };
  const out = run([cls, bbox, info], attrs) as NDArray;
  t.deepEqual([out.shape, out.dtype], [[4, 5], 'float32']);
  t.true(
    [0, 5, 10, 15].every((i) => out.data[i] === 0),
    'every row is of image 0',
  );
});
