// Residual checks of gradual typing: a condition on size variables that no derivation
// decided, in one canonical form whichever strategy or relation asked for it, so that
// `3 == c` (a rule) and `c = 3` (a twin) are the same check `c == 3`. A check is a
// disjunction of comparisons (`n == 1 || n == 3` for a broadcast); each comparison is
//   P == k, P != k   (P: the non-constant part, leading coefficient positive, with its
//                     negative terms moved to the right: `n == m`, `c % 4 == 0`)
//   E >= 0           (every order comparison over integers: `h - 7 >= 0`)
// Checks evaluate for concrete sizes (`shapelog checks --dims`).
import type { Span } from '../frontends/relay/ast.js';
import {
  type Atom,
  type Dim,
  dimAdd,
  dimConst,
  dimEvaluate,
  dimFloorDiv,
  dimMax,
  dimMin,
  dimMod,
  dimMul,
  dimNeg,
  dimSub,
  dimToString,
  dimVar,
  dimVariables,
} from '../solver/terms/dims.js';
import type { UndecidedCondition } from './undecided.js';

/** One comparison in canonical form: `left op right` where `left - right` is the condition's polynomial. */
export interface Comparison {
  readonly left: Dim;
  readonly op: '==' | '!=' | '>=';
  readonly right: Dim;
}

export interface ResidualCheck {
  /** The canonical text: comparisons joined by ` || `. */
  readonly condition: string;
  /** The check holds when any of these holds. */
  readonly anyOf: readonly Comparison[];
  /** The operator (`add`) or unification (`the annotation of %x`) that needs it. */
  readonly operator: string;
  /** The operator's relation, or null. */
  readonly relation: string | null;
  readonly span: Span;
  /** What typing assumed beyond the condition, if anything (e.g. the result a broadcast has under it). */
  readonly assumes: string | null;
}

/** A comparison in canonical form, or null when it is decided (no variable left). */
export function canonicalComparison(left: Dim, op: UndecidedCondition['op'], right: Dim): Comparison | null {
  if (op === '==' || op === '!=') {
    const diff = divideByContent(withoutFloorDivisions(withCommonDenominator(withoutNestedModulo(dimSub(left, right)))), 'exact');
    if (diff === null) return null;
    if (diff.terms.length === 0) return null;
    // leading coefficient positive; positive terms on the left, negative ones and the constant on the right
    const p = diff.terms[0]!.coeff < 0 ? dimNeg(diff) : diff;
    let l = dimConst(0);
    let r = dimConst(-p.constant);
    for (const t of p.terms) {
      const magnitude = t.factors.reduce((m, f) => dimMul(m, atomDim(f)), dimConst(Math.abs(t.coeff)));
      if (t.coeff > 0) l = dimAdd(l, magnitude);
      else r = dimAdd(r, magnitude);
    }
    return { left: l, op, right: r };
  }
  const e0 =
    op === '>='
      ? dimSub(left, right)
      : op === '>'
        ? dimSub(dimSub(left, right), dimConst(1))
        : op === '<='
          ? dimSub(right, left)
          : dimSub(dimSub(right, left), dimConst(1));
  const e = divideByContent(withoutFloorDivisions(e0), 'floor');
  if (e === null || e.terms.length === 0) return null;
  return { left: e, op: '>=', right: dimConst(0) };
}

/**
 * `(N / k) % m` written as `N / k - m*(N / (k*m))` (floor division: the floor of a floor
 * of N / k by m is that of N by k*m), so that a nested divisibility condition has the
 * same form as one stated with the two divisions side by side.
 */
function withoutNestedModulo(d: Dim): Dim {
  let out = dimConst(d.constant);
  for (const t of d.terms) {
    const mod = t.factors.length === 1 && t.factors[0]!.kind === 'mod' ? t.factors[0]! : null;
    const inner =
      mod !== null && mod.kind === 'mod' && mod.den.terms.length === 0 && mod.num.constant === 0 && mod.num.terms.length === 1 ? mod.num.terms[0]! : null;
    const div = inner !== null && inner.coeff === 1 && inner.factors.length === 1 && inner.factors[0]!.kind === 'floordiv' ? inner.factors[0]! : null;
    if (
      mod !== null &&
      mod.kind === 'mod' &&
      div !== null &&
      div.kind === 'floordiv' &&
      div.den.terms.length === 0 &&
      div.den.constant > 0 &&
      mod.den.constant > 0
    ) {
      const m = mod.den.constant;
      const expanded = dimSub(dimFloorDiv(div.num, div.den), dimMul(dimConst(m), dimFloorDiv(div.num, dimConst(div.den.constant * m))));
      out = dimAdd(out, dimMul(dimConst(t.coeff), expanded));
    } else {
      out = dimAdd(
        out,
        t.factors.reduce((acc, f) => dimMul(acc, atomDim(f)), dimConst(t.coeff)),
      );
    }
  }
  return out;
}

/**
 * An equality with two or more floor divisions by constants, multiplied by the least
 * common multiple of their divisors (`E == 0` holds exactly when `L*E == 0` does), so
 * that withoutFloorDivisions can write each as a modulo: `N / 6 == 128*(N / 768)` and
 * `6*(N / 6) == 768*(N / 768)` both become `N % 768 == N % 6` in the end. One floor
 * division alone (`h / 2 == 3`) stays as written.
 */
function withCommonDenominator(d: Dim): Dim {
  const dens = d.terms.flatMap((t) =>
    t.factors.length === 1 && t.factors[0]!.kind === 'floordiv' && t.factors[0]!.den.terms.length === 0 && t.factors[0]!.den.constant > 0
      ? [t.factors[0]!.den.constant]
      : [],
  );
  if (dens.length < 2) return d;
  const l = dens.reduce((a, b) => (a / gcd(a, b)) * b, 1);
  return dimMul(dimConst(l), d);
}

/**
 * `c*(N / k)` with k dividing c written as `(c/k)*N - (c/k)*(N % k)` (floor division), so
 * that the same divisibility condition has one form: `8*h*w == 32*((h*w) / 4)` and
 * `8*((h*w) % 4) == 0` both become `(h*w) % 4 == 0` once divided by their content.
 */
function withoutFloorDivisions(d: Dim): Dim {
  let out = dimConst(d.constant);
  for (const t of d.terms) {
    const div = t.factors.length === 1 && t.factors[0]!.kind === 'floordiv' ? t.factors[0]! : null;
    const k = div !== null && div.kind === 'floordiv' && div.den.terms.length === 0 ? div.den.constant : 0;
    if (div !== null && div.kind === 'floordiv' && k > 0 && t.coeff % k === 0) {
      const q = dimConst(t.coeff / k);
      out = dimAdd(out, dimSub(dimMul(q, div.num), dimMul(q, dimMod(div.num, div.den))));
    } else {
      out = dimAdd(
        out,
        t.factors.reduce((m, f) => dimMul(m, atomDim(f)), dimConst(t.coeff)),
      );
    }
  }
  return out;
}

/**
 * `g*P + k` divided by g, the gcd of the coefficients of P: for `P + k == 0` only when g
 * divides k (else null: never equal, so no condition to keep as is — returned unchanged),
 * for `>= 0` with the constant rounded down (`2*h - 5 >= 0` is `h - 3 >= 0`).
 */
function divideByContent(d: Dim, rounding: 'exact' | 'floor'): Dim | null {
  if (d.terms.length === 0) return null;
  const g = d.terms.reduce((a, t) => gcd(a, Math.abs(t.coeff)), 0);
  if (g <= 1 || (rounding === 'exact' && d.constant % g !== 0)) return d;
  let out = dimConst(rounding === 'exact' ? d.constant / g : Math.floor(d.constant / g));
  for (const t of d.terms)
    out = dimAdd(
      out,
      t.factors.reduce((m, f) => dimMul(m, atomDim(f)), dimConst(t.coeff / g)),
    );
  return out;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function atomDim(a: Atom): Dim {
  switch (a.kind) {
    case 'var':
      return dimVar(a.name);
    case 'floordiv':
      return dimFloorDiv(a.num, a.den);
    case 'mod':
      return dimMod(a.num, a.den);
    case 'min':
      return a.args.slice(1).reduce(dimMin, a.args[0]!);
    case 'max':
      return a.args.slice(1).reduce(dimMax, a.args[0]!);
  }
}

export function comparisonText(c: Comparison): string {
  return `${dimToString(c.left)} ${c.op} ${dimToString(c.right)}`;
}

/** The checks of undecided conditions, canonical and each once (at its first call site in the source). */
export function checksOf(conditions: readonly UndecidedCondition[]): ResidualCheck[] {
  const checks: ResidualCheck[] = [];
  for (const u of conditions) {
    const c = canonicalComparison(u.left, u.op, u.right);
    if (c === null) continue;
    checks.push({ condition: comparisonText(c), anyOf: [c], operator: u.operator, relation: u.relation, span: u.span, assumes: null });
  }
  return firstOfEach(checks);
}

/** Each condition once, at its earliest call site; in source order (by condition text at one site). */
export function firstOfEach(checks: readonly ResidualCheck[]): ResidualCheck[] {
  const sorted = [...checks].sort(
    (a, b) =>
      a.span.file.localeCompare(b.span.file) ||
      a.span.start.offset - b.span.start.offset ||
      (a.condition < b.condition ? -1 : a.condition > b.condition ? 1 : 0),
  );
  const seen = new Set<string>();
  return sorted.filter((c) => !seen.has(c.condition) && seen.add(c.condition) !== undefined);
}

/** The size variables a check mentions, sorted. */
export function checkVariables(c: Pick<ResidualCheck, 'anyOf'>): string[] {
  return [...new Set(c.anyOf.flatMap((x) => [...dimVariables(x.left), ...dimVariables(x.right)]))].sort();
}

/** Whether the check holds for these sizes; throws DimError when a variable has no value (or on division by zero). */
export function checkHolds(c: Pick<ResidualCheck, 'anyOf'>, sizes: Readonly<Record<string, number>>): boolean {
  return c.anyOf.some((x) => {
    const l = dimEvaluate(x.left, sizes);
    const r = dimEvaluate(x.right, sizes);
    return x.op === '==' ? l === r : x.op === '!=' ? l !== r : l >= r;
  });
}

/** A disjunction as one check. */
export function disjunction(parts: readonly Comparison[], site: Omit<ResidualCheck, 'condition' | 'anyOf'>): ResidualCheck {
  const seen = new Set<string>();
  const anyOf = parts.filter((p) => !seen.has(comparisonText(p)) && seen.add(comparisonText(p)) !== undefined);
  return { ...site, condition: anyOf.map(comparisonText).join(' || '), anyOf };
}
