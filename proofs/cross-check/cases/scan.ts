// Cross-check sweep cases for the scan family (relations/scan.rules): every shape of
// rank 0-4 with every axis in and out of range (and None for the scans), dtypes,
// unknown and partial data, tuples; searchsorted over pairs of shapes.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, ALL_SHAPES, range, type Attrs, type CaseGenerator, type Shape } from '../case-kit.js';

/** Shapes with holes, Any and symbolic dims, for the unknown-data cases. */
const PARTIAL: readonly Shape[] = [
  [2, '_'],
  ['_', '_', 3],
  ['?', 3],
  ['n', '_'],
  ['2*n', 3],
];

/** An axis sweep: every axis in [-rank - 1, rank] per shape, the extra attribute sets on a few axes. */
function axisCases(op: OpInfo, extras: readonly Attrs[], axisNone: boolean): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES) {
    const axes: (number | null)[] = range(-s.length - 1, s.length);
    if (axisNone) axes.push(null);
    for (const axis of axes) out.push(call(op.name, [tensor(s)], { axis }));
    for (const a of extras) out.push(call(op.name, [tensor(s, 'int32')], { ...a, axis: s.length > 0 ? -1 : null }));
  }
  for (const s of PARTIAL) for (const axis of axisNone ? [0, null, -1] : [0, -1, 2]) out.push(call(op.name, [tensor(s)], { axis }));
  out.push(call(op.name, ['_'], { axis: 0 }), call(op.name, [tuple([tensor([3])])], { axis: 0 }), call(op.name, [tensor([2, 3], 'bool')]));
  return out;
}

function scanOp(op: OpInfo): TypeofRequest[] {
  const out = axisCases(op, [{ dtype: 'int64' }, { dtype: 'float32', exclusive: true }, { exclusive: true }], true);
  for (const dtype of ['int4', 'float', 'uint8', '']) out.push(call(op.name, [tensor([2, 3])], { axis: 1, dtype }), call(op.name, ['_'], { dtype }));
  out.push(call(op.name, [tensor([2, 3])]), call(op.name, [tensor([])]), call(op.name, ['_']));
  return out;
}

function sortOp(op: OpInfo): TypeofRequest[] {
  return axisCases(op, [{ is_ascend: false }], false);
}

function argsortOp(op: OpInfo): TypeofRequest[] {
  const out = axisCases(op, [{ is_ascend: false }, { dtype: 'int64' }, { dtype: 'uint8', is_ascend: false }], false);
  for (const dtype of ['float32', 'bool', 'int4']) out.push(call(op.name, [tensor([2, 3])], { dtype }), call(op.name, ['_'], { dtype }));
  return out;
}

function searchSortedOp(op: OpInfo): TypeofRequest[] {
  const seqs: Shape[] = [[], [5], [0], [2, 5], [3, 5], [2, 3, 4], ['n', 5], [2, '_']];
  const values: Shape[] = [[], [3], [2, 3], [3, 7], ['n', 2], [2, 3, 1], [2, 1, 6], ['_', 4]];
  const out: TypeofRequest[] = [];
  for (const s of seqs) for (const v of values) out.push(call(op.name, [tensor(s), tensor(v)]));
  for (const a of [{ right: true }, { dtype: 'int64' }, { dtype: 'float32' }, { dtype: 'bool', right: true }])
    out.push(call(op.name, [tensor([5]), tensor([2, 3])], a));
  out.push(call(op.name, ['_', tensor([3])]), call(op.name, [tensor([5]), '_']), call(op.name, ['_', tensor([])]), call(op.name, [tensor([]), '_']));
  out.push(
    call(op.name, [tuple([tensor([5])]), tensor([3])]),
    call(op.name, [tensor([5]), tuple([tensor([3])])]),
    call(op.name, [tensor([5], 'int32'), tensor([3], 'float16')]),
  );
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  Scan: scanOp,
  Sort: sortOp,
  Argsort: argsortOp,
  SearchSorted: searchSortedOp,
};
