// Cross-check sweep cases for relations/index-tensors.rules: strided_set over every
// data shape with begin/end/strides of several lengths, unknown arguments and tuples;
// adv_index with one to four index tensors whose shapes broadcast or clash (per-axis
// different dims), symbolic, Any and unknown dims, non-integer indices and too many
// indices.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, eachArgumentUnknownOrTuple, tensor, tuple, ALL_SHAPES, type CaseGenerator, type Shape } from '../case-kit.js';

function stridedSet(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const idx = (n: number): string => tensor([n], 'int32');
  for (const s of ALL_SHAPES) out.push(call(op.name, [tensor(s), tensor(s.slice(1)), idx(s.length), idx(s.length), idx(s.length)]));
  for (const n of [0, 1, 3]) out.push(call(op.name, [tensor([3, 4], 'int8'), tensor([2, 3], 'int8'), idx(n), idx(2), tensor([n], 'int64')]));
  const ok = [tensor([3, 4]), tensor([2, 3]), idx(2), idx(2), idx(2)];
  out.push(...eachArgumentUnknownOrTuple(op.name, ok));
  out.push(call(op.name, [tensor(['n', '_', 3]), tensor([]), idx(1), idx(1), idx(1)]), call(op.name, ['_', '_', '_', '_', '_']));
  return out;
}

function advIndex(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const idx = (s: Shape, dtype = 'int64'): string => tensor(s, dtype);
  const indexSets: Shape[][] = [
    [[3]],
    [[3, 1], [4]],
    [[2, 3], [3]],
    [
      [2, 3],
      [2, 1],
    ],
    [[3, 2], [4]],
    [[1], [5], [5]],
    [[2, 1, 3], [4, 1], [3]],
    [['n'], [3]],
    [['n'], ['m']],
    [['?'], [3]],
    [['_'], [3]],
    [[], [3]],
    [[0], [1]],
    [[2], [2], [2], [2]],
  ];
  for (const data of [[5], [5, 6], [5, 6, 7], [4, 1, 2, 3], ['n', 6], ['_', 6, 7]] as Shape[]) {
    for (const set of indexSets) out.push(call(op.name, [tuple([tensor(data), ...set.map((s) => idx(s))])]));
  }
  for (const dt of ['int32', 'uint8', 'float32', 'bool', 'int4']) out.push(call(op.name, [tuple([tensor([5, 6], 'int8'), idx([3], dt), idx([3])])]));
  out.push(call(op.name, [tuple([tensor([5, 6])])]), call(op.name, [tensor([5, 6])]), call(op.name, ['_']), call(op.name, [tuple(['_', idx([3])])]));
  out.push(
    call(op.name, [tuple([tensor([5, 6]), '_'])]),
    call(op.name, [tuple([tensor([5, 6]), tuple([idx([3])])])]),
    call(op.name, [tuple([tuple([tensor([5])]), idx([3])])]),
  );
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  StridedSet: stridedSet,
  AdvIndex: advIndex,
};
