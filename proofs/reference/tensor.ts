// Concrete tensors for the reference executor: a shape, a dtype and real values
// (row-major), with the index arithmetic the executors need. Nothing here knows a
// shape formula: executors compute values element by element and the output
// shape is whatever they produce.

/** A value an operator takes or returns: a tensor, or a tuple of values. */
export type Value = NDArray | readonly Value[];

/** The operator cannot run on these inputs (wrong ranks, sizes that do not fit, ...). */
export class ExecError extends Error {}

/** Throws an ExecError: the reference refuses the call. */
export function refuse(message: string): never {
  throw new ExecError(message);
}

export class NDArray {
  readonly shape: readonly number[];
  readonly dtype: string;
  readonly data: Float64Array;
  readonly strides: readonly number[];

  constructor(shape: readonly number[], dtype: string, data?: Float64Array) {
    for (const d of shape) if (!Number.isSafeInteger(d) || d < 0) refuse(`invalid dimension ${d} in shape [${shape.join(', ')}]`);
    this.shape = [...shape];
    this.dtype = dtype;
    const size = shape.reduce((a, b) => a * b, 1);
    if (size > MAX_ELEMENTS) refuse(`a tensor of ${size} elements is too large for the reference executor`);
    this.data = data ?? new Float64Array(size);
    if (this.data.length !== size) throw new Error(`internal: ${this.data.length} values for shape [${shape.join(', ')}]`);
    const strides: number[] = new Array(shape.length);
    let s = 1;
    for (let i = shape.length - 1; i >= 0; i--) {
      strides[i] = s;
      s *= shape[i]!;
    }
    this.strides = strides;
  }

  get rank(): number {
    return this.shape.length;
  }

  get size(): number {
    return this.data.length;
  }

  /** Flat offset of a multi-index (checked). */
  offset(index: readonly number[]): number {
    if (index.length !== this.shape.length) throw new Error(`internal: index of rank ${index.length} into rank ${this.shape.length}`);
    let o = 0;
    for (let i = 0; i < index.length; i++) {
      const x = index[i]!;
      if (!(x >= 0 && x < this.shape[i]!)) throw new Error(`internal: index [${index.join(', ')}] out of bounds for [${this.shape.join(', ')}]`);
      o += x * this.strides[i]!;
    }
    return o;
  }

  /** The multi-index of a flat offset. */
  unravel(offset: number): number[] {
    const idx: number[] = new Array(this.shape.length);
    for (let i = 0; i < this.shape.length; i++) {
      idx[i] = Math.floor(offset / this.strides[i]!) % this.shape[i]!;
    }
    return idx;
  }

  get(index: readonly number[]): number {
    return this.data[this.offset(index)]!;
  }

  set(index: readonly number[], value: number): void {
    this.data[this.offset(index)] = value;
  }

  /** A tensor of the same shape with `f` applied to each element (and a new dtype if given). */
  map(f: (x: number, index: number[]) => number, dtype: string = this.dtype): NDArray {
    const out = new NDArray(this.shape, dtype);
    for (let i = 0; i < this.data.length; i++) out.data[i] = f(this.data[i]!, this.unravel(i));
    return out;
  }
}

/** The largest tensor the executor builds (inputs or outputs). */
export const MAX_ELEMENTS = 1 << 16;

/** Calls `f` on every multi-index of `shape`, in row-major order. */
export function forEachIndex(shape: readonly number[], f: (index: number[]) => void): void {
  const size = shape.reduce((a, b) => a * b, 1);
  if (size === 0) return;
  const idx = new Array<number>(shape.length).fill(0);
  for (let n = 0; n < size; n++) {
    f(idx.slice());
    for (let i = shape.length - 1; i >= 0; i--) {
      idx[i]!++;
      if (idx[i]! < shape[i]!) break;
      idx[i] = 0;
    }
  }
}

/** A tensor whose element at each index is `f(index)`. */
export function build(shape: readonly number[], dtype: string, f: (index: number[]) => number): NDArray {
  const out = new NDArray(shape, dtype);
  forEachIndex(shape, (idx) => out.set(idx, f(idx)));
  return out;
}

/** The argument as a tensor, or a refusal naming it. */
export function asTensor(v: Value | undefined, what: string): NDArray {
  if (v === undefined || !(v instanceof NDArray)) refuse(`${what} must be a tensor`);
  return v;
}

/** The argument as a tuple of tensors, or a refusal naming it. */
export function asTuple(v: Value | undefined, what: string): NDArray[] {
  if (v === undefined || v instanceof NDArray || !v.every((x) => x instanceof NDArray)) refuse(`${what} must be a tuple of tensors`);
  return v as NDArray[];
}

// ─── Dtypes ──────────────────────────────────────────────────────────────────

export function isFloatDtype(d: string): boolean {
  return /^b?float/.test(d);
}

export function isIntDtype(d: string): boolean {
  return /^u?int/.test(d);
}

/** A vector dtype (`float32x4`) or one narrower than a byte other than bool (`int4`, `uint1`). */
export function isVectorOrSubByte(d: string): boolean {
  if (/x\d+$/.test(d)) return true;
  const bits = /^(?:u?int|float|bfloat)(\d+)$/.exec(d);
  return bits !== null && Number(bits[1]) < 8;
}

/** Rounds a computed value to what the dtype can hold (ints truncate, bool is 0/1). */
export function fitDtype(x: number, dtype: string): number {
  if (dtype === 'bool') return x !== 0 ? 1 : 0;
  if (isIntDtype(dtype)) return Number.isFinite(x) ? Math.trunc(x) : 0;
  return x;
}

// ─── Random inputs ───────────────────────────────────────────────────────────

/** A small deterministic generator (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A tensor of random values: floats in [-2, 2), integers in [0, 4) (so that
 * index arguments are mostly in range; executors clip or wrap the rest, as the
 * operator's mode says), bools 0/1.
 */
export function randomTensor(shape: readonly number[], dtype: string, next: () => number): NDArray {
  const out = new NDArray(shape, dtype);
  for (let i = 0; i < out.size; i++) {
    const u = next();
    out.data[i] = dtype === 'bool' ? (u < 0.5 ? 0 : 1) : isIntDtype(dtype) ? Math.floor(u * 4) : Math.round((u * 4 - 2) * 64) / 64;
  }
  return out;
}

/** Relay text of a value's type: `Tensor[(2, 3), float32]`, `(Tensor[...], Tensor[...])`. */
export function typeText(v: Value): string {
  if (v instanceof NDArray) return `Tensor[(${v.shape.join(', ')}), ${v.dtype}]`;
  const fields = v.map(typeText);
  return fields.length === 1 ? `(${fields[0]},)` : `(${fields.join(', ')})`;
}
