// Cross-check sweep cases for relations/collapse.rules: every pair of a set of
// shapes (which broadcast one way, the other, both or neither), symbolic, Any and
// unknown dims, dtype mismatches, unknown arguments, tuples.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, type CaseGenerator, type Shape } from '../case-kit.js';

const SHAPES: readonly Shape[] = [
  [],
  [1],
  [3],
  [0],
  [2, 3],
  [1, 3],
  [2, 1],
  [4, 3],
  [2, 1, 3],
  [5, 2, 3],
  [2, 2, 1, 3],
  ['n', 3],
  ['n', 1],
  [1, 'n'],
  ['?', 3],
  ['_', 3],
];

/** broadcast_to_like, collapse_sum_like: every pair of shapes, then the odd cases. */
function likePairs(op: OpInfo): TypeofRequest[] {
  const out = SHAPES.flatMap((a) => SHAPES.map((b) => call(op.name, [tensor(a), tensor(b)])));
  out.push(call(op.name, [tensor([2, 3]), tensor([2, 3], 'int32')]), call(op.name, [tensor([1, 3], 'int8'), tensor([2, 3], 'int8')]));
  out.push(
    call(op.name, ['_', tensor([2, 3])]),
    call(op.name, [tensor([2, 3]), '_']),
    call(op.name, ['_', '_']),
    call(op.name, [tensor(['m']), tensor(['n'])]),
  );
  out.push(call(op.name, [tuple([tensor([3])]), tensor([3])]), call(op.name, [tensor([3]), tuple([tensor([3])])]), call(op.name, ['_', tuple([tensor([3])])]));
  return out;
}

function collapseSumTo(op: OpInfo): TypeofRequest[] {
  const targets: number[][] = [[], [1], [3], [0], [2, 3], [1, 3], [2, 1], [4, 3], [1, 1, 3], [2, 2, 1, 3]];
  const out = SHAPES.flatMap((s) => targets.map((shape) => call(op.name, [tensor(s)], { shape })));
  out.push(
    call(op.name, ['_'], { shape: [3] }),
    call(op.name, [tensor([2, 3], 'int64')], { shape: [3] }),
    call(op.name, [tuple([tensor([3])])], { shape: [3] }),
  );
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  BroadcastToLike: likePairs,
  CollapseSumLike: likePairs,
  CollapseSumTo: collapseSumTo,
};
