// Path conditions: conditions on sizes in one canonical shape, `e op 0` with op
// one of ==, !=, >= (every comparison `a op b` becomes one: `a < b` is
// `b - a - 1 >= 0`), and the assumption context that lets both strategies run
// under a set of them.
//
// `PathContext` implements dims.ts's `DimAssumptions`: a comparison the interval
// analysis cannot decide is answered from the facts when the difference of its
// sides is a fact's expression plus a constant (`d2 + 2 >= 3` from `d2 >= 1`,
// `d0 - d1 != 0` from `d0 != d1`), else it is recorded as an open question and
// left undecided — so the strategies behave exactly as without assumptions on
// everything the facts do not settle. The prover asks z3 about each open question
// (entailed, refuted, or split on) and runs again.
import {
  type Dim,
  type DimAssumptions,
  type DimCompareOp,
  DimError,
  decideRange,
  dimAdd,
  dimConst,
  dimAsInteger,
  dimNeg,
  dimSub,
  dimToString,
} from '../../solver/terms/dims.js';

/** `e op 0`. */
export interface Condition {
  readonly e: Dim;
  readonly op: '==' | '!=' | '>=';
}

export function conditionKey(c: Condition): string {
  return `${c.e.key} ${c.op} 0`;
}

/** Readable, the constant moved right: `d2 >= 3`, `d0 - d1 != 0`, `d1 == 1`. */
export function conditionText(c: Condition): string {
  const k = c.e.constant;
  return `${dimToString(dimSub(c.e, dimConst(k)))} ${c.op} ${-k}`;
}

/** `a op b` as a condition `e op' 0`. */
export function fromComparison(a: Dim, op: DimCompareOp, b: Dim): Condition {
  const d = dimSub(a, b);
  switch (op) {
    case '==':
      return { e: d, op: '==' };
    case '!=':
      return { e: d, op: '!=' };
    case '>=':
      return { e: d, op: '>=' };
    case '>':
      return { e: dimSub(d, dimConst(1)), op: '>=' };
    case '<=':
      return { e: dimNeg(d), op: '>=' };
    case '<':
      return { e: dimSub(dimNeg(d), dimConst(1)), op: '>=' };
  }
}

/** ¬(e == 0) is e != 0; ¬(e >= 0) is -e - 1 >= 0. */
export function negate(c: Condition): Condition {
  switch (c.op) {
    case '==':
      return { e: c.e, op: '!=' };
    case '!=':
      return { e: c.e, op: '==' };
    case '>=':
      return { e: dimSub(dimNeg(c.e), dimConst(1)), op: '>=' };
  }
}

/** `c*v + k` with one size variable v: [v, c, k]; else null. */
function linearInOne(d: Dim): [string, number, number] | null {
  const t = d.terms[0];
  if (d.terms.length !== 1 || t === undefined || t.factors.length !== 1 || t.factors[0]!.kind !== 'var') return null;
  return [t.factors[0]!.name, t.coeff, d.constant];
}

function holdsAt(value: number, op: DimCompareOp): boolean {
  switch (op) {
    case '==':
      return value === 0;
    case '!=':
      return value !== 0;
    case '<':
      return value < 0;
    case '<=':
      return value <= 0;
    case '>':
      return value > 0;
    case '>=':
      return value >= 0;
  }
}

/** A set of facts consulted by dimCompare, recording the questions it cannot answer. */
export class PathContext implements DimAssumptions {
  /** Undecided questions in the order first asked, by key. */
  readonly open = new Map<string, Condition>();

  constructor(readonly facts: readonly Condition[]) {}

  /**
   * `c*v + k op 0` for one variable v, exactly: the facts on v alone give its
   * domain [lo, hi] minus finitely many points; the truth of a linear comparison
   * changes only at v0 = -k/c, so it is decided by v0 itself and the nearest
   * domain point on each side of it.
   */
  private decideOneVariable(diff: Dim, op: DimCompareOp): boolean | undefined {
    const lin = linearInOne(diff);
    if (lin === null) return undefined;
    const [v, c, k] = lin;
    let lo = 0;
    let hi = Infinity;
    const excluded = new Set<number>();
    for (const f of this.facts) {
      const fl = linearInOne(f.e);
      if (fl === null || fl[0] !== v) continue;
      const [, fc, fk] = fl; // fc*v + fk op 0
      if (f.op === '>=') {
        if (fc > 0) lo = Math.max(lo, Math.ceil(-fk / fc));
        else hi = Math.min(hi, Math.floor(fk / -fc));
      } else if (-fk % fc === 0) {
        const point = -fk / fc;
        if (f.op === '==') {
          lo = Math.max(lo, point);
          hi = Math.min(hi, point);
        } else excluded.add(point);
      } else if (f.op === '==') return undefined; // no integer solution: an infeasible path; do not decide
    }
    const inDomain = (x: number) => x >= lo && x <= hi && !excluded.has(x);
    const v0 = -k / c;
    const points: number[] = [];
    if (Number.isInteger(v0) && inDomain(v0)) points.push(v0);
    let left = Math.min(hi, Number.isInteger(v0) ? v0 - 1 : Math.floor(v0));
    while (left >= lo && excluded.has(left)) left--;
    if (left >= lo && left <= hi) points.push(left);
    let right = Math.max(lo, Number.isInteger(v0) ? v0 + 1 : Math.ceil(v0));
    while (right <= hi && excluded.has(right)) right++;
    if (right <= hi && right >= lo && Number.isFinite(right)) points.push(right);
    if (points.length === 0 || points.some((x) => !Number.isSafeInteger(x))) return undefined;
    const answers = new Set(points.map((x) => holdsAt(c * x + k, op)));
    return answers.size === 1 ? [...answers][0] : undefined;
  }

  decide(a: Dim, b: Dim, op: DimCompareOp): boolean | undefined {
    let diff: Dim;
    try {
      diff = dimSub(a, b);
    } catch (e) {
      if (e instanceof DimError) return undefined;
      throw e;
    }
    let lo = -Infinity;
    let hi = Infinity;
    let nonZero = false;
    for (const f of this.facts) {
      // diff = f.e + c  or  diff = -f.e + c, with c constant
      for (const sign of [1, -1] as const) {
        let c: number | null;
        try {
          c = dimAsInteger(sign === 1 ? dimSub(diff, f.e) : dimAdd(diff, f.e));
        } catch (e) {
          if (e instanceof DimError) continue;
          throw e;
        }
        if (c === null) continue;
        // diff = sign * f.e + c
        if (f.op === '==') {
          lo = Math.max(lo, c);
          hi = Math.min(hi, c);
        } else if (f.op === '>=') {
          if (sign === 1) lo = Math.max(lo, c);
          else hi = Math.min(hi, c);
        } else if (c === 0) nonZero = true;
      }
    }
    const answer = lo > hi ? undefined : (decideRange(lo, hi, nonZero, op) ?? this.decideOneVariable(diff, op));
    if (answer === undefined) {
      try {
        const q = fromComparison(a, op, b);
        const canon = q.op === '!=' ? { e: q.e, op: '==' as const } : q; // split on equality, whichever way it was asked
        this.open.set(conditionKey(canon), canon);
      } catch (e) {
        if (!(e instanceof DimError)) throw e;
      }
    }
    return answer;
  }
}
