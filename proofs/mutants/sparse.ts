// Mutations of the sparse family's imperative twins (see mutation.ts):
// relations/imperative/sparse.ts.
import type { Mutation } from './mutation.js';

const SPARSE = 'relations/imperative/sparse.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'unravel-index-dims-swapped',
    file: SPARSE,
    find: 'tensorType([shape.shape[0]!, ...indices.shape], indices.dtype)',
    replace: 'tensorType([...indices.shape, shape.shape[0]!], indices.dtype)',
    ops: ['unravel_index'],
    what: 'swapped axes: the coordinates axis after the indices axis instead of before',
  },
  {
    id: 'unravel-index-matrix-accepted',
    file: SPARSE,
    find: '(n) => n <= 1,\n        (s) => `indices must be a scalar or a vector',
    replace: '(n) => n <= 2,\n        (s) => `indices must be a scalar or a vector',
    ops: ['unravel_index'],
    what: 'an off-by-one: indices of rank 2 accepted',
  },
  {
    id: 'sparse-to-dense-indices-dtype',
    file: SPARSE,
    find: 'tensorType(outputShape.map(intDim), values.dtype)',
    replace: 'tensorType(outputShape.map(intDim), indices.dtype)',
    ops: ['sparse_to_dense'],
    what: "a wrong dtype: the result takes the indices' dtype instead of the values'",
  },
  {
    id: 'sparse-to-dense-count-unchecked',
    file: SPARSE,
    find: 'if (!spDiffer(values.shape[0]!, count)) return null;',
    replace: 'if (!spDiffer(values.shape[0]!, values.shape[0]!)) return null;',
    ops: ['sparse_to_dense'],
    what: 'a dropped check: a number of values different from the number of indices accepted',
  },
  {
    id: 'sparse-reshape-new-rows-from-prev',
    file: SPARSE,
    find: 'tensorType([i.shape[0]!, n.shape[0]!], i.dtype)',
    replace: 'tensorType([i.shape[0]!, i.shape[1]!], i.dtype)',
    ops: ['sparse_reshape'],
    what: 'a wrong shape: the new coordinates keep the old coordinate length',
  },
  {
    id: 'sparse-reshape-prev-length-unchecked',
    file: SPARSE,
    find: "if (indices === 'wait' || prev === 'wait' || !spDiffer(indices.shape[1]!, prev.shape[0]!)) return null;",
    replace: "if (indices === 'wait' || prev === 'wait' || !spDiffer(indices.shape[0]!, prev.shape[0]!)) return null;",
    ops: ['sparse_reshape'],
    what: "a swapped axis: prev_shape's length checked against the number of indices instead of the coordinate length",
  },
];
