// Bit-serial relations after TVM's src/relay/op/nn/bitserial.cc (BitPackRel,
// BinaryConv2DRel, BinaryDenseRel):
//
//   BitPack(data; bits, pack_axis, bit_axis, pack_type): data.shape with
//     shape[pack_axis] / width(pack_type), then `bits` inserted at bit_axis; dtype
//     pack_type.
//   BitserialConv2D(data, weight; strides, padding, channels, kernel_size,
//     data_layout, kernel_layout, out_dtype): (N, channels, (H + pad_h - kh) / sh + 1,
//     (W + pad_w - kw) / sw + 1) in data_layout (NCHW or NHWC); dtype out_dtype.
//   BitserialDense(data, weight; units, out_dtype): data.shape with the last dim
//     replaced by units; dtype out_dtype, "" = data's.
//
// Deviations from TVM (stricter):
//  - BitPack: pack_axis in [0, rank), bit_axis in [0, rank]; the packed dim divisible
//    by the word width (residual when symbolic); pack_type one of uint8/16/32/64. The
//    result waits while the packed dim is a hole.
//  - BitserialConv2D: a known weight is checked (TVM's relation reads none): the
//    unpacked 4-D weight in kernel_layout with O = channels, I = C, (KH, KW) =
//    kernel_size; the padded input at least the kernel's size. The result waits while
//    H or W is a hole.
//  - BitserialDense: a known weight must be the unpacked (units, k) matrix.
//  - All three: the packed tensors (data, and a known weight) must have an integer
//    dtype (TVM's computes mask their bits).
// Each argument's own errors come before waiting for another argument.

import type { IDim, IType, TensorType } from './types.js';
import type { AttrMap, RelError, RelationFn, Reporter } from './relation.js';
import { Pending, dAdd, dDiv, dMod, expectTensor, finish, getInt, getInts, getString, permutationOf } from './common.js';
import { isError } from './relation.js';
import { intDim, printDim, printType, tensorType } from './types.js';

/** The word widths of the pack dtypes TVM's compute packs into. */
const WORD_BITS: Readonly<Record<string, number>> = { uint8: 8, uint16: 16, uint32: 32, uint64: 64 };

/** The dtypes whose bits can be packed. */
const INT_DTYPES: ReadonlySet<string> = new Set(['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64']);

/** A known argument as a tensor of an integer dtype (null while it is a hole), or an error for a tuple or another dtype. */
function packable(r: Reporter, t: IType, name: string): TensorType | null | RelError {
  const v = expectTensor(r, t, name);
  if (v === 'wait' || isError(v)) return v === 'wait' ? null : v;
  if (typeof v.dtype === 'string' && !INT_DTYPES.has(v.dtype)) return r.fail(`${name} of dtype ${v.dtype} has no bits to pack (an integer dtype is needed)`);
  return v;
}

export const bitPackRel: RelationFn = (args, out, attrs, r) => {
  const data = packable(r, args[0]!, 'data');
  if (data === null) return r.wait('the type of data is not known yet');
  if (isError(data)) return data;
  const rank = data.shape.length;
  const packAxis = getInt(attrs, 'pack_axis');
  const bitAxis = getInt(attrs, 'bit_axis');
  if (packAxis >= rank) return r.fail(`pack_axis = ${packAxis} is out of range for a tensor of rank ${rank}`);
  if (bitAxis > rank) return r.fail(`bit_axis = ${bitAxis} is out of range for a result of rank ${rank + 1}`);
  const packType = getString(attrs, 'pack_type');
  const width = WORD_BITS[packType]!;
  const packed = data.shape[packAxis]!;
  const pending = new Pending();
  const e = pending.check(
    r.require(dMod(packed, width), '==', intDim(0), `the packed dim ${printDim(packed)} is not divisible by the word width ${width} of ${packType}`),
    'the packed dim is not known yet',
  );
  if (e) return e;
  if (packed.kind === 'hole') return r.wait('the packed dim is not known yet');
  const shape: IDim[] = data.shape.map((d, i) => (i === packAxis ? dDiv(d, width) : d));
  shape.splice(bitAxis, 0, intDim(getInt(attrs, 'bits')));
  const built = tensorType(shape, packType);
  const e2 = r.assign(out, built, 'the result');
  if (e2) return e2;
  return finish(r, pending, built);
};

/** A 2-D attribute given as one int or a pair (the catalogue checks the length), as a pair. */
const pairOf = (attrs: AttrMap, name: string): [number, number] => getInts(attrs, name, 2) as [number, number];

/** Padding totals (both sides) per spatial axis: one int, [p], [h, w] or [top, left, bottom, right]. */
function padTotals(attrs: AttrMap): [number, number] {
  const p = getInts(attrs, 'padding');
  if (p.length === 4) return [p[0]! + p[2]!, p[1]! + p[3]!];
  return p.length === 1 ? [2 * p[0]!, 2 * p[0]!] : [2 * p[0]!, 2 * p[1]!];
}

/** Requires each (have, want) pair equal, noting undecided ones as pending; the first that provably differs is the error. */
function requireEqual(r: Reporter, pending: Pending, pairs: readonly (readonly [IDim, IDim, string])[]): RelError | null {
  for (const [have, want, message] of pairs) {
    const e = pending.check(r.require(have, '==', want, message), "the weight's dims are not known yet");
    if (e) return e;
  }
  return null;
}

/** The checks of a known weight against channels, kernel_size and (when known) the data's C. */
function checkConvWeight(r: Reporter, weight: TensorType, attrs: AttrMap, c: IDim | null, pending: Pending): RelError | null {
  if (weight.shape.length !== 4) return r.fail(`the weight must be the unpacked 4-D weight, got ${printType(weight)}`);
  const perm = permutationOf(getString(attrs, 'kernel_layout'), 'OIHW')!;
  const [o, i, kh, kw] = perm.map((p) => weight.shape[p]!) as [IDim, IDim, IDim, IDim];
  const [ks0, ks1] = pairOf(attrs, 'kernel_size');
  const checks: [IDim, IDim, string][] = [
    [o, intDim(getInt(attrs, 'channels')), `the weight has ${printDim(o)} output channels, channels = ${getInt(attrs, 'channels')}`],
    [kh, intDim(ks0), `the weight's kernel height ${printDim(kh)} is not kernel_size[0] = ${ks0}`],
    [kw, intDim(ks1), `the weight's kernel width ${printDim(kw)} is not kernel_size[1] = ${ks1}`],
  ];
  if (c !== null) checks.push([i, c, `the weight has ${printDim(i)} input channels, the data ${printDim(c)}`]);
  return requireEqual(r, pending, checks);
}

export const bitserialConv2DRel: RelationFn = (args, out, attrs, r) => {
  const data = packable(r, args[0]!, 'data');
  if (isError(data)) return data;
  if (data !== null && data.shape.length !== 4) return r.fail(`the data must have rank 4, got ${printType(data)}`);
  const weight = packable(r, args[1]!, 'the weight');
  if (isError(weight)) return weight;
  const layout = getString(attrs, 'data_layout');
  const perm = permutationOf(layout, 'NCHW')!;
  const canon = data === null ? null : (perm.map((p) => data.shape[p]!) as [IDim, IDim, IDim, IDim]);
  const pending = new Pending();
  if (weight !== null) {
    const e = checkConvWeight(r, weight, attrs, canon === null ? null : canon[1], pending);
    if (e) return e;
  }
  if (canon === null) return r.wait('the type of data is not known yet');
  const [n, , h, w] = canon;
  const [kh, kw] = pairOf(attrs, 'kernel_size');
  const [sh, sw] = pairOf(attrs, 'strides');
  const [ph, pw] = padTotals(attrs);
  for (const [x, p, k] of [
    [h, ph, kh],
    [w, pw, kw],
  ] as const) {
    const padded = dAdd(x, p);
    const e = pending.check(
      r.require(padded, '>=', intDim(k), `the padded input size ${printDim(padded)} is smaller than the kernel size ${k}`),
      'the spatial dims are not known yet',
    );
    if (e) return e;
  }
  if (h.kind === 'hole' || w.kind === 'hole') return r.wait('H and W are not known yet');
  const canonical = [n, intDim(getInt(attrs, 'channels')), dAdd(dDiv(dAdd(h, ph - kh), sh), 1), dAdd(dDiv(dAdd(w, pw - kw), sw), 1)];
  const shape: IDim[] = new Array<IDim>(4);
  perm.forEach((pos, i) => {
    shape[pos] = canonical[i]!;
  });
  const built = tensorType(shape, getString(attrs, 'out_dtype'));
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

export const bitserialDenseRel: RelationFn = (args, out, attrs, r) => {
  const data = packable(r, args[0]!, 'data');
  if (isError(data)) return data;
  if (data !== null && data.shape.length === 0) return r.fail('data must have rank >= 1');
  const weight = packable(r, args[1]!, 'the weight');
  if (isError(weight)) return weight;
  const units = getInt(attrs, 'units');
  const pending = new Pending();
  if (weight !== null) {
    if (weight.shape.length !== 2) return r.fail(`the weight must be the unpacked (units, k) matrix, got ${printType(weight)}`);
    const [wu, wk] = weight.shape as [IDim, IDim];
    const checks: [IDim, IDim, string][] = [[wu, intDim(units), `the weight has ${printDim(wu)} rows, units = ${units}`]];
    if (data !== null)
      checks.push([
        wk,
        data.shape[data.shape.length - 1]!,
        `the weight has ${printDim(wk)} columns, the data's last dim is ${printDim(data.shape[data.shape.length - 1]!)}`,
      ]);
    const e = requireEqual(r, pending, checks);
    if (e) return e;
  }
  if (data === null) return r.wait('the type of data is not known yet');
  const given = getString(attrs, 'out_dtype');
  const built = tensorType([...data.shape.slice(0, -1), intDim(units)], given === '' ? data.dtype : given);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  BitPack: bitPackRel,
  BitserialConv2D: bitserialConv2DRel,
  BitserialDense: bitserialDenseRel,
};
