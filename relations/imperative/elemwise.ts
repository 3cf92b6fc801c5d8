// Elementwise relations: Identity (nn.relu) and Cast.
//
// Deviations from TVM:
//  - Identity: Relay's IdentityRel assigns result := data and is done at once,
//    whatever data is. Here it assigns at once too, but stays 'wait' while data
//    is a hole, and reports an error if data turns out not to be a tensor
//    (Relay would accept `nn.relu` of a tuple).

import type { RelationFn } from './relation.js';
import { expectTensor, getString } from './common.js';
import { isError } from './relation.js';
import { printType, tensorType } from './types.js';

/** result = data. */
export const identityRel: RelationFn = (args, out, _attrs, r) => {
  const data = args[0]!;
  if (data.kind !== 'tensor' && data.kind !== 'hole') return r.fail(`data must be a tensor, got ${printType(data)}`);
  const e = r.assign(out, data, 'the result');
  if (e) return e;
  return data.kind === 'tensor' ? 'done' : r.wait('the type of data is not known yet');
};

/** result = Tensor[data.shape, dtype]. */
export const castRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const e = r.assign(out, tensorType(data.shape, getString(attrs, 'dtype')), 'the result');
  return e ?? 'done';
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Identity: identityRel,
  Cast: castRel,
};
