// Reductions: sum, mean, max, min, prod, all, any, argmax/argmin, variance/std, logsumexp.
// Names, argument order, attributes and defaults follow TVM's Python API (tvm.relay.*).
// TVM source: src/relay/op/tensor/reduce.cc (ReduceRel, ArgReduceRel, VarianceRel,
// GetReduceAxes, ReduceShapeImpl); python/tvm/relay/op/reduce.py (variance, std, logsumexp).
import { type OpExample, type OpInfo, reduceOp, spec, vBool } from '../schema.js';

const FORMULA =
  'the axes reduced are axis (None or [] = all; negative from the end), or with exclude every axis NOT in axis; reduced axes are removed, or kept as 1 with keepdims; a rank-0 input gives a rank-0 result';
const DEVIATIONS = [
  'duplicate axes are an error (TVM accepts them and, without keepdims, builds a result of the wrong rank; its compute removes the duplicates)',
  'exclude=True with axis=None is an error (TVM\'s relation reduces every axis, but its compute rejects it: "Cannot set exclude when axis=None")',
];
const EXAMPLE_ATTRS = { axis: [2, 3], keepdims: true };
const EXAMPLE_ARGS = ['Tensor[(1, 2048, 7, 7), float32]'];

function rop(name: string, doc: string, example: OpExample = { attrs: EXAMPLE_ATTRS, args: EXAMPLE_ARGS }): OpInfo {
  return { ...reduceOp(name, doc), formula: `${FORMULA}; the result has data's dtype`, deviations: DEVIATIONS, example };
}

function argOp(name: string, doc: string): OpInfo {
  const base = reduceOp(name, doc);
  return {
    ...base,
    relation: 'ArgReduce',
    attrs: [...base.attrs, spec('select_last_index', 'bool', vBool(false), 'on ties, the index of the last extreme element instead of the first')],
    formula: `${FORMULA}; the result dtype is int32; data must have rank >= 1`,
    deviations: DEVIATIONS,
    example: { attrs: { axis: -1 }, args: ['Tensor[(8, 128, 30522), float32]'] },
  };
}

function varOp(name: string, doc: string): OpInfo {
  const base = reduceOp(name, doc);
  return {
    ...base,
    relation: 'Variance',
    attrs: [...base.attrs, spec('unbiased', 'bool', vBool(false), 'divide by N - 1 instead of N')],
    formula: `${FORMULA}; the result has data's dtype; data must have rank >= 1`,
    deviations: [
      ...DEVIATIONS,
      'exclude=True listing every axis is an error (TVM\'s relation returns the input shape, but its compute rejects a variance over no axis)',
      'modelled on the single data argument: TVM\'s Python function computes the mean itself (mean(data, axis, keepdims=True, exclude)) and passes it to the internal two-argument variance operator, whose relation checks only that the mean is a tensor',
    ],
    example: { attrs: { axis: -1, keepdims: true }, args: ['Tensor[(8, 128, 768), float32]'] },
  };
}

export const REDUCE_OPS: readonly OpInfo[] = [
  rop('sum', 'sum over axes'),
  rop('mean', 'mean over axes'),
  rop('max', 'maximum over axes'),
  rop('min', 'minimum over axes'),
  rop('prod', 'product over axes'),
  rop('all', 'logical AND over axes (the result keeps data\'s dtype)', { attrs: { axis: 1, keepdims: false }, args: ['Tensor[(8, 128), bool]'] }),
  rop('any', 'logical OR over axes (the result keeps data\'s dtype)', { attrs: { axis: 1, keepdims: false }, args: ['Tensor[(8, 128), bool]'] }),
  argOp('argmax', 'index of the maximum along the reduced axes (int32)'),
  argOp('argmin', 'index of the minimum along the reduced axes (int32)'),
  varOp('variance', 'variance over axes'),
  varOp('std', 'standard deviation over axes'),
  {
    ...reduceOp('logsumexp', 'log(sum(exp(data))) over axes, computed stably'),
    attrs: reduceOp('logsumexp', '').attrs.filter((a) => a.name !== 'exclude'),
    formula: `${FORMULA.replace(', or with exclude every axis NOT in axis', '')}; the result has data's dtype`,
    deviations: [
      'duplicate axes are an error',
      'axis=[] with keepdims=False reduces every axis and gives a rank-0 result, as sum does; TVM\'s Python composition (max with keepdims, ..., then squeeze(out, axis=[])) squeezes nothing and returns every dimension as 1',
      'typed as one reduction: TVM builds it from max, subtract, exp, sum, log, add and squeeze, and has no relation of its own',
    ],
    example: { attrs: { axis: -1, keepdims: true }, args: ['Tensor[(8, 12, 128, 128), float32]'] },
  },
];
