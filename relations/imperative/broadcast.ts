// Broadcasting relations: Broadcast (add, subtract, multiply, divide, power,
// maximum, minimum, floor_divide, floor_mod, mod, logical_and, logical_or,
// logical_xor: the operands' dtype), BroadcastCompare (equal, not_equal, less,
// less_equal, greater, greater_equal: bool result) and Where (condition, x, y).
// TVM registers the logical operators with BroadcastRel too: their operands are
// not required to be bool.
//
// As in TVM (type_relations.cc, BroadcastRel / ConcreteBroadcast; transform.cc,
// WhereRel): both operands must be tensors; their dtypes must agree (here: are
// unified, so a dtype hole on one side is inferred from the other); shapes are
// aligned at the right; per dimension: 1 → the other; Any → the other; equal →
// it; else an error. Where broadcasts x with y, then the condition with that; the
// result has x's dtype; the condition's dtype is not constrained.
//
// Deviations from TVM (see `broadcastDim` in common.ts):
//  - a dimension hole against a dimension provably different from 1 gives that
//    dimension, against 1 (or itself) the hole; other unknown cases wait (TVM
//    has no dimension holes); while any dimension waits, no partial result is
//    assigned (where: the condition is not looked at until x with y is decided);
//  - symbolic dimensions that are neither provably equal nor provably
//    incompatible (`n` vs `5`, `n` vs `m`) make the relation WAIT (the result
//    dimension stays open) instead of failing as TVM does; `n + 2` vs `1 + n + 1`
//    is accepted (canonical forms), `n + 2` vs `n` is an error.

import type { IType, TensorType } from './types.js';
import type { RelationFn, RelError, Reporter } from './relation.js';
import { broadcastShapes, expectTensor } from './common.js';
import { isError } from './relation.js';
import { tensorType } from './types.js';

/** A check of one operand, run as soon as it is a tensor (before waiting for the other): an error or null. */
export type OperandCheck = (r: Reporter, t: TensorType, name: string) => RelError | null;

/** Both arguments as tensors, or 'wait' / the first error (errors win over waiting). */
function tensors(r: Reporter, args: readonly IType[], names: readonly string[], check?: OperandCheck): TensorType[] | 'wait' | RelError {
  const ts = args.map((a, i) => {
    const t = expectTensor(r, a, names[i]!);
    return check === undefined || t === 'wait' || isError(t) ? t : (check(r, t, names[i]!) ?? t);
  });
  const err = ts.find(isError);
  if (err !== undefined) return err;
  if (ts.some((t) => t === 'wait')) return r.wait(`the types of ${names.join(' and ')} are not known yet`);
  return ts as TensorType[];
}

/** numpy broadcasting of lhs and rhs, each checked by `check` when given; a bool result or their dtype. */
export function broadcastRelation(boolResult: boolean, check?: OperandCheck): RelationFn {
  return (args, out, _attrs, r) => {
    const ts = tensors(r, args, ['lhs', 'rhs'], check);
    if (!Array.isArray(ts)) return ts;
    const [lhs, rhs] = ts as [TensorType, TensorType];
    const e = r.assignDtype(lhs.dtype, rhs.dtype, 'the dtypes of lhs and rhs differ');
    if (e) return e;
    const b = broadcastShapes(r, lhs.shape, rhs.shape);
    if (isError(b)) return b;
    // an undecided dimension: no partial result (the rules give none either)
    if (b.wait !== null) return r.wait(b.wait);
    const dtype = boolResult ? 'bool' : (r.resolve(lhs) as TensorType).dtype;
    const built = tensorType(b.shape, dtype);
    return r.assign(out, built, 'the result') ?? 'done';
  };
}

export const broadcastRel: RelationFn = broadcastRelation(false);
export const broadcastCompareRel: RelationFn = broadcastRelation(true);

export const whereRel: RelationFn = (args, out, _attrs, r) => {
  // x and y are checked (dtypes unified, shapes broadcast) before the condition is known
  const [c0, x0, y0] = (['condition', 'x', 'y'] as const).map((n, i) => expectTensor(r, args[i]!, n));
  const err = [c0, x0, y0].find(isError);
  if (err !== undefined) return err;
  if (x0 === 'wait' || y0 === 'wait') return r.wait('the types of x and y are not known yet');
  const [x, y] = [x0 as TensorType, y0 as TensorType];
  const e = r.assignDtype(x.dtype, y.dtype, 'the dtypes of x and y differ');
  if (e) return e;
  const xy = broadcastShapes(r, x.shape, y.shape);
  if (isError(xy)) return xy;
  // an undecided dimension of x with y: the condition is checked once it is decided
  if (xy.wait !== null) return r.wait(xy.wait);
  if (c0 === 'wait') return r.wait('the type of condition is not known yet');
  const cond = c0 as TensorType;
  const all = broadcastShapes(r, cond.shape, xy.shape);
  if (isError(all)) return all;
  if (all.wait !== null) return r.wait(all.wait);
  const dtype = (r.resolve(x) as TensorType).dtype;
  return r.assign(out, tensorType(all.shape, dtype), 'the result') ?? 'done';
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Broadcast: broadcastRel,
  BroadcastCompare: broadcastCompareRel,
  Where: whereRel,
};
