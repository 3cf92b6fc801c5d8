// Reference executors for the shape family (declared in relations/transform.rules): each operator
// computed on concrete tensors, element by element.
//
// Every executor works as the operator's compute does, from TVM's documentation of
// tvm.relay.* (and topi for strided_slice's clamping): a reshape resolves newshape's
// special values by its own reading of the docs and then moves the elements in
// row-major order; a slice walks its indices from begin in steps of stride; a pad
// copies into a larger buffer; tile/repeat/broadcast_to read the source element of
// each output position; take gathers with clipped or wrapped indices. Output shapes
// come out of these walks. Nothing here imports relation code.
import type { Attrs, Executor, Stricter } from '../executor.js';
import { NDArray, asTensor, asTuple, build, isIntDtype, refuse, type Value } from '../tensor.js';

// ─── helpers ─────────────────────────────────────────────────────────────────

function one(args: readonly Value[], n = 1): void {
  if (args.length !== n) refuse(`expected ${n} argument(s), got ${args.length}`);
}

function ints(v: unknown, what: string): number[] {
  if (typeof v === 'number') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'number')) return v as number[];
  refuse(`${what} must be an int or a list of ints`);
}

/** An axis in [-size, size) (as given) → its index, or a refusal. */
function axisOf(axis: number, size: number, what = 'axis'): number {
  if (!Number.isInteger(axis) || axis < -size || axis >= size) refuse(`${what} ${axis} is out of range (must be in [${-size}, ${size - 1}])`);
  return axis < 0 ? axis + size : axis;
}

/** The same elements in row-major order under a new shape. */
function moveTo(x: NDArray, shape: readonly number[]): NDArray {
  const size = shape.reduce((a, b) => a * b, 1);
  if (size !== x.size) refuse(`cannot move ${x.size} elements into shape [${shape.join(', ')}] (${size} elements)`);
  return new NDArray(shape, x.dtype, Float64Array.from(x.data));
}

// ─── reshape family ──────────────────────────────────────────────────────────

/**
 * The target shape of a reshape, read from the docs of relay.reshape: positive values
 * are sizes; 0 copies the input dim at the current position (a literal 0 with
 * allowzero); -1 is inferred from the remainder of the input dims (those not copied,
 * merged or split) divided by the other new sizes; -2 copies all remaining input
 * dims; -3 multiplies the next two input dims; -4 splits the next input dim into
 * the two values that follow (one may be -1). Positive values and -1 also move the
 * input position on by one.
 */
function reshapeTarget(dims: readonly number[], spec: readonly number[], allowzero: boolean): number[] {
  const target: (number | null)[] = [];
  const copiedIn = new Set<number>();
  const copiedOut = new Set<number>();
  let pos = 0;
  let hole = -1;
  for (let k = 0; k < spec.length; k++) {
    const v = spec[k]!;
    if (v > 0) {
      target.push(v);
      pos++;
    } else if (v === 0) {
      if (allowzero) {
        target.push(0);
        pos++;
      } else {
        if (pos >= dims.length) refuse(`0 at position ${k} has no input dim to copy`);
        copiedIn.add(pos);
        copiedOut.add(target.length);
        target.push(dims[pos++]!);
      }
    } else if (v === -1) {
      if (hole >= 0) refuse('more than one -1');
      hole = target.length;
      target.push(null);
      pos++;
    } else if (v === -2) {
      for (; pos < dims.length; pos++) {
        copiedIn.add(pos);
        copiedOut.add(target.length);
        target.push(dims[pos]!);
      }
    } else if (v === -3) {
      if (pos + 1 >= dims.length) refuse(`-3 at position ${k} needs two input dims`);
      copiedIn.add(pos).add(pos + 1);
      copiedOut.add(target.length);
      target.push(dims[pos]! * dims[pos + 1]!);
      pos += 2;
    } else if (v === -4) {
      if (k + 2 >= spec.length) refuse(`-4 at position ${k} needs two values after it`);
      if (pos >= dims.length) refuse(`-4 at position ${k} has no input dim to split`);
      const whole = dims[pos]!;
      let a = spec[k + 1]!;
      let b = spec[k + 2]!;
      k += 2;
      if (a === -1 && b === -1) refuse('-4 with two -1');
      if ((a < 1 && a !== -1) || (b < 1 && b !== -1)) refuse('the values after -4 must be positive or -1');
      if (a === -1) {
        if (whole % b !== 0) refuse(`cannot split ${whole} by ${b}`);
        a = whole / b;
      } else if (b === -1) {
        if (whole % a !== 0) refuse(`cannot split ${whole} by ${a}`);
        b = whole / a;
      }
      if (a * b !== whole) refuse(`cannot split ${whole} into ${a} x ${b}`);
      copiedIn.add(pos++);
      copiedOut.add(target.length).add(target.length + 1);
      target.push(a, b);
    } else refuse(`${v} is not a valid newshape value`);
  }
  if (hole >= 0) {
    let rest = 1;
    dims.forEach((d, i) => {
      if (!copiedIn.has(i)) rest *= d;
    });
    // with the other new sizes multiplying to 0, every value keeps the size: -1 is ambiguous (numpy refuses)
    if (target.some((d, i) => i !== hole && d === 0)) refuse('cannot infer -1 next to a size 0');
    let others = 1;
    target.forEach((d, i) => {
      if (i !== hole && !copiedOut.has(i)) others *= d!;
    });
    if (rest % others !== 0) refuse(`cannot infer -1: ${rest} remaining elements over ${others}`);
    target[hole] = rest / others;
  }
  return target as number[];
}

const reshape: Executor = (args, attrs) => {
  one(args);
  const x = asTensor(args[0], 'data');
  return moveTo(x, reshapeTarget(x.shape, ints(attrs['newshape'], 'newshape'), attrs['allowzero'] === true));
};

const reverseReshape: Executor = (args, attrs) => {
  one(args);
  const x = asTensor(args[0], 'data');
  const spec = ints(attrs['newshape'], 'newshape');
  if (spec.includes(-4)) refuse('reverse_reshape: -4 has no meaning when read right to left');
  const target = reshapeTarget([...x.shape].reverse(), [...spec].reverse(), false).reverse();
  return moveTo(x, target);
};

const reshapeLike: Executor = (args, attrs) => {
  one(args, 2);
  const x = asTensor(args[0], 'data');
  const like = asTensor(args[1], 'shape_like');
  const range = (b: unknown, e: unknown, rank: number, what: string): [number, number] => {
    let lo = b as number;
    let hi = e === null || e === undefined ? rank : (e as number);
    if (lo < 0) lo += rank;
    if (hi < 0) hi += rank;
    if (lo < 0 || hi > rank || lo > hi) refuse(`${what}: [${b}, ${e}) is not a range of ${rank} dims`);
    return [lo, hi];
  };
  const [lb, le] = range(attrs['lhs_begin'] ?? 0, attrs['lhs_end'], x.rank, 'lhs');
  const [rb, re] = range(attrs['rhs_begin'] ?? 0, attrs['rhs_end'], like.rank, 'rhs');
  const target = [...x.shape.slice(0, lb), ...like.shape.slice(rb, re), ...x.shape.slice(le)];
  return moveTo(x, target);
};

// ─── axes ────────────────────────────────────────────────────────────────────

const transpose: Executor = (args, attrs) => {
  one(args);
  const x = asTensor(args[0], 'data');
  const given = attrs['axes'];
  const perm = given === null || given === undefined ? x.shape.map((_, i) => x.rank - 1 - i) : ints(given, 'axes').map((a) => axisOf(a, x.rank, 'axes'));
  if (perm.length !== x.rank || new Set(perm).size !== perm.length) refuse(`axes [${perm.join(', ')}] is not a permutation of ${x.rank} axes`);
  return build(
    perm.map((p) => x.shape[p]!),
    x.dtype,
    (o) => {
      const src = new Array<number>(x.rank);
      perm.forEach((p, i) => {
        src[p] = o[i]!;
      });
      return x.get(src);
    },
  );
};

const expandDims: Executor = (args, attrs) => {
  one(args);
  const x = asTensor(args[0], 'data');
  const at = axisOf(attrs['axis'] as number, x.rank + 1);
  const k = attrs['num_newaxis'] as number;
  if (k < 0) refuse('num_newaxis must be >= 0');
  const shape = [...x.shape];
  for (let i = 0; i < k; i++) shape.splice(at, 0, 1);
  return moveTo(x, shape);
};

const squeeze: Executor = (args, attrs) => {
  one(args);
  const x = asTensor(args[0], 'data');
  const given = attrs['axis'];
  let drop: number[];
  if (given === null || given === undefined) drop = x.shape.flatMap((d, i) => (d === 1 ? [i] : []));
  else {
    drop = ints(given, 'axis').map((a) => axisOf(a, x.rank));
    if (new Set(drop).size !== drop.length) refuse('an axis is repeated');
    for (const a of drop) if (x.shape[a] !== 1) refuse(`axis ${a} has size ${x.shape[a]}, not 1`);
  }
  return moveTo(
    x,
    x.shape.filter((_, i) => !drop.includes(i)),
  );
};

const reverse: Executor = (args, attrs) => {
  one(args);
  const x = asTensor(args[0], 'data');
  const a = axisOf(attrs['axis'] as number, x.rank);
  return build(x.shape, x.dtype, (o) => {
    const src = [...o];
    src[a] = x.shape[a]! - 1 - o[a]!;
    return x.get(src);
  });
};

// ─── joining and splitting ───────────────────────────────────────────────────

const concatenate: Executor = (args, attrs) => {
  one(args);
  const xs = asTuple(args[0], 'data');
  if (xs.length === 0) refuse('nothing to concatenate');
  const first = xs[0]!;
  const a = axisOf(attrs['axis'] as number, first.rank);
  for (const t of xs) {
    if (t.rank !== first.rank || t.dtype !== first.dtype) refuse('the tensors differ in rank or dtype');
    for (let i = 0; i < t.rank; i++) if (i !== a && t.shape[i] !== first.shape[i]) refuse(`the tensors differ in dim ${i}`);
  }
  // walk the pieces along the axis, appending their slices
  const shape = [...first.shape];
  shape[a] = 0;
  const owner: [NDArray, number][] = [];
  for (const t of xs) for (let k = 0; k < t.shape[a]!; k++) owner.push([t, k]);
  shape[a] = owner.length;
  return build(shape, first.dtype, (o) => {
    const [t, k] = owner[o[a]!]!;
    const src = [...o];
    src[a] = k;
    return t.get(src);
  });
};

const stack: Executor = (args, attrs) => {
  one(args);
  const xs = asTuple(args[0], 'data');
  if (xs.length === 0) refuse('nothing to stack');
  const first = xs[0]!;
  for (const t of xs) if (t.dtype !== first.dtype || t.shape.join() !== first.shape.join()) refuse('the tensors differ in shape or dtype');
  const a = axisOf(attrs['axis'] as number, first.rank + 1);
  const shape = [...first.shape];
  shape.splice(a, 0, xs.length);
  return build(shape, first.dtype, (o) => {
    const src = [...o];
    const [k] = src.splice(a, 1);
    return xs[k!]!.get(src);
  });
};

const split: Executor = (args, attrs) => {
  one(args);
  const x = asTensor(args[0], 'data');
  if (x.rank === 0) refuse('cannot split a scalar');
  const a = axisOf(attrs['axis'] as number, x.rank);
  const d = x.shape[a]!;
  const ios = attrs['indices_or_sections'];
  let cuts: number[];
  if (typeof ios === 'number') {
    if (ios < 1 || d % ios !== 0) refuse(`cannot split ${d} into ${ios} equal sections`);
    cuts = Array.from({ length: ios - 1 }, (_, i) => ((i + 1) * d) / ios);
  } else {
    cuts = ints(ios, 'indices_or_sections');
    // the indices are documented as sorted: where each piece starts
    for (let i = 0; i < cuts.length; i++) if (cuts[i]! <= (i === 0 ? 0 : cuts[i - 1]!)) refuse('indices must be positive and increasing');
  }
  const bounds = [0, ...cuts.map((c) => Math.min(c, d)), d];
  const pieces: NDArray[] = [];
  for (let p = 0; p + 1 < bounds.length; p++) {
    const lo = bounds[p]!;
    const shape = [...x.shape];
    shape[a] = Math.max(bounds[p + 1]! - lo, 0);
    pieces.push(
      build(shape, x.dtype, (o) => {
        const src = [...o];
        src[a] = o[a]! + lo;
        return x.get(src);
      }),
    );
  }
  return pieces;
};

// ─── slicing ─────────────────────────────────────────────────────────────────

/** TVM's CanonicalizeIndex (topi/detail/strided_slice.h): negative + extent, clamped to [0, extent] or [-1, extent - 1]. */
function clampIndex(i: number, extent: number, stride: number): number {
  const lo = stride < 0 ? -1 : 0;
  const hi = stride < 0 ? extent - 1 : extent;
  const v = i < 0 ? i + extent : i;
  return Math.min(Math.max(v, lo), hi);
}

const stridedSlice: Executor = (args, attrs) => {
  one(args);
  const x = asTensor(args[0], 'data');
  const begin = ints(attrs['begin'], 'begin');
  const end = ints(attrs['end'], 'end');
  const strides = attrs['strides'] === null || attrs['strides'] === undefined ? null : ints(attrs['strides'], 'strides');
  const sizeMode = attrs['slice_mode'] === 'size';
  if (strides?.includes(0)) refuse('a stride of 0');
  let axes: number[];
  if (attrs['axes'] === null || attrs['axes'] === undefined) {
    if (begin.length > x.rank || end.length > x.rank || (strides?.length ?? 0) > x.rank) refuse('more begin/end/strides entries than axes');
    axes = x.shape.map((_, i) => i);
  } else {
    axes = ints(attrs['axes'], 'axes').map((a) => axisOf(a, x.rank, 'axes'));
    if (new Set(axes).size !== axes.length) refuse('an axis is repeated');
    if (begin.length !== axes.length || end.length !== axes.length || (strides !== null && strides.length !== axes.length))
      refuse('begin/end/strides do not match axes');
  }
  const BIG = Number.MAX_SAFE_INTEGER; // "to the end" (TVM: int64 max)
  // the source indices along every axis
  const picks: number[][] = x.shape.map((d) => Array.from({ length: d }, (_, i) => i));
  axes.forEach((axis, j) => {
    const d = x.shape[axis]!;
    const s = sizeMode ? 1 : (strides?.[j] ?? 1);
    const b0 = j < begin.length ? begin[j]! : s > 0 ? 0 : BIG;
    let e0: number;
    if (j >= end.length) e0 = s < 0 ? 0 : BIG;
    else if (sizeMode) e0 = end[j]! < 0 ? BIG : b0 + end[j]!;
    else e0 = end[j]!;
    const b = clampIndex(b0, d, s);
    const e = clampIndex(e0, d, s);
    const walk: number[] = [];
    for (let i = b; s > 0 ? i < e : i > e; i += s) walk.push(i);
    picks[axis] = walk;
  });
  return build(
    picks.map((p) => p.length),
    x.dtype,
    (o) => x.get(o.map((i, k) => picks[k]![i]!)),
  );
};

const sliceLike: Executor = (args, attrs) => {
  one(args, 2);
  const x = asTensor(args[0], 'data');
  const like = asTensor(args[1], 'shape_like');
  let axes: number[];
  if (attrs['axes'] === null || attrs['axes'] === undefined) axes = Array.from({ length: Math.min(x.rank, like.rank) }, (_, i) => i);
  else {
    axes = ints(attrs['axes'], 'axes').map((a) => axisOf(a, x.rank, 'axes'));
    if (axes.length === 0) refuse('axes cannot be empty');
    if (new Set(axes).size !== axes.length) refuse('an axis is repeated');
    for (const a of axes) if (a >= like.rank) refuse(`axis ${a} is beyond shape_like's rank`);
  }
  const ends = [...x.shape];
  for (const a of axes) {
    if (like.shape[a]! > x.shape[a]!) refuse(`axis ${a}: ${like.shape[a]} is past the end ${x.shape[a]}`);
    ends[a] = like.shape[a]!;
  }
  // copy data[0:end] per axis
  return build(ends, x.dtype, (o) => x.get(o));
};

// ─── tiling, repeating, padding, broadcasting ────────────────────────────────

const tile: Executor = (args, attrs) => {
  one(args);
  const x = asTensor(args[0], 'data');
  const reps = ints(attrs['reps'], 'reps');
  if (reps.some((r) => r < 1)) refuse('reps must be >= 1');
  const n = Math.max(x.rank, reps.length);
  const dims = [...new Array<number>(n - x.rank).fill(1), ...x.shape];
  const times = [...new Array<number>(n - reps.length).fill(1), ...reps];
  // the data (viewed with leading 1s) laid out times[i] times along each axis
  const shape = dims.map((d, i) => d * times[i]!);
  return build(shape, x.dtype, (o) => x.get(o.slice(n - x.rank).map((v, i) => v % x.shape[i]!)));
};

const repeat: Executor = (args, attrs) => {
  one(args);
  const x = asTensor(args[0], 'data');
  const k = attrs['repeats'] as number;
  if (k < 1) refuse('repeats must be >= 1');
  const a = axisOf(attrs['axis'] as number, x.rank);
  // each source position along the axis, k times in a row
  const source: number[] = [];
  for (let i = 0; i < x.shape[a]!; i++) for (let t = 0; t < k; t++) source.push(i);
  const shape = [...x.shape];
  shape[a] = source.length;
  return build(shape, x.dtype, (o) => {
    const src = [...o];
    src[a] = source[o[a]!]!;
    return x.get(src);
  });
};

/** The value written into the padding: TOPI casts pad_val to the data dtype and reads its first element; else the attribute. */
function padValue(args: readonly Value[], attrs: Attrs): number {
  if (args.length === 1) return (attrs['pad_value'] as number | undefined) ?? 0;
  const v = asTensor(args[1], 'pad_val');
  if (v.size === 0) refuse('pad_val has no element to read');
  return v.data[0]!;
}

const pad: Executor = (args, attrs) => {
  if (args.length !== 1 && args.length !== 2) refuse(`expected 1 or 2 arguments (data, pad_val), got ${args.length}`);
  const x = asTensor(args[0], 'data');
  const value = padValue(args, attrs);
  // one [before, after] pair per axis, or the flat form [b0, a0, b1, a1, ...]
  const raw = attrs['pad_width'];
  if (Array.isArray(raw) && raw.some((p) => Array.isArray(p)) && !raw.every((p) => Array.isArray(p) && p.length === 2))
    refuse('pad_width must be [before, after] pairs');
  const pw = ints(Array.isArray(raw) && raw.every((p) => Array.isArray(p)) ? (raw as unknown[][]).flat() : raw, 'pad_width');
  const mode = (attrs['pad_mode'] as string | undefined) ?? 'constant';
  if (pw.length !== 2 * x.rank) refuse(`pad_width has ${pw.length} values for ${x.rank} axes`);
  const before = x.shape.map((_, i) => pw[2 * i]!);
  const after = x.shape.map((_, i) => pw[2 * i + 1]!);
  x.shape.forEach((d, i) => {
    // a negative pad crops (TOPI reads data[o - before]); the cropped axis cannot go below size 0 (PadRel's check)
    if (d + before[i]! + after[i]! < 0) refuse(`axis ${i} of size ${d} cropped below size 0`);
    if (mode === 'edge' && d === 0 && before[i]! + after[i]! > 0) refuse(`edge padding of the empty axis ${i}`);
    if (mode === 'reflect' && ((before[i]! > 0 && before[i]! >= d) || (after[i]! > 0 && after[i]! >= d)))
      refuse(`reflect padding of axis ${i} by more than its size - 1`);
  });
  if (mode !== 'constant' && mode !== 'edge' && mode !== 'reflect') refuse(`unknown pad_mode ${mode}`);
  // a buffer with room for the pads (less the crops), each position read from the data or filled
  const shape = x.shape.map((d, i) => before[i]! + d + after[i]!);
  return build(shape, x.dtype, (o) => {
    const src: number[] = [];
    for (let i = 0; i < x.rank; i++) {
      const d = x.shape[i]!;
      let j = o[i]! - before[i]!;
      if (j < 0 || j >= d) {
        if (mode === 'constant') return value;
        if (mode === 'edge') j = j < 0 ? 0 : d - 1;
        else j = j < 0 ? -j : 2 * (d - 1) - j;
      }
      src.push(j);
    }
    return x.get(src);
  });
};

const broadcastTo: Executor = (args, attrs) => {
  one(args);
  const x = asTensor(args[0], 'data');
  const shape = ints(attrs['shape'], 'shape');
  if (shape.some((d) => d < 0)) refuse('negative target dims');
  if (x.rank > shape.length) refuse('data has more dims than the target');
  const off = shape.length - x.rank;
  x.shape.forEach((d, i) => {
    if (d !== 1 && d !== shape[off + i]) refuse(`dim ${d} cannot broadcast to ${shape[off + i]}`);
  });
  return build(shape, x.dtype, (o) => x.get(x.shape.map((d, i) => (d === 1 ? 0 : o[off + i]!))));
};

// ─── take ────────────────────────────────────────────────────────────────────

const take: Executor = (args, attrs: Attrs) => {
  one(args, 2);
  const x = asTensor(args[0], 'data');
  const idx = asTensor(args[1], 'indices');
  if (!isIntDtype(idx.dtype)) refuse('indices must be integers');
  const mode = (attrs['mode'] as string | undefined) ?? 'clip';
  const fix = (k: number, n: number): number | null => {
    if (n === 0) return null; // nothing to read: TVM's compute would read out of bounds
    if (mode === 'wrap') return ((k % n) + n) % n;
    return Math.min(Math.max(k, 0), n - 1); // clip; 'fast' assumes in-range indices, clipping changes nothing then
  };
  const axisAttr = attrs['axis'];
  if (axisAttr === null || axisAttr === undefined) {
    return build(idx.shape, x.dtype, (o) => {
      const k = fix(idx.get(o), x.size);
      return k === null ? 0 : x.data[k]!;
    });
  }
  const a = axisOf(axisAttr as number, x.rank);
  let bd = (attrs['batch_dims'] as number | undefined) ?? 0;
  if (bd < 0) bd += idx.rank;
  if (bd < 0 || bd > idx.rank || bd > a) refuse(`batch_dims ${attrs['batch_dims']} does not fit`);
  for (let i = 0; i < bd; i++) if (x.shape[i] !== idx.shape[i]) refuse(`batch dim ${i} differs`);
  // output positions: data's leading axes, then the indices' own axes, then data's trailing axes
  const inner = idx.rank - bd;
  const shape = [...x.shape.slice(0, a), ...idx.shape.slice(bd), ...x.shape.slice(a + 1)];
  return build(shape, x.dtype, (o) => {
    const lead = o.slice(0, a);
    const at = [...lead.slice(0, bd), ...o.slice(a, a + inner)];
    const k = fix(idx.get(at), x.shape[a]!);
    if (k === null) return 0;
    return x.get([...lead, k, ...o.slice(a + inner)]);
  });
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  reshape,
  reverse_reshape: reverseReshape,
  reshape_like: reshapeLike,
  transpose,
  expand_dims: expandDims,
  squeeze,
  concatenate,
  stack,
  split,
  strided_slice: stridedSlice,
  slice_like: sliceLike,
  tile,
  repeat,
  reverse,
  'nn.pad': pad,
  broadcast_to: broadcastTo,
  take,
};

/**
 * Operators whose relation deliberately rejects calls the executor can run,
 * with the reason and the calls it covers: only those divergences are expected.
 */
export const STRICTER: Readonly<Record<string, Stricter>> = {
  'nn.pad': {
    reason:
      'pad_val must be a scalar: TVM accepts any tensor and its compute silently uses only the first element, so the relation refuses a pad_val of rank > 0',
    // the executor (as TOPI) ran it reading one element of a pad_val that holds more dims
    covers: (args) => args.length === 2 && args[1] instanceof NDArray && args[1].rank > 0,
  },
  split: {
    reason: "indices at or past the dimension (empty trailing pieces, which the executor produces as numpy does) are rejected, as TVM's SplitRel does",
    // the executor's last piece is empty exactly when an index reaches the dimension
    covers: (_args, attrs, result) =>
      Array.isArray(attrs['indices_or_sections']) && Array.isArray(result) && (result as NDArray[]).some((piece) => piece.size === 0),
  },
};
