// The cross-check harness behind `shapelog check`: for one operator, its
// exhaustive sweep (cases.ts) and seeded random cases (edits.ts) are typed by
// both strategies — the rules and the imperative twin — which must agree
// exactly; every case small enough to execute is also checked against the
// reference executor (proofs/reference). Disagreements are shrunk to minimal
// cases (shrink.ts) and reported as ready-to-paste `shapelog typeof` lines.
import fc from 'fast-check';
import type { TypeofAnswer, TypeofRequest } from '../../typing/typeof.js';
import { referenceCheck } from '../reference/check.js';
import { executorFor } from '../reference/registry.js';
import { parseArg, tensorsOf } from './arg-model.js';
import { casesFor } from './cases.js';
import { type Answers, answers, classify, disagreementKind } from './compare.js';
import { applyEdits, randomCaseArb } from './edits.js';
import { shrinkCase } from './shrink.js';

export interface CheckOptions {
  /** Sweep cases whose tensors all have rank <= depth (default 4: the whole sweep). */
  readonly depth?: number;
  /** Random cases per operator (default 0). */
  readonly random?: number;
  readonly seed?: number;
  /** Check against the reference executor too (default true). */
  readonly reference?: boolean;
  /** Counterexamples kept (and shrunk) per operator (default 3). */
  readonly keep?: number;
  /** Called after each case. */
  readonly onCase?: () => void;
  /** Both strategies' answers to a case (replaceable to test the harness itself). */
  readonly answer?: (c: TypeofRequest) => Answers;
}

export interface Counterexample {
  /** The shrunk case, as a `shapelog typeof` input line. */
  readonly line: string;
  /** The case as found, before shrinking. */
  readonly found: string;
  readonly source: 'sweep' | 'random';
  readonly rules: TypeofAnswer;
  readonly relay: TypeofAnswer;
  /** `rules error / relay type` and so on, for the shrunk case. */
  readonly kind: string;
}

export interface ReferenceProblem {
  readonly line: string;
  /** `unsound`: the relation gives a type the executor does not produce; `stricter`: the relation rejects a call that runs; `crash`: the executor threw. */
  readonly kind: 'unsound' | 'stricter' | 'crash';
  readonly relation: TypeofAnswer;
  readonly executed: string;
}

export interface ReferenceSummary {
  /** Whether the operator has a reference executor. */
  readonly available: boolean;
  readonly executed: number;
  readonly agree: number;
  readonly unsound: number;
  /** Calls on which the executor threw something other than a refusal. */
  readonly crashed: number;
  /** Stricter cases the operator's STRICTER entry (proofs/reference/ops) covers, case by case. */
  readonly stricterExpected: number;
  readonly stricterUnexpected: number;
  readonly problems: ReferenceProblem[];
}

export interface OpCheck {
  readonly op: string;
  readonly cases: number;
  readonly sweep: number;
  readonly random: number;
  readonly agree: number;
  readonly disagree: number;
  readonly counterexamples: Counterexample[];
  readonly reference: ReferenceSummary | null;
}

/** The highest tensor rank among a case's arguments. */
export function caseRank(c: TypeofRequest): number {
  return Math.max(0, ...c.args.map(parseArg).flatMap((a) => tensorsOf(a).map(({ t }) => t.dims.length)));
}

/** The sweep cases of `op` within `depth`, and `random` random cases drawn with `seed`. */
export function casesToCheck(op: string, options: Pick<CheckOptions, 'depth' | 'random' | 'seed'> = {}): { sweep: TypeofRequest[]; random: TypeofRequest[] } {
  const all = casesFor(op);
  const depth = options.depth ?? 4;
  const sweep = depth >= 4 ? all : all.filter((c) => caseRank(c) <= depth);
  const n = options.random ?? 0;
  if (n === 0 || all.length === 0) return { sweep, random: [] };
  const draws = fc.sample(randomCaseArb(all.length), { numRuns: n, seed: options.seed ?? 1 });
  return { sweep, random: draws.map((d) => applyEdits(all[d.seed]!, d.edits)) };
}

export function checkOp(op: string, options: CheckOptions = {}): OpCheck {
  const keep = options.keep ?? 3;
  const answer = options.answer ?? answers;
  const disagrees = (c: TypeofRequest): boolean => {
    const a = answer(c);
    return classify(a.rules, a.relay).kind === 'disagree';
  };
  const { sweep, random } = casesToCheck(op, options);
  const withReference = (options.reference ?? true) && executorFor(op) !== undefined;
  let agree = 0;
  const found: { c: TypeofRequest; source: 'sweep' | 'random' }[] = [];
  let disagree = 0;
  const ref = { executed: 0, agree: 0, unsound: 0, crashed: 0, stricterExpected: 0, stricterUnexpected: 0, problems: [] as ReferenceProblem[] };
  const seen = new Set<string>();
  for (const [source, list] of [
    ['sweep', sweep],
    ['random', random],
  ] as const) {
    for (const c of list) {
      const key = JSON.stringify(c);
      const a = answer(c);
      const v = classify(a.rules, a.relay);
      if (v.kind === 'agree') agree++;
      else {
        disagree++;
        if (found.length < keep && !seen.has(key)) found.push({ c, source });
      }
      seen.add(key);
      if (withReference) {
        const r = referenceCheck(c, a.rules);
        if (r.kind !== 'skipped') ref.executed++;
        if (r.kind === 'agree') ref.agree++;
        else if (r.kind === 'unsound' || r.kind === 'crash' || (r.kind === 'stricter' && r.expected === null)) {
          if (r.kind === 'unsound') ref.unsound++;
          else if (r.kind === 'crash') ref.crashed++;
          else ref.stricterUnexpected++;
          if (ref.problems.length < keep) ref.problems.push({ line: key, kind: r.kind, relation: r.relation, executed: r.executed });
        } else if (r.kind === 'stricter') ref.stricterExpected++;
      }
      options.onCase?.();
    }
  }
  const counterexamples = found.map(({ c, source }) => {
    const small = shrinkCase(c, disagrees);
    const a = answer(small);
    return { line: JSON.stringify(small), found: JSON.stringify(c), source, rules: a.rules, relay: a.relay, kind: disagreementKind(a.rules, a.relay) };
  });
  return {
    op,
    cases: sweep.length + random.length,
    sweep: sweep.length,
    random: random.length,
    agree,
    disagree,
    counterexamples,
    reference: withReference
      ? { available: true, ...ref }
      : (options.reference ?? true)
        ? { available: false, executed: 0, agree: 0, unsound: 0, crashed: 0, stricterExpected: 0, stricterUnexpected: 0, problems: [] }
        : null,
  };
}
