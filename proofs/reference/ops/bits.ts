// Reference executors for the bit-level family (relations/bits.rules): bit
// operations on integer tensors, fixed_point_multiply on int32, and reinterpret.
//
// Like TVM's computes (not its relations), they refuse what has no meaning on
// bits: a bit operation on a float or bool tensor, fixed_point_multiply on
// anything but int32, a reinterpretation that changes the bit width. Values are
// held as numbers (exact for the small integers of the random inputs); a
// reinterpretation goes through the exact bit pattern of each element.
import type { Executor, Stricter } from '../executor.js';
import { type NDArray, type Value, asTensor, build, isIntDtype, refuse } from '../tensor.js';

function bitsArgs(args: readonly Value[], names: readonly string[]): NDArray[] {
  if (args.length !== names.length) refuse(`expected ${names.length} arguments, got ${args.length}`);
  return names.map((n, i) => asTensor(args[i], n));
}

function needInt(t: NDArray, what: string): void {
  if (!isIntDtype(t.dtype)) refuse(`${what} has dtype ${t.dtype}: bit operations need an integer dtype`);
}

/** The broadcast extent of two shapes aligned at the right, or a refusal. */
function bitsSpace(a: readonly number[], b: readonly number[]): number[] {
  const rank = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < rank; i++) {
    const x = a[a.length - rank + i] ?? 1;
    const y = b[b.length - rank + i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) refuse(`cannot broadcast [${a.join(', ')}] with [${b.join(', ')}]`);
    out.push(x === 1 ? y : x);
  }
  return out;
}

const bitsAt = (t: NDArray, idx: readonly number[]): number => t.get(t.shape.map((d, i) => (d === 1 ? 0 : idx[idx.length - t.rank + i]!)));

/** The value as an integer of the dtype (wrapping, as the hardware does). */
function wrap(x: bigint, dtype: string): number {
  const bits = Number(/[0-9]+$/.exec(dtype)![0]);
  return Number(dtype.startsWith('u') ? BigInt.asUintN(bits, x) : BigInt.asIntN(bits, x));
}

function binaryBits(f: (a: bigint, b: bigint) => bigint): Executor {
  return (args) => {
    const [a, b] = bitsArgs(args, ['lhs', 'rhs']) as [NDArray, NDArray];
    needInt(a, 'lhs');
    needInt(b, 'rhs');
    if (a.dtype !== b.dtype) refuse(`the operands have different dtypes: ${a.dtype} and ${b.dtype}`);
    return build(bitsSpace(a.shape, b.shape), a.dtype, (idx) => wrap(f(BigInt(bitsAt(a, idx)), BigInt(bitsAt(b, idx))), a.dtype));
  };
}

const bitwiseNot: Executor = (args) => {
  const [x] = bitsArgs(args, ['data']) as [NDArray];
  needInt(x, 'data');
  return x.map((v) => wrap(~BigInt(v), x.dtype));
};

/** round(x * multiplier * 2 ** (shift - 31)), on int32 (TVM's q_multiply_shift). */
const fixedPointMultiply: Executor = (args, attrs) => {
  const [x] = bitsArgs(args, ['data']) as [NDArray];
  if (x.dtype !== 'int32') refuse(`data has dtype ${x.dtype}: fixed_point_multiply takes int32`);
  const m = Number(attrs['multiplier']);
  const shift = Number(attrs['shift']);
  return x.map((v) => wrap(BigInt(Math.round(v * m * 2 ** (shift - 31))), 'int32'));
};

// ─── reinterpret ─────────────────────────────────────────────────────────────

const WIDTH: Readonly<Record<string, number>> = {
  bool: 1,
  int8: 8,
  uint8: 8,
  int16: 16,
  uint16: 16,
  float16: 16,
  bfloat16: 16,
  int32: 32,
  uint32: 32,
  float32: 32,
  int64: 64,
  uint64: 64,
  float64: 64,
};

/** IEEE half precision bits of x (rounding toward zero: enough for a bit pattern). */
function halfBits(x: number): bigint {
  const f = new DataView(new ArrayBuffer(4));
  f.setFloat32(0, x);
  const b = f.getUint32(0);
  const sign = (b >>> 16) & 0x8000;
  const exp = ((b >>> 23) & 0xff) - 127 + 15;
  const mant = b & 0x7fffff;
  if (exp >= 31) return BigInt(sign | 0x7c00 | (Number.isNaN(x) ? 0x200 : 0));
  if (exp <= 0) return BigInt(sign);
  return BigInt(sign | (exp << 10) | (mant >>> 13));
}

function halfValue(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >>> 10) & 0x1f;
  const mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 31) return mant === 0 ? sign * Infinity : NaN;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** The bit pattern of a value of a dtype, as an unsigned integer. */
function toBits(x: number, dtype: string): bigint {
  const view = new DataView(new ArrayBuffer(8));
  switch (dtype) {
    case 'bool':
      return x !== 0 ? 1n : 0n;
    case 'float16':
      return halfBits(x);
    case 'bfloat16':
      view.setFloat32(0, x);
      return BigInt(view.getUint32(0) >>> 16);
    case 'float32':
      view.setFloat32(0, x);
      return BigInt(view.getUint32(0));
    case 'float64':
      view.setFloat64(0, x);
      return view.getBigUint64(0);
    default:
      return BigInt.asUintN(WIDTH[dtype]!, BigInt(Math.trunc(x)));
  }
}

/** The value of a dtype with this bit pattern. */
function fromBits(bits: bigint, dtype: string): number {
  const view = new DataView(new ArrayBuffer(8));
  switch (dtype) {
    case 'bool':
      return Number(bits);
    case 'float16':
      return halfValue(Number(bits));
    case 'bfloat16':
      view.setUint32(0, Number(bits) << 16);
      return view.getFloat32(0);
    case 'float32':
      view.setUint32(0, Number(bits));
      return view.getFloat32(0);
    case 'float64':
      view.setBigUint64(0, bits);
      return view.getFloat64(0);
    default:
      return wrap(bits, dtype);
  }
}

const reinterpret: Executor = (args, attrs) => {
  const [x] = bitsArgs(args, ['data']) as [NDArray];
  const dtype = String(attrs['dtype']);
  const to = WIDTH[dtype];
  const from = WIDTH[x.dtype];
  if (to === undefined) refuse(`the dtype ${dtype} is not supported by the reference executor`);
  if (from !== to) refuse(`cannot reinterpret ${x.dtype} (${from ?? '?'} bits) as ${dtype} (${to} bits)`);
  return x.map((v) => fromBits(toBits(v, x.dtype), dtype), dtype);
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  bitwise_and: binaryBits((a, b) => a & b),
  bitwise_or: binaryBits((a, b) => a | b),
  bitwise_xor: binaryBits((a, b) => a ^ b),
  left_shift: binaryBits((a, b) => a << b),
  right_shift: binaryBits((a, b) => a >> b),
  bitwise_not: bitwiseNot,
  fixed_point_multiply: fixedPointMultiply,
  reinterpret,
};

/** The relations reject exactly what the executors refuse (see the header). */
export const STRICTER: Readonly<Record<string, Stricter>> = {};
