// Relations on the matrices of the last two axes, after TVM's TriluRel
// (src/relay/op/tensor/transform.cc): Trilu.
//
//   Trilu(data, k; upper): result := data's type; k is a 0-D tensor.
//
// Deviations from TVM: data must have rank >= 2 (the compute indexes the last two
// axes); k must have an integer dtype; the result does not wait for k (TVM's
// relation does), but k is checked once known.

import type { RelationFn } from './relation.js';
import { expectTensor } from './common.js';
import { isError } from './relation.js';
import { printType, tensorType } from './types.js';

const MATRIX_INT_DTYPES: ReadonlySet<string> = new Set(['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64']);

export const triluRel: RelationFn = (args, out, _attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  const k = expectTensor(r, args[1]!, 'k');
  if (isError(data)) return data;
  if (isError(k)) return k;
  if (data !== 'wait' && data.shape.length < 2) return r.fail(`data must have rank >= 2 (matrices in the last two axes), got ${printType(data)}`);
  if (k !== 'wait' && k.shape.length !== 0) return r.fail(`k must be a 0-D tensor, got ${printType(k)}`);
  if (k !== 'wait' && typeof k.dtype === 'string' && !MATRIX_INT_DTYPES.has(k.dtype)) return r.fail(`k must have an integer dtype, got ${printType(k)}`);
  if (data === 'wait') return r.wait('the type of data is not known yet');
  const e = r.assign(out, tensorType(data.shape, data.dtype), 'the result');
  if (e) return e;
  return k === 'wait' ? r.wait('the type of k is not known yet') : 'done';
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Trilu: triluRel,
};
