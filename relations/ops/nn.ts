// Neural-network operators other than convolution and pooling: activations, softmax, bias_add, dense/matmul, normalisation, dropout, resampling.
// Names, argument order, attributes and defaults follow TVM's Python API (tvm.relay.*).
import { type OpInfo, TENSOR, outDtype, spec, vBool, vFloat, vInt, vNone } from '../schema.js';

export const NN_OPS: readonly OpInfo[] = [
  { name: 'nn.relu', relation: 'Identity', args: ['data'], attrs: [], result: TENSOR, doc: 'max(x, 0)' },
  {
    name: 'nn.softmax',
    relation: 'Softmax',
    args: ['data'],
    attrs: [spec('axis', 'int', vInt(-1), 'the axis to normalise over')],
    result: TENSOR,
    doc: 'softmax along one axis',
  },
  {
    name: 'nn.bias_add',
    relation: 'BiasAdd',
    args: ['data', 'bias'],
    attrs: [spec('axis', 'int', vInt(1), 'the axis the 1-D bias is added along')],
    result: TENSOR,
    doc: 'add a 1-D bias along one axis',
  },
  {
    name: 'nn.dense',
    relation: 'Dense',
    args: ['data', 'weight'],
    attrs: [spec('units', 'int?', vNone, 'output units (determines the weight)', { min: 1 }), outDtype],
    result: TENSOR,
    doc: 'Y = X W^T with W of shape (units, input_dim)',
  },
  {
    name: 'nn.batch_matmul',
    relation: 'BatchMatmul',
    args: ['tensor_a', 'tensor_b'],
    attrs: [
      outDtype,
      spec('transpose_a', 'bool', vBool(false), 'tensor_a is (b, k, m) instead of (b, m, k)'),
      spec('transpose_b', 'bool', vBool(true), 'tensor_b is (b, n, k) instead of (b, k, n)'),
    ],
    result: TENSOR,
    doc: 'batched matrix product of 3-D tensors (NT format by default)',
  },
  { name: 'nn.batch_flatten', relation: 'BatchFlatten', args: ['data'], attrs: [], result: TENSOR, doc: '(d1, d2, ..., dk) -> (d1, d2*...*dk)' },
  {
    name: 'nn.batch_norm',
    relation: 'BatchNorm',
    args: ['data', 'gamma', 'beta', 'moving_mean', 'moving_var'],
    attrs: [
      spec('axis', 'int', vInt(1), 'the channel axis; -1 = the last'),
      spec('epsilon', 'float', vFloat(1e-5), 'added to the variance'),
      spec('center', 'bool', vBool(true), 'add beta'),
      spec('scale', 'bool', vBool(true), 'multiply by gamma'),
    ],
    result: { kind: 'tuple', size: 3 },
    doc: 'batch normalisation: (normalised data, new moving mean, new moving variance)',
  },
  {
    name: 'nn.layer_norm',
    relation: 'LayerNorm',
    args: ['data', 'gamma', 'beta'],
    attrs: [
      spec('axis', 'int', vInt(-1), 'the axis to normalise over'),
      spec('epsilon', 'float', vFloat(1e-5), 'added to the variance'),
      spec('center', 'bool', vBool(true), 'add beta'),
      spec('scale', 'bool', vBool(true), 'multiply by gamma'),
    ],
    result: TENSOR,
    doc: 'layer normalisation',
  },
];
