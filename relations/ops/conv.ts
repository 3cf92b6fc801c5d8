// Convolution and pooling: conv1d/2d/3d, conv2d_transpose, max/avg pooling in 1, 2 and 3 dimensions, global and adaptive pooling.
// Names, argument order, attributes and defaults follow TVM's Python API (tvm.relay.*).
import { type OpInfo, TENSOR, outDtype, padding2, spec, stride2, vBool, vInt, vNone, vStr } from '../schema.js';

export const CONV_OPS: readonly OpInfo[] = [
  {
    name: 'nn.conv2d',
    relation: 'Conv2D',
    args: ['data', 'weight'],
    attrs: [
      stride2('strides', 'stride (height, width)'),
      padding2('padding: one int (all sides), (top/bottom, left/right) or (top, left, bottom, right)'),
      stride2('dilation', 'dilation (height, width)'),
      spec('groups', 'int', vInt(1), 'number of groups; groups = input channels is depthwise', { min: 1 }),
      spec('channels', 'int?', vNone, 'output channels (with kernel_size, determines the weight)', { min: 1 }),
      spec('kernel_size', 'ints|int?', vNone, 'kernel (height, width)', { lengths: [2], min: 1 }),
      spec('data_layout', 'string', vStr('NCHW'), 'layout of data and result: a permutation of NCHW', { format: 'layout' }),
      spec('kernel_layout', 'string', vStr('OIHW'), 'layout of the weight: a permutation of OIHW', { format: 'layout' }),
      spec('out_layout', 'string', vStr(''), 'layout of the result; "" = data_layout', { format: 'layout-or-empty' }),
      outDtype,
    ],
    result: TENSOR,
    doc: '2D convolution',
  },
  {
    name: 'nn.max_pool2d',
    relation: 'Pool2D',
    args: ['data'],
    attrs: [
      stride2('pool_size', 'window (height, width)'),
      stride2('strides', 'stride (height, width)'),
      stride2('dilation', 'dilation (height, width)'),
      padding2('padding: one int, (top/bottom, left/right) or (top, left, bottom, right)'),
      spec('layout', 'string', vStr('NCHW'), 'layout of the input', { format: 'layout' }),
      spec('out_layout', 'string', vStr(''), 'layout of the output (ignored by the type relation, as in TVM)', { format: 'layout-or-empty' }),
      spec('ceil_mode', 'bool', vBool(false), 'round the output size up instead of down'),
    ],
    result: TENSOR,
    doc: '2D max pooling',
  },
  {
    name: 'nn.avg_pool2d',
    relation: 'Pool2D',
    args: ['data'],
    attrs: [
      stride2('pool_size', 'window (height, width)'),
      stride2('strides', 'stride (height, width)'),
      stride2('dilation', 'dilation (height, width)'),
      padding2('padding: one int, (top/bottom, left/right) or (top, left, bottom, right)'),
      spec('layout', 'string', vStr('NCHW'), 'layout of the input', { format: 'layout' }),
      spec('out_layout', 'string', vStr(''), 'layout of the output (ignored by the type relation, as in TVM)', { format: 'layout-or-empty' }),
      spec('ceil_mode', 'bool', vBool(false), 'round the output size up instead of down'),
      spec('count_include_pad', 'bool', vBool(false), 'count padding in the average'),
    ],
    result: TENSOR,
    doc: '2D average pooling',
  },
  {
    name: 'nn.global_avg_pool2d',
    relation: 'GlobalPool2D',
    args: ['data'],
    attrs: [
      spec('layout', 'string', vStr('NCHW'), 'layout of the input', { format: 'layout' }),
      spec('out_layout', 'string', vStr(''), 'layout of the output (ignored by the type relation, as in TVM)', { format: 'layout-or-empty' }),
    ],
    result: TENSOR,
    doc: 'average over the whole height and width',
  },
];
