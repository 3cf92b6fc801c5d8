// Relations about a tensor's type after TVM's ShapeOfRel (src/relay/op/type_relations.cc)
// and NdarraySizeRel (src/relay/op/tensor/unary.cc), and the identity annotation
// annotation.checkpoint (IdentityRel): ShapeOf, NdarraySize, Checkpoint.
//
//   ShapeOf(data; dtype): Tensor[(rank(data),), dtype].
//   NdarraySize(data; dtype): Tensor[(), dtype].
//   Checkpoint(data): result := data, a tensor or a tuple.
//
// Deviations from TVM:
//  - ShapeOf of a rank-0 tensor is Tensor[(0,), dtype], as TVM's compute returns
//    (its relation says a rank-0 tensor).
//  - ShapeOf, NdarraySize: dtypes outside the scalar table are rejected, before
//    data is known.

import type { RelationFn, RelError, Reporter } from './relation.js';
import { expectTensor, getString } from './common.js';
import { isError } from './relation.js';
import { intDim, printType, tensorType } from './types.js';
import { SCALAR_DTYPES } from '../dtypes.js';

function checkDtype(r: Reporter, dtype: string): RelError | null {
  return SCALAR_DTYPES.has(dtype) ? null : r.fail(`dtype ${dtype} is not supported (the scalar dtypes bool, intN, uintN, floatN, bfloat16 are)`);
}

export const shapeOfRel: RelationFn = (args, out, attrs, r) => {
  const dtype = getString(attrs, 'dtype');
  const de = checkDtype(r, dtype);
  if (de) return de;
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  return r.assign(out, tensorType([intDim(data.shape.length)], dtype), 'the result') ?? 'done';
};

export const ndarraySizeRel: RelationFn = (args, out, attrs, r) => {
  const dtype = getString(attrs, 'dtype');
  const de = checkDtype(r, dtype);
  if (de) return de;
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  return r.assign(out, tensorType([], dtype), 'the result') ?? 'done';
};

/** result = data, whatever it is (a tensor or a tuple). */
export const checkpointRel: RelationFn = (args, out, _attrs, r) => {
  const data = args[0]!;
  if (data.kind !== 'tensor' && data.kind !== 'tuple' && data.kind !== 'hole') return r.fail(`data must be a tensor or a tuple, got ${printType(data)}`);
  const e = r.assign(out, data, 'the result');
  if (e) return e;
  return data.kind === 'hole' ? r.wait('the type of data is not known yet') : 'done';
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  ShapeOf: shapeOfRel,
  NdarraySize: ndarraySizeRel,
  Checkpoint: checkpointRel,
};
