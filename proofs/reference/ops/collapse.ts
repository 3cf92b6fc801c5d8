// Reference executors for relations/collapse.rules: broadcast_to_like repeats
// data along the axes where it has size 1 (or that it lacks); collapse_sum_like and
// collapse_sum_to add up the elements that such a broadcast would have repeated.
//
// They refuse shapes that do not broadcast the needed way (a dim neither 1 nor equal,
// more dims on the side that must have fewer) and operands of two dtypes.
import type { Executor, Stricter } from '../executor.js';
import { type NDArray, type Value, asTensor, build, fitDtype, forEachIndex, refuse } from '../tensor.js';

function blArgs(args: readonly Value[], names: readonly string[]): NDArray[] {
  if (args.length !== names.length) refuse(`expected ${names.length} arguments (${names.join(', ')}), got ${args.length}`);
  return names.map((n, i) => asTensor(args[i], n));
}

/** Refuses unless `small` broadcasts to `big` (aligned at the right). */
function broadcastsTo(small: readonly number[], big: readonly number[]): void {
  const ok = small.length <= big.length && small.every((d, i) => d === 1 || d === big[big.length - small.length + i]);
  if (!ok) refuse(`[${small.join(', ')}] does not broadcast to [${big.join(', ')}]`);
}

/** The index of `small` that index `idx` of the broadcast shape reads. */
const readAt = (small: readonly number[], idx: readonly number[]): number[] => small.map((d, i) => (d === 1 ? 0 : idx[idx.length - small.length + i]!));

/** Sums data into `shape` (which broadcasts to data's shape). */
function collapse(data: NDArray, shape: readonly number[]): NDArray {
  broadcastsTo(shape, data.shape);
  const out = build(shape, data.dtype, () => 0);
  forEachIndex(data.shape, (idx) => {
    const at = readAt(shape, idx);
    out.set(at, fitDtype(out.get(at) + data.get(idx), data.dtype));
  });
  return out;
}

function sameDtype(a: NDArray, b: NDArray): void {
  if (a.dtype !== b.dtype) refuse(`the operands have two dtypes: ${a.dtype} and ${b.dtype}`);
}

const broadcastToLike: Executor = (args) => {
  const [data, like] = blArgs(args, ['data', 'broadcast_type']) as [NDArray, NDArray];
  sameDtype(data, like);
  broadcastsTo(data.shape, like.shape);
  return build(like.shape, data.dtype, (idx) => data.get(readAt(data.shape, idx)));
};

const collapseSumLike: Executor = (args) => {
  const [data, like] = blArgs(args, ['data', 'collapse_type']) as [NDArray, NDArray];
  sameDtype(data, like);
  return collapse(data, like.shape);
};

const collapseSumTo: Executor = (args, attrs) => {
  const [data] = blArgs(args, ['data']) as [NDArray];
  return collapse(data, (attrs['shape'] as number[] | undefined) ?? []);
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  broadcast_to_like: broadcastToLike,
  collapse_sum_like: collapseSumLike,
  collapse_sum_to: collapseSumTo,
};

/** The relations reject exactly what the executors refuse (see the header). */
export const STRICTER: Readonly<Record<string, Stricter>> = {};
