// Reduce (sum, mean, max, min, prod, all, any, logsumexp), ArgReduce (argmax,
// argmin), Variance (variance, std) and MeanVariance (mean_variance, mean_std: a
// tuple of two tensors of the variance's type), after TVM's ReduceRel /
// GenericReduceRel<ArgReduceAttrs> / VarianceRel, GetReduceAxes and
// ReduceShapeImpl (src/relay/op/tensor/reduce.cc).
//
//   axis None, or an empty list → every axis (TVM's convention, also with
//   exclude = True and an empty list); an int or a list → those axes
//   (normalised, in [-ndim, ndim)); exclude = True → every axis NOT listed.
//   keepdims → reduced axes become 1; else they are removed. Nothing reduced
//   (rank 0, or exclude listing every axis) → the input shape. Reduce and
//   Variance: the result has the input's dtype; ArgReduce: int32 (TVM: the dtype
//   of the first dimension, int32 for every static shape). ArgReduce and
//   Variance reject a rank-0 input (ICHECK in TVM's relations). select_last_index
//   and unbiased do not change the type.
//
// Deviations from TVM:
//  - duplicate axes are errors (TVM sorts them and, without keepdims, builds a
//    result of the wrong rank);
//  - exclude = True with axis = None is an error: TVM's type relation reduces
//    every axis but its compute function rejects it ("Cannot set exclude when
//    axis=None"). It is decided from the attributes alone, before data is known;
//  - Variance: exclude = True listing every axis is an error (TVM's relation
//    returns the input shape, but VarianceCompute rejects it: ICHECK_NE(axes.size(), 0));
//  - variance / std take only data: TVM's Python wrapper computes the mean and
//    calls a two-argument operator whose relation only checks the mean is a tensor;
//  - logsumexp (no exclude attribute: it is False) is typed as one reduction; TVM
//    composes it from max, exp, sum, log and squeeze, so that axis = [] without
//    keepdims keeps every dimension as 1 there (squeeze of no axis), but reduces
//    to rank 0 here;
//  - mean_variance / mean_std are typed as one operator (TVM composes them in
//    Python); the mean has the variance's shape, where TVM's squeeze of the mean
//    fails with exclude = True and keeps every dimension as 1 with axis = [].

import type { IDim } from './types.js';
import type { AttrMap, RelationFn } from './relation.js';
import { expectTensor, getBool, getIntsOrNull, normAxes } from './common.js';
import { isError } from './relation.js';
import { intDim, tensorType, tupleType } from './types.js';

/** A bool attribute, or `dflt` when the operator has no such attribute (logsumexp has no exclude). */
function rdBool(attrs: AttrMap, name: string, dflt: boolean): boolean {
  return attrs.has(name) ? getBool(attrs, name) : dflt;
}

interface RdKind {
  /** The result dtype of an arg-reduction; null for the data's dtype. */
  readonly dtype: string | null;
  /** A rank-0 input is an error (ArgReduce, Variance). */
  readonly rank0Error: boolean;
  /** exclude = True listing every axis is an error (Variance). */
  readonly excludeAllError: boolean;
  /** The result is a pair of the reduced tensor (MeanVariance). */
  readonly pair: boolean;
}

function reduceRelation(kind: RdKind): RelationFn {
  return (args, out, attrs, r) => {
    const given = getIntsOrNull(attrs, 'axis');
    const keepdims = getBool(attrs, 'keepdims');
    const exclude = rdBool(attrs, 'exclude', false);
    if (given === null && exclude) return r.fail('exclude = True needs an explicit axis (axis is None)');
    const data = expectTensor(r, args[0]!, 'data');
    if (data === 'wait' || isError(data)) return data;
    const ndim = data.shape.length;
    if (ndim === 0 && kind.rank0Error) return r.fail("data must have rank >= 1 (TVM's relation rejects a rank-0 input)");
    let reduced: number[];
    if (given === null || given.length === 0) reduced = data.shape.map((_, i) => i);
    else {
      const axes = normAxes(r, given, ndim, 'axis');
      if (isError(axes)) return axes;
      reduced = exclude ? data.shape.map((_, i) => i).filter((i) => !axes.includes(i)) : axes;
      if (exclude && reduced.length === 0 && kind.excludeAllError)
        return r.fail(`exclude = True with axis [${given.join(', ')}] lists every axis of a rank-${ndim} tensor: nothing is left to reduce`);
    }
    const oshape: IDim[] = [];
    data.shape.forEach((d, i) => {
      if (!reduced.includes(i)) oshape.push(d);
      else if (keepdims) oshape.push(intDim(1));
    });
    const reducedType = tensorType(oshape, kind.dtype ?? data.dtype);
    return r.assign(out, kind.pair ? tupleType([reducedType, reducedType]) : reducedType, 'the result') ?? 'done';
  };
}

export const reduceRel: RelationFn = reduceRelation({ dtype: null, rank0Error: false, excludeAllError: false, pair: false });
export const argReduceRel: RelationFn = reduceRelation({ dtype: 'int32', rank0Error: true, excludeAllError: false, pair: false });
export const varianceRel: RelationFn = reduceRelation({ dtype: null, rank0Error: true, excludeAllError: true, pair: false });
export const meanVarianceRel: RelationFn = reduceRelation({ dtype: null, rank0Error: true, excludeAllError: true, pair: true });

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Reduce: reduceRel,
  ArgReduce: argReduceRel,
  Variance: varianceRel,
  MeanVariance: meanVarianceRel,
};
