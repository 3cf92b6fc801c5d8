// Reference executors for the reduce family (declared in relations/reduce.rules): each operator
// computed on concrete tensors, element by element.
//
// The axes are resolved as TVM's compute does (topi GetRealAxis / GetExcludeAxes):
// None or [] → every axis; an int or a list → those axes (negative from the end;
// out of range → refuse), duplicates removed; exclude → every axis not listed
// (exclude with axis None → refuse: "Cannot set exclude when axis=None"). Then each
// output element folds the input elements that share its kept coordinates: the
// output walks the kept axes (and size-1 stand-ins for the reduced ones with
// keepdims), and every output element walks the reduced axes in row-major order.
//
// As TVM's computes: a rank-0 input of sum, mean, ... is returned as it is (before
// exclude is looked at); argmax/argmin and variance/std refuse a rank-0 input (their
// relations fail on it, so TVM never runs them); variance/std refuse exclude=True
// listing every axis (VarianceCompute: ICHECK_NE(axes.size(), 0)). argmax over no
// axis gives index 0 everywhere (TVM's compute would return the data unchanged,
// which disagrees with its own int32 type).
import type { Executor, Stricter } from '../executor.js';
import { type NDArray, type Value, asTensor, build, fitDtype, forEachIndex, refuse } from '../tensor.js';

/** The reduced axes of a rank-`ndim` input, as TVM's compute resolves them. */
function rdAxes(ndim: number, axis: unknown, exclude: boolean): Set<number> {
  if (axis === null || axis === undefined) {
    if (exclude) refuse('Cannot set exclude when axis=None');
    return new Set(Array.from({ length: ndim }, (_, i) => i));
  }
  const given = typeof axis === 'number' ? [axis] : (axis as number[]);
  if (given.length === 0) return new Set(Array.from({ length: ndim }, (_, i) => i));
  const listed = new Set<number>();
  for (const a of given) {
    if (a < -ndim || a >= ndim) refuse(`axis ${a} is out of range for a tensor of rank ${ndim}`);
    listed.add(a < 0 ? a + ndim : a);
  }
  if (!exclude) return listed;
  return new Set(Array.from({ length: ndim }, (_, i) => i).filter((i) => !listed.has(i)));
}

/**
 * A reduction: `fold` gets the reduced elements of one output position (in
 * row-major order of the reduced axes) and `attrs`; `dtype` gives the result dtype.
 */
function reduction(fold: (xs: number[], attrs: Readonly<Record<string, unknown>>) => number, kind: 'reduce' | 'arg' | 'variance' = 'reduce'): Executor {
  return (args, attrs) => {
    if (args.length !== 1) refuse(`expected 1 argument, got ${args.length}`);
    const x: NDArray = asTensor(args[0], 'data');
    if (x.rank === 0) {
      if (kind !== 'reduce') refuse("a rank-0 input is rejected by TVM's relation");
      // a rank-0 input has no axis to name: TVM's relation refuses any given axis
      const axis = attrs['axis'];
      if (typeof axis === 'number' || (Array.isArray(axis) && axis.length > 0)) rdAxes(0, axis, false);
      return x.map((v) => v);
    }
    const reduced = rdAxes(x.rank, attrs['axis'], attrs['exclude'] === true);
    if (kind === 'variance' && reduced.size === 0) refuse('variance over no axis (exclude lists every axis)');
    const keepdims = attrs['keepdims'] === true;
    const kept = x.shape.map((_, i) => i).filter((i) => !reduced.has(i));
    const red = x.shape.map((_, i) => i).filter((i) => reduced.has(i));
    // the output's index space: the kept axes, with size-1 placeholders for reduced ones under keepdims
    const outAxes = keepdims ? x.shape.map((_, i) => i) : kept;
    const outShape = outAxes.map((i) => (reduced.has(i) ? 1 : x.shape[i]!));
    const outDtype = kind === 'arg' ? 'int32' : x.dtype;
    return build(outShape, outDtype, (oidx) => {
      const full = new Array<number>(x.rank).fill(0);
      outAxes.forEach((axis, k) => {
        if (!reduced.has(axis)) full[axis] = oidx[k]!;
      });
      const xs: number[] = [];
      forEachIndex(
        red.map((i) => x.shape[i]!),
        (ridx) => {
          red.forEach((axis, k) => {
            full[axis] = ridx[k]!;
          });
          xs.push(x.get(full));
        },
      );
      return fitDtype(fold(xs, attrs), outDtype);
    });
  };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: number[]) => sum(xs) / xs.length;

function variance(xs: number[], attrs: Readonly<Record<string, unknown>>): number {
  const m = mean(xs);
  const n = attrs['unbiased'] === true ? xs.length - 1 : xs.length;
  return xs.reduce((a, x) => a + (x - m) * (x - m), 0) / n;
}

/** The position (in the reduced elements' row-major order) of the first or last extreme element; 0 for none. */
function argExtreme(better: (a: number, b: number) => boolean): (xs: number[], attrs: Readonly<Record<string, unknown>>) => number {
  return (xs, attrs) => {
    const last = attrs['select_last_index'] === true;
    let best = 0;
    for (let i = 1; i < xs.length; i++) if (better(xs[i]!, xs[best]!) || (last && xs[i] === xs[best])) best = i;
    return best;
  };
}

function logsumexp(xs: number[]): number {
  const m = Math.max(...xs);
  if (!Number.isFinite(m)) return m;
  return Math.log(xs.reduce((a, x) => a + Math.exp(x - m), 0)) + m;
}

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  sum: reduction(sum),
  mean: reduction(mean),
  max: reduction((xs) => Math.max(...xs)),
  min: reduction((xs) => Math.min(...xs)),
  prod: reduction((xs) => xs.reduce((a, b) => a * b, 1)),
  all: reduction((xs) => (xs.every((x) => x !== 0) ? 1 : 0)),
  any: reduction((xs) => (xs.some((x) => x !== 0) ? 1 : 0)),
  argmax: reduction(
    argExtreme((a, b) => a > b),
    'arg',
  ),
  argmin: reduction(
    argExtreme((a, b) => a < b),
    'arg',
  ),
  variance: reduction(variance, 'variance'),
  std: reduction((xs, attrs) => Math.sqrt(variance(xs, attrs)), 'variance'),
  logsumexp: reduction(logsumexp),
  mean_variance: (args, attrs) => [reduction(mean, 'variance')(args, attrs), reduction(variance, 'variance')(args, attrs)],
  mean_std: (args, attrs) => [reduction(mean, 'variance')(args, attrs), reduction((xs, a) => Math.sqrt(variance(xs, a)), 'variance')(args, attrs)],
};

const DUPLICATES = 'duplicate axes are rejected by the relation (TVM accepts them; its compute removes the duplicates, as the reference does)';
const RANK0_EXCLUDE = "; exclude=True with axis=None is rejected even for a rank-0 input, which TVM's compute returns unchanged";

/** Whether the call lists an axis twice (counted from the end or not). */
function duplicateAxes(args: readonly Value[], attrs: Readonly<Record<string, unknown>>): boolean {
  const axis = attrs['axis'];
  if (!Array.isArray(axis)) return false;
  const rank = asTensor(args[0], 'data').rank;
  const norm = (axis as number[]).map((a) => (a < 0 ? a + rank : a));
  return new Set(norm).size !== norm.length;
}

/** exclude=True with axis=None on a rank-0 input. */
function rank0Exclude(args: readonly Value[], attrs: Readonly<Record<string, unknown>>): boolean {
  return attrs['exclude'] === true && (attrs['axis'] === null || attrs['axis'] === undefined) && asTensor(args[0], 'data').rank === 0;
}

const ARG_OR_VARIANCE = ['argmax', 'argmin', 'variance', 'std', 'mean_variance', 'mean_std'];

/**
 * Operators whose relation deliberately rejects calls the executor can run,
 * with the reason and the calls it covers: only those divergences are expected.
 */
export const STRICTER: Readonly<Record<string, Stricter>> = Object.fromEntries(
  Object.keys(EXECUTORS).map((op): [string, Stricter] =>
    ARG_OR_VARIANCE.includes(op)
      ? [op, { reason: DUPLICATES, covers: duplicateAxes }]
      : [op, { reason: DUPLICATES + RANK0_EXCLUDE, covers: (args, attrs) => duplicateAxes(args, attrs) || rank0Exclude(args, attrs) }],
  ),
);
