// Tensor creation: zeros/ones/full and their _like forms, arange, meshgrid.
// Names, argument order, attributes and defaults follow TVM's Python API (tvm.relay.*).
// TVM's relations: InitOpRel, FullRel, FullLikeRel, ArangeRel, MeshgridRel in
// src/relay/op/tensor/transform.cc; zeros_like/ones_like use IdentityRel (unary.cc).
import { type OpInfo, TENSOR, spec, vInt, vInts, vNone, vStr } from '../schema.js';

const shapeAttr = spec('shape', 'ints', 'required', 'the output shape (sizes >= 0)', { min: 0 });
const dtypeAttr = spec('dtype', 'string', 'required', 'the output dtype', { format: 'dtype' });
const DTYPE_TABLE =
  'dtype must be one of the scalar dtypes the relations know (bool, int8/16/32/64, uint8/16/32/64, float16/32/64, bfloat16); vector dtypes such as float32x4 are rejected (TVM accepts any DataType)';

function initOp(name: string, value: string): OpInfo {
  return {
    name,
    relation: 'InitOp',
    args: [],
    attrs: [shapeAttr, dtypeAttr],
    result: TENSOR,
    doc: `a tensor of ${value}s of the given shape and dtype`,
    formula: 'out = Tensor[shape, dtype]',
    deviations: [
      'shape is an attribute (a list of ints >= 0), not an expression: TVM also accepts a dynamic shape tensor, giving a result of unknown dims',
      DTYPE_TABLE,
    ],
    example: { attrs: { shape: [1, 128, 768], dtype: 'float32' }, args: [] },
  };
}

function likeOp(name: string, value: string): OpInfo {
  return {
    name,
    relation: 'InitLike',
    args: ['data'],
    attrs: [],
    result: TENSOR,
    doc: `a tensor of ${value}s with the shape and dtype of data`,
    formula: 'out = data (same shape, same dtype)',
    backwards: 'data from the result (an identity: both are unified)',
    deviations: ['a tuple argument is an error (TVM\'s IdentityRel accepts any type)'],
    example: { args: ['Tensor[(1, 64, 56, 56), float32]'] },
  };
}

export const CREATION_OPS: readonly OpInfo[] = [
  initOp('zeros', 'zero'),
  initOp('ones', 'one'),
  {
    name: 'full',
    relation: 'Full',
    args: ['fill_value'],
    attrs: [
      spec('shape', 'ints', vInts(), 'the output shape (sizes >= 0)', { min: 0 }),
      spec('dtype', 'string', vStr(''), 'the output dtype; "" = the dtype of fill_value', { format: 'dtype-or-empty' }),
    ],
    result: TENSOR,
    doc: 'a tensor of the given shape filled with the scalar fill_value',
    formula: 'out = Tensor[shape, dtype or fill_value.dtype]; fill_value must be a scalar (rank 0)',
    deviations: [
      'shape is an attribute (a list of ints >= 0), not an expression: TVM also accepts a dynamic shape tensor',
      'a tuple fill_value is an error at once (TVM\'s relation waits on it and fails when nothing more can be inferred)',
      DTYPE_TABLE,
    ],
    example: { attrs: { shape: [1, 12, 128, 128] }, args: ['float32'] },
  },
  likeOp('zeros_like', 'zero'),
  likeOp('ones_like', 'one'),
  {
    name: 'full_like',
    relation: 'FullLike',
    args: ['data', 'fill_value'],
    attrs: [],
    result: TENSOR,
    doc: 'a tensor with the shape and dtype of data filled with the scalar fill_value',
    formula: 'out = Tensor[data.shape, data.dtype]; fill_value must be a scalar (rank 0), of any dtype',
    deviations: ['a tuple data or fill_value is an error at once (TVM\'s relation waits on it and fails when nothing more can be inferred); the rank of fill_value is checked even while data is unknown'],
    example: { args: ['Tensor[(1, 128, 768), float32]', 'float32'] },
  },
  {
    name: 'arange',
    relation: 'Arange',
    args: [],
    attrs: [
      spec('start', 'int', 'required', 'the first value; the end of the range [0, start) when stop is None'),
      spec('stop', 'int?', vNone, 'the end of the range (excluded); None = [0, start)'),
      spec('step', 'int', vInt(1), 'the spacing (not 0)'),
      spec('dtype', 'string', vStr('float32'), 'the output dtype', { format: 'dtype' }),
    ],
    result: TENSOR,
    doc: 'evenly spaced values in [start, stop)',
    formula: 'out = Tensor[(max(ceil((stop - start) / step), 0),), dtype], with [0, start) when stop is None',
    deviations: [
      'start, stop and step are int attributes, not expressions: TVM also takes float and dynamic values (a dynamic one gives a result of unknown size); the rule language has no float arithmetic',
      'an empty range (stop <= start for step > 0, stop >= start for step < 0) gives a tensor of size 0 (TVM rejects it)',
      'step = 0 is an error (TVM divides by zero); step defaults to 1 and cannot be None (TVM\'s Python default None means 1)',
      DTYPE_TABLE,
    ],
    example: { attrs: { start: 0, stop: 128, dtype: 'int64' }, args: [] },
  },
  {
    name: 'meshgrid',
    relation: 'Meshgrid',
    args: ['data'],
    attrs: [spec('indexing', 'string', vStr('ij'), '"ij" (matrix) or "xy" (Cartesian: the first two output dims swapped)', { choices: ['ij', 'xy'] })],
    result: { kind: 'depends', attr: 'data', rule: 'a tuple with one tensor per tensor of the input tuple' },
    doc: 'coordinate grids from a tuple of 1-d tensors',
    formula: 'N inputs of sizes d1..dN (a scalar counts as 1) → N tensors of shape (d1, ..., dN), with d1 and d2 swapped for "xy"; all of the first input\'s dtype',
    deviations: ['an empty tuple is an error (TVM reads its first field and crashes)'],
    example: { attrs: { indexing: 'xy' }, args: ['(Tensor[(224), float32], Tensor[(224), float32])'] },
  },
];
