// Indexing: gather, scatter_elements, one_hot, sequence_mask, topk.
// Names, argument order, attributes and defaults follow TVM's Python API (tvm.relay.*).
// TVM's relations: OneHotRel, SequenceMaskRel, GatherRel, ScatterElementsRel in
// src/relay/op/tensor/transform.cc; TopKRel in src/relay/op/algorithm/topk.cc.
import { type OpInfo, TENSOR, spec, vBool, vFloat, vInt, vStr } from '../schema.js';

const DTYPE_TABLE =
  'dtype must be one of the scalar dtypes the relations know (bool, int8/16/32/64, uint8/16/32/64, float16/32/64, bfloat16); vector dtypes such as int32x4 are rejected (TVM accepts any DataType)';

export const INDEXING_OPS: readonly OpInfo[] = [
  {
    name: 'one_hot',
    relation: 'OneHot',
    args: ['indices', 'on_value', 'off_value'],
    attrs: [
      spec('depth', 'int', 'required', 'the size of the new one-hot axis', { min: 1 }),
      spec('axis', 'int', vInt(-1), 'where the new axis goes, in [-rank - 1, rank]; -1 = last'),
      spec('dtype', 'string', 'required', 'the output dtype', { format: 'dtype' }),
    ],
    result: TENSOR,
    doc: 'one-hot encoding: on_value where the index matches, off_value elsewhere',
    formula: 'out = indices.shape with depth inserted at axis (normalised against rank + 1), dtype = dtype',
    deviations: [
      'every negative axis in [-rank - 1, -1] is normalised against rank + 1 (TVM handles only -1 and crashes on other negative axes); axes out of range are errors',
      'on_value and off_value must be scalars (rank 0) when known (TVM does not check them); the result does not wait for them',
      DTYPE_TABLE,
    ],
    example: { attrs: { depth: 30522, dtype: 'float32' }, args: ['Tensor[(1, 128), int32]', 'float32', 'float32'] },
  },
  {
    name: 'sequence_mask',
    relation: 'SequenceMask',
    args: ['data', 'valid_length'],
    attrs: [
      spec('mask_value', 'float', vFloat(0.0), 'the value of masked positions'),
      spec('axis', 'int', vInt(0), 'the time axis: 0 ([max_len, batch, ...]) or 1 ([batch, max_len, ...])'),
    ],
    result: TENSOR,
    doc: 'set the positions past each sequence\'s valid length to mask_value',
    formula: 'out = data; valid_length must have shape (data.shape[1 - axis],)',
    backwards: 'an unknown dim of valid_length from data.shape[1 - axis], and an unknown data.shape[1 - axis] from valid_length (TVM assigns valid_length\'s shape)',
    deviations: [
      'data must have rank >= 2 (TVM reads data.shape[1 - axis] without checking)',
      'axis must be 0 or 1 (as TVM\'s ICHECK), reported as an error instead of a crash',
      'valid_length is checked against (data.shape[1 - axis],) when known (a residual assumption when symbolic); TVM assigns it and crashes when it is not yet a tensor; here the result does not wait for it',
      'the dims are unified only when one of them is unknown and the other is neither unknown nor Any (TVM\'s Assign also binds an unknown dim to Any)',
    ],
    example: { attrs: { axis: 1 }, args: ['Tensor[(8, 128, 768), float32]', 'Tensor[(8), int32]'] },
  },
  {
    name: 'gather',
    relation: 'Gather',
    args: ['data', 'indices'],
    attrs: [spec('axis', 'int', 'required', 'the axis to gather along (TVM\'s Python API puts it between data and indices)')],
    result: TENSOR,
    doc: 'out[i..] = data[i.. with the axis coordinate replaced by indices[i..]] (take_along_axis)',
    formula: 'out = Tensor[indices.shape, data.dtype]; indices has data\'s rank and an integer dtype',
    deviations: [
      'for non-empty indices, indices.shape[d] <= data.shape[d] is required for every d != axis (TVM does not check; larger indices read out of bounds); undecided symbolic sizes are residual assumptions',
      'gathering a non-empty result along an axis of size 0 is an error (nothing to read)',
    ],
    example: { attrs: { axis: 1 }, args: ['Tensor[(32, 1000), float32]', 'Tensor[(32, 5), int64]'] },
  },
  {
    name: 'scatter_elements',
    relation: 'ScatterElements',
    args: ['data', 'indices', 'updates'],
    attrs: [
      spec('axis', 'int', vInt(0), 'the axis to scatter along'),
      spec('reduction', 'string', vStr('update'), 'how updates combine with data', { choices: ['update', 'add', 'mul', 'mean', 'min', 'max'] }),
    ],
    result: TENSOR,
    doc: 'a copy of data with updates written (or reduced) at the positions indices give along axis',
    formula: 'out = data; indices and updates have data\'s rank and the same shape; indices an integer dtype',
    backwards: 'an unknown dim of updates from the same dim of indices, and the other way round (they must have one shape)',
    deviations: [
      'axis must be in [-rank, rank) (TVM does not check it in the relation)',
      'updates must have data\'s dtype (TVM does not check)',
      'for non-empty indices, indices.shape[d] <= data.shape[d] is required for every d != axis (TVM does not check; larger indices write out of bounds); scattering a non-empty indices tensor along an axis of size 0 is an error',
      'undecided symbolic size equalities and bounds are residual assumptions (TVM\'s AssertEQ passes them silently)',
      'updates and indices must have one shape (TVM does not check), so an unknown dim of one is taken from the other (TVM infers nothing backwards)',
    ],
    example: { attrs: { axis: 1, reduction: 'add' }, args: ['Tensor[(4, 1000), float32]', 'Tensor[(4, 10), int64]', 'Tensor[(4, 10), float32]'] },
  },
  {
    name: 'topk',
    relation: 'TopK',
    args: ['data'],
    attrs: [
      spec('k', 'int', vInt(1), 'how many elements to keep; k < 1 = the whole axis'),
      spec('axis', 'int', vInt(-1), 'the axis to sort along'),
      spec('ret_type', 'string', vStr('both'), '"both" (values, indices), "values" or "indices"', { choices: ['both', 'values', 'indices'] }),
      spec('is_ascend', 'bool', vBool(false), 'keep the smallest instead of the largest'),
      spec('dtype', 'string', vStr('int32'), 'the dtype of the indices', { format: 'dtype' }),
    ],
    result: { kind: 'depends', attr: 'ret_type', rule: '"both" → a tuple (values, indices); "values" or "indices" → one tensor' },
    doc: 'the k largest (or smallest) elements along an axis and their indices',
    formula: 'shape = data.shape with the axis dim replaced by k (kept when k < 1); values: data.dtype, indices: dtype',
    deviations: [
      'k must not exceed the axis dimension (TVM does not check; topk cannot produce more elements than the axis has); undecided symbolic bounds are residual assumptions',
      DTYPE_TABLE,
    ],
    example: { attrs: { k: 5 }, args: ['Tensor[(32, 1000), float32]'] },
  },
];
