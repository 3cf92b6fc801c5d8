// Random rewrites of a call case, for the random part of the cross-check: from a
// sweep case (a "seed"), fast-check draws a few edits — distinct primes for the
// dims, a symbolic dim, an unknown argument or dim, a dim off by one, a dtype,
// an attribute nudged, a per-axis attribute spread so that its axes differ — so random cases stay close to the shapes each operator
// expects while reaching sizes, symbols and invalid inputs the sweep does not.
import fc from 'fast-check';
import type { AttrJs } from '../../relations/imperative/solve-one.js';
import type { TypeofRequest } from '../../typing/typeof.js';
import { type Arg, type ArgDim, mapDims, parseArg, printArg, tensorsOf } from './arg-model.js';

export type Edit =
  /** every concrete dim >= 2 gets a distinct prime (the same value the same prime); `attrs`: ints in attributes too */
  | { readonly kind: 'primes'; readonly attrs: boolean; readonly offset: number }
  /** every occurrence of one dim value becomes a symbol */
  | { readonly kind: 'symbol'; readonly pick: number; readonly name: string }
  | { readonly kind: 'unknown-arg'; readonly pick: number }
  | { readonly kind: 'unknown-dim'; readonly pick: number; readonly dim: number; readonly any: boolean }
  | { readonly kind: 'bump-dim'; readonly pick: number; readonly dim: number; readonly delta: number }
  | { readonly kind: 'rank'; readonly pick: number; readonly dim: number; readonly drop: boolean }
  | { readonly kind: 'dtype'; readonly pick: number; readonly dtype: string }
  | { readonly kind: 'attr'; readonly pick: number; readonly how: number }
  /** one list attribute (strides, padding, pad_width pairs, begin...) gets `step * i` added to its i-th entry: per-axis values that differ */
  | { readonly kind: 'spread'; readonly pick: number; readonly step: number };

const PRIMES = [7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47];
const DTYPES = ['float32', 'float16', 'int32', 'int64', 'bool'];

export const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('primes' as const), attrs: fc.boolean(), offset: fc.nat(6) }),
  fc.record({ kind: fc.constant('symbol' as const), pick: fc.nat(), name: fc.constantFrom('n', 'm') }),
  fc.record({ kind: fc.constant('unknown-arg' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('unknown-dim' as const), pick: fc.nat(), dim: fc.nat(), any: fc.boolean() }),
  fc.record({ kind: fc.constant('bump-dim' as const), pick: fc.nat(), dim: fc.nat(), delta: fc.constantFrom(-1, 1, 2) }),
  fc.record({ kind: fc.constant('rank' as const), pick: fc.nat(), dim: fc.nat(), drop: fc.boolean() }),
  fc.record({ kind: fc.constant('dtype' as const), pick: fc.nat(), dtype: fc.constantFrom(...DTYPES) }),
  fc.record({ kind: fc.constant('attr' as const), pick: fc.nat(), how: fc.nat(7) }),
  fc.record({ kind: fc.constant('spread' as const), pick: fc.nat(), step: fc.constantFrom(1, 2) }),
);

/** A seed index and up to 3 edits. */
export const randomCaseArb = (seeds: number) => fc.record({ seed: fc.nat(Math.max(0, seeds - 1)), edits: fc.array(editArb, { maxLength: 3 }) });

function withArgs(c: TypeofRequest, args: readonly Arg[]): TypeofRequest {
  return { ...c, args: args.map(printArg) };
}

/** The tensors of all arguments, flattened, each with a way to rebuild the argument list. */
function allTensors(args: readonly Arg[]) {
  return args.flatMap((a, i) => tensorsOf(a).map(({ t, put }) => ({ t, rebuild: (x: Arg) => args.map((b, j) => (j === i ? put(x) : b)) })));
}

function nudge(v: AttrJs, how: number): AttrJs | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? [v + 1, v - 1, -v - 1, 0, v + 2, 2 * v + 1, -1][how % 7]! : v * 2;
  if (typeof v === 'boolean') return !v;
  if (Array.isArray(v)) {
    if (v.length === 0) return [1];
    const i = how % v.length;
    if (how % 3 === 2) return v.slice(0, -1);
    const x = v[i]!;
    return v.map((y, j) => (j === i && typeof x === 'number' ? (how % 2 === 0 ? x + 1 : x - 1) : y));
  }
  if (v === null) return how % 2 === 0 ? 1 : [1];
  return undefined; // strings are left alone (their choices are checked up front)
}

/** A list of ints (or of int pairs) with `step * i` added to its i-th entry (to both of a pair); undefined for anything else. */
function spread(v: AttrJs, step: number): AttrJs | undefined {
  if (!Array.isArray(v) || v.length < 2) return undefined;
  const bump = (x: AttrJs, by: number): AttrJs | undefined =>
    typeof x === 'number' && Number.isInteger(x)
      ? x + by
      : Array.isArray(x) && x.every((y) => typeof y === 'number')
        ? x.map((y) => (y as number) + by)
        : undefined;
  const out = v.map((x, i) => bump(x, step * i));
  return out.every((x) => x !== undefined) ? (out as AttrJs[]) : undefined;
}

export function applyEdit(c: TypeofRequest, e: Edit): TypeofRequest {
  const args = c.args.map(parseArg);
  const tensors = allTensors(args);
  switch (e.kind) {
    case 'primes': {
      const map = new Map<number, number>();
      const prime = (v: number): number => {
        if (!map.has(v)) map.set(v, PRIMES[(map.size + e.offset) % PRIMES.length]!);
        return map.get(v)!;
      };
      const f = (d: ArgDim): ArgDim => (typeof d === 'number' && d >= 2 ? prime(d) : d);
      const out = withArgs(
        c,
        args.map((a) => mapDims(a, f)),
      );
      if (!e.attrs || c.attrs === undefined) return out;
      const attrs: Record<string, AttrJs> = {};
      const fa = (v: AttrJs): AttrJs => (typeof v === 'number' && map.has(v) ? map.get(v)! : Array.isArray(v) ? v.map(fa) : v);
      for (const [k, v] of Object.entries(c.attrs)) attrs[k] = fa(v);
      return { ...out, attrs };
    }
    case 'symbol': {
      const values = [...new Set(tensors.flatMap(({ t }) => t.dims.filter((d): d is number => typeof d === 'number')))];
      if (values.length === 0) return c;
      const v = values[e.pick % values.length]!;
      return withArgs(
        c,
        args.map((a) => mapDims(a, (d) => (d === v ? e.name : d))),
      );
    }
    case 'unknown-arg': {
      if (args.length === 0) return c;
      const i = e.pick % args.length;
      return withArgs(
        c,
        args.map((a, j) => (j === i ? { kind: 'unknown' } : a)),
      );
    }
    case 'unknown-dim':
    case 'bump-dim':
    case 'rank': {
      if (tensors.length === 0) return c;
      const { t, rebuild } = tensors[e.pick % tensors.length]!;
      if (e.kind === 'rank') {
        const j = t.dims.length === 0 ? 0 : e.dim % (t.dims.length + (e.drop ? 0 : 1));
        const dims = e.drop ? t.dims.filter((_, k) => k !== j) : [...t.dims.slice(0, j), t.dims[j] ?? 1, ...t.dims.slice(j)];
        return withArgs(c, rebuild({ ...t, dims }));
      }
      if (t.dims.length === 0) return c;
      const j = e.dim % t.dims.length;
      const dims = t.dims.map((d, k) => {
        if (k !== j) return d;
        if (e.kind === 'unknown-dim') return e.any ? '?' : '_';
        return typeof d === 'number' ? Math.max(0, d + e.delta) : d;
      });
      return withArgs(c, rebuild({ ...t, dims }));
    }
    case 'dtype': {
      if (tensors.length === 0) return c;
      const { t, rebuild } = tensors[e.pick % tensors.length]!;
      return withArgs(c, rebuild({ ...t, dtype: e.dtype }));
    }
    case 'spread': {
      const lists = Object.entries(c.attrs ?? {}).filter(([, v]) => spread(v, e.step) !== undefined);
      if (lists.length === 0) return c;
      const [k, v] = lists[e.pick % lists.length]!;
      return { ...c, attrs: { ...c.attrs, [k]: spread(v, e.step)! } };
    }
    case 'attr': {
      const entries = Object.entries(c.attrs ?? {});
      if (entries.length === 0) return c;
      const [k, v] = entries[e.pick % entries.length]!;
      const nv = nudge(v, e.how);
      if (nv === undefined) return c;
      return { ...c, attrs: { ...c.attrs, [k]: nv } };
    }
  }
}

export function applyEdits(c: TypeofRequest, edits: readonly Edit[]): TypeofRequest {
  return edits.reduce(applyEdit, c);
}
