// Helpers shared by the hand-coded relations: attribute access, argument checks,
// axis normalisation, dimension arithmetic over IDim, broadcasting of one pair
// of dimensions, and layouts.

import { layoutView } from '../layout.js';
import type { AttrValue } from '../attr-value.js';
import { type Dim, dimAdd, dimFloorDiv, dimMod, dimMul, dimSub, dimCompare, DimError } from '../../solver/terms/dims.js';
import type { AttrMap, Check, RelError, Reporter } from './relation.js';
import { isError } from './relation.js';
import { parseDimText } from './type-text.js';
import { ANY, type IDim, type IType, OPEN, type TensorType, dimOf, dimValue, intDim, printDim, printType } from './types.js';

// ─── Attributes (already checked against the catalogue) ──────────────────────

function attr(attrs: AttrMap, name: string): AttrValue {
  const v = attrs.get(name);
  if (v === undefined) throw new Error(`internal: attribute '${name}' missing (attributes must be checked first)`);
  return v;
}

export function getInt(attrs: AttrMap, name: string): number {
  const v = attr(attrs, name);
  if (v.kind !== 'int') throw new Error(`internal: attribute '${name}' is not an int`);
  return v.value;
}

export function getFloat(attrs: AttrMap, name: string): number {
  const v = attr(attrs, name);
  if (v.kind !== 'int' && v.kind !== 'float') throw new Error(`internal: attribute '${name}' is not a number`);
  return v.value;
}

export function getFloatOrNull(attrs: AttrMap, name: string): number | null {
  const v = attr(attrs, name);
  return v.kind === 'none' ? null : getFloat(attrs, name);
}

export function getIntOrNull(attrs: AttrMap, name: string): number | null {
  const v = attr(attrs, name);
  return v.kind === 'none' ? null : getInt(attrs, name);
}

/** A list of ints; a single int is kept as a one-element list (`expandTo`: repeated that many times instead). */
export function getInts(attrs: AttrMap, name: string, expandTo?: number): number[] {
  const v = attr(attrs, name);
  if (v.kind === 'int') return Array.from({ length: expandTo ?? 1 }, () => v.value);
  if (v.kind !== 'list') throw new Error(`internal: attribute '${name}' is not a list`);
  return v.items.map((i) => {
    if (i.kind !== 'int') throw new Error(`internal: attribute '${name}' is not a list of ints`);
    return i.value;
  });
}

/** A `dims` attribute: each item an int or a symbolic size (`size=[th, tw]`). */
export function getDims(attrs: AttrMap, name: string): IDim[] {
  const v = attr(attrs, name);
  if (v.kind !== 'list') throw new Error(`internal: attribute '${name}' is not a list`);
  return v.items.map((i) => {
    if (i.kind === 'int') return intDim(i.value);
    const d = i.kind === 'dim' ? parseDimText(i.text) : null;
    if (d === null || typeof d === 'string') throw new Error(`internal: attribute '${name}' is not a list of sizes`);
    return dimOf(d);
  });
}

export function getIntsOrNull(attrs: AttrMap, name: string, expandTo?: number): number[] | null {
  return attr(attrs, name).kind === 'none' ? null : getInts(attrs, name, expandTo);
}

/** `int` attributes stay ints, lists stay lists: to tell `split`'s sections from indices. */
export function isIntAttr(attrs: AttrMap, name: string): boolean {
  return attr(attrs, name).kind === 'int';
}

export function getBool(attrs: AttrMap, name: string): boolean {
  const v = attr(attrs, name);
  if (v.kind !== 'bool') throw new Error(`internal: attribute '${name}' is not a bool`);
  return v.value;
}

export function getString(attrs: AttrMap, name: string): string {
  const v = attr(attrs, name);
  if (v.kind !== 'string') throw new Error(`internal: attribute '${name}' is not a string`);
  return v.value;
}

// ─── Arguments ───────────────────────────────────────────────────────────────

/** The argument as a tensor; 'wait' while it is a hole; an error for a tuple, function, ... */
export function expectTensor(r: Reporter, t: IType, name: string): TensorType | 'wait' | RelError {
  if (t.kind === 'tensor') return t;
  if (t.kind === 'hole') return r.wait(`the type of ${name} is not known yet`);
  return r.fail(`${name} must be a tensor, got ${printType(t)}`);
}

/** Each argument as a tensor or 'wait' (a hole); the first error (a tuple, ...) otherwise. */
export function expectTensors(r: Reporter, args: readonly IType[], names: readonly string[]): (TensorType | 'wait')[] | RelError {
  const ts = names.map((n, i) => expectTensor(r, args[i]!, n));
  const err = ts.find(isError);
  return err ?? (ts as (TensorType | 'wait')[]);
}

/** An error unless the tensor has rank `rank`. */
export function expectRank(r: Reporter, t: TensorType, rank: number, name: string): RelError | null {
  if (t.shape.length === rank) return null;
  return r.fail(`${name} must have rank ${rank}, got ${printType(t)}`);
}

/** A tensor argument of the given rank, null while it is a hole, or an error for anything else or another rank. */
export function tensorOrHole(r: Reporter, t: IType, name: string, rank: number): TensorType | null | RelError {
  if (t.kind === 'hole') return null;
  if (t.kind !== 'tensor') return r.fail(`${name} must be a tensor, got ${printType(t)}`);
  if (t.shape.length !== rank) return r.fail(`${name} must have rank ${rank}, got ${printType(t)}`);
  return t;
}

/**
 * Normalises an axis against rank `ndim`: valid axes are in [-ndim, ndim)
 * (`extra` widens the range at the top, e.g. 1 for expand_dims' [-ndim-1, ndim]).
 */
export function normAxis(r: Reporter, axis: number, ndim: number, what: string, extra = 0): number | RelError {
  const size = ndim + extra;
  if (axis < -size || axis >= size) {
    return r.fail(`${what} = ${axis} is out of range for rank ${ndim} (must be in [${-size}, ${size - 1}])`);
  }
  return axis < 0 ? axis + size : axis;
}

/** Normalises a list of axes, rejecting out-of-range and duplicate axes. */
export function normAxes(r: Reporter, axes: readonly number[], ndim: number, what: string): number[] | RelError {
  const out: number[] = [];
  for (const a of axes) {
    const n = normAxis(r, a, ndim, what);
    if (isError(n)) return n;
    if (out.includes(n)) return r.fail(`${what} [${axes.join(', ')}] contains axis ${n} twice`);
    out.push(n);
  }
  return out;
}

// ─── Progress bookkeeping ────────────────────────────────────────────────────

/** Collects 'pending' checks and the reasons to wait. */
export class Pending {
  reason: string | null = null;

  /** Notes a check; returns the error if it failed. */
  check(c: Check, reason: string): RelError | null {
    if (isError(c)) return c;
    if (c === 'pending') this.reason ??= reason;
    return null;
  }

  note(reason: string): void {
    this.reason ??= reason;
  }

  get waiting(): boolean {
    return this.reason !== null;
  }
}

/** 'done', or 'wait' if something is pending or the result still has open dimensions. */
export function finish(r: Reporter, pending: Pending, built: IType): 'done' | 'wait' {
  if (pending.reason !== null) return r.wait(pending.reason);
  if (hasOpen(built)) return r.wait('some result dimensions depend on dimensions that are not known yet');
  return 'done';
}

export function hasOpen(t: IType): boolean {
  switch (t.kind) {
    case 'tensor':
      return t.shape.some((d) => d.kind === 'open');
    case 'tuple':
      return t.fields.some(hasOpen);
    case 'func':
      return t.params.some(hasOpen) || hasOpen(t.ret);
    case 'call':
      return t.args.some(hasOpen);
    default:
      return false;
  }
}

// ─── Dimension arithmetic ────────────────────────────────────────────────────
//
// Any in, Any out (Relay's convention for shape functions); else a hole (or an
// open dimension) in, open out; else exact canonical arithmetic from dims.ts.
// DimError (overflow, division by zero) propagates; the runner reports it.

function lift(f: (a: Dim, b: Dim) => Dim): (a: IDim | number, b: IDim | number) => IDim {
  return (a, b) => {
    const x = typeof a === 'number' ? intDim(a) : a;
    const y = typeof b === 'number' ? intDim(b) : b;
    if (x.kind === 'any' || y.kind === 'any') return ANY;
    const dx = dimValue(x);
    const dy = dimValue(y);
    if (dx === null || dy === null) return OPEN;
    return dimOf(f(dx, dy));
  };
}

export const dAdd = lift(dimAdd);
export const dSub = lift(dimSub);
export const dMul = lift(dimMul);
/** Floor division. */
export const dDiv = lift(dimFloorDiv);
/** Floor modulo. */
export const dMod = lift(dimMod);

export function dProduct(dims: readonly IDim[]): IDim {
  return dims.reduce<IDim>((acc, d) => dMul(acc, d), intDim(1));
}

export function isInt(d: IDim, value?: number): boolean {
  return d.kind === 'int' && (value === undefined || d.value === value);
}

/** Three-valued comparison of two int/symbolic dims; undefined for Any, holes and undecided. */
export function compareDims(a: IDim, b: IDim, op: '==' | '!=' | '<' | '<=' | '>' | '>='): boolean | undefined {
  const x = dimValue(a);
  const y = dimValue(b);
  if (x === null || y === null) return undefined;
  try {
    return dimCompare(x, y, op);
  } catch (e) {
    if (e instanceof DimError) return undefined;
    throw e;
  }
}

// ─── Broadcasting one pair of dimensions ─────────────────────────────────────

export type BroadcastDim = { readonly dim: IDim } | { readonly wait: string } | { readonly clash: string };

/**
 * The broadcast of two dimensions, in Relay's order of cases (ConcreteBroadcast):
 * a == 1 → b; b == 1 → a; a is Any → b; b is Any → a; a == b → a; else an error.
 * Differences, all in the "wait rather than guess" direction:
 *  - a hole against a dimension that is provably not 1 gives that dimension (it
 *    is the result whatever the hole turns out to be: 1 or equal);
 *  - a hole against a hole (or against a dimension that might be 1) waits;
 *  - symbolic dimensions: provably equal → a; provably unequal with neither
 *    possibly 1 → an error; undecided (`n` vs `5`: is n 1 or 5?) → wait. Relay
 *    reports an error for every symbolic pair it cannot prove equal.
 */
export function broadcastDim(a: IDim, b: IDim): BroadcastDim {
  if (isInt(a, 1)) return { dim: b };
  if (isInt(b, 1)) return { dim: a };
  if (a.kind === 'any') return { dim: b };
  if (b.kind === 'any') return { dim: a };
  const unknownA = a.kind === 'hole' || a.kind === 'open';
  const unknownB = b.kind === 'hole' || b.kind === 'open';
  if (unknownA || unknownB) {
    if (a.kind === 'hole' && b.kind === 'hole' && a.id === b.id) return { dim: a };
    if (unknownA && !unknownB && compareDims(b, intDim(1), '!=') === true) return { dim: b };
    if (unknownB && !unknownA && compareDims(a, intDim(1), '!=') === true) return { dim: a };
    return { wait: `cannot broadcast ${printDim(a)} with ${printDim(b)} before the unknown dimension is known` };
  }
  const eq = compareDims(a, b, '==');
  if (eq === true) return { dim: a };
  const aNot1 = compareDims(a, intDim(1), '!=') === true;
  const bNot1 = compareDims(b, intDim(1), '!=') === true;
  if (eq === false && aNot1 && bNot1) return { clash: `${printDim(a)} vs ${printDim(b)}` };
  // the questions the rules ask (relations/lib.rules, bdim): is each dim that may be 1 equal to 1?
  const questions = [...(aNot1 ? [] : [a]), ...(bNot1 ? [] : [b])].map((d) => `${printDim(d)} == 1`);
  return { wait: `${questions.join(' and ')} cannot be decided` };
}

/**
 * Broadcasts two shapes (numpy rules, aligned at the right). Returns the shape,
 * with `open` dimensions where the answer has to wait, plus the first reason.
 */
export function broadcastShapes(r: Reporter, s1: readonly IDim[], s2: readonly IDim[]): { shape: IDim[]; wait: string | null } | RelError {
  const n = Math.max(s1.length, s2.length);
  const out: IDim[] = [];
  let wait: string | null = null;
  for (let i = 0; i < n; i++) {
    const a = s1[s1.length - n + i];
    const b = s2[s2.length - n + i];
    if (a === undefined) {
      out.push(b!);
      continue;
    }
    if (b === undefined) {
      out.push(a);
      continue;
    }
    const d = broadcastDim(a, b);
    if ('clash' in d) return r.fail(`cannot broadcast shapes ${shapeText(s1)} and ${shapeText(s2)} (${d.clash})`);
    if ('wait' in d) {
      wait ??= d.wait;
      out.push(OPEN);
    } else out.push(d.dim);
  }
  return { shape: out, wait };
}

export function shapeText(shape: readonly IDim[]): string {
  return `(${shape.map((d) => printDim(d)).join(', ')})`;
}

// ─── Layouts ─────────────────────────────────────────────────────────────────

/**
 * For a layout that is a permutation of `canonical` (e.g. NHWC of NCHW): the
 * index in the layout of each canonical axis. Null otherwise (packed layouts
 * included: relations/layout.ts parses layouts).
 */
export function permutationOf(layout: string, canonical: string): number[] | null {
  const view = layoutView(layout, canonical);
  return typeof view === 'string' || view.subs.length > 0 ? null : [...view.primalAt];
}

export function intDims(values: readonly number[]): IDim[] {
  return values.map(intDim);
}

/** The integer dtypes of the rules' int_dtype table (relations/lib.rules): int8-int64, uint8-uint64. */
export const TABLE_INT_DTYPES: ReadonlySet<string> = new Set(['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64']);
