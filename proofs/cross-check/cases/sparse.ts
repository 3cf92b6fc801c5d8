// Cross-check sweep cases for relations/sparse.rules: unravel_index, sparse_to_dense
// and sparse_reshape over argument ranks 0-3, index counts and coordinate lengths
// that fit and that do not, integer and non-integer dtypes, symbolic, Any and unknown
// dims, unknown arguments and tuples.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, eachArgumentUnknownOrTuple, tensor, tuple, type CaseGenerator, type Shape } from '../case-kit.js';

/** Shapes of rank 0-3 with small, empty, symbolic, Any and unknown dims. */
const SHAPES: readonly Shape[] = [[], [0], [1], [3], ['n'], ['?'], ['_'], [2, 3], [4, 2], [3, 1], ['n', 2], [2, '_'], [2, 3, 2]];

function unravelIndex(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const i of SHAPES) for (const s of SHAPES) out.push(call(op.name, [tensor(i, 'int64'), tensor(s, 'int64')]));
  for (const [a, b] of [
    ['int32', 'int64'],
    ['uint8', 'int32'],
    ['float32', 'int64'],
    ['int64', 'float32'],
    ['int4', 'int64'],
    ['bool', 'int32'],
  ]) {
    out.push(call(op.name, [tensor([3], a), tensor([2], b)]));
  }
  out.push(call(op.name, ['_', tensor([2], 'int64')]), call(op.name, [tensor([3], 'int64'), '_']), call(op.name, ['_', tensor([2, 2], 'int64')]));
  out.push(call(op.name, [tuple([tensor([3], 'int64')]), tensor([2], 'int64')]), call(op.name, [tensor([3], 'int64'), tuple([tensor([2], 'int64')])]));
  return out;
}

function sparseToDense(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const dflt = tensor([]);
  const indexShapes: Shape[] = [[], [3], [4, 2], [4, 1], [4, 3], [0, 2], ['n', 2], [4, 'k'], ['?', 2], [2, 2, 2]];
  const valueShapes: Shape[] = [[], [4], [3], [1], ['n'], ['?'], [4, 1]];
  for (const is of indexShapes) {
    for (const vs of valueShapes)
      for (const os of [[5], [3, 5], [2, 3, 4]]) out.push(call(op.name, [tensor(is, 'int32'), tensor(vs), dflt], { output_shape: os }));
  }
  for (const os of [[], [0], [0, 4], [1, 1]]) out.push(call(op.name, [tensor([2, os.length], 'int64'), tensor([2]), dflt], { output_shape: os }));
  for (const d of [tensor([], 'int32'), tensor([1]), tensor([2, 2]), tensor([], 'float16')])
    out.push(call(op.name, [tensor([4, 2], 'int32'), tensor([4]), d], { output_shape: [3, 5] }));
  for (const dt of ['int64', 'uint8', 'float32', 'int4', 'bool'])
    out.push(call(op.name, [tensor([4, 2], dt), tensor([4], 'int8'), tensor([], 'int8')], { output_shape: [2, 2] }));
  out.push(call(op.name, ['_', tensor([4]), dflt], { output_shape: [3, 5] }), call(op.name, [tensor([4, 2], 'int32'), '_', dflt], { output_shape: [3, 5] }));
  out.push(call(op.name, [tensor([4, 2], 'int32'), tensor([4]), '_'], { output_shape: [3, 5] }), call(op.name, ['_', '_', '_'], { output_shape: [3] }));
  out.push(call(op.name, [tensor([5, 3], 'int32'), '_', '_'], { output_shape: [3, 5] }), call(op.name, ['_', tensor([2, 2]), '_'], { output_shape: [3] }));
  out.push(
    call(op.name, [tuple([tensor([4, 2], 'int32')]), tensor([4]), dflt], { output_shape: [3, 5] }),
    call(op.name, [tensor([4, 2], 'int32'), tuple([tensor([4])]), dflt], { output_shape: [3, 5] }),
  );
  out.push(call(op.name, [tensor([4, 2], 'int32'), tensor([4]), tuple([dflt])], { output_shape: [3, 5] }));
  return out;
}

function sparseReshape(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const indexShapes: Shape[] = [[], [5], [5, 3], [5, 2], [0, 3], ['n', 3], [5, 'k'], [5, '?'], [2, 3, 1]];
  const shapeShapes: Shape[] = [[], [3], [2], [1], ['k'], ['_'], [3, 1]];
  for (const is of indexShapes) for (const ps of shapeShapes) out.push(call(op.name, [tensor(is, 'int64'), tensor(ps, 'int64'), tensor([2], 'int64')]));
  for (const ns of shapeShapes) out.push(call(op.name, [tensor([5, 3], 'int64'), tensor([3], 'int64'), tensor(ns, 'int32')]));
  for (const [a, b, c] of [
    ['int32', 'int64', 'int64'],
    ['float32', 'int64', 'int64'],
    ['int64', 'float32', 'int64'],
    ['int64', 'int64', 'bool'],
    ['int4', 'int64', 'int64'],
  ]) {
    out.push(call(op.name, [tensor([5, 3], a), tensor([3], b), tensor([4], c)]));
  }
  const ok = [tensor([5, 3], 'int64'), tensor([3], 'int64'), tensor([2], 'int64')];
  out.push(...eachArgumentUnknownOrTuple(op.name, ok));
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  UnravelIndex: unravelIndex,
  SparseToDense: sparseToDense,
  SparseReshape: sparseReshape,
};
