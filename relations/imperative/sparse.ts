// Relations between flat, coordinate (sparse) and dense index forms, after TVM's
// UnRavelIndexRel, SparseToDenseRel and SparseReshapeRel
// (src/relay/op/tensor/transform.cc): UnravelIndex, SparseToDense, SparseReshape.
//
//   UnravelIndex(indices, shape): Tensor[(R,) ++ indices.shape, indices.dtype] for
//     shape (R,) and indices of rank <= 1.
//   SparseToDense(sparse_indices, sparse_values, default_value; output_shape):
//     Tensor[output_shape, sparse_values.dtype].
//   SparseReshape(sparse_indices, prev_shape, new_shape): (Tensor[(N, R),
//     sparse_indices.dtype], Tensor[(R,), new_shape.dtype]) for sparse_indices
//     (N, K), new_shape (R,).
//
// Deviations from TVM (as relations/sparse.rules): the ranks the computes need
// (indices of rank <= 1 and a 1-D shape for unravel_index; sparse_indices of rank
// <= 2, sparse_values of rank <= 1 for sparse_to_dense); the index count and the
// coordinate length of sparse_to_dense, and sparse_reshape's
// coordinate length against prev_shape, are errors when provably wrong (symbolic
// dims that may agree are accepted, with no residual assumption). The result waits
// for every argument's type and the dtypes it reads, as TVM's relations wait for every argument.

import type { IDim, TensorType } from './types.js';
import type { RelationFn, RelError, Reporter } from './relation.js';
import { TABLE_INT_DTYPES, compareDims, expectTensors, getInts } from './common.js';
import { isError } from './relation.js';
import { intDim, printDim, printShape, tensorType, tupleType } from './types.js';

/** An error if a known dtype is not an integer one. */
function spIntDtype(r: Reporter, t: TensorType | 'wait', name: string): RelError | null {
  if (t === 'wait' || typeof t.dtype !== 'string' || TABLE_INT_DTYPES.has(t.dtype)) return null;
  return r.fail(`${name} must have an integer dtype, not ${t.dtype}`);
}

/** An error if the tensor is known and its rank fails `ok`. */
function spRank(r: Reporter, t: TensorType | 'wait', ok: (rank: number) => boolean, message: (shape: string) => string): RelError | null {
  if (t === 'wait' || ok(t.shape.length)) return null;
  return r.fail(message(printShape(t.shape)));
}

/** Both dims known (not holes, not Any) and provably different. */
const spDiffer = (a: IDim, b: IDim): boolean => compareDims(a, b, '!=') === true;

/** The first error among the checks, or null. */
const firstError = (...checks: (() => RelError | null)[]): RelError | null => {
  for (const c of checks) {
    const e = c();
    if (e) return e;
  }
  return null;
};

export const unravelIndexRel: RelationFn = (args, out, _attrs, r) => {
  const ts = expectTensors(r, args, ['indices', 'shape']);
  if (isError(ts)) return ts;
  const [indices, shape] = ts as [TensorType | 'wait', TensorType | 'wait'];
  const e = firstError(
    () =>
      spRank(
        r,
        indices,
        (n) => n <= 1,
        (s) => `indices must be a scalar or a vector, got shape ${s}`,
      ),
    () =>
      spRank(
        r,
        shape,
        (n) => n === 1,
        (s) => `shape must be a 1-D tensor, got shape ${s}`,
      ),
    () => spIntDtype(r, indices, 'indices'),
    () => spIntDtype(r, shape, 'shape'),
  );
  if (e) return e;
  if (indices === 'wait' || shape === 'wait' || typeof indices.dtype !== 'string' || typeof shape.dtype !== 'string') {
    return r.wait('the types of indices and shape are not known yet');
  }
  return r.assign(out, tensorType([shape.shape[0]!, ...indices.shape], indices.dtype), 'the result') ?? 'done';
};

/** The coordinate length and the number of indices given by sparse_indices of rank <= 2. */
function spIndexForm(indices: TensorType): { length: IDim; count: IDim } {
  const s = indices.shape;
  return { length: s.length === 2 ? s[1]! : intDim(1), count: s.length === 0 ? intDim(1) : s[0]! };
}

export const sparseToDenseRel: RelationFn = (args, out, attrs, r) => {
  const ts = expectTensors(r, args, ['sparse_indices', 'sparse_values', 'default_value']);
  if (isError(ts)) return ts;
  const [indices, values, dflt] = ts as [TensorType | 'wait', TensorType | 'wait', TensorType | 'wait'];
  const outputShape = getInts(attrs, 'output_shape');
  const e = firstError(
    () =>
      spRank(
        r,
        indices,
        (n) => n <= 2,
        (s) => `sparse_indices must have rank <= 2, got shape ${s}`,
      ),
    () =>
      spRank(
        r,
        values,
        (n) => n <= 1,
        (s) => `sparse_values must have rank <= 1, got shape ${s}`,
      ),
    () =>
      spRank(
        r,
        dflt,
        (n) => n === 0,
        (s) => `default_value must be a scalar, got shape ${s}`,
      ),
    () => spIntDtype(r, indices, 'sparse_indices'),
    () => {
      if (indices === 'wait') return null;
      const { length } = spIndexForm(indices);
      if (!spDiffer(length, intDim(outputShape.length))) return null;
      return r.fail(`sparse_indices ${printShape(indices.shape)} give coordinates of length ${printDim(length)} for an output of rank ${outputShape.length}`);
    },
    () => {
      if (indices === 'wait' || values === 'wait' || values.shape.length !== 1) return null;
      const { count } = spIndexForm(indices);
      if (!spDiffer(values.shape[0]!, count)) return null;
      return r.fail(
        `sparse_values ${printShape(values.shape)} give ${printDim(values.shape[0]!)} values for ${printDim(count)} indices ${printShape(indices.shape)}`,
      );
    },
  );
  if (e) return e;
  if (indices === 'wait' || values === 'wait' || dflt === 'wait' || typeof indices.dtype !== 'string' || typeof values.dtype !== 'string') {
    return r.wait('the types of sparse_indices, sparse_values and default_value are not known yet');
  }
  return r.assign(out, tensorType(outputShape.map(intDim), values.dtype), 'the result') ?? 'done';
};

export const sparseReshapeRel: RelationFn = (args, out, _attrs, r) => {
  const names = ['sparse_indices', 'prev_shape', 'new_shape'];
  const ts = expectTensors(r, args, names);
  if (isError(ts)) return ts;
  const [indices, prev, next] = ts as [TensorType | 'wait', TensorType | 'wait', TensorType | 'wait'];
  const e = firstError(
    () =>
      spRank(
        r,
        indices,
        (n) => n === 2,
        (s) => `sparse_indices must be 2-D, got shape ${s}`,
      ),
    () =>
      spRank(
        r,
        prev,
        (n) => n === 1,
        (s) => `prev_shape must be 1-D, got shape ${s}`,
      ),
    () =>
      spRank(
        r,
        next,
        (n) => n === 1,
        (s) => `new_shape must be 1-D, got shape ${s}`,
      ),
    () => {
      if (indices === 'wait' || prev === 'wait' || !spDiffer(indices.shape[1]!, prev.shape[0]!)) return null;
      return r.fail(
        `sparse_indices ${printShape(indices.shape)} have coordinates of length ${printDim(indices.shape[1]!)}, prev_shape has ${printDim(prev.shape[0]!)} dims`,
      );
    },
    ...[indices, prev, next].map((t, i) => () => spIntDtype(r, t, names[i]!)),
  );
  if (e) return e;
  if ([indices, prev, next].some((t) => t === 'wait' || typeof t.dtype !== 'string'))
    return r.wait('the types of sparse_indices, prev_shape and new_shape are not known yet');
  const [i, n] = [indices as TensorType, next as TensorType];
  const built = tupleType([tensorType([i.shape[0]!, n.shape[0]!], i.dtype), tensorType(n.shape, n.dtype)]);
  return r.assign(out, built, 'the result') ?? 'done';
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  UnravelIndex: unravelIndexRel,
  SparseToDense: sparseToDenseRel,
  SparseReshape: sparseReshapeRel,
};
