// Elementwise relations: Identity (nn.relu and the unary math operators: exp,
// log, sqrt, tanh, sigmoid, negative, abs, floor, ..., logical_not, tan, atan,
// acos, ..., copy), IdentityCompare (isnan, isfinite, isinf), Clip, Cast and
// CastLike.
//
// TVM (src/relay/op/type_relations.cc IdentityRel; src/relay/op/tensor/transform.cc
// CastRel, CastLikeRel):
//   Identity: result := data. Clip: the same (a_min and a_max do not type).
//   IdentityCompare (IdentityCompRel): result := Tensor[data.shape, bool]; waits
//   while data is not a tensor.
//   Cast: result := Tensor[data.shape, dtype]; waits while data is incomplete.
//   CastLike: result := Tensor[data.shape, dtype_like.dtype]; waits while either
//   argument is incomplete.
//
// Deviations from TVM:
//  - Identity: Relay's IdentityRel assigns result := data and is done at once,
//    whatever data is. Here it assigns at once too, but stays 'wait' while data
//    is a hole, and reports an error if data turns out not to be a tensor
//    (Relay would accept `nn.relu` of a tuple).
//  - Cast: only the dtypes bool, int8..int64, uint8..uint64, float16/32/64 and
//    bfloat16 are accepted as targets (the rules' dtype table); `int4` or the
//    vector type `float32x4` are errors.
//  - CastLike: a tuple argument is an error (TVM fails with a check).

import type { IType, TensorType } from './types.js';
import type { RelationFn, RelError, Reporter } from './relation.js';
import { expectTensor, getString } from './common.js';
import { isError } from './relation.js';
import { printType, tensorType } from './types.js';
import { SCALAR_DTYPES } from '../dtypes.js';

/** Every argument as a tensor, or the first error (errors win over waiting), or 'wait'. */
function ewTensors(r: Reporter, args: readonly IType[], names: readonly string[]): TensorType[] | 'wait' | RelError {
  const ts = args.map((a, i) => expectTensor(r, a, names[i]!));
  const err = ts.find(isError);
  if (err !== undefined) return err;
  if (ts.some((t) => t === 'wait')) return r.wait(`the types of ${names.join(' and ')} are not known yet`);
  return ts as TensorType[];
}

/** result = data. */
export const identityRel: RelationFn = (args, out, _attrs, r) => {
  const data = args[0]!;
  if (data.kind !== 'tensor' && data.kind !== 'hole') return r.fail(`data must be a tensor, got ${printType(data)}`);
  const e = r.assign(out, data, 'the result');
  if (e) return e;
  return data.kind === 'tensor' ? 'done' : r.wait('the type of data is not known yet');
};

/** result = Tensor[data.shape, bool]. */
export const identityCompareRel: RelationFn = (args, out, _attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  return r.assign(out, tensorType(data.shape, 'bool'), 'the result') ?? 'done';
};

/** result = Tensor[data.shape, dtype]. */
export const castRel: RelationFn = (args, out, attrs, r) => {
  const dtype = getString(attrs, 'dtype');
  if (!SCALAR_DTYPES.has(dtype)) return r.fail(`cannot cast to dtype ${dtype}: the supported dtypes are ${[...SCALAR_DTYPES].join(', ')}`);
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const e = r.assign(out, tensorType(data.shape, dtype), 'the result');
  return e ?? 'done';
};

/** result = Tensor[data.shape, dtype_like.dtype]. */
export const castLikeRel: RelationFn = (args, out, _attrs, r) => {
  const ts = ewTensors(r, args, ['data', 'dtype_like']);
  if (!Array.isArray(ts)) return ts;
  const [data, like] = ts as [TensorType, TensorType];
  const e = r.assign(out, tensorType(data.shape, like.dtype), 'the result');
  return e ?? 'done';
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Identity: identityRel,
  IdentityCompare: identityCompareRel,
  Clip: identityRel,
  Cast: castRel,
  CastLike: castLikeRel,
};
