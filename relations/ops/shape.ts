// Shape transformations: reshape and its forms, transpose, squeeze/expand_dims, concatenate/stack/split, slicing, tile/repeat/reverse, pad, broadcast_to, take.
// Names, argument order, attributes and defaults follow TVM's Python API (tvm.relay.*).
import { type OpInfo, TENSOR, spec, vBool, vInt, vNone, vStr } from '../schema.js';

export const SHAPE_OPS: readonly OpInfo[] = [
  {
    name: 'reshape',
    relation: 'Reshape',
    args: ['data'],
    attrs: [
      spec('newshape', 'ints|int', 'required', 'the new shape; special values 0 (copy), -1 (infer), -2 (copy the rest), -3 (merge two), -4 (split one)', { min: -4 }),
      spec('allowzero', 'bool', vBool(false), '0 in newshape means size 0 instead of "copy"'),
    ],
    result: TENSOR,
    doc: 'reshape with the same number of elements',
  },
  {
    name: 'transpose',
    relation: 'Transpose',
    args: ['data'],
    attrs: [spec('axes', 'ints?', vNone, 'the permutation; None = reverse the axes')],
    result: TENSOR,
    doc: 'permute the axes',
  },
  {
    name: 'expand_dims',
    relation: 'ExpandDims',
    args: ['data'],
    attrs: [
      spec('axis', 'int', 'required', 'where to insert, in [-ndim - 1, ndim]'),
      spec('num_newaxis', 'int', vInt(1), 'how many axes of size 1 to insert', { min: 0 }),
    ],
    result: TENSOR,
    doc: 'insert axes of size 1',
  },
  {
    name: 'squeeze',
    relation: 'Squeeze',
    args: ['data'],
    attrs: [spec('axis', 'ints?', vNone, 'the axes (of size 1) to remove; None = every axis of size 1')],
    result: TENSOR,
    doc: 'remove axes of size 1',
  },
  {
    name: 'concatenate',
    relation: 'Concatenate',
    args: ['data'],
    attrs: [spec('axis', 'int', 'required', 'the axis to join along')],
    result: TENSOR,
    doc: 'join a tuple of tensors along an axis',
  },
  {
    name: 'split',
    relation: 'Split',
    args: ['data'],
    attrs: [
      spec('indices_or_sections', 'ints|int', 'required', 'a number of equal sections, or the ascending indices to split at', { min: 1 }),
      spec('axis', 'int', vInt(0), 'the axis to split'),
    ],
    result: { kind: 'depends', attr: 'indices_or_sections', rule: 'a tuple of N tensors for N sections; of len(indices) + 1 for a list of indices' },
    doc: 'split a tensor into a tuple of tensors',
  },
  {
    name: 'take',
    relation: 'Take',
    args: ['data', 'indices'],
    attrs: [
      spec('axis', 'int?', vNone, 'the axis to take along; None = the flattened input'),
      spec('batch_dims', 'int', vInt(0), 'number of leading batch dimensions shared by data and indices'),
      spec('mode', 'string', vStr('clip'), 'out-of-bound indices: clip, wrap or fast', { choices: ['clip', 'wrap', 'fast'] }),
    ],
    result: TENSOR,
    doc: 'gather elements along an axis',
  },
];
