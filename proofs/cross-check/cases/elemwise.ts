// Cross-check sweep cases for the elemwise family (relations/ops/elemwise.ts).
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../solver/infer/typeof.js';
import { call, tensor, ALL_SHAPES, unary, type Shape, type CaseGenerator } from '../case-kit.js';

function broadcast(op: OpInfo): TypeofRequest[] {
  const shapes: Shape[] = [[], [1], [3], [2, 3], [1, 3], [2, 1], ['n', 3], [5, 1, 3], [2, 5], [1, 0]];
  const out = shapes.flatMap((a) => shapes.map((b) => call(op.name, [tensor(a), tensor(b)])));
  out.push(call(op.name, [tensor([2, 3]), '_']), call(op.name, ['_', tensor([3])]), call(op.name, ['_', '_']));
  out.push(call(op.name, [tensor([2, 3]), tensor([2, 3], 'int32')]));
  return out;
}

function cast(op: OpInfo): TypeofRequest[] {
  return ['float32', 'int32', 'float16', 'bool'].flatMap((dtype) => [...ALL_SHAPES.map((s) => call(op.name, [tensor(s)], { dtype })), call(op.name, ['_'], { dtype })]);
}

function where(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const shapes: Shape[] = [[], [3], [2, 3], [2, 1], [1, 3], ['n', 3], [5]];
  for (const c of shapes) for (const x of shapes) for (const y of [[], [3], [2, 3]] as Shape[]) out.push(call(op.name, [tensor(c, 'bool'), tensor(x), tensor(y)]));
  out.push(call(op.name, ['_', tensor([3]), tensor([3])]), call(op.name, [tensor([3], 'bool'), tensor([3]), tensor([3], 'int32')]));
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  Broadcast: broadcast,
  BroadcastCompare: broadcast,
  Identity: (op) => unary(op),
  Cast: cast,
  Where: where,
};
