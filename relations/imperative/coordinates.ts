// Relations after TVM's GatherNDRel, ScatterNDRel and ReverseSequenceRel
// (src/relay/op/tensor/transform.cc): GatherND, ScatterND, ReverseSequence.
//
//   GatherND(data, indices; batch_dims B, index_rank): indices (M, Y_0..Y_{K-1}),
//     M + B <= rank(data), Y_i = data.shape[i] for i < B; Tensor[(Y_0..Y_{K-1}) ++
//     data.shape[B + M:], data.dtype].
//   ScatterND(data, indices, updates; mode): indices (M, Y_0..Y_{K-1}), M <=
//     rank(data), updates (Y_0..Y_{K-1}) ++ data.shape[M:]; result := data's type.
//   ReverseSequence(data, seq_lengths; seq_axis, batch_axis): seq_lengths is a 1-D
//     integer tensor of data.shape[batch_axis] elements; result := data.
//
// Deviations from TVM:
//  - the first dim of indices (M) must be a constant (TVM's ICHECK): an error when
//    it is symbolic or Any, a wait while it is a hole;
//  - gather_nd: indices must have an integer dtype, and batch_dims <= K;
//  - scatter_nd: updates must have rank K + rank(data) - M;
//  - provably non-empty coordinate vectors that address a data axis of provably
//    size 0 are an error (nothing to read or write there);
//  - dims that must be equal (TVM's AssertEQ / Assert) are errors when they
//    provably differ, residual assumptions when symbolic and undecided; a hole
//    among them makes the relation wait once the result is assigned;
//  - every relation checks what is known of each argument before waiting.

import type { IDim, TensorType } from './types.js';
import type { RelationFn, RelError, Reporter } from './relation.js';
import { Pending, compareDims, dProduct, expectTensors, finish, getInt } from './common.js';
import { isError } from './relation.js';
import { intDim, printDim, printType } from './types.js';

const ND_INT_DTYPES: ReadonlySet<string> = new Set(['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64']);

const ndKnown = (d: IDim): boolean => d.kind !== 'hole' && d.kind !== 'any' && d.kind !== 'open';

function ndIntDtype(r: Reporter, t: TensorType | 'wait', name: string): RelError | null {
  if (t === 'wait' || typeof t.dtype !== 'string' || ND_INT_DTYPES.has(t.dtype)) return null;
  return r.fail(`${name} must have an integer dtype, got ${printType(t)}`);
}

/** The length M of the coordinate vectors (indices' first dim): a number, 'wait' while a hole, or an error. */
function ndVectorLength(r: Reporter, indices: TensorType | 'wait'): number | 'wait' | RelError {
  if (indices === 'wait') return 'wait';
  const m = indices.shape[0];
  if (m === undefined) return r.fail('indices must have rank >= 1 (the coordinate vectors along its first axis)');
  if (m.kind === 'int') return m.value;
  if (m.kind === 'hole') return 'wait';
  return r.fail(`the first dim of indices must be a constant, got ${printDim(m)}`);
}

/** An error when provably non-empty coordinate vectors address a data axis of provably size 0. */
function ndEmptyAxis(r: Reporter, indices: TensorType, addressed: readonly IDim[]): RelError | null {
  if (compareDims(dProduct(indices.shape.slice(1)), intDim(0), '!=') !== true) return null;
  if (!addressed.some((d) => compareDims(d, intDim(0), '==') === true)) return null;
  return r.fail(`indices ${printType(indices)} address an axis of size 0`);
}

/** Pairwise equality of dims (errors, residuals, or pending on holes). */
function ndSameDims(r: Reporter, xs: readonly IDim[], ys: readonly IDim[], what: string, pending: Pending): RelError | null {
  for (let i = 0; i < xs.length; i++) {
    const [x, y] = [xs[i]!, ys[i]!];
    const e = pending.check(r.require(x, '==', y, `${what} differ: ${printDim(x)} vs ${printDim(y)}`), 'dims not known yet');
    if (e) return e;
  }
  return null;
}

export const gatherNDRel: RelationFn = (args, out, attrs, r) => {
  const ts = expectTensors(r, args, ['data', 'indices']);
  if (isError(ts)) return ts;
  const [data, indices] = ts as [TensorType | 'wait', TensorType | 'wait'];
  const m = ndVectorLength(r, indices);
  if (isError(m)) return m;
  const de = ndIntDtype(r, indices, 'indices');
  if (de) return de;
  const b = getInt(attrs, 'batch_dims');
  if (indices !== 'wait' && b > indices.shape.length - 1)
    return r.fail(`batch_dims ${b} exceeds the ${indices.shape.length - 1} dims of indices after the first`);
  if (data === 'wait' || indices === 'wait' || m === 'wait') return r.wait('the types of data and indices are not known yet');
  if (m + b > data.shape.length)
    return r.fail(`indices ${printType(indices)} address ${m} dims after ${b} batch dims, more than data's rank ${data.shape.length}`);
  const ee = ndEmptyAxis(r, indices, data.shape.slice(b, b + m));
  if (ee) return ee;
  const pending = new Pending();
  const e = ndSameDims(r, data.shape.slice(0, b), indices.shape.slice(1, 1 + b), 'batch dims of data and indices', pending);
  if (e) return e;
  const built: TensorType = { kind: 'tensor', shape: [...indices.shape.slice(1), ...data.shape.slice(m + b)], dtype: data.dtype };
  return r.assign(out, built, 'the result') ?? finish(r, pending, built);
};

export const scatterNDRel: RelationFn = (args, out, _attrs, r) => {
  const ts = expectTensors(r, args, ['data', 'indices', 'updates']);
  if (isError(ts)) return ts;
  const [data, indices, updates] = ts as [TensorType | 'wait', TensorType | 'wait', TensorType | 'wait'];
  const m = ndVectorLength(r, indices);
  if (isError(m)) return m;
  const de = ndIntDtype(r, indices, 'indices');
  if (de) return de;
  if (data !== 'wait' && typeof m === 'number' && m > data.shape.length) return r.fail(`indices address ${m} dims, more than data's rank ${data.shape.length}`);
  if (data !== 'wait' && indices !== 'wait' && typeof m === 'number') {
    const ee = ndEmptyAxis(r, indices, data.shape.slice(0, m));
    if (ee) return ee;
  }
  // a provable clash of updates with indices is reported before data is known (as the rules do)
  if (indices !== 'wait' && updates !== 'wait') {
    for (const [i, x] of updates.shape.slice(0, indices.shape.length - 1).entries()) {
      const y = indices.shape[i + 1]!;
      if (ndKnown(x) && ndKnown(y) && compareDims(x, y, '!=') === true) return r.fail(`updates and indices differ: ${printDim(x)} vs ${printDim(y)}`);
    }
  }
  if (data === 'wait' || indices === 'wait' || updates === 'wait' || m === 'wait') return r.wait('the types of data, indices and updates are not known yet');
  const k = indices.shape.length - 1;
  const rank = k + data.shape.length - m;
  if (updates.shape.length !== rank) return r.fail(`updates ${printType(updates)} must have rank ${rank} (indices.shape[1:] ++ data.shape[${m}:])`);
  const pending = new Pending();
  const e =
    ndSameDims(r, updates.shape.slice(0, k), indices.shape.slice(1), 'updates and indices', pending) ??
    ndSameDims(r, updates.shape.slice(k), data.shape.slice(m), 'updates and data in a trailing dim', pending);
  if (e) return e;
  const built: TensorType = { kind: 'tensor', shape: data.shape, dtype: data.dtype };
  return r.assign(out, built, 'the result') ?? finish(r, pending, built);
};

function ndAxis(r: Reporter, axis: number, rank: number, name: string): number | RelError {
  if (axis < -rank || axis >= rank) return r.fail(`${name} ${axis} is out of range for a tensor of rank ${rank}`);
  return axis < 0 ? axis + rank : axis;
}

export const reverseSequenceRel: RelationFn = (args, out, attrs, r) => {
  const ts = expectTensors(r, args, ['data', 'seq_lengths']);
  if (isError(ts)) return ts;
  const [data, lengths] = ts as [TensorType | 'wait', TensorType | 'wait'];
  if (lengths !== 'wait' && lengths.shape.length !== 1) return r.fail(`seq_lengths must be 1-D, got ${printType(lengths)}`);
  const de = ndIntDtype(r, lengths, 'seq_lengths');
  if (de) return de;
  let batch: number | null = null;
  if (data !== 'wait') {
    const b = ndAxis(r, getInt(attrs, 'batch_axis'), data.shape.length, 'batch_axis');
    if (isError(b)) return b;
    const s = ndAxis(r, getInt(attrs, 'seq_axis'), data.shape.length, 'seq_axis');
    if (isError(s)) return s;
    batch = b;
  }
  if (data === 'wait' || lengths === 'wait' || batch === null) return r.wait('the types of data and seq_lengths are not known yet');
  const pending = new Pending();
  const [x, y] = [lengths.shape[0]!, data.shape[batch]!];
  const e = pending.check(r.require(x, '==', y, `seq_lengths has ${printDim(x)} elements for a batch axis of size ${printDim(y)}`), 'dims not known yet');
  if (e) return e;
  return r.assign(out, data, 'the result') ?? finish(r, pending, data);
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  GatherND: gatherNDRel,
  ScatterND: scatterNDRel,
  ReverseSequence: reverseSequenceRel,
};
