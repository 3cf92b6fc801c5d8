// Mutations of the indexing family's imperative twins (see mutation.ts):
// relations/imperative/indexing.ts.
import type { Mutation } from './mutation.js';

const INDEXING = 'relations/imperative/indexing.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'one-hot-axis-range-of-indices',
    file: INDEXING,
    find: "normAxis(r, getInt(attrs, 'axis'), indices.shape.length, 'axis', 1)",
    replace: "normAxis(r, getInt(attrs, 'axis'), indices.shape.length, 'axis', 0)",
    ops: ['one_hot'],
    what: "an off-by-one: the axis is normalised against the indices' rank instead of the result's (rank + 1)",
  },
  {
    id: 'topk-k-0-not-whole-axis',
    file: INDEXING,
    find: 'i === axis && k >= 1 ? intDim(k) : d',
    replace: 'i === axis && k >= 0 ? intDim(k) : d',
    ops: ['topk'],
    what: 'an off-by-one: k = 0 gives an axis of size 0 instead of the whole axis',
  },
  {
    id: 'topk-indices-data-dtype',
    file: INDEXING,
    find: 'const indices = tensorType(oshape, dtype);',
    replace: 'const indices = tensorType(oshape, data.dtype);',
    ops: ['topk'],
    what: "a wrong dtype: the indices take the data's dtype instead of the dtype attribute",
  },
  {
    id: 'gather-result-data-shape',
    file: INDEXING,
    find: 'const built = tensorType(indices.shape, data.dtype);',
    replace: 'const built = tensorType(data.shape, data.dtype);',
    ops: ['gather'],
    what: "a swapped argument: the result takes the data's shape instead of the indices'",
  },
  {
    id: 'sequence-mask-batch-axis-swapped',
    file: INDEXING,
    find: 'const batch = data.shape[1 - axis]!;',
    replace: 'const batch = data.shape[axis]!;',
    ops: ['sequence_mask'],
    what: 'a swapped axis: valid_length is checked against the time axis instead of the batch axis',
  },
  {
    id: 'scatter-updates-dtype-unchecked',
    file: INDEXING,
    find: "const e = r.assignDtype(updates.dtype, data.dtype, 'updates must have the dtype of data');\n      if (e) return e;",
    replace: "r.assignDtype(updates.dtype, data.dtype, 'updates must have the dtype of data');",
    ops: ['scatter_elements'],
    what: 'a dropped check: updates of another dtype than data are accepted',
  },
  {
    id: 'index-bound-check-dropped',
    file: INDEXING,
    find: '      if (nonEmpty) return r.fail(message);\n',
    replace: '',
    ops: ['gather', 'scatter_elements'],
    what: 'a dropped check: indices larger than the data along a non-axis dim are accepted',
  },
  {
    id: 'sequence-mask-batch-not-inferred',
    file: INDEXING,
    find: "const ue = unifyHoleDim(r, valid.shape[0]!, batch, 'valid_length must have the batch size of data');\n    if (ue) return ue;\n",
    replace: '',
    ops: ['sequence_mask'],
    what: "a dropped inference: an unknown dim of valid_length (or of data's batch axis) is not taken from the other side",
  },
  {
    id: 'scatter-last-dim-not-unified',
    file: INDEXING,
    find: 'for (let d = 0; d < indices.shape.length; d++) {\n      const ue = unifyHoleDim(',
    replace: 'for (let d = 0; d < indices.shape.length - 1; d++) {\n      const ue = unifyHoleDim(',
    ops: ['scatter_elements'],
    what: 'an off-by-one: an unknown last dim of updates (or indices) is not taken from the other',
  },
];
