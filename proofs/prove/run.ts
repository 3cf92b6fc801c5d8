// The prover over operators: every combination of each operator (combos.ts)
// proved by prover.ts within a per-operator time budget, summarised per operator
// for `shapelog prove`, `npm run prove` and the mutation comparison.
import type { TypeofRequest } from '../../typing/typeof.js';
import type { Answers } from '../cross-check/compare.js';
import { combosFor, comboText } from './combos.js';
import { type Counterexample, proveCombo } from './prover.js';

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
}

export interface RunOptions {
  readonly rank: number;
  /** Seconds per operator. */
  readonly timeout: number;
  readonly maxDepth?: number;
  readonly smtMs?: number;
  readonly answers?: (c: TypeofRequest) => Answers;
  readonly onCombo?: () => void;
}

export async function proveOp(op: string, o: RunOptions): Promise<OpProof> {
  const started = Date.now();
  const deadline = started + o.timeout * 1000;
  const combos = combosFor(op, o.rank);
  let proved = 0;
  let branches = 0;
  const counterexamples: Counterexample[] = [];
  const unknowns: { combo: string; reason: string }[] = [];
  for (const combo of combos) {
    const v = Date.now() > deadline ? { kind: 'unknown' as const, branches: 0, reason: 'time budget' } : await proveCombo(combo, { maxDepth: o.maxDepth ?? 12, smtMs: o.smtMs ?? 2000, deadline, ...(o.answers ? { answers: o.answers } : {}) });
    if (v.kind === 'proved') {
      proved++;
      branches += v.branches;
    } else if (v.kind === 'counterexample') counterexamples.push(v.counterexample);
    else unknowns.push({ combo: comboText(combo), reason: v.reason });
    o.onCombo?.();
  }
  return { op, combos: combos.length, proved, counterexamples, unknown: unknowns.length, unknowns, branches, seconds: (Date.now() - started) / 1000 };
}
