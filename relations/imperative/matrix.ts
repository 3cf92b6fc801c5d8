// Relations on the matrices of the last two axes, after TVM's TriluRel and
// MatrixSetDiagRel (src/relay/op/tensor/transform.cc): Trilu, MatrixSetDiag.
//
//   Trilu(data, k; upper): result := data's type; k is a 0-D tensor.
//   MatrixSetDiag(input, diagonal; k1, k2, ...): Tensor[input.shape, input.dtype];
//     input is (..., M, N), diagonal (..., L) when k1 = k2, (..., k2 - k1 + 1, L)
//     otherwise, L = min(M + min(k2, 0), N + min(-k1, 0)).
//
// Deviations from TVM: data must have rank >= 2 (the compute indexes the last two
// axes); k must have an integer dtype; the result does not wait for k (TVM's
// relation does), but k is checked once known. MatrixSetDiag checks diagonal's
// shape (TVM's relation ignores its asserts' answers) and, as TVM's asserts, that
// diagonals k1 and k2 lie inside the matrices when provably not; the result waits for
// diagonal's type. Symbolic dims that may agree are accepted (no residual assumption).

import type { IDim, TensorType } from './types.js';
import type { RelationFn, RelError, Reporter } from './relation.js';
import { compareDims, expectTensor, getInt } from './common.js';
import { isError } from './relation.js';
import { dimOf, dimValue, intDim, printDim, printShape, printType, tensorType } from './types.js';
import { dimAdd, dimConst, dimMin } from '../../solver/terms/dims.js';

const MATRIX_INT_DTYPES: ReadonlySet<string> = new Set(['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64']);

export const triluRel: RelationFn = (args, out, _attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  const k = expectTensor(r, args[1]!, 'k');
  if (isError(data)) return data;
  if (isError(k)) return k;
  if (data !== 'wait' && data.shape.length < 2) return r.fail(`data must have rank >= 2 (matrices in the last two axes), got ${printType(data)}`);
  if (k !== 'wait' && k.shape.length !== 0) return r.fail(`k must be a 0-D tensor, got ${printType(k)}`);
  if (k !== 'wait' && typeof k.dtype === 'string' && !MATRIX_INT_DTYPES.has(k.dtype)) return r.fail(`k must have an integer dtype, got ${printType(k)}`);
  if (data === 'wait') return r.wait('the type of data is not known yet');
  const e = r.assign(out, tensorType(data.shape, data.dtype), 'the result');
  if (e) return e;
  return k === 'wait' ? r.wait('the type of k is not known yet') : 'done';
};

/** A dim that is neither a hole nor Any (the rules' dim_is_known). */
const mdKnown = (d: IDim): boolean => d.kind === 'int' || d.kind === 'sym';

/** The dims diagonal must have for input's shape `s` (rank >= 2), its last two dims known; else null. */
function mdDiagonalShape(s: readonly IDim[], k1: number, k2: number): IDim[] | null {
  const [m, n] = [s[s.length - 2]!, s[s.length - 1]!];
  const [mv, nv] = [dimValue(m), dimValue(n)];
  if (!mdKnown(m) || !mdKnown(n) || mv === null || nv === null) return null;
  const longest = dimOf(dimMin(dimAdd(mv, dimConst(Math.min(k2, 0))), dimAdd(nv, dimConst(Math.min(-k1, 0)))));
  return [...s.slice(0, -2), ...(k1 === k2 ? [] : [intDim(k2 - k1 + 1)]), longest];
}

/** The checks of diagonal against input (both known, input of rank >= 2, k1 <= k2). */
function mdCheckDiagonal(r: Reporter, input: TensorType, diagonal: TensorType, k1: number, k2: number): RelError | null {
  const s = input.shape;
  const rank = s.length - 2 + (k1 === k2 ? 1 : 2);
  const what = `diagonal of shape ${printShape(diagonal.shape)}`;
  if (diagonal.shape.length !== rank) return r.fail(`${what} must have rank ${rank} for diagonals ${k1}..${k2} of input ${printShape(s)}`);
  const expected = mdDiagonalShape(s, k1, k2);
  if (expected === null) return null;
  for (const [i, e] of expected.entries()) {
    const d = diagonal.shape[i]!;
    if (mdKnown(d) && mdKnown(e) && compareDims(d, e, '!=') === true) {
      return r.fail(`${what} does not fit diagonals ${k1}..${k2} of input ${printShape(s)}: ${printDim(d)} vs ${printDim(e)}`);
    }
  }
  return null;
}

/** Diagonal k1 must have rows (M > -k1) and k2 columns (N > k2), when provably not. */
function mdCheckInside(r: Reporter, s: readonly IDim[], k1: number, k2: number): RelError | null {
  const [m, n] = [s[s.length - 2]!, s[s.length - 1]!];
  if (mdKnown(m) && compareDims(m, intDim(-k1), '<=') === true) return r.fail(`diagonal ${k1} lies outside matrices of ${printDim(m)} rows`);
  if (mdKnown(n) && compareDims(n, intDim(k2), '<=') === true) return r.fail(`diagonal ${k2} lies outside matrices of ${printDim(n)} columns`);
  return null;
}

export const matrixSetDiagRel: RelationFn = (args, out, attrs, r) => {
  const [k1, k2] = [getInt(attrs, 'k1'), getInt(attrs, 'k2')];
  if (k1 > k2) return r.fail(`k1 ${k1} must not exceed k2 ${k2}`);
  const input = expectTensor(r, args[0]!, 'input');
  const diagonal = expectTensor(r, args[1]!, 'diagonal');
  if (isError(input)) return input;
  if (isError(diagonal)) return diagonal;
  if (input !== 'wait') {
    if (input.shape.length < 2) return r.fail(`input must have rank >= 2 (matrices in the last two axes), got shape ${printShape(input.shape)}`);
    const e = mdCheckInside(r, input.shape, k1, k2) ?? (diagonal === 'wait' ? null : mdCheckDiagonal(r, input, diagonal, k1, k2));
    if (e) return e;
  }
  if (input !== 'wait' && diagonal !== 'wait' && typeof input.dtype === 'string' && typeof diagonal.dtype === 'string' && input.dtype !== diagonal.dtype) {
    return r.fail(`input has dtype ${input.dtype}, diagonal ${diagonal.dtype}: they must be equal`);
  }
  if (input === 'wait' || diagonal === 'wait' || typeof diagonal.dtype !== 'string' || typeof input.dtype !== 'string')
    return r.wait('the types of input and diagonal are not known yet');
  return r.assign(out, tensorType(input.shape, input.dtype), 'the result') ?? 'done';
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Trilu: triluRel,
  MatrixSetDiag: matrixSetDiagRel,
};
