// Mutations of the elemwise family's imperative twins (see mutation.ts):
// relations/imperative/broadcast.ts and relations/imperative/elemwise.ts.
import type { Mutation } from './mutation.js';

const BROADCAST = 'relations/imperative/broadcast.ts';
const ELEMWISE = 'relations/imperative/elemwise.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'broadcast-dtype-check-dropped',
    file: BROADCAST,
    find: "const e = r.assignDtype(lhs.dtype, rhs.dtype, 'the dtypes of lhs and rhs differ');\n    if (e) return e;",
    replace: "r.assignDtype(lhs.dtype, rhs.dtype, 'the dtypes of lhs and rhs differ');",
    ops: ['add', 'floor_mod', 'less_equal'],
    what: "a dropped check: operands of different dtypes are accepted (the result takes lhs's dtype)",
  },
  {
    id: 'compare-result-not-bool',
    file: BROADCAST,
    find: 'export const broadcastCompareRel: RelationFn = broadcastRelation(true);',
    replace: 'export const broadcastCompareRel: RelationFn = broadcastRelation(false);',
    ops: ['equal', 'not_equal', 'greater_equal'],
    what: "a wrong dtype: comparisons return the operands' dtype instead of bool",
  },
  {
    id: 'where-condition-shape-ignored',
    file: BROADCAST,
    find: 'const all = broadcastShapes(r, cond.shape, xy.shape);',
    replace: 'const all = broadcastShapes(r, xy.shape, xy.shape);',
    ops: ['where'],
    what: 'a dropped operand: the condition does not take part in broadcasting',
  },
  {
    id: 'where-dtype-from-condition',
    file: BROADCAST,
    find: 'const dtype = (r.resolve(x) as TensorType).dtype;',
    replace: 'const dtype = (r.resolve(cond) as TensorType).dtype;',
    ops: ['where'],
    what: 'a swapped argument: the result dtype is taken from the condition instead of x',
  },
  {
    id: 'broadcast-partial-result',
    file: BROADCAST,
    find: '    if (b.wait !== null) return r.wait(b.wait);\n',
    replace: '',
    ops: ['multiply', 'greater'],
    what: 'a dropped wait: an undecided dimension (a hole against n) is returned as an unknown dimension and the relation reports done',
  },
  {
    id: 'where-waits-for-condition-first',
    file: BROADCAST,
    find: "if (x0 === 'wait' || y0 === 'wait') return",
    replace: "if (c0 === 'wait' || x0 === 'wait' || y0 === 'wait') return",
    ops: ['where'],
    what: 'checks in the wrong order: an unknown condition hides a clash between x and y (waits instead of failing)',
  },
  {
    id: 'cast-keeps-input-dtype',
    file: ELEMWISE,
    find: "const e = r.assign(out, tensorType(data.shape, dtype), 'the result');",
    replace: "const e = r.assign(out, tensorType(data.shape, data.dtype), 'the result');",
    ops: ['cast'],
    what: 'a wrong dtype: cast returns the input dtype',
  },
  {
    id: 'cast-dtype-table-check-dropped',
    file: ELEMWISE,
    find: 'if (!SCALAR_DTYPES.has(dtype)) return',
    replace: "if (dtype === 'handle') return",
    ops: ['cast'],
    what: 'a dropped check: target dtypes outside the dtype table (int4) are accepted',
  },
  {
    id: 'cast-like-shape-from-dtype-like',
    file: ELEMWISE,
    find: "const e = r.assign(out, tensorType(data.shape, like.dtype), 'the result');",
    replace: "const e = r.assign(out, tensorType(like.shape, like.dtype), 'the result');",
    ops: ['cast_like'],
    what: 'a swapped argument: the result shape is taken from dtype_like instead of data',
  },
  {
    id: 'cast-like-wait-before-error',
    file: ELEMWISE,
    find: "  if (err !== undefined) return err;\n  if (ts.some((t) => t === 'wait')) return r.wait(`the types of ${names.join(' and ')} are not known yet`);",
    replace:
      "  if (ts.some((t) => t === 'wait')) return r.wait(`the types of ${names.join(' and ')} are not known yet`);\n  if (err !== undefined) return err;",
    ops: ['cast_like'],
    what: 'checks in the wrong order: an unknown data hides the error of a tuple dtype_like (waits instead of failing)',
  },
  {
    id: 'identity-compare-keeps-dtype',
    file: ELEMWISE,
    find: "return r.assign(out, tensorType(data.shape, 'bool'), 'the result') ?? 'done';",
    replace: "return r.assign(out, data, 'the result') ?? 'done';",
    ops: ['isnan', 'isinf'],
    what: "a wrong dtype: isnan returns data's dtype instead of bool",
  },
  {
    id: 'clip-typed-as-a-test',
    file: ELEMWISE,
    find: '  Clip: identityRel,',
    replace: '  Clip: identityCompareRel,',
    ops: ['clip'],
    what: 'a wrong relation: clip is typed as isnan (a bool result)',
  },
];
