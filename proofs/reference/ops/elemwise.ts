// Reference executors for the elemwise family (declared in relations/elemwise.rules): each operator
// computed on concrete tensors, element by element.
//
// Binary operators walk the broadcast index space: its extent per dimension (aligned
// at the right) is the one size that is not 1 among the operands (1 if all are 1); an
// operand of size 1 there is read at index 0; two different sizes other than 1 make the
// operator refuse. TVM's computes need equal operand dtypes (x and y for where; the
// condition may be any dtype). Comparisons give bool tensors; the others keep the
// operands' dtype, with values fitted to it (integer results truncate).
import { SCALAR_DTYPES } from '../../../relations/dtypes.js';
import type { Executor, Stricter } from '../executor.js';
import { type NDArray, type Value, asTensor, build, fitDtype, refuse } from '../tensor.js';

/** The broadcast index space of some shapes (aligned at the right), or a refusal. */
function ewSpace(shapes: readonly (readonly number[])[]): number[] {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  const out: number[] = [];
  for (let i = 0; i < rank; i++) {
    let extent = 1;
    for (const s of shapes) {
      const d = s[s.length - rank + i];
      if (d === undefined || d === 1) continue;
      if (extent !== 1 && d !== extent) refuse(`cannot broadcast shapes ${shapes.map((x) => `[${x.join(', ')}]`).join(' and ')}: ${extent} vs ${d}`);
      extent = d;
    }
    out.push(extent);
  }
  return out;
}

/** The element of `t` that broadcasts to index `idx` of the space. */
function ewAt(t: NDArray, idx: readonly number[]): number {
  const off = idx.length - t.rank;
  return t.get(t.shape.map((d, i) => (d === 1 ? 0 : idx[off + i]!)));
}

function ewTensors(args: readonly Value[], names: readonly string[]): NDArray[] {
  if (args.length !== names.length) refuse(`expected ${names.length} arguments, got ${args.length}`);
  return names.map((n, i) => asTensor(args[i], n));
}

/** A binary operator over the broadcast space; `bool`: the result is a bool tensor. */
function binary(f: (a: number, b: number) => number, bool = false): Executor {
  return (args) => {
    const [a, b] = ewTensors(args, ['lhs', 'rhs']) as [NDArray, NDArray];
    if (a.dtype !== b.dtype) refuse(`the operands have different dtypes: ${a.dtype} and ${b.dtype}`);
    const dtype = bool ? 'bool' : a.dtype;
    return build(ewSpace([a.shape, b.shape]), dtype, (idx) => fitDtype(f(ewAt(a, idx), ewAt(b, idx)), dtype));
  };
}

const truth = (x: number): boolean => x !== 0;
const b01 = (p: boolean): number => (p ? 1 : 0);

function unary(f: (x: number) => number): Executor {
  return (args) => {
    const [x] = ewTensors(args, ['data']) as [NDArray];
    return x.map((v) => fitDtype(f(v), x.dtype));
  };
}

/** A unary test: a bool tensor of data's shape. */
function test(f: (x: number) => boolean): Executor {
  return (args) => {
    const [x] = ewTensors(args, ['data']) as [NDArray];
    return x.map((v) => b01(f(v)), 'bool');
  };
}

/** min(max(x, a_min), a_max), with the bounds cast to data's dtype first. */
const clip: Executor = (args, attrs) => {
  const [x] = ewTensors(args, ['data']) as [NDArray];
  const lo = fitDtype(Number(attrs['a_min']), x.dtype);
  const hi = fitDtype(Number(attrs['a_max']), x.dtype);
  return x.map((v) => Math.min(Math.max(v, lo), hi));
};

/** Rounds half to even (TVM's round follows the C rounding of the target; numpy rounds halves to even). */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** The error function (Abramowitz and Stegun 7.1.26; about 1e-7 accurate). */
function erf(x: number): number {
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return x < 0 ? -y : y;
}

/** Vector dtypes (`float32x4`) are beyond the reference. */
function scalarDtype(d: string): string {
  if (/x[0-9]+$/.test(d)) refuse(`the vector dtype ${d} is not supported by the reference executor`);
  return d;
}

const where: Executor = (args) => {
  const [c, x, y] = ewTensors(args, ['condition', 'x', 'y']) as [NDArray, NDArray, NDArray];
  if (x.dtype !== y.dtype) refuse(`x and y have different dtypes: ${x.dtype} and ${y.dtype}`);
  return build(ewSpace([c.shape, x.shape, y.shape]), x.dtype, (idx) => (truth(ewAt(c, idx)) ? ewAt(x, idx) : ewAt(y, idx)));
};

const cast: Executor = (args, attrs) => {
  const [x] = ewTensors(args, ['data']) as [NDArray];
  const dtype = scalarDtype(String(attrs['dtype']));
  return x.map((v) => fitDtype(v, dtype), dtype);
};

const castLike: Executor = (args) => {
  const [x, like] = ewTensors(args, ['data', 'dtype_like']) as [NDArray, NDArray];
  // only dtype_like's dtype is read: its values and shape do not matter
  const dtype = scalarDtype(like.dtype);
  return x.map((v) => fitDtype(v, dtype), dtype);
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  add: binary((a, b) => a + b),
  subtract: binary((a, b) => a - b),
  multiply: binary((a, b) => a * b),
  divide: binary((a, b) => a / b),
  power: binary((a, b) => a ** b),
  maximum: binary((a, b) => Math.max(a, b)),
  minimum: binary((a, b) => Math.min(a, b)),
  floor_divide: binary((a, b) => Math.floor(a / b)),
  floor_mod: binary((a, b) => a - Math.floor(a / b) * b),
  mod: binary((a, b) => a % b),
  logical_and: binary((a, b) => b01(truth(a) && truth(b))),
  logical_or: binary((a, b) => b01(truth(a) || truth(b))),
  logical_xor: binary((a, b) => b01(truth(a) !== truth(b))),
  equal: binary((a, b) => b01(a === b), true),
  not_equal: binary((a, b) => b01(a !== b), true),
  less: binary((a, b) => b01(a < b), true),
  less_equal: binary((a, b) => b01(a <= b), true),
  greater: binary((a, b) => b01(a > b), true),
  greater_equal: binary((a, b) => b01(a >= b), true),
  where,
  exp: unary(Math.exp),
  log: unary(Math.log),
  log2: unary(Math.log2),
  sqrt: unary(Math.sqrt),
  rsqrt: unary((x) => 1 / Math.sqrt(x)),
  tanh: unary(Math.tanh),
  sigmoid: unary((x) => 1 / (1 + Math.exp(-x))),
  negative: unary((x) => -x),
  abs: unary(Math.abs),
  floor: unary(Math.floor),
  ceil: unary(Math.ceil),
  round: unary(roundHalfEven),
  trunc: unary(Math.trunc),
  sign: unary(Math.sign),
  erf: unary(erf),
  cos: unary(Math.cos),
  sin: unary(Math.sin),
  logical_not: unary((x) => b01(!truth(x))),
  cast,
  cast_like: castLike,
  tan: unary(Math.tan),
  atan: unary(Math.atan),
  acos: unary(Math.acos),
  asin: unary(Math.asin),
  acosh: unary(Math.acosh),
  asinh: unary(Math.asinh),
  atanh: unary(Math.atanh),
  cosh: unary(Math.cosh),
  sinh: unary(Math.sinh),
  log10: unary(Math.log10),
  fast_exp: unary(Math.exp),
  fast_tanh: unary(Math.tanh),
  fast_erf: unary(erf),
  copy: unary((x) => x),
  isnan: test(Number.isNaN),
  isfinite: test(Number.isFinite),
  isinf: test((x) => x === Infinity || x === -Infinity),
  clip,
};

/** The cast targets the relation knows. */

/**
 * Operators whose relation deliberately rejects calls the executor can run,
 * with the reason and the calls it covers: only those divergences are expected.
 */
export const STRICTER: Readonly<Record<string, Stricter>> = {
  cast: {
    reason:
      'target dtypes outside the table bool, int8-int64, uint8-uint64, float16/32/64, bfloat16 (e.g. int4, int1) are rejected by the relation; the reference casts to them',
    covers: (_args, attrs) => typeof attrs['dtype'] === 'string' && !SCALAR_DTYPES.has(attrs['dtype']),
  },
};
