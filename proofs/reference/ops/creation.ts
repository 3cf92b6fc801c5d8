// Reference executors for the creation family (declared in relations/creation.rules): each operator
// computed on concrete tensors, element by element.
//
// zeros/ones/full build a buffer of the requested sizes and fill it; the _like forms
// map over data; arange computes ceil((stop - start) / step) values start + i * step, as
// TOPI and numpy do; meshgrid walks every combination of
// the inputs' positions. fill_value must be a scalar (TVM's full reads fill_value()).
import type { Executor, Stricter } from '../executor.js';
import { type NDArray, type Value, asTensor, asTuple, build, fitDtype, isVectorOrSubByte, refuse } from '../tensor.js';

function crArgs(args: readonly Value[], names: readonly string[]): NDArray[] {
  if (args.length !== names.length) refuse(`expected ${names.length} arguments (${names.join(', ')}), got ${args.length}`);
  return names.map((n, i) => asTensor(args[i], n));
}

function crSizes(v: unknown): number[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0)) refuse('shape must be a list of sizes >= 0');
  return v as number[];
}

/** The single element of a scalar tensor. */
function crScalar(t: NDArray, what: string): number {
  if (t.rank !== 0) refuse(`${what} must be a scalar, got a tensor of shape [${t.shape.join(', ')}]`);
  return t.data[0]!;
}

function constant(value: number): Executor {
  return (args, attrs) => {
    crArgs(args, []);
    const dtype = String(attrs.dtype);
    return build(crSizes(attrs.shape), dtype, () => fitDtype(value, dtype));
  };
}

function like(value: number): Executor {
  return (args) => {
    const [data] = crArgs(args, ['data']) as [NDArray];
    return data.map(() => fitDtype(value, data.dtype));
  };
}

const full: Executor = (args, attrs) => {
  const [fill] = crArgs(args, ['fill_value']) as [NDArray];
  const v = crScalar(fill, 'fill_value');
  const dtype = attrs.dtype === '' || attrs.dtype === undefined ? fill.dtype : String(attrs.dtype);
  return build(crSizes(attrs.shape ?? []), dtype, () => fitDtype(v, dtype));
};

const fullLike: Executor = (args) => {
  const [data, fill] = crArgs(args, ['data', 'fill_value']) as [NDArray, NDArray];
  const v = crScalar(fill, 'fill_value');
  return data.map(() => fitDtype(v, data.dtype));
};

const arange: Executor = (args, attrs) => {
  crArgs(args, []);
  const first = Number(attrs.start);
  const [start, stop] = attrs.stop === null || attrs.stop === undefined ? [0, first] : [first, Number(attrs.stop)];
  const step = attrs.step === undefined ? 1 : Number(attrs.step);
  if (step === 0) refuse('step must not be 0');
  // TOPI's arange (as numpy's): ceil((stop - start) / step) elements, computed in double
  // precision, each start + i * step; with float bounds the count can include a value that
  // rounds to stop itself (arange(2, 3.2, 0.3) has 5 elements, the last 3.2)
  const count = Math.max(0, Math.ceil((stop - start) / step));
  const values = Array.from({ length: count }, (_, i) => start + i * step);
  const dtype = String(attrs.dtype ?? 'float32');
  return build([values.length], dtype, ([i]) => fitDtype(values[i!]!, dtype));
};

const meshgrid: Executor = (args, attrs) => {
  if (args.length !== 1) refuse(`expected 1 argument (a tuple), got ${args.length}`);
  const inputs = asTuple(args[0], 'data');
  if (inputs.length === 0) refuse('data must be a non-empty tuple');
  const dtype = inputs[0]!.dtype;
  // each input as a list of values (a scalar is one value)
  const vectors = inputs.map((t, i) => {
    if (t.rank > 1) refuse(`data.${i} must be a scalar or a 1-d tensor, got shape [${t.shape.join(', ')}]`);
    if (t.dtype !== dtype) refuse(`data.${i} has dtype ${t.dtype}, data.0 ${dtype}`);
    return Array.from(t.data);
  });
  // position in the grid that each input's index sits at: "xy" exchanges the first two
  const xy = attrs.indexing === 'xy' && inputs.length >= 2;
  const place = (i: number): number => (xy && i < 2 ? 1 - i : i);
  const sizes: number[] = new Array(inputs.length);
  vectors.forEach((v, i) => {
    sizes[place(i)] = v.length;
  });
  return vectors.map((v, i) => build(sizes, dtype, (idx) => v[idx[place(i)]!]!));
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  zeros: constant(0),
  ones: constant(1),
  full,
  zeros_like: like(0),
  ones_like: like(1),
  full_like: fullLike,
  arange,
  meshgrid,
};

const DTYPES: Stricter = {
  reason: 'the relation rejects vector and sub-byte dtypes (float32x4, int4) that the catalogue accepts; the executor fills any dtype',
  covers: (_args, attrs) => typeof attrs['dtype'] === 'string' && isVectorOrSubByte(attrs['dtype']),
};

/**
 * Operators whose relation deliberately rejects calls the executor can run,
 * with the reason and the calls it covers: only those divergences are expected.
 */
export const STRICTER: Readonly<Record<string, Stricter>> = {
  zeros: DTYPES,
  ones: DTYPES,
  full: DTYPES,
  arange: DTYPES,
};
