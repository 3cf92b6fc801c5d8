// Tensor creation after TVM's src/relay/op/tensor/transform.cc (InitOpRel, FullRel,
// FullLikeRel, ArangeRel, MeshgridRel) and unary.cc (zeros_like/ones_like:
// IdentityRel): InitOp, InitLike, Full, FullLike, Arange, Meshgrid.
//
//   InitOp(; shape, dtype): zeros, ones: Tensor[shape, dtype].
//   InitLike(data): zeros_like, ones_like: result := data.
//   Full(fill_value; shape, dtype): fill_value must be a scalar (rank 0);
//     Tensor[shape, dtype], dtype "" = fill_value's dtype.
//   FullLike(data, fill_value): fill_value a scalar (any dtype); result :=
//     Tensor[data.shape, data.dtype].
//   Arange(; start, stop, step, dtype): Tensor[(ceil((stop - start) / step),),
//     dtype] in double precision (ints or floats); stop None means [0, start).
//   Meshgrid(data; indexing): data a tuple of scalars and 1-d tensors of one
//     dtype; N inputs of sizes d1..dN (a scalar is 1) give N tensors of shape
//     (d1, ..., dN), d1 and d2 swapped for "xy".
//
// Deviations from TVM:
//  - InitOp, Full: shape is an attribute (a list of ints >= 0), not an
//    expression; dtypes outside the scalar table (bool, intN, uintN, floatN,
//    bfloat16; no vectors) are rejected.
//  - InitLike: a tuple data is an error (IdentityRel accepts any type); like
//    IdentityRel the result is assigned at once, and the relation waits while
//    data is a hole.
//  - Full, FullLike: wait for fill_value (and data) as TVM does; the rank check
//    of fill_value is made as soon as it is known, whatever the other argument is.
//  - Arange: start, stop and step are attributes, ints or floats (TVM:
//    expressions, possibly dynamic); an empty range gives size 0 (TVM rejects
//    it); step 0 is an error.
//  - Meshgrid: an empty tuple is an error (TVM crashes); every known field is
//    checked (rank <= 1, not a tuple, data.0's dtype) before waiting on holes.

import type { IType, TensorType } from './types.js';
import type { RelationFn, RelError, Reporter } from './relation.js';
import { expectTensor, getFloat, getFloatOrNull, getInts, getString } from './common.js';
import { isError } from './relation.js';
import { intDim, printType, tensorType, tupleType } from './types.js';
import { SCALAR_DTYPES } from '../dtypes.js';

function checkDtype(r: Reporter, dtype: string): RelError | null {
  if (SCALAR_DTYPES.has(dtype)) return null;
  return r.fail(`dtype ${dtype} is not supported (the scalar dtypes bool, intN, uintN, floatN, bfloat16 are)`);
}

/** An error unless the (known) fill value is a scalar tensor; null when it is, or while it is a hole. */
function checkFill(r: Reporter, t: IType): RelError | null {
  if (t.kind === 'hole') return null;
  if (t.kind !== 'tensor') return r.fail(`fill_value must be a scalar tensor, got ${printType(t)}`);
  if (t.shape.length !== 0) return r.fail(`fill_value must be a scalar, got ${printType(t)} of rank ${t.shape.length}`);
  return null;
}

// ─── zeros, ones ─────────────────────────────────────────────────────────────

export const initOpRel: RelationFn = (_args, out, attrs, r) => {
  const dtype = getString(attrs, 'dtype');
  const e = checkDtype(r, dtype);
  if (e) return e;
  return r.assign(out, tensorType(getInts(attrs, 'shape'), dtype), 'the result') ?? 'done';
};

// ─── zeros_like, ones_like ───────────────────────────────────────────────────

export const initLikeRel: RelationFn = (args, out, _attrs, r) => {
  const data = args[0]!;
  if (data.kind === 'tuple') return r.fail(`data must be a tensor, got ${printType(data)}`);
  const e = r.assign(out, data, 'the result');
  if (e) return e;
  return data.kind === 'hole' ? r.wait('the type of data is not known yet') : 'done';
};

// ─── full ────────────────────────────────────────────────────────────────────

export const fullRel: RelationFn = (args, out, attrs, r) => {
  const given = getString(attrs, 'dtype');
  if (given !== '') {
    const e = checkDtype(r, given);
    if (e) return e;
  }
  const bad = checkFill(r, args[0]!);
  if (bad) return bad;
  const fill = expectTensor(r, args[0]!, 'fill_value');
  if (fill === 'wait' || isError(fill)) return fill;
  const dtype = given === '' ? fill.dtype : given;
  return r.assign(out, tensorType(getInts(attrs, 'shape'), dtype), 'the result') ?? 'done';
};

// ─── full_like ───────────────────────────────────────────────────────────────

export const fullLikeRel: RelationFn = (args, out, _attrs, r) => {
  const bad = checkFill(r, args[1]!);
  if (bad) return bad;
  const data = expectTensor(r, args[0]!, 'data');
  if (isError(data)) return data;
  if (data === 'wait' || args[1]!.kind === 'hole') return r.wait('the types of data and fill_value are not known yet');
  return r.assign(out, tensorType(data.shape, data.dtype), 'the result') ?? 'done';
};

// ─── arange ──────────────────────────────────────────────────────────────────

export const arangeRel: RelationFn = (_args, out, attrs, r) => {
  // ints or floats: the length is computed in double precision, as TVM's ArangeRel does
  const start = getFloat(attrs, 'start');
  const stop = getFloatOrNull(attrs, 'stop');
  const step = getFloat(attrs, 'step');
  const dtype = getString(attrs, 'dtype');
  if (step === 0) return r.fail('step must not be 0');
  const e = checkDtype(r, dtype);
  if (e) return e;
  const [lo, hi] = stop === null ? [0, start] : [start, stop];
  const size = Math.max(Math.ceil((hi - lo) / step), 0);
  return r.assign(out, tensorType([intDim(size)], dtype), 'the result') ?? 'done';
};

// ─── meshgrid ────────────────────────────────────────────────────────────────

export const meshgridRel: RelationFn = (args, out, attrs, r) => {
  const t = args[0]!;
  if (t.kind === 'hole') return r.wait('the type of data is not known yet');
  if (t.kind !== 'tuple') return r.fail(`data must be a tuple of tensors, got ${printType(t)}`);
  if (t.fields.length === 0) return r.fail('data must be a non-empty tuple of tensors');
  const first = t.fields[0]!;
  for (const [i, f] of t.fields.entries()) {
    if (f.kind === 'hole') continue;
    if (f.kind !== 'tensor') return r.fail(`data.${i} must be a tensor, got ${printType(f)}`);
    if (f.shape.length > 1) return r.fail(`data.${i} must be a scalar or a 1-d tensor, got ${printType(f)}`);
    if (i > 0 && first.kind === 'tensor' && f.dtype !== first.dtype) {
      return r.fail(`data.${i} has dtype ${String(f.dtype)}, but data.0 has dtype ${String(first.dtype)}`);
    }
  }
  if (t.fields.some((f) => f.kind === 'hole')) return r.wait('the types of some tuple fields are not known yet');
  const fields = t.fields as TensorType[];
  const dims = fields.map((f) => (f.shape.length === 0 ? intDim(1) : f.shape[0]!));
  if (getString(attrs, 'indexing') === 'xy' && dims.length >= 2) [dims[0], dims[1]] = [dims[1]!, dims[0]!];
  const grid = tensorType(dims, first.kind === 'tensor' ? first.dtype : fields[0]!.dtype);
  return r.assign(out, tupleType(fields.map(() => grid)), 'the result') ?? 'done';
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  InitOp: initOpRel,
  InitLike: initLikeRel,
  Full: fullRel,
  FullLike: fullLikeRel,
  Arange: arangeRel,
  Meshgrid: meshgridRel,
};
