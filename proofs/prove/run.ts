// The prover over operators: every combination of each operator (combos.ts)
// proved by prover.ts within a per-operator time budget, summarised per operator
// for `shapelog prove`, `npm run prove` and the mutation comparison.
//
// Operators that share a relation and the same signature (argument names,
// attribute specs with defaults, result arity) pose the same typing problem: both
// strategies select the relation by name and use the operator's name only in
// messages (and the prover compares errors as errors). So a combination proved
// (or left unknown) for `add` is not proved again for `subtract`: the verdict is
// reused and the report names the operator it came from (`shared`).
// Counterexamples are never reused: each is found and confirmed per operator.
import { lookupOp } from '../../relations/catalogue.js';
import type { TypeofRequest } from '../../typing/typeof.js';
import type { Answers } from '../cross-check/compare.js';
import { type Combo, combosFor, comboText } from './combos.js';
import { type ComboVerdict, type Counterexample, proveCombo } from './prover.js';

export interface OpProof {
  readonly op: string;
  readonly combos: number;
  readonly proved: number;
  readonly counterexamples: Counterexample[];
  readonly unknown: number;
  /** Each unknown combination and which limit stopped it. */
  readonly unknowns: { readonly combo: string; readonly reason: string }[];
  /** Leaves of the case-split trees of the proved combinations. */
  readonly branches: number;
  readonly seconds: number;
  /** Operators whose verdicts were reused (same relation and signature), if any. */
  readonly shared: string[];
}

export interface RunOptions {
  readonly rank: number;
  /** Seconds per operator. */
  readonly timeout: number;
  readonly maxDepth?: number;
  readonly smtMs?: number;
  readonly answers?: (c: TypeofRequest) => Answers;
  readonly onCombo?: () => void;
  /** Verdicts by problem (see above), shared across calls; omit to prove everything afresh. */
  readonly cache?: Map<string, { readonly op: string; readonly verdict: ComboVerdict }>;
}

/** The typing problem a combination poses, independent of the operator's name. */
function problemKey(combo: Combo): string {
  const found = lookupOp(combo.op);
  const sig = found.ok ? [found.op.relation, found.op.args, found.op.attrs, found.op.result] : [combo.op];
  return JSON.stringify([sig, combo.attrs, combo.args]);
}

export async function proveOp(op: string, o: RunOptions): Promise<OpProof> {
  const started = Date.now();
  const deadline = started + o.timeout * 1000;
  const combos = combosFor(op, o.rank);
  let proved = 0;
  let branches = 0;
  const counterexamples: Counterexample[] = [];
  const unknowns: { combo: string; reason: string }[] = [];
  const shared = new Set<string>();
  for (const combo of combos) {
    const key = o.cache && !o.answers ? problemKey(combo) : null;
    const cached = key === null ? undefined : o.cache!.get(key);
    let v: ComboVerdict;
    if (cached !== undefined) {
      v = cached.verdict;
      shared.add(cached.op);
    } else {
      v =
        Date.now() > deadline
          ? { kind: 'unknown' as const, branches: 0, reason: 'time budget' }
          : await proveCombo(combo, { maxDepth: o.maxDepth ?? 12, smtMs: o.smtMs ?? 2000, deadline, ...(o.answers ? { answers: o.answers } : {}) });
      if (key !== null && v.kind !== 'counterexample' && !(v.kind === 'unknown' && v.reason === 'time budget')) o.cache!.set(key, { op, verdict: v });
    }
    if (v.kind === 'proved') {
      proved++;
      branches += v.branches;
    } else if (v.kind === 'counterexample') counterexamples.push(v.counterexample);
    else unknowns.push({ combo: comboText(combo), reason: v.reason });
    o.onCombo?.();
  }
  return {
    op,
    combos: combos.length,
    proved,
    counterexamples,
    unknown: unknowns.length,
    unknowns,
    branches,
    seconds: (Date.now() - started) / 1000,
    shared: [...shared],
  };
}
