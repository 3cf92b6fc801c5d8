// Reference executors for the quantization family (relations/qnn.rules), after TVM's
// canonical lowering of qnn.quantize and qnn.dequantize.
//
// The scale and the zero point are one value (a scalar; for dequantize also a (1,)
// vector) or one per channel of the axis: a vector whose length is the axis dim,
// read at each element's axis coordinate. What has no meaning is refused: data,
// scale or zero point of another dtype than the operator takes, a parameter of rank
// >= 2, a per-axis parameter on an axis out of range or of the wrong length.
import type { Executor, Stricter } from '../executor.js';
import { type NDArray, type Value, asTensor, build, refuse } from '../tensor.js';

const QUANTIZED: Readonly<Record<string, [number, number]>> = {
  int8: [-128, 127],
  uint8: [0, 255],
  int16: [-32768, 32767],
  uint16: [0, 65535],
  int32: [-2147483648, 2147483647],
};

function qnnArgs(args: readonly Value[], names: readonly string[]): NDArray[] {
  if (args.length !== names.length) refuse(`expected ${names.length} arguments (${names.join(', ')}), got ${args.length}`);
  return names.map((n, i) => asTensor(args[i], n));
}

/** For each element index of data, the parameter value that applies to it. */
function qnnParam(p: NDArray, name: string, data: NDArray, axis: number | null): (idx: readonly number[]) => number {
  if (p.rank > 1) refuse(`${name} has rank ${p.rank}: one value or one per channel`);
  if (axis === null) return () => p.data[0]!;
  const channels = data.rank > 0 ? data.shape[axis]! : 1;
  if (p.rank === 1 && p.shape[0] !== channels) refuse(`${name} has ${p.shape[0]} values for ${channels} channels`);
  return (idx) => (p.rank === 0 ? p.data[0]! : p.data[data.rank > 0 ? idx[axis]! : 0]!);
}

/** The channel axis, or null when both parameters are single values. */
function qnnAxis(data: NDArray, scale: NDArray, zp: NDArray, given: unknown, single: (p: NDArray) => boolean): number | null {
  if (single(scale) && single(zp)) return null;
  const a = Number(given ?? -1);
  const axis = a >= 0 ? a : data.rank > 0 ? a + data.rank : 0;
  if (axis < 0 || axis >= Math.max(data.rank, 1)) refuse(`axis ${a} is out of range for data of rank ${data.rank}`);
  return axis;
}

function qnnExecutor(quantize: boolean): Executor {
  const single = (p: NDArray): boolean => p.rank === 0 || (!quantize && p.rank === 1 && p.shape[0] === 1);
  return (args, attrs) => {
    const [data, scale, zp] = qnnArgs(args, quantize ? ['data', 'output_scale', 'output_zero_point'] : ['data', 'input_scale', 'input_zero_point']) as [
      NDArray,
      NDArray,
      NDArray,
    ];
    if (quantize ? data.dtype !== 'float32' : QUANTIZED[data.dtype] === undefined)
      refuse(`data of dtype ${data.dtype} cannot be ${quantize ? 'quantized' : 'dequantized'}`);
    if (scale.dtype !== 'float32') refuse(`the scale must be float32, not ${scale.dtype}`);
    if (zp.dtype !== 'int32') refuse(`the zero point must be int32, not ${zp.dtype}`);
    const axis = qnnAxis(data, scale, zp, attrs['axis'], single);
    const s = qnnParam(scale, 'the scale', data, axis);
    const z = qnnParam(zp, 'the zero point', data, axis);
    const dtype = String(attrs['out_dtype'] ?? (quantize ? 'int8' : 'float32'));
    if (!quantize) return build(data.shape, dtype, (idx) => (data.get(idx) - z(idx)) * s(idx));
    const range = QUANTIZED[dtype];
    if (range === undefined) refuse(`cannot quantize to ${dtype}`);
    return build(data.shape, dtype, (idx) => Math.min(Math.max(Math.round(data.get(idx) / s(idx)) + z(idx), range[0]), range[1]));
  };
}

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  'qnn.quantize': qnnExecutor(true),
  'qnn.dequantize': qnnExecutor(false),
};

/** The relations reject exactly what the executors refuse (see the header). */
export const STRICTER: Readonly<Record<string, Stricter>> = {};
