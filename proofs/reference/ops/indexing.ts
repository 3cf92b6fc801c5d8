// Reference executors for the indexing family (declared in relations/indexing.rules): each operator
// computed on concrete tensors, element by element.
//
// Index values are clipped into range (the random integer inputs are in [0, 4); TVM
// leaves out-of-range indices undefined), but an index position that does not exist
// in the data (an indices dim larger than the data's, an axis of size 0 to read from)
// makes the operator refuse: there is nothing to read or write there. gather and
// scatter_elements need integer indices (TVM's computes index with them); topk needs
// k <= the axis size (it cannot produce more elements than the axis has).
import type { Executor, Stricter } from '../executor.js';
import { type NDArray, type Value, asTensor, build, fitDtype, forEachIndex, isIntDtype, isVectorOrSubByte, refuse } from '../tensor.js';

function ixArgs(args: readonly Value[], names: readonly string[]): NDArray[] {
  if (args.length !== names.length) refuse(`expected ${names.length} arguments (${names.join(', ')}), got ${args.length}`);
  return names.map((n, i) => asTensor(args[i], n));
}

function ixAxis(axis: unknown, rank: number): number {
  const a = Number(axis);
  if (!Number.isInteger(a) || a < -rank || a >= rank) refuse(`axis ${String(axis)} is out of range for rank ${rank}`);
  return a < 0 ? a + rank : a;
}

function ixScalar(t: NDArray, what: string): number {
  if (t.rank !== 0) refuse(`${what} must be a scalar, got shape [${t.shape.join(', ')}]`);
  return t.data[0]!;
}

const clip = (x: number, n: number): number => Math.min(Math.max(Math.trunc(x), 0), n - 1);

/**
 * For gather / scatter_elements: the data position that indices position `idx`
 * addresses (its own coordinates, with the axis one read from indices), or a refusal.
 */
function ixTarget(data: NDArray, indices: NDArray, idx: readonly number[], axis: number): number[] {
  return idx.map((x, d) => {
    if (d === axis) {
      if (data.shape[d] === 0) refuse(`axis ${axis} of the data has size 0: no element to address`);
      return clip(indices.get(idx), data.shape[d]!);
    }
    if (x >= data.shape[d]!) refuse(`indices position [${idx.join(', ')}] is outside the data [${data.shape.join(', ')}] in dim ${d}`);
    return x;
  });
}

function ixIndexChecks(data: NDArray, indices: NDArray): void {
  if (!isIntDtype(indices.dtype)) refuse(`indices must have an integer dtype, got ${indices.dtype}`);
  if (indices.rank !== data.rank) refuse(`indices must have the data's rank ${data.rank}, got ${indices.rank}`);
}

const oneHot: Executor = (args, attrs) => {
  const [indices, on, off] = ixArgs(args, ['indices', 'on_value', 'off_value']) as [NDArray, NDArray, NDArray];
  const onV = ixScalar(on, 'on_value');
  const offV = ixScalar(off, 'off_value');
  const depth = Number(attrs.depth);
  if (!(depth >= 1)) refuse('depth must be >= 1');
  const axis = ixAxis(attrs.axis ?? -1, indices.rank + 1);
  const dtype = String(attrs.dtype);
  const shape = [...indices.shape.slice(0, axis), depth, ...indices.shape.slice(axis)];
  return build(shape, dtype, (idx) => {
    const at = [...idx.slice(0, axis), ...idx.slice(axis + 1)];
    return fitDtype(indices.get(at) === idx[axis] ? onV : offV, dtype);
  });
};

const sequenceMask: Executor = (args, attrs) => {
  const [data, valid] = ixArgs(args, ['data', 'valid_length']) as [NDArray, NDArray];
  const axis = Number(attrs.axis ?? 0);
  if (axis !== 0 && axis !== 1) refuse(`axis ${axis} must be 0 or 1`);
  if (data.rank < 2) refuse(`data must have rank >= 2, got ${data.rank}`);
  const batch = data.shape[1 - axis]!;
  if (valid.rank !== 1 || valid.shape[0] !== batch) refuse(`valid_length must have shape [${batch}], got [${valid.shape.join(', ')}]`);
  const mask = Number(attrs.mask_value ?? 0);
  return data.map((x, idx) => (idx[axis]! < valid.get([idx[1 - axis]!]) ? x : fitDtype(mask, data.dtype)));
};

const gather: Executor = (args, attrs) => {
  const [data, indices] = ixArgs(args, ['data', 'indices']) as [NDArray, NDArray];
  ixIndexChecks(data, indices);
  const axis = ixAxis(attrs.axis, data.rank);
  return build(indices.shape, data.dtype, (idx) => data.get(ixTarget(data, indices, idx, axis)));
};

const REDUCE: Readonly<Record<string, (old: number, u: number) => number>> = {
  update: (_o, u) => u,
  add: (o, u) => o + u,
  mul: (o, u) => o * u,
  min: (o, u) => Math.min(o, u),
  max: (o, u) => Math.max(o, u),
};

const scatterElements: Executor = (args, attrs) => {
  const [data, indices, updates] = ixArgs(args, ['data', 'indices', 'updates']) as [NDArray, NDArray, NDArray];
  ixIndexChecks(data, indices);
  if (updates.dtype !== data.dtype) refuse(`updates has dtype ${updates.dtype}, data ${data.dtype}`);
  if (updates.rank !== indices.rank || updates.shape.some((d, i) => d !== indices.shape[i])) {
    refuse(`updates [${updates.shape.join(', ')}] must have the shape of indices [${indices.shape.join(', ')}]`);
  }
  const axis = ixAxis(attrs.axis ?? 0, data.rank);
  const reduction = String(attrs.reduction ?? 'update');
  const out = data.map((x) => x);
  // mean: the sum of data and every update that lands there, over their count
  const counts = new Map<number, number>();
  forEachIndex(indices.shape, (idx) => {
    const at = out.offset(ixTarget(data, indices, idx, axis));
    const u = updates.get(idx);
    if (reduction === 'mean') {
      out.data[at] = out.data[at]! + u;
      counts.set(at, (counts.get(at) ?? 1) + 1);
      return;
    }
    const f = REDUCE[reduction];
    if (f === undefined) refuse(`unknown reduction ${reduction}`);
    out.data[at] = fitDtype(f(out.data[at]!, u), data.dtype);
  });
  for (const [at, n] of counts) out.data[at] = fitDtype(out.data[at]! / n, data.dtype);
  return out;
};

const topk: Executor = (args, attrs) => {
  const [data] = ixArgs(args, ['data']) as [NDArray];
  const axis = ixAxis(attrs.axis ?? -1, data.rank);
  const n = data.shape[axis]!;
  const given = Number(attrs.k ?? 1);
  const k = given < 1 ? n : given;
  if (k > n) refuse(`k = ${k} exceeds the axis size ${n}`);
  const ascend = attrs.is_ascend === true;
  const dtype = String(attrs.dtype ?? 'int32');
  // for every line along the axis, the positions of its k first elements in sort order
  const shape = data.shape.map((d, i) => (i === axis ? k : d));
  const order = (idx: readonly number[]): number[] => {
    const line = Array.from({ length: n }, (_, j) => data.get(idx.map((x, d) => (d === axis ? j : x))));
    return line.map((_, j) => j).sort((a, b) => (ascend ? line[a]! - line[b]! : line[b]! - line[a]!) || a - b);
  };
  const values = build(shape, data.dtype, (idx) => data.get(idx.map((x, d) => (d === axis ? order(idx)[x]! : x))));
  const indices = build(shape, dtype, (idx) => fitDtype(order(idx)[idx[axis]!]!, dtype));
  const ret = String(attrs.ret_type ?? 'both');
  if (ret === 'values') return values;
  if (ret === 'indices') return indices;
  if (ret !== 'both') refuse(`unknown ret_type ${ret}`);
  return [values, indices];
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  one_hot: oneHot,
  sequence_mask: sequenceMask,
  gather,
  scatter_elements: scatterElements,
  topk,
};

const DTYPES: Stricter = {
  reason: 'the relation rejects vector and sub-byte dtypes (float32x4, int4) that the catalogue accepts; the executor fills any dtype',
  covers: (_args, attrs) => typeof attrs['dtype'] === 'string' && isVectorOrSubByte(attrs['dtype']),
};

/**
 * Operators whose relation deliberately rejects calls the executor can run,
 * with the reason and the calls it covers: only those divergences are expected.
 */
export const STRICTER: Readonly<Record<string, Stricter>> = {
  one_hot: DTYPES,
  topk: DTYPES,
};
