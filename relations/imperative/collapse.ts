// Relations after TVM's BroadCastToLikeRel, CollapseSumLikeRel and CollapseSumToRel
// (src/relay/op/tensor/transform.cc, each finished by BroadcastRel):
// BroadcastToLike, CollapseSumLike, CollapseSumTo.
//
//   BroadcastToLike(data, broadcast_type): result := broadcast_type; data
//     broadcasts to it.
//   CollapseSumLike(data, collapse_type): result := collapse_type; it broadcasts
//     to data.
//   CollapseSumTo(data; shape): Tensor[shape, data.dtype]; shape broadcasts to
//     data.
//   data and the other tensor have one dtype (an error otherwise, as BroadcastRel).
//
// Deviations from TVM: as broadcast_to (transform.ts, checkBroadcastsTo), a
// symbolic dim that may be 1 is accepted and one provably not 1 is a residual
// assumption; collapse_sum_to takes the shape as an attribute (TVM: a constant
// tensor argument).

import type { IType, TensorType } from './types.js';
import type { RelationFn, RelError, Reporter } from './relation.js';
import { expectTensor, getInts } from './common.js';
import { isError } from './relation.js';
import { checkBroadcastsTo } from './transform.js';
import { intDim, printType, tensorType } from './types.js';

function blDtypes(r: Reporter, data: TensorType, other: TensorType, name: string): RelError | null {
  if (typeof data.dtype !== 'string' || typeof other.dtype !== 'string' || data.dtype === other.dtype) return null;
  return r.fail(`data has dtype ${data.dtype}, ${name} ${other.dtype}: they must be equal`);
}

/** result := the other argument; `toOther`: data broadcasts to it (else it broadcasts to data). */
function likeRelation(name: string, toOther: boolean): RelationFn {
  return (args, out, _attrs, r) => {
    const ts = [expectTensor(r, args[0]!, 'data'), expectTensor(r, args[1]!, name)];
    const err = ts.find(isError);
    if (err !== undefined) return err;
    const e = r.assign(out, args[1]! as IType, 'the result');
    if (e) return e;
    const [data, other] = ts as [TensorType | 'wait', TensorType | 'wait'];
    if (data === 'wait' || other === 'wait') return r.wait(`the types of data and ${name} are not known yet`);
    const de = blDtypes(r, data, other, name);
    if (de) return de;
    const be = toOther
      ? checkBroadcastsTo(r, data.shape, other.shape, `${printType(data)} to ${printType(other)}`)
      : checkBroadcastsTo(r, other.shape, data.shape, `${printType(other)} to ${printType(data)} (collapsing)`);
    return be ?? 'done';
  };
}

export const broadcastToLikeRel: RelationFn = likeRelation('broadcast_type', true);
export const collapseSumLikeRel: RelationFn = likeRelation('collapse_type', false);

export const collapseSumToRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const shape = getInts(attrs, 'shape').map(intDim);
  const e = checkBroadcastsTo(r, shape, data.shape, `(${getInts(attrs, 'shape').join(', ')}) to ${printType(data)} (collapsing)`);
  if (e) return e;
  return r.assign(out, tensorType(shape, data.dtype), 'the result') ?? 'done';
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  BroadcastToLike: broadcastToLikeRel,
  CollapseSumLike: collapseSumLikeRel,
  CollapseSumTo: collapseSumToRel,
};
