// Reference executors for relations/index-tensors.rules: strided_set and adv_index,
// each computed on concrete tensors.
//
// strided_set reads begin, end and strides as flat lists of integers (the random
// inputs are in [0, 4)); an axis they do not cover is taken whole, a stride of 0
// counts as 1, and v's elements are read in order, wrapping (its fit to the slice
// depends on those values, which no type shows). adv_index clips each index into
// its axis and refuses what cannot be read: fewer than one index, more indices than
// data has axes, non-integer indices, index shapes that do not broadcast, an index
// into an axis of size 0.
import { type Executor, type Stricter, dtypeOutsideTable } from '../executor.js';
import { type NDArray, type Value, asTensor, asTuple, build, isIntDtype, refuse } from '../tensor.js';

/** Whether position x of an axis of size n lies in the slice begin:end:stride. */
function inSlice(x: number, n: number, begin: number | undefined, end: number | undefined, stride: number | undefined): number | null {
  const s = stride === undefined || Math.trunc(stride) === 0 ? 1 : Math.trunc(stride);
  const b = begin === undefined ? (s > 0 ? 0 : n - 1) : Math.trunc(begin);
  const e = end === undefined ? (s > 0 ? n : -1) : Math.trunc(end);
  const k = (x - b) / s;
  if (!Number.isInteger(k) || k < 0) return null;
  return (s > 0 ? x < e : x > e) ? k : null;
}

const stridedSet: Executor = (args) => {
  if (args.length !== 5) refuse(`expected 5 arguments (data, v, begin, end, strides), got ${args.length}`);
  const [data, v, begin, end, strides] = ['data', 'v', 'begin', 'end', 'strides'].map((n, i) => asTensor(args[i], n)) as NDArray[];
  let written = 0;
  return data!.map((x, idx) => {
    const ks = idx.map((p, a) => inSlice(p, data!.shape[a]!, begin!.data[a], end!.data[a], strides!.data[a]));
    if (ks.some((k) => k === null) || v!.size === 0) return x;
    return v!.data[written++ % v!.size]!;
  });
};

/** numpy broadcasting of index shapes (aligned at the right); a refusal when they do not broadcast. */
function broadcastAll(shapes: readonly (readonly number[])[]): number[] {
  const rank = Math.max(...shapes.map((s) => s.length));
  return Array.from({ length: rank }, (_, i) => {
    const dims = shapes.map((s) => s[s.length - rank + i] ?? 1).filter((d) => d !== 1);
    if (dims.some((d) => d !== dims[0])) refuse(`index shapes ${shapes.map((s) => `[${s.join(', ')}]`).join(', ')} do not broadcast`);
    return dims[0] ?? 1;
  });
}

const advIndex: Executor = (args) => {
  if (args.length !== 1) refuse(`expected 1 argument (inputs), got ${args.length}`);
  const [data, ...indices] = asTuple(args[0], 'inputs') as NDArray[];
  if (data === undefined || indices.length === 0) refuse('adv_index needs data and at least one index');
  if (indices.length > data.rank) refuse(`${indices.length} indices for data of rank ${data.rank}`);
  for (const t of indices) if (!isIntDtype(t.dtype)) refuse(`indices of dtype ${t.dtype} cannot address elements`);
  const b = broadcastAll(indices.map((t) => t.shape));
  const k = indices.length;
  return build([...b, ...data.shape.slice(k)], data.dtype, (idx) => {
    const pos = indices.map((t, a) => {
      const n = data.shape[a]!;
      if (n === 0) refuse(`an index into axis ${a} of size 0`);
      const at = idx.slice(b.length - t.rank, b.length).map((x, j) => (t.shape[j] === 1 ? 0 : x));
      return Math.min(Math.max(Math.trunc(t.get(at)), 0), n - 1);
    });
    return data.get([...pos, ...idx.slice(b.length)]);
  });
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  strided_set: stridedSet,
  adv_index: advIndex,
};

/** Beyond what the executors refuse (see the header), adv_index rejects integer index dtypes outside its table. */
export const STRICTER: Readonly<Record<string, Stricter>> = {
  adv_index: {
    reason: 'integer dtypes outside the table int8-int64, uint8-uint64 (e.g. int4) are rejected by the relation; the reference computes in them',
    covers: (args, attrs) => dtypeOutsideTable(Array.isArray(args[0]) ? (args[0] as readonly Value[]) : args, attrs),
  },
};
