// Symbolic tensor dimensions in canonical form.
//
// A dimension is an integer or an expression over named size variables such as
// `n`, `2*n + 1` or `(h + 2) / 2`. This module keeps every dimension in a
// canonical form: a polynomial with integer coefficients whose "atoms" are size
// variables or opaque `floordiv`, `mod`, `min` and `max` nodes (whose operands are
// canonical dimensions themselves). Two expressions that the normaliser can prove
// equal get the same canonical form, and hence the same key (`dimKey`).
//
// Semantics:
//   * every size variable ranges over the integers >= 0;
//   * `/` is FLOOR division and `%` FLOOR modulo (the result has the sign of the
//     divisor), as in Python: -7 / 2 = -4, -7 % 2 = 1, 7 % -2 = -1;
//   * all integers are exact: a coefficient or constant outside ±(2^53 - 1)
//     raises DimError rather than silently losing precision.
//
// Comparison (`dimCompare`) is three-valued: it answers true/false only when that
// answer holds for EVERY assignment of non-negative integers to the variables
// (ignoring assignments on which the expressions divide by zero, which have no
// value), and `undefined` otherwise.
//
// Sections:
//   1. Errors and limits
//   2. Checked integer arithmetic
//   3. Representation
//   4. Construction of canonical polynomials (ordering, keys, printing, size)
//   5. Public constructors and arithmetic
//   6. Division, modulo, min and max
//   7. Interval (sign) analysis
//   8. Comparison (8b. assumptions: a path condition for undecided comparisons)
//   9. Inspection and evaluation

// ─── 1. Errors and limits ─────────────────────────────────────────────────────

/** Raised for division or modulo by zero, integer overflow, and oversized expressions. */
export class DimError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DimError';
  }
}

/**
 * Largest `dimSize` a dimension may have. Building anything larger throws DimError;
 * this keeps pathological inputs (e.g. `(n + m + h)^k` expanded) from blowing up.
 */
export const MAX_DIM_SIZE = 256;

// ─── 2. Checked integer arithmetic ───────────────────────────────────────────
//
// All coefficients and constants are safe integers. For safe integers a and b,
// the floating-point result of a + b or a * b is exact whenever the exact result
// is a safe integer, and is NOT a safe integer otherwise (rounding cannot move a
// value of magnitude >= 2^53 below 2^53). So "compute, then check
// Number.isSafeInteger" is an exact overflow test.

function checkedInt(value: number, what: string): number {
  if (!Number.isSafeInteger(value)) throw new DimError(`integer overflow in ${what}`);
  return value === 0 ? 0 : value; // normalise -0
}

function addInt(a: number, b: number): number {
  return checkedInt(a + b, 'addition');
}

function mulInt(a: number, b: number): number {
  return checkedInt(a * b, 'multiplication');
}

/** Floor division of safe integers (b != 0), exact via BigInt; |result| <= |a|, so it is safe too. */
function floorDivInt(a: number, b: number): number {
  if (b === 0) throw new DimError('division by zero');
  const x = BigInt(a);
  const y = BigInt(b);
  let q = x / y; // truncates toward zero
  if (x % y !== 0n && x < 0n !== y < 0n) q -= 1n;
  return checkedInt(Number(q), 'division');
}

/** Floor modulo of safe integers (b != 0): the result has the sign of b. */
function floorModInt(a: number, b: number): number {
  if (b === 0) throw new DimError('modulo by zero');
  let r = a % b; // exact for safe integers; sign of a
  if (r !== 0 && r < 0 !== b < 0) r += b;
  return r === 0 ? 0 : r;
}

function gcdInt(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

// ─── 3. Representation ───────────────────────────────────────────────────────

/** A size variable, by name. */
export interface VarAtom {
  readonly kind: 'var';
  readonly name: string;
  readonly key: string;
  readonly size: number;
}

/** Opaque `floordiv(num, den)` or `mod(num, den)`. */
export interface DivModAtom {
  readonly kind: 'floordiv' | 'mod';
  readonly num: Dim;
  readonly den: Dim;
  readonly key: string;
  readonly size: number;
}

/** Opaque `min(args...)` or `max(args...)`: at least two args, sorted and distinct. */
export interface MinMaxAtom {
  readonly kind: 'min' | 'max';
  readonly args: readonly Dim[];
  readonly key: string;
  readonly size: number;
}

export type Atom = VarAtom | DivModAtom | MinMaxAtom;

/** `coeff * factors[0] * factors[1] * ...`; factors sorted (repeated for powers), coeff != 0. */
export interface Monomial {
  readonly coeff: number;
  readonly factors: readonly Atom[];
  /** Canonical key of the factor product (without the coefficient). */
  readonly key: string;
}

/**
 * A canonical dimension: `terms[0] + terms[1] + ... + constant`.
 * The terms are non-constant monomials with distinct factor products and non-zero
 * coefficients, in canonical order (highest degree first). Immutable (frozen).
 */
export interface Dim {
  readonly terms: readonly Monomial[];
  readonly constant: number;
  /** Canonical key; also the printed form (see `dimToString`). */
  readonly key: string;
  /** See `dimSize`. */
  readonly size: number;
}

// ─── 4. Construction of canonical polynomials ────────────────────────────────

// Canonical order of atoms: variables, then floordiv, mod, min, max; within a
// kind, by key. Keys are injective, so this is a total order on distinct atoms.
const ATOM_RANK: Record<Atom['kind'], number> = { var: 0, floordiv: 1, mod: 2, min: 3, max: 4 };

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareAtoms(a: Atom, b: Atom): number {
  return ATOM_RANK[a.kind] - ATOM_RANK[b.kind] || compareStrings(a.key, b.key);
}

/** Monomials: higher degree (number of factors) first, then lexicographically by factors. */
function compareFactorLists(a: readonly Atom[], b: readonly Atom[]): number {
  if (a.length !== b.length) return b.length - a.length;
  for (let i = 0; i < a.length; i++) {
    const c = compareAtoms(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return 0;
}

/** Order of min/max arguments: non-constant dims by key, then constants by value. */
function compareDims(a: Dim, b: Dim): number {
  const ac = a.terms.length === 0;
  const bc = b.terms.length === 0;
  if (ac && bc) return a.constant - b.constant;
  if (ac !== bc) return ac ? 1 : -1;
  return compareStrings(a.key, b.key);
}

// Printing. The printed form doubles as the canonical key, so it must be
// injective: variable names that are not plain identifiers (or are `min`/`max`)
// are JSON-quoted, and parentheses are added wherever precedence could make a
// reading ambiguous. `/` and `%` bind tighter than `+`/`-`, like `*`, and
// associate to the left.

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function nameText(name: string): string {
  return PLAIN_NAME.test(name) && name !== 'min' && name !== 'max' ? name : JSON.stringify(name);
}

/** An operand of `/` or `%` is printed bare only if it is a variable, a non-negative constant or a lone min/max. */
function operandText(d: Dim): string {
  if (d.terms.length === 0) return d.constant >= 0 ? d.key : `(${d.key})`;
  const only = d.terms[0]!;
  if (d.terms.length === 1 && d.constant === 0 && only.coeff === 1 && only.factors.length === 1) {
    const kind = only.factors[0]!.kind;
    if (kind === 'var' || kind === 'min' || kind === 'max') return d.key;
  }
  return `(${d.key})`;
}

function atomText(a: Atom, inProduct: boolean): string {
  return inProduct && (a.kind === 'floordiv' || a.kind === 'mod') ? `(${a.key})` : a.key;
}

/** `|coeff| * factors`, e.g. `2*n*m`, `n`, `(h + 2) / 2`, `3*((h + 2) / 2)`. */
function monomialText(absCoeff: number, factors: readonly Atom[], wrapDivMod: boolean): string {
  const inProduct = wrapDivMod || absCoeff !== 1 || factors.length > 1;
  const parts = factors.map((f) => atomText(f, inProduct));
  if (absCoeff !== 1) parts.unshift(String(absCoeff));
  return parts.join('*');
}

function polynomialText(terms: readonly Monomial[], constant: number): string {
  if (terms.length === 0) return String(constant);
  let out = '';
  terms.forEach((t, i) => {
    const abs = Math.abs(t.coeff);
    if (i === 0) {
      // A leading `-` applied to `a / b` would read as `(-a) / b`, so wrap it.
      out = t.coeff < 0 ? `-${monomialText(abs, t.factors, true)}` : monomialText(abs, t.factors, false);
    } else {
      out += `${t.coeff < 0 ? ' - ' : ' + '}${monomialText(abs, t.factors, false)}`;
    }
  });
  if (constant > 0) out += ` + ${constant}`;
  else if (constant < 0) out += ` - ${-constant}`;
  return out;
}

function factorKey(factors: readonly Atom[]): string {
  return monomialText(1, factors, false);
}

// Sizes: a dim counts its monomials (at least 1, the constant 0 counting as one),
// plus the sizes of all atom occurrences; an atom counts itself plus its operands.

function dimSizeOf(terms: readonly Monomial[], constant: number): number {
  let size = Math.max(1, terms.length + (constant !== 0 ? 1 : 0));
  for (const t of terms) for (const f of t.factors) size += f.size;
  return size;
}

function checkSize(size: number): void {
  if (size > MAX_DIM_SIZE) throw new DimError(`dimension expression too large (${size} > ${MAX_DIM_SIZE} nodes)`);
}

/** Accumulates monomials, collecting like terms; `build` yields the canonical Dim. */
class PolyBuilder {
  private readonly terms = new Map<string, { coeff: number; factors: readonly Atom[] }>();
  private constant = 0;

  /** Adds `coeff * factors`; `factors` must already be sorted. */
  add(coeff: number, factors: readonly Atom[], key: string = factorKey(factors)): this {
    if (factors.length === 0) {
      this.constant = addInt(this.constant, coeff);
      return this;
    }
    const entry = this.terms.get(key);
    if (entry === undefined) this.terms.set(key, { coeff, factors });
    else entry.coeff = addInt(entry.coeff, coeff);
    return this;
  }

  /** Adds `scale * d`. */
  addDim(d: Dim, scale = 1): this {
    for (const t of d.terms) this.add(mulInt(scale, t.coeff), t.factors, t.key);
    this.constant = addInt(this.constant, mulInt(scale, d.constant));
    return this;
  }

  build(): Dim {
    const monomials: Monomial[] = [];
    for (const [key, { coeff, factors }] of this.terms) {
      if (coeff !== 0) monomials.push(Object.freeze({ coeff, factors, key }));
    }
    monomials.sort((a, b) => compareFactorLists(a.factors, b.factors));
    return makeDim(monomials, this.constant);
  }
}

/** Freezes an already-canonical polynomial, computing its key and size. */
function makeDim(terms: Monomial[], constant: number): Dim {
  const size = dimSizeOf(terms, constant);
  checkSize(size);
  return Object.freeze({
    terms: Object.freeze(terms),
    constant,
    key: polynomialText(terms, constant),
    size,
  });
}

function atomDim(atom: Atom): Dim {
  return makeDim([Object.freeze({ coeff: 1, factors: Object.freeze([atom]), key: factorKey([atom]) })], 0);
}

function makeDivModAtom(kind: 'floordiv' | 'mod', num: Dim, den: Dim): Dim {
  const key = `${operandText(num)} ${kind === 'floordiv' ? '/' : '%'} ${operandText(den)}`;
  return atomDim(Object.freeze({ kind, num, den, key, size: 1 + num.size + den.size }));
}

function makeMinMaxAtom(kind: 'min' | 'max', args: Dim[]): Dim {
  args.sort(compareDims);
  const key = `${kind}(${args.map((a) => a.key).join(', ')})`;
  const size = 1 + args.reduce((s, a) => s + a.size, 0);
  return atomDim(Object.freeze({ kind, args: Object.freeze(args), key, size }));
}

/** If `d` is exactly one atom (coefficient 1, no constant), that atom. */
function loneAtom(d: Dim): Atom | undefined {
  const only = d.terms[0];
  if (d.terms.length !== 1 || d.constant !== 0 || only === undefined || only.coeff !== 1) return undefined;
  return only.factors.length === 1 ? only.factors[0] : undefined;
}

function scaleDim(d: Dim, k: number): Dim {
  return new PolyBuilder().addDim(d, k).build();
}

/** `d / k` for a k that divides every coefficient and the constant exactly. */
function divideExactly(d: Dim, k: number): Dim {
  const b = new PolyBuilder();
  for (const t of d.terms) b.add(t.coeff / k, t.factors, t.key);
  b.add(d.constant / k, []);
  return b.build();
}

// ─── 5. Public constructors and arithmetic ───────────────────────────────────

const ZERO: Dim = makeDim([], 0);

/** The constant dimension `n` (a safe integer). */
export function dimConst(n: number): Dim {
  if (!Number.isSafeInteger(n)) throw new DimError(`not a safe integer: ${n}`);
  return n === 0 ? ZERO : makeDim([], n);
}

/** The size variable `name` (any non-empty string; unusual names print quoted). */
export function dimVar(name: string): Dim {
  if (name.length === 0) throw new DimError('empty size-variable name');
  return atomDim(Object.freeze({ kind: 'var', name, key: nameText(name), size: 1 }));
}

export function dimAdd(a: Dim, b: Dim): Dim {
  if (b.terms.length === 0 && b.constant === 0) return a;
  if (a.terms.length === 0 && a.constant === 0) return b;
  return new PolyBuilder().addDim(a).addDim(b).build();
}

export function dimNeg(a: Dim): Dim {
  return scaleDim(a, -1);
}

export function dimSub(a: Dim, b: Dim): Dim {
  return new PolyBuilder().addDim(a).addDim(b, -1).build();
}

/** Merges two sorted factor lists (multiplying the monomials). */
function mergeFactors(a: readonly Atom[], b: readonly Atom[]): Atom[] {
  const out: Atom[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(compareAtoms(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/** Polynomial product, fully distributed: (Σ a_i)(Σ b_j) = Σ a_i b_j. */
export function dimMul(a: Dim, b: Dim): Dim {
  if (a.terms.length === 0) return scaleDim(b, a.constant);
  if (b.terms.length === 0) return scaleDim(a, b.constant);
  // Both operands have at most MAX_DIM_SIZE monomials, so the expansion below is
  // bounded; `build` rejects the result if it is too large.
  const withConst = (d: Dim) => [...d.terms, { coeff: d.constant, factors: [] as readonly Atom[] }].filter((t) => t.coeff !== 0);
  const builder = new PolyBuilder();
  for (const s of withConst(a)) {
    for (const t of withConst(b)) {
      const factors = mergeFactors(s.factors, t.factors);
      if (factors.length > MAX_DIM_SIZE) throw new DimError('dimension expression too large (degree)');
      builder.add(mulInt(s.coeff, t.coeff), Object.freeze(factors));
    }
  }
  return builder.build();
}

// ─── 6. Division, modulo, min and max ────────────────────────────────────────

function isZero(d: Dim): boolean {
  return d.terms.length === 0 && d.constant === 0;
}

/**
 * `a / b` when b is one monomial `c*x*y...` (c > 0) that divides every term of a (no
 * constant): the exact quotient, e.g. `(768*n) / n = 768`, `(m*n + 2*n) / n = m + 2`.
 * Exact whenever b is not zero; when b is zero the division is undefined anyway (a
 * shape that divides by a size assumes that size is not zero, as reshape's -1 does).
 */
function monomialQuotient(a: Dim, b: Dim): Dim | null {
  if (b.constant !== 0 || b.terms.length !== 1 || a.constant !== 0) return null;
  const d = b.terms[0]!;
  if (d.coeff <= 0) return null;
  const q = new PolyBuilder();
  for (const t of a.terms) {
    if (t.coeff % d.coeff !== 0) return null;
    const rest = [...t.factors];
    for (const f of d.factors) {
      const i = rest.findIndex((x) => x.key === f.key);
      if (i < 0) return null;
      rest.splice(i, 1);
    }
    q.add(t.coeff / d.coeff, Object.freeze(rest));
  }
  return q.build();
}

/** The leading coefficient is negative: used to give symbolic divisors a canonical sign. */
function leadsNegative(d: Dim): boolean {
  return (d.terms[0]?.coeff ?? d.constant) < 0;
}

/**
 * Floor division `a / b`. With a constant divisor c the normaliser
 *   * makes c positive:                floor(p / c) = floor(-p / -c);
 *   * pulls out whole multiples:       floor((c*q + r) / c) = q + floor(r / c)  (q integer-valued),
 *     where q collects the non-constant terms whose coefficients c divides
 *     (the constant stays in r, so `(h + 2) / 2` is kept as written, but is
 *     folded when r is constant, so `(2*n + 3) / 2` = n + 1);
 *   * cancels common factors:          floor(g*r / g*c) = floor(r / c)  (g > 0);
 *   * merges nested divisions:         floor(floor(x / k) / c) = floor(x / (k*c))  (k, c > 0);
 *   * folds to a constant when the interval analysis puts r / c in one unit interval.
 * A symbolic divisor is only given a canonical sign.
 */
export function dimFloorDiv(a: Dim, b: Dim): Dim {
  if (isZero(b)) throw new DimError('division by zero');
  const c = dimAsInteger(b);
  if (c === null) {
    const exact = monomialQuotient(a, b);
    if (exact !== null) return exact;
    return leadsNegative(b) ? makeDivModAtom('floordiv', dimNeg(a), dimNeg(b)) : makeDivModAtom('floordiv', a, b);
  }
  if (c < 0) return dimFloorDiv(dimNeg(a), dimConst(-c));
  if (a.terms.length === 0) return dimConst(floorDivInt(a.constant, c));
  if (c === 1) return a;

  const whole = new PolyBuilder();
  const rest = new PolyBuilder();
  for (const t of a.terms) {
    if (t.coeff % c === 0) whole.add(t.coeff / c, t.factors, t.key);
    else rest.add(t.coeff, t.factors, t.key);
  }
  rest.add(a.constant, []);
  const q = whole.build();
  const r = rest.build();
  if (r.terms.length === 0) return dimAdd(q, dimConst(floorDivInt(r.constant, c)));

  // Cancel g = gcd(c, all coefficients of r).
  const g = r.terms.reduce((acc, t) => gcdInt(acc, t.coeff), gcdInt(c, r.constant));
  const num = g === 1 ? r : divideExactly(r, g);
  const den = c / g;

  // Nested division by a positive constant k.
  const inner = loneAtom(num);
  if (inner?.kind === 'floordiv') {
    const k = dimAsInteger(inner.den);
    if (k !== null && k > 0 && Number.isSafeInteger(k * den)) {
      return dimAdd(q, dimFloorDiv(inner.num, dimConst(k * den)));
    }
  }

  // If num lies within [den*t, den*t + den - 1] for one t, the quotient is t.
  const { lo, hi } = bounds(num);
  if (Number.isFinite(lo) && Number.isFinite(hi) && floorDivInt(lo, den) === floorDivInt(hi, den)) {
    return dimAdd(q, dimConst(floorDivInt(lo, den)));
  }
  return dimAdd(q, makeDivModAtom('floordiv', num, dimConst(den)));
}

/**
 * Floor modulo `a % b` (sign of the divisor). With a constant divisor c the normaliser
 *   * makes c positive:                p mod c = -((-p) mod -c);
 *   * reduces every coefficient and the constant into [0, c): multiples of c vanish,
 *     since (p + c*x) mod c = p mod c for integer x;
 *   * cancels common factors:          (g*r) mod (g*c) = g * (r mod c)  (g > 0);
 *   * merges nested moduli:            (x mod k) mod c = x mod c  when c divides k;
 *   * uses the interval analysis:      p mod c = p - c*t when floor(p / c) = t throughout.
 * A symbolic divisor is only given a canonical sign: p mod -q = -((-p) mod q).
 */
export function dimMod(a: Dim, b: Dim): Dim {
  if (isZero(b)) throw new DimError('modulo by zero');
  const c = dimAsInteger(b);
  if (c === null) {
    return leadsNegative(b) ? dimNeg(makeDivModAtom('mod', dimNeg(a), dimNeg(b))) : makeDivModAtom('mod', a, b);
  }
  if (c < 0) return dimNeg(dimMod(dimNeg(a), dimConst(-c)));
  if (a.terms.length === 0) return dimConst(floorModInt(a.constant, c));
  if (c === 1) return ZERO;

  const rest = new PolyBuilder();
  for (const t of a.terms) rest.add(floorModInt(t.coeff, c), t.factors, t.key);
  rest.add(floorModInt(a.constant, c), []);
  const r = rest.build();
  if (r.terms.length === 0) return r; // constant already in [0, c)

  const g = r.terms.reduce((acc, t) => gcdInt(acc, t.coeff), gcdInt(c, r.constant));
  const num = g === 1 ? r : divideExactly(r, g);
  const den = c / g;
  const times = (d: Dim) => (g === 1 ? d : scaleDim(d, g));

  const inner = loneAtom(num);
  if (inner?.kind === 'mod') {
    const k = dimAsInteger(inner.den);
    if (k !== null && k > 0 && k % den === 0) return times(dimMod(inner.num, dimConst(den)));
  }

  const { lo, hi } = bounds(num);
  if (Number.isFinite(lo) && Number.isFinite(hi)) {
    const t = floorDivInt(lo, den);
    if (t === floorDivInt(hi, den)) return times(dimSub(num, dimConst(mulInt(den, t))));
  }
  return times(makeDivModAtom('mod', num, dimConst(den)));
}

/** `x <= y` for every assignment, according to the interval analysis. */
function provablyLE(x: Dim, y: Dim): boolean {
  try {
    return bounds(dimSub(y, x)).lo >= 0;
  } catch (e) {
    if (e instanceof DimError) return false;
    throw e;
  }
}

/**
 * min / max. Nested min(min(..)) / max(max(..)) are flattened, duplicates dropped,
 * and an argument is dropped when another one provably beats it. "x beats y"
 * (for min: x <= y provably) is a preorder — the interval bound of a sum of
 * polynomials is no wider than the sum of their bounds, so it is transitive —
 * and ties are broken by the canonical argument order, so the surviving set (the
 * minimal elements) does not depend on how the min/max was associated.
 */
function dimMinMax(kind: 'min' | 'max', a: Dim, b: Dim): Dim {
  const flat: Dim[] = [];
  for (const d of [a, b]) {
    const atom = loneAtom(d);
    if (atom?.kind === kind) flat.push(...atom.args);
    else flat.push(d);
  }
  const distinct = [...new Map(flat.map((d) => [d.key, d])).values()].sort(compareDims);
  // `le(x, y)`: x is provably at least as good as y; `beats(x, y)`: x makes y redundant.
  const le = (x: Dim, y: Dim) => (kind === 'min' ? provablyLE(x, y) : provablyLE(y, x));
  const beats = (x: Dim, y: Dim) => le(x, y) && (!le(y, x) || compareDims(x, y) < 0);
  const kept = distinct.filter((y) => !distinct.some((x) => x !== y && beats(x, y)));
  if (kept.length === 1) return kept[0]!;
  // `kept` can only be empty if bound widening on overflow broke transitivity;
  // then keep every argument (always sound).
  return makeMinMaxAtom(kind, kept.length > 0 ? kept : distinct);
}

export function dimMin(a: Dim, b: Dim): Dim {
  return dimMinMax('min', a, b);
}

export function dimMax(a: Dim, b: Dim): Dim {
  return dimMinMax('max', a, b);
}

// ─── 7. Interval (sign) analysis ─────────────────────────────────────────────
//
// bounds(d) = [lo, hi] with lo in Z ∪ {-inf}, hi in Z ∪ {+inf}, such that every
// value d takes when all variables are integers >= 0 (and no divisor is zero)
// lies in [lo, hi]. Every rule below over-approximates; any bound that would not
// be a safe integer is widened to ±inf, so the analysis never relies on inexact
// floating-point values.

interface Interval {
  readonly lo: number;
  readonly hi: number;
}

const ANY: Interval = { lo: -Infinity, hi: Infinity };

/** Builds an interval, widening any bound that is not a safe integer (overflow, NaN) to ±inf. */
function interval(lo: number, hi: number): Interval {
  return {
    lo: Number.isSafeInteger(lo) ? lo || 0 : -Infinity,
    hi: Number.isSafeInteger(hi) ? hi || 0 : Infinity,
  };
}

/** Extended product with 0 * ±inf = 0 (the values are finite; only the bound is unbounded). */
function mulExt(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : a * b;
}

function iAdd(x: Interval, y: Interval): Interval {
  return interval(x.lo + y.lo, x.hi + y.hi);
}

function iMul(x: Interval, y: Interval): Interval {
  const ps = [mulExt(x.lo, y.lo), mulExt(x.lo, y.hi), mulExt(x.hi, y.lo), mulExt(x.hi, y.hi)];
  return interval(Math.min(...ps), Math.max(...ps));
}

/** x^k for k >= 1; even powers are non-negative. */
function iPow(x: Interval, k: number): Interval {
  let r = x;
  for (let i = 1; i < k; i++) r = iMul(r, x);
  if (k % 2 === 0 && r.lo < 0) r = interval(0, r.hi);
  return r;
}

function iUnion(x: Interval, y: Interval): Interval {
  return interval(Math.min(x.lo, y.lo), Math.max(x.hi, y.hi));
}

/** floor(p / q) for q within [ql, qh] with ql >= 1. */
function iFloorDivPos(p: Interval, ql: number, qh: number): Interval {
  // For fixed q > 0 the quotient grows with p; for p >= 0 it shrinks as q grows,
  // for p < 0 it grows towards -1 as q grows (and reaches -1 in the limit q -> inf).
  const quot = (a: number, b: number) => (b === Infinity ? (a >= 0 ? 0 : -1) : floorDivInt(a, b));
  const lo = p.lo === -Infinity ? -Infinity : p.lo >= 0 ? quot(p.lo, qh) : quot(p.lo, ql);
  const hi = p.hi === Infinity ? Infinity : p.hi >= 0 ? quot(p.hi, ql) : quot(p.hi, qh);
  return interval(lo, hi);
}

/** p mod q for q within [ql, qh] with ql >= 1: in [0, qh - 1], and p itself when 0 <= p < ql. */
function iModPos(p: Interval, ql: number, qh: number): Interval {
  if (p.lo >= 0 && p.hi < ql) return p;
  let hi = qh - 1;
  if (p.lo >= 0) hi = Math.min(hi, p.hi); // 0 <= p mod q <= p for p >= 0
  return interval(0, hi);
}

function iNeg(x: Interval): Interval {
  return interval(-x.hi, -x.lo);
}

/**
 * Bounds of `p op q` for `/` or `%`, from a rule `pos` valid for positive divisors.
 * The divisor's range is split into its positive and negative parts; 0 is left
 * out, since dividing by zero has no value. Negative divisors are reduced to
 * positive ones by floor(p / q) = floor(-p / -q) and p mod q = -((-p) mod -q).
 */
function byDivisorSign(op: 'floordiv' | 'mod', p: Interval, q: Interval): Interval {
  const pos = op === 'floordiv' ? iFloorDivPos : iModPos;
  let result: Interval | undefined;
  if (q.hi >= 1) result = pos(p, Math.max(q.lo, 1), q.hi);
  if (q.lo <= -1) {
    const r = pos(iNeg(p), Math.max(-q.hi, 1), -q.lo);
    const s = op === 'floordiv' ? r : iNeg(r);
    result = result === undefined ? s : iUnion(result, s);
  }
  return result ?? ANY; // divisor always 0: no values at all
}

const atomBounds = new WeakMap<Atom, Interval>();

function boundsOfAtom(a: Atom): Interval {
  const cached = atomBounds.get(a);
  if (cached !== undefined) return cached;
  let result: Interval;
  switch (a.kind) {
    case 'var':
      result = interval(0, Infinity);
      break;
    case 'floordiv':
    case 'mod':
      result = byDivisorSign(a.kind, bounds(a.num), bounds(a.den));
      break;
    case 'min':
    case 'max': {
      const bs = a.args.map(bounds);
      const pick = a.kind === 'min' ? Math.min : Math.max;
      result = interval(pick(...bs.map((b) => b.lo)), pick(...bs.map((b) => b.hi)));
      break;
    }
  }
  atomBounds.set(a, result);
  return result;
}

function bounds(d: Dim): Interval {
  let total = interval(d.constant, d.constant);
  for (const t of d.terms) {
    let m = interval(t.coeff, t.coeff);
    // Group repeated factors into powers (they are adjacent: factors are sorted).
    for (let i = 0; i < t.factors.length; ) {
      let j = i + 1;
      while (j < t.factors.length && t.factors[j]!.key === t.factors[i]!.key) j++;
      m = iMul(m, iPow(boundsOfAtom(t.factors[i]!), j - i));
      i = j;
    }
    total = iAdd(total, m);
  }
  return total;
}

// Refinement for comparisons. Plain intervals lose the correlation between the
// two sides of a comparison: for `max(n, m) - n` they only see [0, inf) - [0, inf).
// refinedBounds removes one opaque atom at a time (a term k*A with A a single
// min/max/floordiv/mod atom, the rest of the polynomial being R) using exact
// identities or inequalities that relate A to its operands, and recurses:
//   * k*max(a_i) + R = max_i(k*a_i + R) if k > 0, min_i(k*a_i + R) if k < 0
//     (dually for min); the bounds of a max/min are the max/min of the bounds;
//   * F = floordiv(p, c), c > 0 constant:  p - (c - 1) <= c*F <= p, so
//     c*(k*F + R) lies between k*(p - c + 1) + c*R and k*p + c*R;
//   * M = mod(p, c), c > 0 constant:  0 <= M <= c - 1, and M <= p when p >= 0.
// The result is intersected with the plain interval. A shared fuel counter
// bounds the work. This is used by dimCompare only: the normaliser's min/max
// pruning sticks to the plain analysis, which is provably transitive (see
// dimMinMax), so canonical forms do not depend on association.

const REFINE_FUEL = 64;

function ceilDivExt(a: number, c: number): number {
  return Number.isFinite(a) ? -floorDivInt(-a, c) : a;
}

function floorDivExt(a: number, c: number): number {
  return Number.isFinite(a) ? floorDivInt(a, c) : a;
}

function refinable(a: Atom): boolean {
  switch (a.kind) {
    case 'var':
      return false;
    case 'min':
    case 'max':
      return true;
    case 'floordiv':
    case 'mod': {
      const c = dimAsInteger(a.den);
      return c !== null && c > 0;
    }
  }
}

function refinedBounds(d: Dim, fuel: { left: number }): Interval {
  const base = bounds(d);
  const index = d.terms.findIndex((t) => t.factors.length === 1 && refinable(t.factors[0]!));
  const term = d.terms[index];
  if (term === undefined || fuel.left <= 0) return base;
  const k = term.coeff;
  const atom = term.factors[0]!;
  const sub = (x: Dim): Interval => {
    fuel.left--;
    return refinedBounds(x, fuel);
  };
  try {
    const rest = new PolyBuilder().addDim(d).add(-k, term.factors, term.key).build(); // R
    let refined: Interval;
    switch (atom.kind) {
      case 'min':
      case 'max': {
        const bs = atom.args.map((a) => sub(dimAdd(rest, scaleDim(a, k))));
        const pick = (atom.kind === 'max') === k > 0 ? Math.max : Math.min;
        refined = interval(pick(...bs.map((b) => b.lo)), pick(...bs.map((b) => b.hi)));
        break;
      }
      case 'floordiv': {
        const c = dimAsInteger(atom.den)!;
        const upperForm = dimAdd(scaleDim(atom.num, k), scaleDim(rest, c)); // k*p + c*R
        const lowerForm = dimSub(upperForm, dimConst(mulInt(k, c - 1))); // k*(p - c + 1) + c*R
        const [lo, hi] = k > 0 ? [lowerForm, upperForm] : [upperForm, lowerForm];
        refined = interval(ceilDivExt(sub(lo).lo, c), floorDivExt(sub(hi).hi, c));
        break;
      }
      case 'mod': {
        const c = dimAsInteger(atom.den)!;
        const r = sub(rest);
        const span = mulInt(k, c - 1); // k*M ranges over [0, span] (k > 0) or [span, 0] (k < 0)
        refined = k > 0 ? interval(r.lo, r.hi + span) : interval(r.lo + span, r.hi);
        if (bounds(atom.num).lo >= 0) {
          const withP = sub(dimAdd(rest, scaleDim(atom.num, k))); // k*p + R
          refined = k > 0 ? interval(refined.lo, Math.min(refined.hi, withP.hi)) : interval(Math.max(refined.lo, withP.lo), refined.hi);
        }
        break;
      }
      case 'var':
        return base;
    }
    return interval(Math.max(base.lo, refined.lo), Math.min(base.hi, refined.hi));
  } catch (e) {
    if (e instanceof DimError) return base; // overflow or size limit while refining
    throw e;
  }
}

// ─── 8. Comparison ───────────────────────────────────────────────────────────

export type DimCompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

/**
 * Three-valued comparison: true/false when the answer is the same for every
 * assignment of non-negative integers to the variables, `undefined` when the
 * analysis cannot tell. Decided on d = a - b: exactly if d is constant,
 * otherwise from the interval [lo, hi] of d (section 7, with refinement).
 */
export function dimCompare(a: Dim, b: Dim, op: DimCompareOp): boolean | undefined {
  const answer = compareUnassumed(a, b, op);
  if (answer !== undefined || assumptions === null) return answer;
  return assumptions.decide(a, b, op);
}

function compareUnassumed(a: Dim, b: Dim, op: DimCompareOp): boolean | undefined {
  let lo: number;
  let hi: number;
  if (a.terms.length === 0 && b.terms.length === 0) {
    // Both constant: compare directly (their difference might not be a safe integer).
    lo = hi = a.constant === b.constant ? 0 : a.constant < b.constant ? -1 : 1;
  } else if (a.key === b.key) {
    lo = hi = 0;
  } else {
    try {
      ({ lo, hi } = refinedBounds(dimSub(a, b), { left: REFINE_FUEL }));
    } catch (e) {
      if (e instanceof DimError) return undefined;
      throw e;
    }
  }
  return decideRange(lo, hi, false, op);
}

/** Three-valued `x op 0` knowing only lo <= x <= hi and (if nonZero) x != 0. */
export function decideRange(lo: number, hi: number, nonZero: boolean, op: DimCompareOp): boolean | undefined {
  if (nonZero && lo === 0) lo = 1;
  if (nonZero && hi === 0) hi = -1;
  const zeroPossible = lo <= 0 && hi >= 0 && !nonZero;
  switch (op) {
    case '==':
      return lo === 0 && hi === 0 ? true : !zeroPossible ? false : undefined;
    case '!=':
      return lo === 0 && hi === 0 ? false : !zeroPossible ? true : undefined;
    case '<':
      return hi < 0 ? true : lo >= 0 ? false : undefined;
    case '<=':
      return hi <= 0 ? true : lo > 0 ? false : undefined;
    case '>':
      return lo > 0 ? true : hi <= 0 ? false : undefined;
    case '>=':
      return lo >= 0 ? true : hi < 0 ? false : undefined;
  }
}

// ─── 8b. Assumptions (a path condition) ──────────────────────────────────────
//
// The prover (proofs/prove/) runs both strategies under a path condition such as
// `d2 >= 3, d1 != 1`. While `withDimAssumptions(ctx, body)` runs, a comparison
// that the analysis above leaves undecided is handed to `ctx.decide`, which may
// answer from the assumed facts (and records what it cannot answer). Outside
// such a call nothing changes: `dimCompare` gives exactly the answers above.
// Canonical forms never depend on assumptions (min/max pruning does not consult
// them), so terms built under assumptions stay valid outside.

/** A path condition consulted by `dimCompare` on questions it cannot decide. */
export interface DimAssumptions {
  /** The answer to `a op b` under the assumptions, or undefined (then it may note the question). */
  decide(a: Dim, b: Dim, op: DimCompareOp): boolean | undefined;
}

let assumptions: DimAssumptions | null = null;

/** Runs `body` with `ctx` consulted on undecided comparisons; restores the previous context after. */
export function withDimAssumptions<T>(ctx: DimAssumptions, body: () => T): T {
  const outer = assumptions;
  assumptions = ctx;
  try {
    return body();
  } finally {
    assumptions = outer;
  }
}

// ─── 9. Inspection and evaluation ────────────────────────────────────────────

/** The value of a constant dimension, else null. */
export function dimAsInteger(d: Dim): number | null {
  return d.terms.length === 0 ? d.constant : null;
}

/** The name if `d` is exactly one variable (coefficient 1, no constant), else null. */
export function dimAsVariable(d: Dim): string | null {
  const atom = loneAtom(d);
  return atom?.kind === 'var' ? atom.name : null;
}

/** Canonical key: equal keys ⇔ equal canonical forms. Same text as `dimToString`. */
export function dimKey(d: Dim): string {
  return d.key;
}

/**
 * Human-readable text, e.g. `2*n + 1`, `n*m - 3`, `-n + 4`, `(h + 2) / 2`,
 * `h % 2`, `min(m, n)`. Highest-degree terms first (ties in canonical atom order:
 * variables by name, then `/`, `%`, min, max), constant last; repeated factors
 * print as products (`n*n`).
 */
export function dimToString(d: Dim): string {
  return d.key;
}

/** Number of nodes: monomials (at least 1) plus atom occurrences, recursively. */
export function dimSize(d: Dim): number {
  return d.size;
}

/** Distinct variable names occurring anywhere in `d`, sorted. */
export function dimVariables(d: Dim): string[] {
  const names = new Set<string>();
  const visitDim = (x: Dim): void => {
    for (const t of x.terms) for (const f of t.factors) visitAtom(f);
  };
  const visitAtom = (a: Atom): void => {
    switch (a.kind) {
      case 'var':
        names.add(a.name);
        break;
      case 'floordiv':
      case 'mod':
        visitDim(a.num);
        visitDim(a.den);
        break;
      case 'min':
      case 'max':
        a.args.forEach(visitDim);
        break;
    }
  };
  visitDim(d);
  return [...names].sort(compareStrings);
}

/**
 * Concrete value of `d` under `env` (floor division/modulo). Throws DimError on
 * division by zero, overflow, a missing variable, or a value that is not a
 * non-negative safe integer (variables are sizes).
 */
export function dimEvaluate(d: Dim, env: Readonly<Record<string, number>>): number {
  const evalAtom = (a: Atom): number => {
    switch (a.kind) {
      case 'var': {
        const v = Object.hasOwn(env, a.name) ? env[a.name] : undefined;
        if (v === undefined) throw new DimError(`no value for size variable ${a.key}`);
        if (!Number.isSafeInteger(v) || v < 0) throw new DimError(`size variable ${a.key} = ${v} is not a non-negative integer`);
        return v;
      }
      case 'floordiv':
        return floorDivInt(evalDim(a.num), evalDim(a.den));
      case 'mod':
        return floorModInt(evalDim(a.num), evalDim(a.den));
      case 'min':
        return Math.min(...a.args.map(evalDim));
      case 'max':
        return Math.max(...a.args.map(evalDim));
    }
  };
  const evalDim = (x: Dim): number => {
    let sum = x.constant;
    for (const t of x.terms) {
      let product = t.coeff;
      for (const f of t.factors) product = mulInt(product, evalAtom(f));
      sum = addInt(sum, product);
    }
    return sum;
  };
  return evalDim(d);
}
