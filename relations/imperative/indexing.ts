// Indexing relations after TVM's src/relay/op/tensor/transform.cc (OneHotRel,
// SequenceMaskRel, GatherRel, ScatterElementsRel) and src/relay/op/algorithm/topk.cc
// (TopKRel): OneHot, SequenceMask, Gather, ScatterElements, TopK.
//
//   OneHot(indices, on_value, off_value; depth, axis, dtype): indices.shape with
//     depth inserted at axis (-1 = last), dtype = dtype.
//   SequenceMask(data, valid_length; mask_value, axis): result := data;
//     valid_length has shape (data.shape[1 - axis],); axis is 0 or 1.
//   Gather(data, indices; axis): indices of data's rank and an integer dtype;
//     Tensor[indices.shape, data.dtype].
//   ScatterElements(data, indices, updates; axis, reduction): indices and updates
//     of data's rank and the same shape, indices of an integer dtype; result :=
//     Tensor[data.shape, data.dtype].
//   TopK(data; k, axis, ret_type, is_ascend, dtype): the axis dim becomes k (kept
//     when k < 1); values Tensor[.., data.dtype], indices Tensor[.., dtype];
//     ret_type "both" gives the tuple (values, indices).
//
// Deviations from TVM:
//  - OneHot: every axis in [-rank - 1, rank] is normalised against rank + 1 (TVM
//    handles only -1 among negative axes); on_value and off_value must be scalars
//    when known (TVM does not check), the result does not wait for them (the
//    relation stays 'wait' until they are known, to check them).
//  - SequenceMask: data must have rank >= 2; axis not 0/1 is an error, not a
//    crash; valid_length is checked when known (residual when symbolic), the
//    result does not wait for it (TVM crashes when it is not yet a tensor). Like
//    TVM's Assign, an unknown dim of valid_length or of data's batch axis takes
//    the other's value (only an int or symbolic one: never Any).
//  - Gather, ScatterElements: non-empty indices need indices.shape[d] <=
//    data.shape[d] for d != axis, and an axis of size > 0 (TVM reads/writes out
//    of bounds); undecided bounds are residuals; the relation waits while a dim of
//    data or indices is unknown, to check again. ScatterElements also checks the
//    axis and that updates has data's dtype and indices' shape (TVM does none of
//    these), so an unknown dim of updates or indices takes the other's value.
//  - TopK: k <= the axis dimension (TVM does not check; residual when symbolic;
//    the relation waits while that dimension is unknown).
//  - OneHot, TopK: dtypes outside the scalar table (bool, intN, uintN, floatN,
//    bfloat16) are rejected.
//  - Every relation checks what is known of each argument (a tuple where a tensor
//    is expected, a rank, a dtype) before waiting on the others.

import type { IDim, IType, TensorType } from './types.js';
import type { RelationFn, RelError, Reporter } from './relation.js';
import { Pending, compareDims, dProduct, finish, getInt, getString, normAxis } from './common.js';
import { isError } from './relation.js';
import { intDim, printDim, printType, tensorType, tupleType } from './types.js';
import { SCALAR_DTYPES } from '../dtypes.js';

/** The integer dtypes of the rules' int_dtype table (relations/lib.rules). */
const INT_DTYPES: ReadonlySet<string> = new Set(['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64']);

function checkDtype(r: Reporter, dtype: string): RelError | null {
  if (SCALAR_DTYPES.has(dtype)) return null;
  return r.fail(`dtype ${dtype} is not supported (the scalar dtypes bool, intN, uintN, floatN, bfloat16 are)`);
}

/** The argument if it is a tensor, null while it is a hole, an error otherwise. */
function tensorOrNull(r: Reporter, t: IType, name: string): TensorType | null | RelError {
  if (t.kind === 'tensor') return t;
  if (t.kind === 'hole') return null;
  return r.fail(`${name} must be a tensor, got ${printType(t)}`);
}

function checkScalar(r: Reporter, t: TensorType | null, name: string): RelError | null {
  if (t === null || t.shape.length === 0) return null;
  return r.fail(`${name} must be a scalar, got ${printType(t)}`);
}

function checkIndexDtype(r: Reporter, t: TensorType | null): RelError | null {
  if (t === null || typeof t.dtype !== 'string' || INT_DTYPES.has(t.dtype)) return null;
  return r.fail(`indices must have an integer dtype, got ${printType(t)}`);
}

/**
 * The checks shared by gather and scatter_elements once data and indices are known
 * and of one rank, with `axis` normalised: indices.shape[d] <= data.shape[d] for
 * d != axis (residual when undecided), and no elements taken from an axis of size 0;
 * nothing when indices are provably empty. Notes on `pending` when a dim is a hole
 * (the relation waits, to check again once it is known).
 */
function checkIndexShape(r: Reporter, data: TensorType, indices: TensorType, axis: number, verb: string, pending: Pending): RelError | null {
  if ([...data.shape, ...indices.shape].some((d) => d.kind === 'hole')) pending.note('dims of data or indices are not known yet');
  const size = dProduct(indices.shape);
  // empty indices address nothing
  if (compareDims(size, intDim(0), '==') === true) return null;
  const nonEmpty = compareDims(size, intDim(0), '!=') === true;
  for (let d = 0; d < data.shape.length; d++) {
    if (d === axis) continue;
    const x = indices.shape[d]!;
    const y = data.shape[d]!;
    const message = `indices dim ${d} is ${printDim(x)}, larger than the data's ${printDim(y)}`;
    // a bound that fails only matters when the indices are provably non-empty
    if (compareDims(x, y, '<=') === false) {
      if (nonEmpty) return r.fail(message);
      continue;
    }
    const e = pending.check(r.require(x, '<=', y, message), 'dims not known yet');
    if (e) return e;
  }
  if (compareDims(data.shape[axis]!, intDim(0), '==') === true && compareDims(size, intDim(0), '!=') === true) {
    return r.fail(`cannot ${verb} indices ${printType(indices)} along axis ${axis} of size 0`);
  }
  return null;
}

/** Unifies two dims when one is a hole and the other an int or symbolic size (the hole takes its value); nothing otherwise. */
function unifyHoleDim(r: Reporter, a: IDim, b: IDim, what: string): RelError | null {
  const known = (d: IDim): boolean => d.kind !== 'hole' && d.kind !== 'any' && d.kind !== 'open';
  if ((a.kind === 'hole' && known(b)) || (b.kind === 'hole' && known(a))) return r.assignDim(a, b, what);
  return null;
}

// ─── one_hot ─────────────────────────────────────────────────────────────────

export const oneHotRel: RelationFn = (args, out, attrs, r) => {
  const dtype = getString(attrs, 'dtype');
  const names = ['indices', 'on_value', 'off_value'];
  const ts: (TensorType | null)[] = [];
  for (const [i, name] of names.entries()) {
    const t = tensorOrNull(r, args[i]!, name);
    if (isError(t)) return t;
    ts.push(t);
  }
  for (const i of [1, 2]) {
    const e = checkScalar(r, ts[i]!, names[i]!);
    if (e) return e;
  }
  const indices = ts[0]!;
  if (indices !== null) {
    const rank = indices.shape.length + 1;
    const axis = getInt(attrs, 'axis');
    if (axis < -rank || axis >= rank) return r.fail(`axis = ${axis} is out of range for the result of rank ${rank} (must be in [${-rank}, ${rank - 1}])`);
  }
  const de = checkDtype(r, dtype);
  if (de) return de;
  if (indices === null) return r.wait('the type of indices is not known yet');
  const at = normAxis(r, getInt(attrs, 'axis'), indices.shape.length, 'axis', 1);
  if (isError(at)) return at;
  const oshape: IDim[] = [...indices.shape.slice(0, at), intDim(getInt(attrs, 'depth')), ...indices.shape.slice(at)];
  const e = r.assign(out, tensorType(oshape, dtype), 'the result');
  if (e) return e;
  return ts[1] === null || ts[2] === null ? r.wait('on_value and off_value are not known yet') : 'done';
};

// ─── sequence_mask ───────────────────────────────────────────────────────────

export const sequenceMaskRel: RelationFn = (args, out, attrs, r) => {
  const data = tensorOrNull(r, args[0]!, 'data');
  if (isError(data)) return data;
  const valid = tensorOrNull(r, args[1]!, 'valid_length');
  if (isError(valid)) return valid;
  const axis = getInt(attrs, 'axis');
  if (axis !== 0 && axis !== 1) return r.fail(`axis = ${axis} must be 0 or 1`);
  if (data === null) return r.wait('the type of data is not known yet');
  if (data.shape.length < 2) return r.fail(`data must have rank >= 2 ([max_length, batch, ...] or [batch, max_length, ...]), got ${printType(data)}`);
  const batch = data.shape[1 - axis]!;
  const pending = new Pending();
  if (valid !== null) {
    if (valid.shape.length !== 1) return r.fail(`valid_length must have shape (${printDim(batch)},), got ${printType(valid)}`);
    // TVM assigns valid_length := Tensor[(batch,), _]: an unknown dim on one side takes the other's
    const ue = unifyHoleDim(r, valid.shape[0]!, batch, 'valid_length must have the batch size of data');
    if (ue) return ue;
    const e = pending.check(
      r.require(valid.shape[0]!, '==', batch, `valid_length must have shape (${printDim(batch)},), got ${printType(valid)}`),
      'dims not known yet',
    );
    if (e) return e;
  }
  const e = r.assign(out, data, 'the result');
  if (e) return e;
  if (valid === null) return r.wait('the type of valid_length is not known yet');
  return finish(r, pending, data);
};

// ─── gather ──────────────────────────────────────────────────────────────────

export const gatherRel: RelationFn = (args, out, attrs, r) => {
  const data = tensorOrNull(r, args[0]!, 'data');
  if (isError(data)) return data;
  const indices = tensorOrNull(r, args[1]!, 'indices');
  if (isError(indices)) return indices;
  const ie = checkIndexDtype(r, indices);
  if (ie) return ie;
  let axis = 0;
  if (data !== null) {
    const a = normAxis(r, getInt(attrs, 'axis'), data.shape.length, 'axis');
    if (isError(a)) return a;
    axis = a;
  }
  if (data === null || indices === null) return r.wait('the types of data and indices are not known yet');
  if (indices.shape.length !== data.shape.length) return r.fail(`indices must have the rank of data ${printType(data)}, got ${printType(indices)}`);
  const pending = new Pending();
  const ce = checkIndexShape(r, data, indices, axis, 'gather', pending);
  if (ce) return ce;
  const built = tensorType(indices.shape, data.dtype);
  return r.assign(out, built, 'the result') ?? finish(r, pending, built);
};

// ─── scatter_elements ────────────────────────────────────────────────────────

export const scatterElementsRel: RelationFn = (args, out, attrs, r) => {
  const names = ['data', 'indices', 'updates'];
  const ts: (TensorType | null)[] = [];
  for (const [i, name] of names.entries()) {
    const t = tensorOrNull(r, args[i]!, name);
    if (isError(t)) return t;
    ts.push(t);
  }
  const data = ts[0]!;
  let indices = ts[1]!;
  let updates = ts[2]!;
  const ie = checkIndexDtype(r, indices);
  if (ie) return ie;
  let axis = 0;
  if (data !== null) {
    const a = normAxis(r, getInt(attrs, 'axis'), data.shape.length, 'axis');
    if (isError(a)) return a;
    axis = a;
    if (indices !== null && indices.shape.length !== data.shape.length)
      return r.fail(`indices must have the rank of data ${printType(data)}, got ${printType(indices)}`);
    if (updates !== null && updates.shape.length !== data.shape.length)
      return r.fail(`updates must have the rank of data ${printType(data)}, got ${printType(updates)}`);
    if (updates !== null) {
      const e = r.assignDtype(updates.dtype, data.dtype, 'updates must have the dtype of data');
      if (e) return e;
    }
  }
  if (indices !== null && updates !== null) {
    if (indices.shape.length !== updates.shape.length) return r.fail(`updates must have the shape of indices ${printType(indices)}, got ${printType(updates)}`);
    for (let d = 0; d < indices.shape.length; d++) {
      const x = updates.shape[d]!;
      const y = indices.shape[d]!;
      if (compareDims(x, y, '!=') === true)
        return r.fail(`updates must have the shape of indices ${printType(indices)}, got ${printType(updates)} (dim ${d}: ${printDim(x)} vs ${printDim(y)})`);
    }
    // one shape: an unknown dim on one side takes the other's
    for (let d = 0; d < indices.shape.length; d++) {
      const ue = unifyHoleDim(r, updates.shape[d]!, indices.shape[d]!, `updates must have the shape of indices (dim ${d})`);
      if (ue) return ue;
    }
    indices = r.resolve(indices) as TensorType;
    updates = r.resolve(updates) as TensorType;
  }
  const pending = new Pending();
  if (data !== null && indices !== null) {
    const ce = checkIndexShape(r, data, indices, axis, 'scatter', pending);
    if (ce) return ce;
  }
  if (data === null || indices === null || updates === null) return r.wait('the types of data, indices and updates are not known yet');
  // the remaining equalities (symbolic ones) as residual assumptions
  for (let d = 0; d < indices.shape.length; d++) {
    const e = pending.check(
      r.require(updates.shape[d]!, '==', indices.shape[d]!, `updates must have the shape of indices ${printType(indices)}, got ${printType(updates)}`),
      'dims not known yet',
    );
    if (e) return e;
  }
  const built = tensorType(data.shape, data.dtype);
  return r.assign(out, built, 'the result') ?? finish(r, pending, built);
};

// ─── topk ────────────────────────────────────────────────────────────────────

export const topKRel: RelationFn = (args, out, attrs, r) => {
  const data = tensorOrNull(r, args[0]!, 'data');
  if (isError(data)) return data;
  const dtype = getString(attrs, 'dtype');
  let axis = 0;
  if (data !== null) {
    const a = normAxis(r, getInt(attrs, 'axis'), data.shape.length, 'axis');
    if (isError(a)) return a;
    axis = a;
  }
  const k = getInt(attrs, 'k');
  const pending = new Pending();
  if (data !== null && k >= 1) {
    const n = data.shape[axis]!;
    const e = pending.check(r.require(n, '>=', intDim(k), `k = ${k} exceeds the axis dimension ${printDim(n)} of ${printType(data)}`), 'dims not known yet');
    if (e) return e;
  }
  const de = checkDtype(r, dtype);
  if (de) return de;
  if (data === null) return r.wait('the type of data is not known yet');
  const oshape = data.shape.map((d, i) => (i === axis && k >= 1 ? intDim(k) : d));
  const values = tensorType(oshape, data.dtype);
  const indices = tensorType(oshape, dtype);
  const retType = getString(attrs, 'ret_type');
  const result = retType === 'both' ? tupleType([values, indices]) : retType === 'values' ? values : indices;
  return r.assign(out, result, 'the result') ?? finish(r, pending, result);
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  OneHot: oneHotRel,
  SequenceMask: sequenceMaskRel,
  Gather: gatherRel,
  ScatterElements: scatterElementsRel,
  TopK: topKRel,
};
