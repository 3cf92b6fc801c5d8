// Reference executors for relations/coordinates.rules: gather_nd, scatter_nd and
// reverse_sequence, each computed on concrete tensors.
//
// A coordinate vector is read down indices' first axis; its values are clipped into
// range (the random integer inputs are in [0, 4)). What cannot be addressed is
// refused: coordinate vectors into an axis of size 0, indices of a non-integer dtype, coordinate vectors longer than the data
// has dims, batch dims or update dims that do not line up with the data's, a
// seq_lengths that is not one integer per batch element, an axis out of range.
import type { Executor, Stricter } from '../executor.js';
import { type NDArray, type Value, asTensor, build, fitDtype, forEachIndex, isIntDtype, refuse } from '../tensor.js';

function ndArgs(args: readonly Value[], names: readonly string[]): NDArray[] {
  if (args.length !== names.length) refuse(`expected ${names.length} arguments (${names.join(', ')}), got ${args.length}`);
  return names.map((n, i) => asTensor(args[i], n));
}

const clip = (x: number, n: number): number => Math.min(Math.max(Math.trunc(x), 0), n - 1);

function ndIndices(indices: NDArray): number {
  if (!isIntDtype(indices.dtype)) refuse(`indices of dtype ${indices.dtype} cannot address elements`);
  if (indices.rank === 0) refuse('indices must have rank >= 1');
  return indices.shape[0]!;
}

/** Coordinate vectors to follow, into an axis with nothing to address: a refusal. */
function ndNothingThere(indices: NDArray, addressed: readonly number[]): void {
  const vectors = indices.shape.slice(1).reduce((a, d) => a * d, 1);
  if (vectors > 0 && addressed.includes(0)) refuse('coordinate vectors address an axis of size 0');
}

function sameDims(a: readonly number[], b: readonly number[], what: string): void {
  if (a.length !== b.length || a.some((d, i) => d !== b[i])) refuse(`${what} do not line up: [${a.join(', ')}] vs [${b.join(', ')}]`);
}

/** The data position of coordinate vector `y` (indices[:, y]), after `lead` leading coordinates. */
function ndPosition(data: NDArray, indices: NDArray, y: readonly number[], lead: readonly number[], m: number): number[] {
  const pos = [...lead];
  for (let j = 0; j < m; j++) {
    pos.push(clip(indices.get([j, ...y]), data.shape[lead.length + j]!));
  }
  return pos;
}

const gatherND: Executor = (args, attrs) => {
  const [data, indices] = ndArgs(args, ['data', 'indices']) as [NDArray, NDArray];
  const m = ndIndices(indices);
  const b = Number(attrs['batch_dims'] ?? 0);
  if (b > indices.rank - 1) refuse(`batch_dims ${b} exceeds the dims of indices after the first`);
  if (m + b > data.rank) refuse(`coordinate vectors of ${m} after ${b} batch dims exceed data's rank ${data.rank}`);
  ndNothingThere(indices, data.shape.slice(b, b + m));
  sameDims(data.shape.slice(0, b), indices.shape.slice(1, 1 + b), 'the batch dims of data and indices');
  const ys = indices.shape.slice(1);
  return build([...ys, ...data.shape.slice(m + b)], data.dtype, (idx) => {
    const y = idx.slice(0, ys.length);
    return data.get([...ndPosition(data, indices, y, y.slice(0, b), m), ...idx.slice(ys.length)]);
  });
};

const scatterND: Executor = (args, attrs) => {
  const [data, indices, updates] = ndArgs(args, ['data', 'indices', 'updates']) as [NDArray, NDArray, NDArray];
  const m = ndIndices(indices);
  if (m > data.rank) refuse(`coordinate vectors of ${m} exceed data's rank ${data.rank}`);
  ndNothingThere(indices, data.shape.slice(0, m));
  const ys = indices.shape.slice(1);
  sameDims(updates.shape, [...ys, ...data.shape.slice(m)], 'updates and indices.shape[1:] ++ data.shape[M:]');
  const mode = String(attrs['mode'] ?? 'update');
  const combine: Record<string, (a: number, u: number) => number> = {
    update: (_, u) => u,
    add: (a, u) => a + u,
    mul: (a, u) => a * u,
    min: Math.min,
    max: Math.max,
  };
  const f = combine[mode];
  if (f === undefined) refuse(`unknown mode ${mode}`);
  const out = data.map((x) => x);
  forEachIndex(updates.shape, (idx) => {
    const pos = [...ndPosition(data, indices, idx.slice(0, ys.length), [], m), ...idx.slice(ys.length)];
    out.set(pos, fitDtype(f(out.get(pos), updates.get(idx)), data.dtype));
  });
  return out;
};

function ndAxis(axis: unknown, rank: number, what: string): number {
  const a = Number(axis);
  if (!Number.isInteger(a) || a < -rank || a >= rank) refuse(`${what} ${String(axis)} is out of range for rank ${rank}`);
  return a < 0 ? a + rank : a;
}

const reverseSequence: Executor = (args, attrs) => {
  const [data, lengths] = ndArgs(args, ['data', 'seq_lengths']) as [NDArray, NDArray];
  if (!isIntDtype(lengths.dtype) || lengths.rank !== 1) refuse('seq_lengths must be a 1-D integer tensor');
  const batch = ndAxis(attrs['batch_axis'] ?? 0, data.rank, 'batch_axis');
  const seq = ndAxis(attrs['seq_axis'] ?? 1, data.rank, 'seq_axis');
  if (lengths.shape[0] !== data.shape[batch]) refuse(`seq_lengths has ${lengths.shape[0]} elements for a batch axis of ${data.shape[batch]}`);
  return build(data.shape, data.dtype, (idx) => {
    const n = Math.min(Math.max(lengths.get([idx[batch]!]), 0), data.shape[seq]!);
    const at = idx[seq]!;
    return data.get(idx.map((x, d) => (d === seq && at < n ? n - 1 - at : x)));
  });
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  gather_nd: gatherND,
  scatter_nd: scatterND,
  reverse_sequence: reverseSequence,
};

/** The relations reject exactly what the executors refuse (see the header). */
export const STRICTER: Readonly<Record<string, Stricter>> = {};
