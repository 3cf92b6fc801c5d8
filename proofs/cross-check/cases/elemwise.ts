// Cross-check sweep cases for the elemwise family (declared in relations/elemwise.rules).
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, ALL_SHAPES, type Shape, type CaseGenerator } from '../case-kit.js';

/** Binary broadcasting (Broadcast, BroadcastCompare): every pair of a set of shapes, unknowns, partial shapes, dtypes. */
export function broadcast(op: OpInfo): TypeofRequest[] {
  const shapes: Shape[] = [[], [1], [3], [2, 3], [1, 3], [2, 1], ['n', 3], [5, 1, 3], [2, 5], [1, 0], [2, 1, 1, 3]];
  const out = shapes.flatMap((a) => shapes.map((b) => call(op.name, [tensor(a), tensor(b)])));
  // unknown arguments, partially known shapes
  out.push(call(op.name, [tensor([2, 3]), '_']), call(op.name, ['_', tensor([3])]), call(op.name, ['_', '_']));
  out.push(call(op.name, [tensor([2, '_']), tensor([3])]), call(op.name, [tensor([2, '_']), tensor([1])]), call(op.name, [tensor(['_']), tensor([2, 3])]));
  out.push(call(op.name, [tensor(['_', 3]), tensor(['_', 3])]), call(op.name, [tensor([4, '_']), tensor([4, 1])]));
  // dimension holes: against 0 (provably not 1), against n (undecided), a clash elsewhere, a tuple with holes
  out.push(call(op.name, [tensor(['_']), tensor([0])]), call(op.name, [tensor(['_', 2]), tensor(['n', 2])]), call(op.name, [tensor([2]), tensor(['_', 0])]));
  out.push(
    call(op.name, [tensor(['_', 'n']), tensor([3, 5])]),
    call(op.name, [tensor(['_', 3]), tensor([1, '_'])]),
    call(op.name, [tuple([tensor(['_'])]), tensor([3])]),
  );
  // symbolic sizes: undecided, provably equal, provably incompatible
  out.push(
    call(op.name, [tensor(['n', 1]), tensor(['n', 3])]),
    call(op.name, [tensor(['n']), tensor([5])]),
    call(op.name, [tensor(['n']), tensor(['m'])]),
    call(op.name, [tensor(['n', 2]), tensor(['n', 2])]),
  );
  out.push(call(op.name, [tensor(['n + 2']), tensor(['n'])]), call(op.name, [tensor(['2*n']), tensor(['n*2'])]));
  // Relay's Any (?): against 1, 0, n, another Any, a hole
  for (const [a, b] of [
    [[0], ['?']],
    [['?'], [1]],
    [['?'], ['?']],
    [['?'], ['n']],
    [
      [1, '?'],
      ['?', 3],
    ],
    [
      ['?', 2, 1],
      ['?', 1, '?'],
    ],
    [['?'], ['_']],
    [
      [2, '?'],
      [5, 3],
    ],
  ] as Shape[][]) {
    out.push(call(op.name, [tensor(a!), tensor(b!)]));
  }
  // dtypes: equal non-float dtypes, mismatches
  for (const [d1, d2] of [
    ['int32', 'int32'],
    ['bool', 'bool'],
    ['float16', 'float16'],
    ['float32', 'int32'],
    ['bool', 'float32'],
    ['int64', 'int32'],
  ])
    out.push(call(op.name, [tensor([2, 3], d1), tensor([3], d2)]));
  // not a tensor
  out.push(call(op.name, [tuple([tensor([3])]), tensor([3])]), call(op.name, [tensor([3]), tuple([tensor([3]), tensor([3])])]));
  return out;
}

/** Unary ops (IdentityRel): every shape, dtypes, unknown and partial arguments, a tuple. */
export function identity(op: OpInfo): TypeofRequest[] {
  const out = ALL_SHAPES.map((s) => call(op.name, [tensor(s)]));
  for (const d of ['int32', 'bool', 'float16', 'int8']) out.push(call(op.name, [tensor([2, 3], d)]), call(op.name, [tensor([], d)]));
  out.push(
    call(op.name, ['_']),
    call(op.name, [tensor([2, '_'])]),
    call(op.name, [tensor(['_', '_', 'n'])]),
    call(op.name, [tensor(['2*n + 1', 3])]),
    call(op.name, [tensor(['?', 3])]),
  );
  out.push(call(op.name, [tuple([tensor([3])])]), call(op.name, [tuple([tensor([3]), tensor([2, 3])])]));
  return out;
}

/** clip: the unary sweep with its bounds, bounds in either order, ints for floats, missing bounds. */
function clip(op: OpInfo): TypeofRequest[] {
  const bounds = { a_min: -1.5, a_max: 2 };
  const out: TypeofRequest[] = identity(op).map((c) => ({ ...c, attrs: bounds }));
  out.push(call(op.name, [tensor([2, 3])], { a_min: 3, a_max: 1 }), call(op.name, [tensor([2, 3], 'int8')], { a_min: 0, a_max: 6 }));
  out.push(call(op.name, [tensor([2, 3])], { a_min: 0 }), call(op.name, [tensor([2, 3])]), call(op.name, ['_'], { a_max: 1 }));
  return out;
}

function cast(op: OpInfo): TypeofRequest[] {
  const out = ['float32', 'int32', 'float16', 'bool'].flatMap((dtype) => [
    ...ALL_SHAPES.map((s) => call(op.name, [tensor(s)], { dtype })),
    call(op.name, ['_'], { dtype }),
  ]);
  for (const dtype of ['int8', 'int64', 'uint8', 'float64', 'bfloat16']) out.push(call(op.name, [tensor([2, 3], 'int32')], { dtype }));
  // dtypes the catalogue accepts but the relation does not; bad dtype strings
  for (const dtype of ['int4', 'float32x4', 'int1', 'float', 'Float32', ''])
    out.push(call(op.name, [tensor([2, 3])], { dtype }), call(op.name, ['_'], { dtype }));
  out.push(call(op.name, [tensor([2, '_'])], { dtype: 'int32' }), call(op.name, [tuple([tensor([3])])], { dtype: 'int32' }), call(op.name, [tensor([3])]));
  out.push(call(op.name, [tuple([tensor(['_', 3])])], { dtype: 'int32' }));
  return out;
}

function castLike(op: OpInfo): TypeofRequest[] {
  const likes = [tensor([3], 'float16'), tensor([], 'int32'), tensor([2, 3], 'bool'), tensor(['n', 5], 'float32'), '_'];
  const out = ALL_SHAPES.flatMap((s) => likes.map((l) => call(op.name, [tensor(s), l])));
  out.push(call(op.name, ['_', tensor([3], 'int8')]), call(op.name, ['_', '_']), call(op.name, [tensor([2, '_'], 'int32'), tensor([1], 'float64')]));
  out.push(
    call(op.name, [tuple([tensor([3])]), tensor([3], 'int32')]),
    call(op.name, [tensor([3]), tuple([tensor([3], 'int32')])]),
    call(op.name, ['_', tuple([tensor([3], 'int32')])]),
  );
  return out;
}

function where(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const shapes: Shape[] = [[], [3], [2, 3], [2, 1], [1, 3], ['n', 3], [5]];
  for (const c of shapes)
    for (const x of shapes) for (const y of [[], [3], [2, 3]] as Shape[]) out.push(call(op.name, [tensor(c, 'bool'), tensor(x), tensor(y)]));
  out.push(call(op.name, ['_', tensor([3]), tensor([3])]), call(op.name, [tensor([3], 'bool'), tensor([3]), tensor([3], 'int32')]));
  // condition of another dtype, unknowns, partial shapes, rank 4, zero sizes, tuples
  out.push(
    call(op.name, [tensor([2, 3], 'float32'), tensor([3], 'int32'), tensor([2, 1], 'int32')]),
    call(op.name, [tensor([2, 3], 'int32'), tensor([3]), tensor([3])]),
  );
  out.push(call(op.name, [tensor([3], 'bool'), '_', tensor([3])]), call(op.name, [tensor([3], 'bool'), tensor([3]), '_']), call(op.name, ['_', '_', '_']));
  out.push(call(op.name, [tensor([2, '_'], 'bool'), tensor([3]), tensor([1])]), call(op.name, [tensor([1, 3, 1, 5], 'bool'), tensor([2, 1, 1]), tensor([5])]));
  out.push(call(op.name, [tensor([0, 1], 'bool'), tensor([3]), tensor([1])]), call(op.name, [tensor([0], 'bool'), tensor([2]), tensor([2])]));
  // x and y clash whatever the condition; dimension holes in the condition, x and y
  out.push(
    call(op.name, ['_', tensor([0]), tensor([2])]),
    call(op.name, [tensor([4, '_'], 'bool'), tensor([3, 1]), tensor([1])]),
    call(op.name, [tensor(['_'], 'bool'), tensor(['_']), tensor([3])]),
  );
  out.push(
    call(op.name, [tensor([2, 3], 'bool'), tensor(['n', 3]), tensor([5, 1])]),
    call(op.name, [tensor([4, 3], 'bool'), tensor(['n', 1]), tensor([5, 1])]),
  );
  out.push(call(op.name, [tensor(['?'], 'bool'), tensor(['n', 1]), tensor(['?'])]), call(op.name, [tensor([2, 3], 'bool'), tensor(['?', 1]), tensor([4])]));
  out.push(call(op.name, [tuple([tensor([3], 'bool')]), tensor([3]), tensor([3])]), call(op.name, [tensor([3], 'bool'), tensor([3]), tuple([tensor([3])])]));
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  Broadcast: broadcast,
  BroadcastCompare: broadcast,
  Identity: identity,
  IdentityCompare: identity,
  Clip: clip,
  Cast: cast,
  CastLike: castLike,
  Where: where,
};
