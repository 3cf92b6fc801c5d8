// Reduce (sum, mean), after TVM's ReduceRel / GetReduceAxes / ReduceShapeImpl
// (src/relay/op/tensor/reduce.cc).
//
//   axis None, or an empty list → every axis (TVM's convention, also with
//   exclude = True and an empty list); an int or a list → those axes
//   (normalised, in [-ndim, ndim)); exclude = True → every axis NOT listed.
//   keepdims → reduced axes become 1; else they are removed. A rank-0 input is
//   returned unchanged. The result has the input's dtype.
//
// Deviations from TVM:
//  - duplicate axes are errors (TVM sorts them and, without keepdims, builds a
//    result of the wrong rank);
//  - exclude = True with axis = None is an error: TVM's type relation reduces
//    every axis but its compute function rejects it ("Cannot set exclude when
//    axis=None").

import type { IDim } from './types.js';
import type { RelationFn } from './relation.js';
import { expectTensor, getBool, getIntsOrNull, normAxes } from './common.js';
import { isError } from './relation.js';
import { intDim, tensorType } from './types.js';

export const reduceRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const ndim = data.shape.length;
  const given = getIntsOrNull(attrs, 'axis');
  const keepdims = getBool(attrs, 'keepdims');
  const exclude = getBool(attrs, 'exclude');
  if (given === null && exclude) return r.fail('exclude = True needs an explicit axis (axis is None)');
  let reduced: number[];
  if (given === null || given.length === 0) reduced = data.shape.map((_, i) => i);
  else {
    const axes = normAxes(r, given, ndim, 'axis');
    if (isError(axes)) return axes;
    reduced = exclude ? data.shape.map((_, i) => i).filter((i) => !axes.includes(i)) : axes;
  }
  const oshape: IDim[] = [];
  data.shape.forEach((d, i) => {
    if (!reduced.includes(i)) oshape.push(d);
    else if (keepdims) oshape.push(intDim(1));
  });
  return r.assign(out, tensorType(oshape, data.dtype), 'the result') ?? 'done';
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Reduce: reduceRel,
};
