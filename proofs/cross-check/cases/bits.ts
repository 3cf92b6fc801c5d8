// Cross-check sweep cases for the bit-level family (relations/bits.rules): the
// elementwise sweeps with integer operands, plus the dtypes each relation rejects.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, ALL_SHAPES, type CaseGenerator } from '../case-kit.js';
import { broadcast, identity } from './elemwise.js';

/** The case with every float32 operand turned into `dtype`. */
function withDtype(c: TypeofRequest, dtype: string): TypeofRequest {
  return { ...c, args: c.args.map((a) => a.replaceAll('float32', dtype)) };
}

/** The binary bit operators: the broadcasting sweep on int32, and per dtype pair (int, uint, float, bool). */
function bitwiseBroadcast(op: OpInfo): TypeofRequest[] {
  const out = broadcast(op).map((c) => withDtype(c, 'int32'));
  const dtypes = ['int8', 'uint8', 'int64', 'uint32', 'float32', 'float16', 'bool'];
  for (const a of dtypes) for (const b of dtypes) out.push(call(op.name, [tensor([2, 3], a), tensor([3], b)]));
  // a float operand beside an unknown one is rejected at once
  out.push(call(op.name, [tensor([3], 'float32'), '_']), call(op.name, ['_', tensor([3], 'bool')]), call(op.name, ['_', tensor([3], 'int16')]));
  return out;
}

/** bitwise_not: the unary sweep on int32 and uint8, and the other dtypes. */
function bitwiseNot(op: OpInfo): TypeofRequest[] {
  const out = [...identity(op).map((c) => withDtype(c, 'int32')), ...ALL_SHAPES.map((s) => call(op.name, [tensor(s, 'uint8')]))];
  for (const d of ['float32', 'float64', 'bfloat16', 'bool', 'int16', 'uint64']) out.push(call(op.name, [tensor([2, 3], d)]));
  return out;
}

function fixedPointMultiply(op: OpInfo): TypeofRequest[] {
  const attrs = { multiplier: 1395864371, shift: -3 };
  const out: TypeofRequest[] = identity(op).map((c) => ({ ...withDtype(c, 'int32'), attrs }));
  for (const d of ['float32', 'int8', 'int64', 'uint32', 'bool']) out.push(call(op.name, [tensor([2, 3], d)], attrs));
  out.push(call(op.name, [tensor([2, 3], 'int32')], { multiplier: 7 }), call(op.name, [tensor([2, 3], 'int32')], { multiplier: 1 << 30, shift: 2 }));
  return out;
}

/** reinterpret: every pair of the table's dtypes, shapes, unknown data, a tuple, dtypes outside the table. */
function reinterpret(op: OpInfo): TypeofRequest[] {
  const dtypes = ['bool', 'int8', 'uint8', 'int16', 'float16', 'bfloat16', 'int32', 'uint32', 'float32', 'int64', 'float64'];
  const out: TypeofRequest[] = [];
  for (const from of dtypes) for (const to of dtypes) out.push(call(op.name, [tensor([2, 3], from)], { dtype: to }));
  for (const s of ALL_SHAPES) out.push(call(op.name, [tensor(s)], { dtype: 'int32' }));
  for (const dtype of ['int4', 'float32x4', '', 'int32']) out.push(call(op.name, ['_'], { dtype }));
  out.push(
    call(op.name, [tuple([tensor([3])])], { dtype: 'int32' }),
    call(op.name, [tensor([2, '_'], 'int64')], { dtype: 'float64' }),
    call(op.name, [tensor([3])]),
  );
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  BitwiseBroadcast: bitwiseBroadcast,
  BitwiseNot: bitwiseNot,
  FixedPointMultiply: fixedPointMultiply,
  Reinterpret: reinterpret,
};
