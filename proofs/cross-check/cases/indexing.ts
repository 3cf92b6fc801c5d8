// Cross-check sweep cases for the indexing family (declared in relations/indexing.rules).
//
// Kept small (the whole library's sweep runs in CI): every shape of the kit is tried
// with every in-range axis and the edge axes (-1, -rank: normalisation; -rank - 1 and
// rank: out of range) once; the variants of the other arguments (index shapes that are
// larger, all ones, empty, symbolic; mismatched updates; bad dtypes; unknown arguments)
// are tried with the axes where they make a difference (the first and the last), and the
// shape-independent error cases on one shape per rank. Unknown dims (`_`) and Any dims
// (`?`) have cases of their own.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { ALL_SHAPES, SHAPES, call, range, tensor, tuple, type Attrs, type CaseGenerator, type Shape } from '../case-kit.js';

const bump = (d: string | number): string | number => (typeof d === 'number' ? d + 1 : d);

function uniq<T>(xs: readonly T[]): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const k = JSON.stringify(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The in-range axes 0..rank-1, then -1 and -rank (normalised) and -rank - 1 and rank (out of range). */
const axesOf = (rank: number): number[] => uniq([...range(0, rank - 1), -1, -rank || 0, -rank - 1, rank]);
/** The first and the last axis (where a larger first or last index dim matters), or 0 for a scalar. */
const endAxes = (rank: number): number[] => uniq([0, Math.max(rank - 1, 0)]);
/** One shape per rank, for the cases whose outcome does not depend on the sizes. */
const ONE_PER_RANK: Shape[] = SHAPES.map((ss) => ss[0]!);

/** Index shapes of the same rank as `s`, other than `s`: all ones, one dim larger, one dim 0, a symbolic dim. */
function otherIndexShapes(s: Shape): Shape[] {
  const out: Shape[] = [s.map(() => 1)];
  if (s.length > 0) {
    out.push([bump(s[0]!), ...s.slice(1)], [...s.slice(0, -1), bump(s[s.length - 1]!)], [0, ...s.slice(1)], [...s.slice(0, -1), 'n']);
  }
  const self = JSON.stringify(s);
  return uniq(out).filter((x) => JSON.stringify(x) !== self);
}

function oneHot(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const base = { depth: 3, dtype: 'float32' };
  for (const s of ALL_SHAPES) {
    const r = s.length;
    // the result has rank r + 1: axes 0..r, -1 and -(r + 1), and -(r + 2), r + 1 out of range
    for (const axis of uniq([...range(0, r), -1, -r - 1, -r - 2, r + 1]))
      out.push(call(op.name, [tensor(s, 'int32'), 'float32', 'float32'], { ...base, axis }));
    out.push(call(op.name, [tensor(s, 'int64'), 'float32', 'float32'], { depth: 1, dtype: 'int32' }));
  }
  // on_value and off_value: each variant against a scalar, and a few pairs of bad ones
  const ons = ['float32', 'int32', tensor([1]), tensor([2, 3]), '_', tuple([tensor([])])];
  const pairs = uniq([
    ...ons.map((on) => [on, 'float32']),
    ...ons.map((off) => ['float32', off]),
    ['_', '_'],
    [tensor([1]), tuple([tensor([])])],
    ['int32', '_'],
  ]);
  for (const [on, off] of pairs) out.push(call(op.name, [tensor([2, 3], 'int32'), on!, off!], base));
  for (const idx of ['_', tuple([tensor([2], 'int32')]), tensor([2, 3], 'float32')]) {
    out.push(
      call(op.name, [idx, 'float32', 'float32'], base),
      call(op.name, [idx, tensor([2]), 'float32'], base),
      call(op.name, [idx, 'float32', 'float32'], { ...base, dtype: 'int4' }),
    );
  }
  for (const dtype of ['int64', 'bool', 'float16', 'float32x4', 'int4'])
    out.push(call(op.name, [tensor([2, 'n'], 'int32'), 'float32', 'float32'], { depth: 5, dtype }));
  // unknown and Any dims are copied into the result
  for (const s of [
    ['_', 3],
    [2, '_'],
    ['?', 3],
    ['_', '_'],
  ] as Shape[])
    for (const axis of [0, -1]) out.push(call(op.name, [tensor(s, 'int32'), 'float32', 'float32'], { ...base, axis }));
  // attribute errors
  out.push(
    call(op.name, [tensor([2], 'int32'), 'float32', 'float32'], { depth: 0, dtype: 'float32' }),
    call(op.name, [tensor([2], 'int32'), 'float32', 'float32'], { depth: 2 }),
  );
  return out;
}

function sequenceMask(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const withAxis = (axis: number): Attrs => (axis === 0 ? {} : { axis });
  for (const s of [...ALL_SHAPES, ['n', 'n']] as Shape[]) {
    if (s.length < 2) {
      // rank < 2: an error whatever valid_length is
      for (const axis of [0, 1]) out.push(call(op.name, [tensor(s), tensor([s[0] ?? 1], 'int32')], withAxis(axis)));
      out.push(call(op.name, [tensor(s), '_']));
      continue;
    }
    // valid_length: unknown, of the time or the batch size, symbolic, too long
    const valids = uniq(['_', tensor([s[0]!], 'int32'), tensor([s[1]!], 'int32'), tensor(['n'], 'int32'), tensor([7], 'int32')]);
    for (const v of valids) for (const axis of [0, 1]) out.push(call(op.name, [tensor(s), v], withAxis(axis)));
    // valid_length's dtype is not checked; axes other than 0 and 1 are errors
    out.push(call(op.name, [tensor(s), tensor([s[1]!], 'float32')]));
    for (const axis of [2, -1]) out.push(call(op.name, [tensor(s), tensor([s[1]!], 'int32')], { axis }));
  }
  // valid_length of the wrong rank, or a tuple
  for (const s of ONE_PER_RANK.filter((x) => x.length >= 2)) {
    for (const v of [tensor([]), tensor([2, 3], 'int32'), tuple([tensor([2])])])
      for (const axis of [0, 1]) out.push(call(op.name, [tensor(s), v], withAxis(axis)));
  }
  // unknown data
  for (const v of ['_', tensor([3], 'int32'), tensor([3, 1], 'int32'), tuple([])]) {
    for (const axis of [0, 2]) out.push(call(op.name, ['_', v], { axis }));
    out.push(call(op.name, [tuple([tensor([2, 3])]), v]));
  }
  // unknown dims: valid_length's dim and data's batch dim are unified (an unknown one takes the other's value)
  for (const [s, v] of [
    [[4, '_'], [3]],
    [[4, 3], ['_']],
    [['_', 3], ['_']],
    [['n', 3], ['_']],
    [['?', 3], ['_']],
    [[4, '_'], ['?']],
    [[4, '_', 2], ['n']],
    [[4, 3], [5]],
    [['_', '_'], [3]],
  ] as [Shape, Shape][]) {
    for (const axis of [0, 1]) out.push(call(op.name, [tensor(s), tensor(v, 'int32')], withAxis(axis)));
  }
  out.push(
    call(op.name, [tensor([4, 3]), tensor([3], 'int32')], { mask_value: -1e9, axis: 0 }),
    call(op.name, [tensor([4, 3]), tensor([4], 'int32')], { mask_value: 1, axis: 1 }),
  );
  return out;
}

function gather(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES) {
    const r = s.length;
    for (const axis of axesOf(r)) out.push(call(op.name, [tensor(s), tensor(s, 'int32')], { axis }));
    for (const is of otherIndexShapes(s)) for (const axis of endAxes(r)) out.push(call(op.name, [tensor(s), tensor(is, 'int32')], { axis }));
  }
  for (const s of ONE_PER_RANK) {
    // a rank mismatch, float indices, an unknown indices (with an axis in and out of range), an unknown data
    out.push(call(op.name, [tensor(s), tensor([...s, 1], 'int64')], { axis: 0 }), call(op.name, [tensor(s), tensor(s, 'float32')], { axis: 0 }));
    out.push(
      call(op.name, [tensor(s), '_'], { axis: 0 }),
      call(op.name, [tensor(s), '_'], { axis: s.length }),
      call(op.name, ['_', tensor(s, 'int64')], { axis: 0 }),
    );
  }
  // unknown and Any dims
  for (const [s, is] of [
    [
      ['_', 3],
      [2, 3],
    ],
    [
      [2, 3],
      ['_', 3],
    ],
    [
      [2, '_'],
      [2, 5],
    ],
    [
      ['?', 3],
      [2, 4],
    ],
    [
      [2, 3],
      [2, '?'],
    ],
  ] as [Shape, Shape][]) {
    for (const axis of [0, 1]) out.push(call(op.name, [tensor(s), tensor(is, 'int32')], { axis }));
  }
  out.push(
    call(op.name, ['_', tensor([2], 'float32')], { axis: 0 }),
    call(op.name, [tuple([tensor([2])]), tensor([2], 'int32')], { axis: 0 }),
    call(op.name, [tensor([2]), tuple([tensor([2], 'int32')])], { axis: 0 }),
  );
  out.push(call(op.name, [tensor([2, 3]), tensor([2, 3], 'int32')], {}));
  return out;
}

function scatterElements(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const withAxis = (axis: number): Attrs => (axis === 0 ? {} : { axis });
  for (const s of ALL_SHAPES) {
    const r = s.length;
    for (const axis of axesOf(r)) out.push(call(op.name, [tensor(s), tensor(s, 'int32'), tensor(s)], withAxis(axis)));
    for (const is of otherIndexShapes(s)) for (const axis of endAxes(r)) out.push(call(op.name, [tensor(s), tensor(is, 'int32'), tensor(is)], withAxis(axis)));
    // updates that do not fit the indices: another dim, another rank, another dtype, unknown
    const other = r > 0 ? [bump(s[0]!), ...s.slice(1)] : [1];
    for (const u of [tensor(other), tensor([...s, 1]), tensor(s, 'int32'), '_']) out.push(call(op.name, [tensor(s), tensor(s, 'int32'), u]));
  }
  for (const s of ONE_PER_RANK) {
    out.push(call(op.name, [tensor(s), tensor([...s, 2], 'int32'), tensor([...s, 2])]), call(op.name, [tensor(s), tensor(s, 'float32'), tensor(s)]));
    out.push(call(op.name, ['_', tensor(s, 'int32'), tensor(s)]), call(op.name, [tensor(s), '_', tensor(s)]), call(op.name, ['_', '_', tensor(s, 'int32')]));
  }
  // unknown and Any dims: updates and indices have one shape (an unknown dim takes the other's value)
  const dimCases: [Shape, Shape, Shape][] = [
    [
      [4, 3],
      ['_', 3],
      [2, '_'],
    ],
    [
      [4, 3],
      ['_', 3],
      [2, 3],
    ],
    [
      [4, 3],
      [2, 3],
      ['_', '_'],
    ],
    [
      [4, 3],
      ['_', 3],
      ['_', 4],
    ],
    [
      [4, 3],
      ['_', 2],
      ['n', 2],
    ],
    [
      [4, 3],
      ['?', 3],
      ['_', 3],
    ],
    [
      ['_', 3],
      [2, 3],
      [2, 3],
    ],
    [
      [4, '_'],
      [2, 5],
      [2, '_'],
    ],
    // the bound learnt from updates makes the indices non-empty: nothing to scatter into an axis of size 0
    [
      [0, 1],
      [4, '_'],
      [4, 1],
    ],
  ];
  for (const [s, is, us] of dimCases) for (const axis of [0, 1]) out.push(call(op.name, [tensor(s), tensor(is, 'int32'), tensor(us)], withAxis(axis)));
  for (const reduction of ['add', 'mul', 'mean', 'min', 'max', 'sum'])
    out.push(call(op.name, [tensor([4, 5]), tensor([4, 2], 'int64'), tensor([4, 2])], { axis: 1, reduction }));
  out.push(call(op.name, [tuple([tensor([2])]), tensor([2], 'int32'), tensor([2])]), call(op.name, [tensor([2]), tensor([2], 'int32'), tuple([tensor([2])])]));
  return out;
}

function topk(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES) {
    const r = s.length;
    // k < 1 keeps the axis; k = 1, 3 against dims 0, 1, 2, 3, 5 and n: fits, equal, too large, symbolic
    for (const axis of range(0, r - 1)) for (const k of [0, 1, 3]) out.push(call(op.name, [tensor(s)], { k, axis }));
    for (const axis of uniq([-1, -r || 0, -r - 1, r])) out.push(call(op.name, [tensor(s)], { k: 2, axis }));
    out.push(call(op.name, [tensor(s)], { k: -1, ret_type: 'values' }), call(op.name, [tensor(s)], { k: 2, ret_type: 'indices' }));
    out.push(call(op.name, [tensor(s)]));
  }
  for (const s of [[3], ['n', 3]] as Shape[]) {
    for (const dtype of ['int64', 'uint8', 'float32', 'float32x4', 'int4'])
      out.push(call(op.name, [tensor(s, 'int32')], { dtype, is_ascend: true }), call(op.name, [tensor(s)], { dtype, ret_type: 'values' }));
  }
  // unknown and Any dims, on the axis and off it
  for (const s of [
    ['_', 3],
    [2, '_'],
    ['?', 5],
  ] as Shape[])
    for (const axis of [0, 1]) for (const k of [0, 2]) out.push(call(op.name, [tensor(s)], { k, axis }));
  out.push(
    call(op.name, ['_']),
    call(op.name, ['_'], { dtype: 'int4' }),
    call(op.name, [tuple([tensor([3])])]),
    call(op.name, [tensor([3])], { ret_type: 'all' }),
  );
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  OneHot: oneHot,
  SequenceMask: sequenceMask,
  Gather: gather,
  ScatterElements: scatterElements,
  TopK: topk,
};
