// Cross-check sweep cases for relations/meta.rules: shape_of and ndarray_size over
// every shape and a few dtypes, annotation.checkpoint over tensors and tuples.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, ALL_SHAPES, type CaseGenerator } from '../case-kit.js';

/** shape_of, ndarray_size: every shape with the default dtype and a few others, unknown and partial data, tuples. */
function typeQuery(op: OpInfo): TypeofRequest[] {
  const out = ALL_SHAPES.map((s) => call(op.name, [tensor(s)]));
  for (const dtype of ['int64', 'int8', 'float32', 'int4', 'float32x4']) out.push(call(op.name, [tensor([2, 3])], { dtype }), call(op.name, ['_'], { dtype }));
  out.push(call(op.name, ['_']), call(op.name, [tensor([2, '_'])]), call(op.name, [tensor(['n', '?', 3], 'bool')]), call(op.name, [tensor([], 'int32')]));
  out.push(call(op.name, [tuple([tensor([3])])]), call(op.name, [tuple([tensor([3]), tensor([2, 3])])]));
  return out;
}

function checkpoint(op: OpInfo): TypeofRequest[] {
  const out = ALL_SHAPES.map((s) => call(op.name, [tensor(s)]));
  out.push(
    call(op.name, [tuple([tensor([3])])]),
    call(op.name, [tuple([tensor([3]), tensor([2, 3], 'int32')])]),
    call(op.name, [tuple([tensor(['_', 3]), '_'])]),
  );
  out.push(call(op.name, ['_']), call(op.name, [tensor([2, '_'])]), call(op.name, [tensor(['n', 3], 'bool')]), call(op.name, [tuple([])]));
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  ShapeOf: typeQuery,
  NdarraySize: typeQuery,
  Checkpoint: checkpoint,
};
