// Convolution and pooling: conv1d/2d/3d, conv2d_transpose, max/avg pooling in 1, 2 and 3 dimensions, global and adaptive pooling.
// Names, argument order, attributes and defaults follow TVM's Python API (tvm.relay.*).
import { type AttrSpec, type OpExample, type OpInfo, TENSOR, outDtype, spec, vBool, vInt, vInts, vNone, vStr } from '../schema.js';

const SPATIAL = ['width', 'height, width', 'depth, height, width'];
const DATA = ['NCW', 'NCHW', 'NCDHW'];
const KERNEL = ['OIW', 'OIHW', 'OIDHW'];

/** An attribute with one value per spatial axis (`nd` of them), or one int for all. */
const perAxis = (name: string, nd: number, def: number, doc: string, min = 1): AttrSpec =>
  spec(name, 'ints|int', vInts(...Array<number>(nd).fill(def)), `${doc} (${SPATIAL[nd - 1]})`, { lengths: [nd], min });

/** Padding: one int (all sides), one per axis (both sides), or every before then every after. */
const padding = (nd: number): AttrSpec =>
  spec('padding', 'ints|int', vInts(...Array<number>(nd).fill(0)), `padding: one int (all sides), ${nd} (${SPATIAL[nd - 1]}: both sides) or ${2 * nd} (every start, then every end)`, {
    lengths: nd === 1 ? [1, 2] : [1, nd, 2 * nd],
    min: 0,
  });

const layoutSpec = (name: string, def: string, doc: string): AttrSpec => spec(name, 'string', vStr(def), doc, { format: 'layout' });
const outLayout = (canon: string): AttrSpec => spec('out_layout', 'string', vStr(''), `layout of the result: a permutation of ${canon}; "" = data_layout`, { format: 'layout-or-empty' });

const LAYOUT_DEV = 'layouts must be permutations of the canonical layout (TVM also accepts packed layouts such as NCHW16c and group layouts such as GOIHW): an error here.';
const SIZE_DEV = 'the padded input must be at least as large as the dilated kernel (output size >= 1); TVM computes a zero or negative size silently.';
const SYM_DEV = 'symbolic sizes: divisibility and size conditions become residual assumptions when undecided (e.g. `n + 2 >= 3`), never a silent pass.';

function convOp(nd: 1 | 2 | 3, example: OpExample): OpInfo {
  const canon = DATA[nd - 1]!;
  const kcanon = KERNEL[nd - 1]!;
  return {
    name: `nn.conv${nd}d`,
    relation: `Conv${nd}D`,
    args: ['data', 'weight'],
    attrs: [
      perAxis('strides', nd, 1, 'stride'),
      padding(nd),
      perAxis('dilation', nd, 1, 'dilation'),
      spec('groups', 'int', vInt(1), nd === 1 ? 'number of groups' : 'number of groups; groups = input channels is depthwise', { min: 1 }),
      spec('channels', 'int?', vNone, 'output channels (with kernel_size, determines the weight)', { min: 1 }),
      spec('kernel_size', 'ints|int?', vNone, `kernel (${SPATIAL[nd - 1]})`, { lengths: [nd], min: 1 }),
      layoutSpec('data_layout', canon, `layout of data and result: a permutation of ${canon}`),
      layoutSpec('kernel_layout', kcanon, `layout of the weight: a permutation of ${kcanon}`),
      outLayout(canon),
      outDtype,
    ],
    result: TENSOR,
    doc: `${nd}D convolution`,
    formula: `out = (N, O, o_1..o_${nd}) in out_layout with o_i = floor((in_i + pad_total_i - (dilation_i * (k_i - 1) + 1)) / stride_i) + 1; O = channels or the weight's O; dtype = out_dtype or the data's`,
    backwards:
      (nd === 1
        ? 'with channels and kernel_size: the weight (channels, C / groups, k) in kernel_layout, dtype the data\'s unless the weight has one'
        : `with channels and kernel_size: the weight (channels, C / groups, k...) in kernel_layout, or (C, channels / C, k...) for a depthwise weight (groups = C = the weight's O); dtype the data's unless the weight has one`) +
      "; otherwise unknown dims of a given weight from channels (O) and kernel_size, and the weight's I and the data's C from each other (I = C, or C / groups)",
    deviations: [
      LAYOUT_DEV,
      ...(nd === 1
        ? ['TVM compares the weight\'s I with C (not C / groups) when groups > 1; here I must be C / groups, as the computation requires.']
        : ['TVM reports an error when groups > 1 and the weight is unknown; here the weight is inferred when grouped and depthwise agree (channels = groups, or C known and != groups), else the relation waits for the weight.']),
      'C must be divisible by groups, and so must the output channels (TVM floors C / groups silently).',
      SIZE_DEV,
      SYM_DEV,
    ],
    example,
  };
}

function poolOp(kind: 'max' | 'avg', nd: 1 | 2 | 3, example: OpExample): OpInfo {
  const canon = DATA[nd - 1]!;
  const attrs: AttrSpec[] = [
    perAxis('pool_size', nd, 1, 'window'),
    perAxis('strides', nd, 1, 'stride'),
    perAxis('dilation', nd, 1, 'dilation'),
    padding(nd),
    layoutSpec('layout', canon, `layout of the input: a permutation of ${canon}`),
    spec('out_layout', 'string', vStr(''), 'layout of the output (ignored by the type relation, as in TVM)', { format: 'layout-or-empty' }),
    spec('ceil_mode', 'bool', vBool(false), 'round the output size up instead of down'),
  ];
  if (kind === 'avg') attrs.push(spec('count_include_pad', 'bool', vBool(false), 'count padding in the average'));
  return {
    name: `nn.${kind}_pool${nd}d`,
    relation: `Pool${nd}D`,
    args: ['data'],
    attrs,
    result: TENSOR,
    doc: `${nd}D ${kind === 'max' ? 'max' : 'average'} pooling`,
    formula:
      'o_i = floor((in_i + pad_total_i - ((pool_i - 1) * dilation_i + 1) + (ceil_mode ? stride_i - 1 : 0)) / stride_i) + 1; other axes unchanged. With ceil_mode the last window may start in the padding or past it (TVM pads the end by stride - 1 more), as TVM computes it.',
    deviations: [LAYOUT_DEV, 'the input rank must be the number of axes of the layout (TVM indexes the shape by the layout positions).', 'the padded input must be at least as large as the dilated window; TVM computes a zero or negative size silently.', SYM_DEV],
    example,
  };
}

function adaptiveOp(kind: 'max' | 'avg', nd: 1 | 2 | 3, example: OpExample): OpInfo {
  const canon = DATA[nd - 1]!;
  return {
    name: `nn.adaptive_${kind}_pool${nd}d`,
    relation: `AdaptivePool${nd}D`,
    args: ['data'],
    attrs: [
      spec('output_size', 'ints|int?', vNone, `output (${SPATIAL[nd - 1]}): None = unchanged, one int for all axes, or one per axis`, { lengths: nd === 1 ? [1] : [1, nd], min: 1 }),
      layoutSpec('layout', canon, `layout of the input: a permutation of ${canon}`),
      spec('out_layout', 'string', vStr(''), 'layout of the output (ignored by the type relation, as in TVM)', { format: 'layout-or-empty' }),
    ],
    result: TENSOR,
    doc: `${nd}D adaptive ${kind === 'max' ? 'max' : 'average'} pooling (window i of an axis: [floor(i * in / out), ceil((i + 1) * in / out)))`,
    formula: 'the spatial axes become output_size (None: unchanged); batch and channels are copied',
    deviations: [LAYOUT_DEV, 'output_size entries must be ints >= 1 (TVM also accepts None entries, meaning "unchanged", inside the tuple).'],
    example,
  };
}

export const CONV_OPS: readonly OpInfo[] = [
  convOp(2, { attrs: { strides: [2, 2], padding: [3, 3], channels: 64, kernel_size: [7, 7] }, args: ['Tensor[(1, 3, 224, 224), float32]', '_'] }),
  poolOp('max', 2, { attrs: { pool_size: [3, 3], strides: [2, 2], padding: [1, 1] }, args: ['Tensor[(1, 64, 112, 112), float32]'] }),
  poolOp('avg', 2, { attrs: { pool_size: [2, 2], strides: [2, 2] }, args: ['Tensor[(1, 256, 56, 56), float32]'] }),
  {
    name: 'nn.global_avg_pool2d',
    relation: 'GlobalPool2D',
    args: ['data'],
    attrs: [
      layoutSpec('layout', 'NCHW', 'layout of the input: a permutation of NCHW'),
      spec('out_layout', 'string', vStr(''), 'layout of the output (ignored by the type relation, as in TVM)', { format: 'layout-or-empty' }),
    ],
    result: TENSOR,
    doc: 'average over the whole height and width',
    formula: 'H and W become 1; N and C are copied',
    deviations: [LAYOUT_DEV],
    example: { args: ['Tensor[(1, 2048, 7, 7), float32]'] },
  },
  convOp(1, { attrs: { padding: [1], channels: 256, kernel_size: [3] }, args: ['Tensor[(8, 128, 100), float32]', '_'] }),
  convOp(3, { attrs: { padding: [1, 1, 1], channels: 64, kernel_size: [3, 3, 3] }, args: ['Tensor[(1, 3, 16, 112, 112), float32]', '_'] }),
  {
    name: 'nn.conv2d_transpose',
    relation: 'Conv2DTranspose',
    args: ['data', 'weight'],
    attrs: [
      perAxis('strides', 2, 1, 'stride'),
      padding(2),
      perAxis('dilation', 2, 1, 'dilation'),
      spec('groups', 'int', vInt(1), 'number of groups', { min: 1 }),
      spec('channels', 'int?', vNone, 'output channels (with kernel_size, determines the weight)', { min: 1 }),
      spec('kernel_size', 'ints|int?', vNone, 'kernel (height, width)', { lengths: [2], min: 1 }),
      layoutSpec('data_layout', 'NCHW', 'layout of data and result: a permutation of NCHW'),
      layoutSpec('kernel_layout', 'IOHW', 'layout of the weight: a permutation of IOHW (I = input channels, O = output channels per group)'),
      outLayout('NCHW'),
      perAxis('output_padding', 2, 0, 'extra size at the end of each output axis, smaller than the stride or the dilation', 0),
      outDtype,
    ],
    result: TENSOR,
    doc: '2D transposed convolution (deconvolution)',
    formula: 'o_i = (in_i - 1) * stride_i - pad_total_i + dilation_i * (k_i - 1) + output_padding_i + 1; output channels = channels, or the weight\'s O * groups',
    backwards: "with channels and kernel_size: the weight (C, channels / groups, kh, kw) in kernel_layout (IOHW order), dtype the data's unless the weight has one; otherwise unknown kernel dims of a given weight from kernel_size, and the weight's I and the data's C from each other",
    deviations: [
      LAYOUT_DEV,
      "with a given weight and groups > 1 the output has O * groups channels (TVM's relation says O, which disagrees with its own compute).",
      'C and channels must be divisible by groups; the weight\'s I must equal C.',
      'output_padding must be smaller than the stride or the dilation of its axis (as PyTorch and TVM\'s frontends require), checked on the attributes.',
      'input spatial sizes and kernel sizes must be >= 1, and the output size >= 0; TVM computes a size from empty inputs.',
      SYM_DEV,
    ],
    example: { attrs: { strides: [2, 2], padding: [1, 1], channels: 64, kernel_size: [4, 4] }, args: ['Tensor[(1, 128, 16, 16), float32]', '_'] },
  },
  poolOp('max', 1, { attrs: { pool_size: [3], strides: [2], padding: [1] }, args: ['Tensor[(8, 64, 100), float32]'] }),
  poolOp('avg', 1, { attrs: { pool_size: [2], strides: [2] }, args: ['Tensor[(8, 64, 100), float32]'] }),
  poolOp('max', 3, { attrs: { pool_size: [1, 3, 3], strides: [1, 2, 2], padding: [0, 1, 1] }, args: ['Tensor[(1, 64, 16, 56, 56), float32]'] }),
  poolOp('avg', 3, { attrs: { pool_size: [2, 2, 2], strides: [2, 2, 2] }, args: ['Tensor[(1, 64, 16, 56, 56), float32]'] }),
  {
    name: 'nn.global_max_pool2d',
    relation: 'GlobalPool2D',
    args: ['data'],
    attrs: [
      layoutSpec('layout', 'NCHW', 'layout of the input: a permutation of NCHW'),
      spec('out_layout', 'string', vStr(''), 'layout of the output (ignored by the type relation, as in TVM)', { format: 'layout-or-empty' }),
    ],
    result: TENSOR,
    doc: 'maximum over the whole height and width',
    formula: 'H and W become 1; N and C are copied',
    deviations: [LAYOUT_DEV],
    example: { args: ['Tensor[(1, 2048, 7, 7), float32]'] },
  },
  adaptiveOp('avg', 2, { attrs: { output_size: [1, 1] }, args: ['Tensor[(1, 2048, 7, 7), float32]'] }),
  adaptiveOp('max', 2, { attrs: { output_size: [7, 7] }, args: ['Tensor[(1, 512, 14, 14), float32]'] }),
  adaptiveOp('avg', 1, { attrs: { output_size: 1 }, args: ['Tensor[(8, 256, 100), float32]'] }),
  adaptiveOp('max', 1, { attrs: { output_size: 10 }, args: ['Tensor[(8, 256, 100), float32]'] }),
  adaptiveOp('avg', 3, { attrs: { output_size: [1, 1, 1] }, args: ['Tensor[(1, 512, 4, 7, 7), float32]'] }),
  adaptiveOp('max', 3, { attrs: { output_size: [2, 4, 4] }, args: ['Tensor[(1, 512, 4, 7, 7), float32]'] }),
];
