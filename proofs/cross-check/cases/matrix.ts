// Cross-check sweep cases for relations/matrix.rules: trilu over every shape, k of
// every rank and a few dtypes, unknown arguments, tuples; matrix_set_diag over
// non-square matrices with asymmetric diagonal ranges (k1 != -k2), diagonals of the
// right and wrong shapes, symbolic and unknown dims.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, ALL_SHAPES, type CaseGenerator, type Shape } from '../case-kit.js';

function trilu(op: OpInfo): TypeofRequest[] {
  const k = tensor([], 'int32');
  const out = ALL_SHAPES.flatMap((s) => [call(op.name, [tensor(s), k]), call(op.name, [tensor(s, 'int8'), tensor([], 'int64')], { upper: false })]);
  for (const bad of [tensor([1], 'int32'), tensor([2, 2], 'int32'), tensor([], 'float32'), tensor([], 'bool')])
    out.push(call(op.name, [tensor([3, 3]), bad]), call(op.name, ['_', bad]));
  out.push(call(op.name, [tensor([3, 3]), '_']), call(op.name, ['_', k]), call(op.name, [tensor([5]), '_']), call(op.name, [tensor(['n', '_', 4]), k]));
  out.push(call(op.name, [tuple([tensor([3, 3])]), k]), call(op.name, [tensor([3, 3]), tuple([k])]));
  return out;
}

/** The diagonal shape for input shape `s` and diagonals k1..k2 (computed here independently, on ints). */
function diagonalFor(s: readonly number[], k1: number, k2: number): number[] {
  const [m, n] = [s[s.length - 2]!, s[s.length - 1]!];
  const longest = Math.min(m + Math.min(k2, 0), n + Math.min(-k1, 0));
  return [...s.slice(0, -2), ...(k1 === k2 ? [] : [k2 - k1 + 1]), longest];
}

function matrixSetDiag(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const inputs: number[][] = [
    [2, 2],
    [3, 4],
    [4, 3],
    [2, 3, 4],
    [2, 1, 5, 3],
    [1, 1],
    [0, 3],
  ];
  const ranges: [number, number][] = [
    [0, 0],
    [1, 1],
    [-1, -1],
    [-1, 2],
    [0, 2],
    [-2, 0],
    [1, 3],
    [-3, -1],
    [2, 1],
    [3, 3],
    [-4, 0],
  ];
  for (const s of inputs) {
    for (const [k1, k2] of ranges) {
      const d = diagonalFor(s, k1, k2);
      const attrs = { k1, k2 };
      out.push(call(op.name, [tensor(s), tensor(d)], attrs));
      out.push(
        call(
          op.name,
          [
            tensor(s, 'int32'),
            tensor(
              d.map((x, i) => (i === d.length - 1 ? x + 1 : x)),
              'int32',
            ),
          ],
          attrs,
        ),
      );
      if (d.length > 1) out.push(call(op.name, [tensor(s), tensor(d.slice(1))], attrs), call(op.name, [tensor(s), tensor([d[0]! + 1, ...d.slice(1)])], attrs));
    }
  }
  for (const align of [
    { super_diag_right_align: false },
    { sub_diag_right_align: true },
    { super_diag_right_align: false, sub_diag_right_align: true, k1: -1, k2: 1 },
  ]) {
    out.push(call(op.name, [tensor([3, 4]), tensor('k1' in align ? [3, 3] : [3])], align));
  }
  const symbolic: [Shape, Shape][] = [
    [
      ['n', 3, 3],
      ['n', 3],
    ],
    [
      ['n', 3, 3],
      ['m', 3],
    ],
    [
      [2, 'm', 'm'],
      [2, 'm'],
    ],
    [
      [2, '_', 4],
      [2, 3],
    ],
    [
      [2, 3, 4],
      ['_', '_'],
    ],
    [['?', 3], [3]],
    [[3, 3], ['?']],
  ];
  for (const [s, d] of symbolic) out.push(call(op.name, [tensor(s), tensor(d)]));
  out.push(call(op.name, [tensor([3]), tensor([3])]), call(op.name, [tensor([]), tensor([])]), call(op.name, [tensor([3, 3]), tensor([3], 'float16')]));
  out.push(
    call(op.name, ['_', tensor([3])]),
    call(op.name, [tensor([3, 3]), '_']),
    call(op.name, [tensor([3, 3]), '_'], { k1: 2, k2: 1 }),
    call(op.name, [tensor([3, 3]), '_'], { k2: 5 }),
  );
  out.push(call(op.name, [tuple([tensor([3, 3])]), tensor([3])]), call(op.name, [tensor([3, 3]), tuple([tensor([3])])]));
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  Trilu: trilu,
  MatrixSetDiag: matrixSetDiag,
};
