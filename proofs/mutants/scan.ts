// Mutations of the scan family's imperative twins (see mutation.ts):
// relations/imperative/scan.ts.
import type { Mutation } from './mutation.js';

const SCAN = 'relations/imperative/scan.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'scan-no-axis-keeps-shape',
    file: SCAN,
    find: "return r.assign(out, tensorType([dProduct(data.shape)], dtype), 'the result') ?? 'done';",
    replace: "return r.assign(out, tensorType(data.shape, dtype), 'the result') ?? 'done';",
    ops: ['cumsum', 'cumprod'],
    what: "a wrong shape: without an axis the result keeps data's shape instead of flattening it",
  },
  {
    id: 'scan-dtype-ignored',
    file: SCAN,
    find: "const dtype = given === '' ? data.dtype : given;",
    replace: 'const dtype = data.dtype;',
    ops: ['cumsum'],
    what: 'a dropped attribute: the dtype attribute is ignored',
  },
  {
    id: 'sort-axis-off-by-one',
    file: SCAN,
    find: 'if (axis >= -rank && axis < rank) return null;',
    replace: 'if (axis >= -rank && axis <= rank) return null;',
    ops: ['sort', 'argsort', 'cumprod'],
    what: 'an off-by-one: axis = rank is accepted',
  },
  {
    id: 'argsort-data-dtype',
    file: SCAN,
    find: "const e = checkAxis(r, data, getInt(attrs, 'axis'));\n  if (e) return e;\n  return r.assign(out, tensorType(data.shape, dtype), 'the result') ?? 'done';",
    replace:
      "const e = checkAxis(r, data, getInt(attrs, 'axis'));\n  if (e) return e;\n  return r.assign(out, tensorType(data.shape, data.dtype), 'the result') ?? 'done';",
    ops: ['argsort'],
    what: "a wrong dtype: argsort returns data's dtype instead of the indices' dtype",
  },
  {
    id: 'searchsorted-rank-check-dropped',
    file: SCAN,
    find: 'if (seq.shape.length > 1 && seq.shape.length !== rank) {',
    replace: 'if (seq.shape.length > 1 && seq.shape.length > rank + 1) {',
    ops: ['searchsorted'],
    what: 'a weakened check: a multi-dimensional sorted_sequence of another rank than values is accepted',
  },
  {
    id: 'searchsorted-shape-of-sequence',
    file: SCAN,
    find: 'const built = tensorType(values.shape, dtype);',
    replace: 'const built = tensorType(seq.shape, dtype);',
    ops: ['searchsorted'],
    what: "a swapped argument: the result takes sorted_sequence's shape instead of values'",
  },
];
