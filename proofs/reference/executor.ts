// The contract of a reference executor: an operator run on concrete tensors.
//
// An executor receives the argument values (tensors, or tuples for ops such as
// concatenate) and the call's attributes as plain values with TVM's defaults
// filled in (`{ strides: [1, 1], padding: [0, 0], ... }`; an `int` given where
// `int or list` is allowed stays an int, exactly as the call wrote it). It
// computes the result element by element — a convolution slides its window
// over the padded input, a reshape moves elements in row-major order, a
// reduction folds — and returns it; or it refuses (`refuse(...)` from
// tensor.ts) when the operator cannot run on these inputs.
//
// The output shape must come out of the computation, not from a shape formula
// shared with the relations: the point of the executor is to be an independent
// oracle for them. Executors never import from relations/ (except types).
import type { AttrJs } from '../../relations/imperative/solve-one.js';
import { NDArray, type Value } from './tensor.js';
import { SCALAR_DTYPES } from '../../relations/dtypes.js';

export type Attrs = Readonly<Record<string, AttrJs>>;

export type Executor = (args: readonly Value[], attrs: Attrs) => Value;

/**
 * A deliberate deviation: the relation rejects some calls the executor runs. `reason`
 * says why (for the docs and the report); `covers` decides, for one executed call
 * (its inputs, attributes and what the executor produced), whether the call is one the
 * reason is about. A rejection the reason does not cover is a failure, whatever the
 * operator documents elsewhere.
 */
export interface Stricter {
  readonly reason: string;
  readonly covers: (args: readonly Value[], attrs: Attrs, result: Value) => boolean;
}

/** A call with an input dtype or a `dtype` attribute outside SCALAR_DTYPES (a `covers` predicate). */
export const dtypeOutsideTable = (args: readonly Value[], attrs: Attrs): boolean =>
  args.some((a) => a instanceof NDArray && !SCALAR_DTYPES.has(a.dtype)) || (typeof attrs['dtype'] === 'string' && !SCALAR_DTYPES.has(attrs['dtype']));

/** The executor ran the call and produced an empty result (a `covers` predicate). */
export const emptyResult = (_args: readonly Value[], _attrs: Attrs, result: Value): boolean => result instanceof NDArray && result.shape.some((d) => d <= 0);
