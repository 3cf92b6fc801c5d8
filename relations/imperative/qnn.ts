// Quantization relations after TVM's QuantizeRel (src/relay/qnn/op/quantize.cc) and
// DequantizeRel (src/relay/qnn/op/dequantize.cc): Quantize, Dequantize.
//
//   Quantize(data, output_scale, output_zero_point; axis, out_dtype): data is
//     float32; Tensor[data.shape, out_dtype].
//   Dequantize(data, input_scale, input_zero_point; axis, out_dtype): data is
//     int8, uint8, int16, uint16 or int32; Tensor[data.shape, out_dtype].
//   In both the scale is float32 and the zero point int32. They are single values
//   (quantize: rank 0; dequantize: rank 0 or shape (1,)) or per axis: then the
//   axis (negative from the end; 0 for a rank-0 data) must lie in [0, max(rank,
//   1)), and a vector scale or zero point is unified with (data.shape[axis],) (1
//   for a rank-0 data), as TVM's AssignType does: here a hole takes the other
//   side's size, known sizes must be equal (a residual assumption when symbolic
//   and undecided), a hole against a hole or Any waits (the result is assigned).
//
// Deviations from TVM:
//  - the dtypes of data, scale and zero point are checked as soon as each is known;
//  - a scale or zero point of rank >= 2 is an error (dequantize: TVM takes any
//    shape with one element as single, then fails to assign it (1,));
//  - dequantize: a (n,) or (_,) vector is per axis (TVM needs a constant size).

import type { IDim, TensorType } from './types.js';
import type { RelationFn, RelError, Reporter } from './relation.js';
import { Pending, expectTensor, finish, getInt, getString } from './common.js';
import { isError } from './relation.js';
import { intDim, printDim, printType, tensorType } from './types.js';

const QUANTIZED: ReadonlySet<string> = new Set(['int8', 'uint8', 'int16', 'uint16', 'int32']);

interface QnnKind {
  readonly names: readonly [string, string, string];
  /** Whether data's (known) dtype is accepted, and what to say otherwise. */
  readonly dataDtype: (dtype: string) => boolean;
  readonly dataExpect: string;
  /** A scale / zero point shape that is one value for the whole tensor. */
  readonly single: (shape: readonly IDim[]) => boolean;
}

function qnnDtypeError(r: Reporter, t: TensorType | 'wait', ok: (d: string) => boolean, what: string): RelError | null {
  if (t === 'wait' || typeof t.dtype !== 'string' || ok(t.dtype)) return null;
  return r.fail(`${what}, got ${printType(t)}`);
}

/** The axis as TVM normalises it (negative from the end, 0 for rank 0). */
function qnnAxis(axis: number, rank: number): number {
  if (axis >= 0) return axis;
  return rank > 0 ? axis + rank : 0;
}

/**
 * A per-axis parameter of `size` values against the axis dim: a hole takes the
 * other's value when that is an int or symbolic size; known sizes must be equal (a
 * residual assumption when undecided); a hole against a hole or Any waits.
 */
function qnnChannels(r: Reporter, size: IDim, dim: IDim, name: string, pending: Pending): RelError | null {
  const known = (d: IDim): boolean => d.kind !== 'hole' && d.kind !== 'any' && d.kind !== 'open';
  if ((size.kind === 'hole' && known(dim)) || (dim.kind === 'hole' && known(size))) return r.assignDim(size, dim, `${name} must have the size of data's axis`);
  return pending.check(
    r.require(size, '==', dim, `${name} has ${printDim(size)} values for an axis of size ${printDim(dim)}`),
    'the axis dim or the parameter size is not known yet',
  );
}

function qnnRelation(kind: QnnKind): RelationFn {
  const [dataName, scaleName, zpName] = kind.names;
  return (args, out, attrs, r) => {
    const ts = [expectTensor(r, args[0]!, dataName), expectTensor(r, args[1]!, scaleName), expectTensor(r, args[2]!, zpName)];
    const err = ts.find(isError);
    if (err !== undefined) return err;
    const [data, scale, zp] = ts as [TensorType | 'wait', TensorType | 'wait', TensorType | 'wait'];
    const dtypeErr =
      qnnDtypeError(r, data, kind.dataDtype, `${dataName} must be ${kind.dataExpect}`) ??
      qnnDtypeError(r, scale, (d) => d === 'float32', `${scaleName} must be float32`) ??
      qnnDtypeError(r, zp, (d) => d === 'int32', `${zpName} must be int32`);
    if (dtypeErr) return dtypeErr;
    for (const [t, name] of [
      [scale, scaleName],
      [zp, zpName],
    ] as const) {
      if (t !== 'wait' && t.shape.length > 1) return r.fail(`${name} must be a scalar or a vector, got ${printType(t)}`);
    }
    if (data === 'wait' || scale === 'wait' || zp === 'wait') return r.wait('the types of data, scale and zero point are not known yet');
    const rank = data.shape.length;
    const pending = new Pending();
    if (!kind.single(scale.shape) || !kind.single(zp.shape)) {
      const axis = qnnAxis(getInt(attrs, 'axis'), rank);
      if (axis < 0 || axis >= Math.max(rank, 1)) return r.fail(`axis ${getInt(attrs, 'axis')} is out of range for a per-axis scale of data of rank ${rank}`);
      const dim = rank > 0 ? data.shape[axis]! : intDim(1);
      for (const [t, name] of [
        [scale, scaleName],
        [zp, zpName],
      ] as const) {
        const e = t.shape.length === 0 ? null : qnnChannels(r, t.shape[0]!, dim, name, pending);
        if (e) return e;
      }
    }
    const built = tensorType(data.shape, getString(attrs, 'out_dtype'));
    return r.assign(out, built, 'the result') ?? finish(r, pending, built);
  };
}

export const quantizeRel: RelationFn = qnnRelation({
  names: ['data', 'output_scale', 'output_zero_point'],
  dataDtype: (d) => d === 'float32',
  dataExpect: 'float32',
  single: (shape) => shape.length === 0,
});

export const dequantizeRel: RelationFn = qnnRelation({
  names: ['data', 'input_scale', 'input_zero_point'],
  dataDtype: (d) => QUANTIZED.has(d),
  dataExpect: 'of a quantized dtype (int8, uint8, int16, uint16, int32)',
  single: (shape) => shape.length === 0 || (shape.length === 1 && shape[0]!.kind === 'int' && shape[0]!.value === 1),
});

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Quantize: quantizeRel,
  Dequantize: dequantizeRel,
};
