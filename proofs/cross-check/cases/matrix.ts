// Cross-check sweep cases for relations/matrix.rules: trilu over every shape, k of
// every rank and a few dtypes, unknown arguments, tuples.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, ALL_SHAPES, type CaseGenerator } from '../case-kit.js';

function trilu(op: OpInfo): TypeofRequest[] {
  const k = tensor([], 'int32');
  const out = ALL_SHAPES.flatMap((s) => [call(op.name, [tensor(s), k]), call(op.name, [tensor(s, 'int8'), tensor([], 'int64')], { upper: false })]);
  for (const bad of [tensor([1], 'int32'), tensor([2, 2], 'int32'), tensor([], 'float32'), tensor([], 'bool')]) out.push(call(op.name, [tensor([3, 3]), bad]), call(op.name, ['_', bad]));
  out.push(call(op.name, [tensor([3, 3]), '_']), call(op.name, ['_', k]), call(op.name, [tensor([5]), '_']), call(op.name, [tensor(['n', '_', 4]), k]));
  out.push(call(op.name, [tuple([tensor([3, 3])]), k]), call(op.name, [tensor([3, 3]), tuple([k])]));
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  Trilu: trilu,
};
