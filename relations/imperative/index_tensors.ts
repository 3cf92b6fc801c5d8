// Relations for indexing whose positions come as tensor arguments, after TVM's
// StridedSetRel and AdvIndexRel (src/relay/op/tensor/transform.cc): StridedSet,
// AdvIndex.
//
//   StridedSet(data, v, begin, end, strides): result := data's type (unified).
//   AdvIndex(inputs): inputs = (data, i_1, ..., i_K), 1 <= K <= rank(data);
//     Tensor[broadcast(i_1.shape, ..., i_K.shape) ++ data.shape[K:], data.dtype].
//
// Deviations from TVM (as relations/index-tensors.rules): every strided_set argument
// must be a tensor; adv_index needs at least one index, integer index dtypes, and
// broadcasts symbolic dims as broadcast.ts does (undecided: wait); an index into an
// axis of size 0 is an error when every dim of the result is provably non-zero.

import type { IDim, IType, TensorType } from './types.js';
import type { RelationFn } from './relation.js';
import { TABLE_INT_DTYPES, broadcastShapes, compareDims, expectTensor, isInt } from './common.js';
import { isError } from './relation.js';
import { intDim, printType, tensorType } from './types.js';

const STRIDED_SET_ARGS = ['data', 'v', 'begin', 'end', 'strides'];

export const stridedSetRel: RelationFn = (args, out, _attrs, r) => {
  for (const [i, name] of STRIDED_SET_ARGS.entries()) {
    const t = args[i]!;
    if (t.kind !== 'tensor' && t.kind !== 'hole') return r.fail(`${name} must be a tensor, got ${printType(t)}`);
  }
  return r.assign(out, args[0]!, 'the result') ?? 'done';
};

export const advIndexRel: RelationFn = (args, out, _attrs, r) => {
  const inputs = args[0]!;
  if (inputs.kind === 'hole') return r.wait('the type of inputs is not known yet');
  if (inputs.kind !== 'tuple') return r.fail(`inputs must be a tuple (data, indices...), got ${printType(inputs)}`);
  const fields = inputs.fields;
  if (fields.length < 2) return r.fail('adv_index needs data and at least one index tensor');
  if (fields.some((f: IType) => f.kind === 'tuple')) return r.fail('inputs must be a tuple of tensors, got a tuple field');
  const ts = fields.map((f, i) => expectTensor(r, f, i === 0 ? 'data' : `index ${i}`));
  const err = ts.find(isError);
  if (err !== undefined) return err;
  const data = ts[0] as TensorType | 'wait';
  const indices = ts.slice(1) as (TensorType | 'wait')[];
  if (data !== 'wait' && indices.length > data.shape.length)
    return r.fail(`${indices.length} index tensors for data of rank ${data.shape.length}: too many indices`);
  for (const t of indices) {
    if (t !== 'wait' && typeof t.dtype === 'string' && !TABLE_INT_DTYPES.has(t.dtype)) return r.fail(`index tensors must have integer dtypes, not ${t.dtype}`);
  }
  // a provable clash between two known index shapes is reported before the others are known
  const known = indices.filter((t): t is TensorType => t !== 'wait');
  for (const [i, a] of known.entries()) {
    for (const b of known.slice(i + 1)) {
      const e = broadcastShapes(r, a.shape, b.shape);
      if (isError(e)) return e;
    }
  }
  if (data === 'wait' || indices.some((t) => t === 'wait' || typeof t.dtype !== 'string')) return r.wait('the types of data and the indices are not known yet');
  let shape: IDim[] = [...known[0]!.shape];
  for (const t of known.slice(1)) {
    const b = broadcastShapes(r, shape, t.shape);
    if (isError(b)) return b;
    if (b.wait !== null) return r.wait(b.wait);
    shape = b.shape;
  }
  const built = [...shape, ...data.shape.slice(indices.length)];
  if (data.shape.slice(0, indices.length).some((d) => isInt(d, 0)) && built.every((d) => compareDims(d, intDim(0), '!=') === true)) {
    return r.fail(`an index into axis of size 0 of data ${printType(data)}: there is no element there`);
  }
  return r.assign(out, tensorType(built, data.dtype), 'the result') ?? 'done';
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  StridedSet: stridedSetRel,
  AdvIndex: advIndexRel,
};
