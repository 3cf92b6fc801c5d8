// Cross-check sweep cases for relations/layout-transform.rules: layout_transform
// between plain permutations, into, out of and between packed layouts (NCHW4c ->
// NCHW16c, NCHW16c -> NCHW2c, a split batch NCHW6n, C4cH), with divisible and
// non-divisible extents, wrong sub-axis dims, Any, symbolic and unknown dims, and
// invalid or mismatched layouts and ranks.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, type Shape, type CaseGenerator } from '../case-kit.js';

function layoutTransform(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const lt = (s: Shape, src_layout: string, dst_layout: string, dtype = 'float32'): void => {
    out.push(call(op.name, [tensor(s, dtype)], { src_layout, dst_layout }));
  };
  const plain: Shape[] = [
    [1, 4, 2, 3],
    [2, 8, 3, 1],
    [3, 6, 2, 2],
    [1, 3, 2, 2],
    [2, 0, 1, 3],
    ['n', 'c', 'h', 'w'],
    ['n', 4, 'h', 2],
    ['?', '?', '?', '?'],
    [1, '_', 2, 2],
    [1, '4*c', 2, 3],
  ];
  for (const s of plain) for (const dst of ['NCHW', 'NHWC', 'CHWN', 'NCHW4c', 'NCHW2c', 'NHWC2c', 'NCHW2n', 'NCHW2c2h', 'NC2cHW']) lt(s, 'NCHW', dst);
  const packed: Shape[] = [
    [1, 2, 2, 3, 4],
    [2, 1, 1, 1, 4],
    [1, 3, 2, 2, 4],
    [1, 2, 2, 2, 5],
    [1, 'c', 2, 2, 4],
    ['?', '?', 2, 2, '?'],
    [1, 2, '_', 2, 4],
    [1, 2, 2, 2, 'n'],
  ];
  for (const s of packed) for (const dst of ['NCHW', 'NHWC', 'NCHW16c', 'NCHW8c', 'NCHW2c', 'NCHW4c', 'NHWC4c', 'NCHW2n']) lt(s, 'NCHW4c', dst);
  lt([1, 2, 2, 2, 16], 'NCHW16c', 'NCHW2c');
  lt([3, 4, 2, 2, 6], 'NCHW6n', 'NHWC');
  lt([2, 4, 2, 2, 6], 'NCHW6n', 'NCHW4c');
  lt([8, 1], 'CH', 'C4cH');
  lt([6, 1], 'CH', 'C4cH');
  lt([2, 3, 4, 2, 2], 'NCHW2c2h', 'NCHW');
  lt([2, 3], 'AB', 'BA', 'int8');
  lt([5], 'C', 'C');
  // invalid or mismatched layouts, wrong ranks, non-tensor data
  for (const [src, dst] of [
    ['NCHW', 'NCDHW'],
    ['NCHW', 'NCHc'],
    ['NCHW', 'NC4hW'],
    ['NCHW', 'NCHH'],
    ['NCHW', 'NCHW0c'],
    ['NCHX', 'NCHW'],
    ['NCHW', 'NCH'],
    ['NCHW', ''],
  ] as const)
    lt([1, 4, 2, 2], src, dst);
  for (const s of [[1, 4, 2], [1, 4, 2, 2, 1], []] as Shape[]) lt(s, 'NCHW', 'NHWC');
  out.push(
    call(op.name, ['_'], { src_layout: 'NCHW', dst_layout: 'NHWC' }),
    call(op.name, [tuple([tensor([1, 4, 2, 2])])], { src_layout: 'NCHW', dst_layout: 'NHWC' }),
  );
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  LayoutTransform: layoutTransform,
};
