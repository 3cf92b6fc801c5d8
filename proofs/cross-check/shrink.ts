// Greedy shrinking of a disagreeing call case to a minimal one: repeatedly try
// simpler variants (an attribute back to its default, an argument unknown, a
// dim dropped, a dim smaller, a symbol made concrete, a dtype float32) and keep
// the first that still disagrees and is strictly smaller, until none is.
import type { AttrJs } from '../../relations/imperative/solve-one.js';
import type { TypeofRequest } from '../../typing/typeof.js';
import { type Arg, parseArg, printArg, tensorsOf } from './arg-model.js';

/** A size measure that every accepted step decreases. */
export function caseSize(c: TypeofRequest): number {
  const argSize = (a: Arg): number => {
    switch (a.kind) {
      case 'unknown':
        return 1;
      case 'text':
        return 10 + a.text.length;
      case 'tuple':
        return 2 + a.fields.reduce((s, f) => s + argSize(f), 0);
      case 'tensor':
        return 3 + (a.dtype === 'float32' ? 0 : 1) + a.dims.reduce<number>((s, d) => s + 2 + (typeof d === 'number' ? d : d === '_' ? 1 : 9), 0);
    }
  };
  const attrSize = (v: AttrJs): number =>
    Array.isArray(v) ? 1 + v.reduce<number>((s, x) => s + attrSize(x), 0) : typeof v === 'number' ? 1 + Math.min(Math.abs(v), 50) : 1;
  return c.args.map(parseArg).reduce((s, a) => s + argSize(a), 0) + Object.values(c.attrs ?? {}).reduce<number>((s, v) => s + 3 + attrSize(v), 0);
}

function* variants(c: TypeofRequest): Generator<TypeofRequest> {
  const attrs = c.attrs ?? {};
  for (const k of Object.keys(attrs)) {
    const rest = Object.fromEntries(Object.entries(attrs).filter(([n]) => n !== k));
    yield Object.keys(rest).length === 0 ? { op: c.op, args: c.args } : { ...c, attrs: rest };
  }
  const args = c.args.map(parseArg);
  const put = (i: number, a: Arg): TypeofRequest => ({ ...c, args: args.map((b, j) => printArg(j === i ? a : b)) });
  for (const [i, a] of args.entries()) {
    if (a.kind !== 'unknown') yield put(i, { kind: 'unknown' });
    for (const { t, put: putT } of tensorsOf(a)) {
      for (let j = 0; j < t.dims.length; j++) yield put(i, putT({ ...t, dims: t.dims.filter((_, k) => k !== j) }));
      for (let j = 0; j < t.dims.length; j++) {
        const d = t.dims[j]!;
        const smaller = typeof d === 'number' ? [0, 1, 2, d - 1].filter((x) => x >= 0 && x < d) : [1, 2, 3];
        for (const x of smaller) yield put(i, putT({ ...t, dims: t.dims.map((y, k) => (k === j ? x : y)) }));
      }
      if (t.dtype !== 'float32') yield put(i, putT({ ...t, dtype: 'float32' }));
    }
  }
  for (const [k, v] of Object.entries(attrs)) {
    const smaller: AttrJs[] = [];
    if (typeof v === 'number' && Number.isInteger(v)) smaller.push(...[0, 1, v > 0 ? v - 1 : v + 1].filter((x) => Math.abs(x) < Math.abs(v)));
    if (Array.isArray(v)) {
      for (let j = 0; j < v.length; j++) smaller.push(v.filter((_, i) => i !== j));
      for (let j = 0; j < v.length; j++) {
        const x = v[j];
        if (typeof x === 'number' && x !== 0) smaller.push(v.map((y, i) => (i === j ? (x > 0 ? x - 1 : x + 1) : y)));
      }
    }
    for (const s of smaller) yield { ...c, attrs: { ...attrs, [k]: s } };
  }
}

/**
 * The smallest case reachable from `c` by simplifications that keep
 * `stillFails` true. `budget` bounds the number of `stillFails` calls.
 */
export function shrinkCase(c: TypeofRequest, stillFails: (c: TypeofRequest) => boolean, budget = 400): TypeofRequest {
  let best = c;
  let size = caseSize(c);
  let calls = 0;
  let improved = true;
  while (improved && calls < budget) {
    improved = false;
    for (const v of variants(best)) {
      const s = caseSize(v);
      if (s >= size) continue;
      if (++calls > budget) break;
      if (stillFails(v)) {
        best = v;
        size = s;
        improved = true;
        break;
      }
    }
  }
  return best;
}
