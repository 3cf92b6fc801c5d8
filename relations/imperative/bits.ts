// Bit-level relations: BitwiseBroadcast (bitwise_and, bitwise_or, bitwise_xor,
// left_shift, right_shift), BitwiseNot, FixedPointMultiply and Reinterpret.
//
// TVM registers the binary ones with BroadcastRel (src/relay/op/tensor/binary.cc),
// bitwise_not and fixed_point_multiply with IdentityRel (unary.cc), reinterpret with
// CastRel (transform.cc):
//   BitwiseBroadcast: numpy broadcasting of lhs and rhs, their common dtype.
//   BitwiseNot, FixedPointMultiply: result := data.
//   Reinterpret: result := Tensor[data.shape, dtype].
//
// Deviations from TVM (its relations accept any dtype; its computes do not):
//  - BitwiseBroadcast, BitwiseNot: every operand must have an integer dtype
//    (int8-int64, uint8-uint64); a known other dtype is an error at once, before
//    waiting for the other operand.
//  - FixedPointMultiply: data must be int32 (q_multiply_shift handles int32 only).
//  - Reinterpret: the target must be in the dtype table (as cast) and have data's
//    bit width.
//  - Broadcasting is the Broadcast relation's (broadcast.ts), with its deviations.

import type { IType, TensorType } from './types.js';
import type { RelationFn, RelError, Reporter } from './relation.js';
import { broadcastRelation } from './broadcast.js';
import { expectTensor, getString } from './common.js';
import { isError } from './relation.js';
import { printType, tensorType } from './types.js';

/** The bit width of each dtype of the table (relations/bits.rules, bits_width). */
const BIT_WIDTH: ReadonlyMap<string, number> = new Map([
  ['bool', 1],
  ['int8', 8],
  ['uint8', 8],
  ['int16', 16],
  ['uint16', 16],
  ['float16', 16],
  ['bfloat16', 16],
  ['int32', 32],
  ['uint32', 32],
  ['float32', 32],
  ['int64', 64],
  ['uint64', 64],
  ['float64', 64],
]);

const INT_DTYPES: ReadonlySet<string> = new Set(['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64']);

/** An error when the tensor's known dtype is not an integer dtype. */
function intOperand(r: Reporter, x: TensorType, name: string): RelError | null {
  if (typeof x.dtype === 'string' && !INT_DTYPES.has(x.dtype)) return r.fail(`${name} must have an integer dtype, got ${printType(x)}`);
  return null;
}

/** The argument as a tensor ('wait' while a hole), with an error when its known dtype is not an integer dtype. */
function intTensor(r: Reporter, t: IType, name: string): TensorType | 'wait' | RelError {
  const x = expectTensor(r, t, name);
  if (x === 'wait' || isError(x)) return x;
  return intOperand(r, x, name) ?? x;
}

/** numpy broadcasting of two integer tensors; the result keeps their dtype. */
export const bitwiseBroadcastRel: RelationFn = broadcastRelation(false, intOperand);

/** result = data, an integer tensor. */
export const bitwiseNotRel: RelationFn = (args, out, _attrs, r) => {
  const data = args[0]!;
  if (data.kind !== 'tensor' && data.kind !== 'hole') return r.fail(`data must be a tensor, got ${printType(data)}`);
  const e = r.assign(out, data, 'the result');
  if (e) return e;
  const t = intTensor(r, data, 'data');
  if (isError(t)) return t;
  return t === 'wait' || typeof t.dtype !== 'string' ? r.wait('the type of data is not known yet') : 'done';
};

/** result = data, an int32 tensor. */
export const fixedPointMultiplyRel: RelationFn = (args, out, _attrs, r) => {
  const data = args[0]!;
  if (data.kind !== 'tensor' && data.kind !== 'hole') return r.fail(`data must be a tensor, got ${printType(data)}`);
  const e = r.assign(out, data, 'the result');
  if (e) return e;
  if (data.kind === 'hole' || typeof data.dtype !== 'string') return r.wait('the type of data is not known yet');
  return data.dtype === 'int32' ? 'done' : r.fail(`data must be int32, got ${printType(data)}`);
};

/** result = Tensor[data.shape, dtype], dtype of data's bit width. */
export const reinterpretRel: RelationFn = (args, out, attrs, r) => {
  const dtype = getString(attrs, 'dtype');
  const width = BIT_WIDTH.get(dtype);
  if (width === undefined) return r.fail(`cannot reinterpret as dtype ${dtype}: the supported dtypes are ${[...BIT_WIDTH.keys()].join(', ')}`);
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  if (typeof data.dtype !== 'string') return r.wait('the dtype of data is not known yet');
  const from = BIT_WIDTH.get(data.dtype);
  if (from !== width) return r.fail(`cannot reinterpret ${data.dtype} (${from ?? '?'} bits) as ${dtype} (${width} bits): the bit widths differ`);
  return r.assign(out, tensorType(data.shape, dtype), 'the result') ?? 'done';
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  BitwiseBroadcast: bitwiseBroadcastRel,
  BitwiseNot: bitwiseNotRel,
  FixedPointMultiply: fixedPointMultiplyRel,
  Reinterpret: reinterpretRel,
};
