// What the prover proves: for an operator, every attribute combination of its
// sweep (proofs/cross-check/cases/) with every argument skeleton the sweep uses
// (how many arguments, tensor or tuple of tensors, each tensor's rank <= R and
// dtype). Each skeleton is instantiated with a fresh size variable per input dim
// (`d0, d1, …` in argument order), so one combination stands for every concrete
// size at that rank. Sweep cases with an unknown argument or dtype are left out
// (there is nothing size-dependent to prove about a hole).
import { casesFor } from '../cross-check/cases.js';
import { type Arg, parseArg } from '../cross-check/arg-model.js';
import type { AttrJs } from '../../relations/imperative/solve-one.js';
import type { TypeofRequest } from '../../typing/typeof.js';

export type Skeleton =
  | { readonly kind: 'tensor'; readonly rank: number; readonly dtype: string }
  | { readonly kind: 'tuple'; readonly fields: readonly Skeleton[] };

export interface Combo {
  readonly op: string;
  readonly attrs: Readonly<Record<string, AttrJs>>;
  readonly args: readonly Skeleton[];
}

function skeletonOf(a: Arg, maxRank: number): Skeleton | null {
  switch (a.kind) {
    case 'tensor':
      return a.dtype === '_' || a.dims.length > maxRank ? null : { kind: 'tensor', rank: a.dims.length, dtype: a.dtype };
    case 'tuple': {
      const fields = a.fields.map((f) => skeletonOf(f, maxRank));
      return fields.some((f) => f === null) ? null : { kind: 'tuple', fields: fields as Skeleton[] };
    }
    default:
      return null;
  }
}

/** The distinct (attributes, skeleton) pairs of the operator's sweep with every rank <= maxRank, in sweep order. */
export function combosFor(op: string, maxRank: number): Combo[] {
  const seen = new Map<string, Combo>();
  for (const c of casesFor(op)) {
    const args = c.args.map((t) => skeletonOf(parseArg(t), maxRank));
    if (args.some((a) => a === null)) continue;
    const combo: Combo = { op, attrs: c.attrs ?? {}, args: args as Skeleton[] };
    const key = JSON.stringify([combo.attrs, combo.args]);
    if (!seen.has(key)) seen.set(key, combo);
  }
  return [...seen.values()];
}

/** The smallest rank at which some sweep case of `op` fits (a case's rank: its highest-rank argument); Infinity when none does. */
export function sweepMinRank(op: string): number {
  let min = Infinity;
  for (const c of casesFor(op)) {
    const args = c.args.map((t) => skeletonOf(parseArg(t), Infinity));
    if (args.some((a) => a === null)) continue;
    min = Math.min(min, Math.max(0, ...args.map(maxRankOf)));
  }
  return min;
}

function maxRankOf(s: Skeleton | null): number {
  if (s === null) return 0;
  return s.kind === 'tensor' ? s.rank : Math.max(0, ...s.fields.map(maxRankOf));
}

/** The size variables of a combination, in order: d0, d1, … one per input dim. */
export function variablesOf(combo: Combo): string[] {
  let n = 0;
  const count = (s: Skeleton): void => {
    if (s.kind === 'tensor') n += s.rank;
    else s.fields.forEach(count);
  };
  combo.args.forEach(count);
  return Array.from({ length: n }, (_, i) => `d${i}`);
}

/** The call with dim i of the skeleton written as `dimText(i)`. */
export function instantiate(combo: Combo, dimText: (i: number) => string): TypeofRequest {
  let next = 0;
  const text = (s: Skeleton): string => {
    if (s.kind === 'tensor') {
      const dims = Array.from({ length: s.rank }, () => dimText(next++));
      return `Tensor[(${dims.join(', ')}), ${s.dtype}]`;
    }
    const fields = s.fields.map(text);
    return fields.length === 1 ? `(${fields[0]},)` : `(${fields.join(', ')})`;
  };
  const args = combo.args.map(text);
  return Object.keys(combo.attrs).length === 0 ? { op: combo.op, args } : { op: combo.op, attrs: combo.attrs, args };
}

/** Short text of a combination for tables and reasons: `{"axis":1} (4, 2)`. */
export function comboText(combo: Combo): string {
  const sk = (s: Skeleton): string =>
    s.kind === 'tensor' ? `${s.dtype === 'float32' ? '' : `${s.dtype} `}rank ${s.rank}` : `(${s.fields.map(sk).join(', ')})`;
  const attrs = Object.keys(combo.attrs).length === 0 ? '' : `${JSON.stringify(combo.attrs)} `;
  return `${attrs}[${combo.args.map(sk).join(', ')}]`;
}
