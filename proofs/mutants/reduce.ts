// Mutations of the reduce family's imperative twins (see mutation.ts):
// relations/imperative/reduce.ts.
import type { Mutation } from './mutation.js';

const REDUCE = 'relations/imperative/reduce.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'reduce-keepdims-keeps-size',
    file: REDUCE,
    find: 'else if (keepdims) oshape.push(intDim(1));',
    replace: 'else if (keepdims) oshape.push(d);',
    ops: ['sum', 'argmax'],
    what: "a wrong formula: keepdims keeps the reduced dimension's size instead of 1",
  },
  {
    id: 'argreduce-int64',
    file: REDUCE,
    find: "reduceRelation({ dtype: 'int32',",
    replace: "reduceRelation({ dtype: 'int64',",
    ops: ['argmax', 'argmin'],
    what: 'a wrong dtype: argmax/argmin return int64 instead of int32',
  },
  {
    id: 'reduce-exclude-ignored',
    file: REDUCE,
    find: 'filter((i) => !axes.includes(i))',
    replace: 'filter((i) => axes.includes(i))',
    ops: ['mean', 'variance'],
    what: 'a dropped complement: exclude=True reduces the listed axes',
  },
  {
    id: 'reduce-empty-axis-list',
    file: REDUCE,
    find: 'if (given === null || given.length === 0) reduced',
    replace: 'if (given === null) reduced',
    ops: ['max', 'prod'],
    what: 'a special value forgotten: axis=[] reduces nothing instead of every axis',
  },
  {
    id: 'logsumexp-exclude-default',
    file: REDUCE,
    find: "const exclude = rdBool(attrs, 'exclude', false);",
    replace: "const exclude = rdBool(attrs, 'exclude', true);",
    ops: ['logsumexp'],
    what: 'a wrong default: an operator without the exclude attribute (logsumexp) reduces the complement',
  },
  {
    id: 'reduce-exclude-none-check-dropped',
    file: REDUCE,
    find: "if (given === null && exclude) return r.fail('exclude = True needs an explicit axis (axis is None)');",
    replace: '',
    ops: ['all', 'any'],
    what: 'a dropped check: exclude=True with axis=None is accepted',
  },
  {
    id: 'argreduce-rank0-accepted',
    file: REDUCE,
    find: "export const argReduceRel: RelationFn = reduceRelation({ dtype: 'int32', rank0Error: true,",
    replace: "export const argReduceRel: RelationFn = reduceRelation({ dtype: 'int32', rank0Error: false,",
    ops: ['argmax', 'argmin'],
    what: "a dropped check: argmax of a rank-0 tensor is accepted (TVM's relation rejects it)",
  },
  {
    id: 'variance-exclude-all-accepted',
    file: REDUCE,
    find: 'if (exclude && reduced.length === 0 && kind.excludeAllError)',
    replace: 'if (exclude && reduced.length === 0 && kind.excludeAllError && ndim > 3)',
    ops: ['variance', 'std'],
    what: 'an incomplete check: exclude=True listing every axis is caught only for high ranks',
  },
  {
    id: 'mean-variance-single-tensor',
    file: REDUCE,
    find: 'excludeAllError: true, pair: true });',
    replace: 'excludeAllError: true, pair: false });',
    ops: ['mean_variance', 'mean_std'],
    what: 'a wrong arity: mean_variance returns one tensor instead of the (mean, variance) tuple',
  },
  {
    id: 'mean-variance-rank0-accepted',
    file: REDUCE,
    find: 'export const meanVarianceRel: RelationFn = reduceRelation({ dtype: null, rank0Error: true,',
    replace: 'export const meanVarianceRel: RelationFn = reduceRelation({ dtype: null, rank0Error: false,',
    ops: ['mean_variance'],
    what: 'a dropped check: a rank-0 input is accepted',
  },
];
