import test from 'ava';
import fc from 'fast-check';
import {
  DimError,
  MAX_DIM_SIZE,
  dimAdd,
  dimAsInteger,
  dimAsVariable,
  dimCompare,
  dimConst,
  dimEvaluate,
  dimFloorDiv,
  dimKey,
  dimMax,
  dimMin,
  dimMod,
  dimMul,
  dimNeg,
  dimSize,
  dimSub,
  dimToString,
  dimVar,
  dimVariables,
} from '../solver/terms/dims.js';
import type { Dim, DimCompareOp } from '../solver/terms/dims.js';

// ─── Helpers ─────────────────────────────────────────────────────────────────

const n = dimVar('n');
const m = dimVar('m');
const h = dimVar('h');
const c = dimConst;
const add = (...ds: Dim[]) => ds.reduce((x, y) => dimAdd(x, y));
const mul = (...ds: Dim[]) => ds.reduce((x, y) => dimMul(x, y));

const isDimError = (e: unknown) => e instanceof DimError;

/** Property-test run counts are multiplied by $DIMS_PROPERTY_SCALE (default 1) for longer soak runs. */
const SCALE = Math.max(1, Number(process.env['DIMS_PROPERTY_SCALE'] ?? 1) || 1);
const runs = (k: number) => Math.round(k * SCALE);

// ─── Unit tests: construction and canonical keys ─────────────────────────────

test('equal expressions get equal keys', (t) => {
  t.is(dimKey(mul(c(2), n)), dimKey(mul(n, c(2))));
  t.is(dimKey(add(n, n)), dimKey(mul(c(2), n)));
  t.is(dimKey(dimFloorDiv(add(mul(c(2), n), c(2)), c(2))), dimKey(add(n, c(1))));
  t.is(dimKey(mul(n, m)), dimKey(mul(m, n)));
  t.is(dimKey(dimSub(n, n)), dimKey(c(0)));
  t.is(dimKey(mul(add(n, c(1)), add(n, c(-1)))), dimKey(dimSub(mul(n, n), c(1))));
  t.is(dimKey(dimMin(n, m)), dimKey(dimMin(m, n)));
  t.is(dimKey(dimMin(dimMin(n, m), h)), dimKey(dimMin(n, dimMin(h, m))));
  t.is(dimKey(dimMin(n, n)), dimKey(n));
});

test('different expressions get different keys', (t) => {
  t.not(dimKey(n), dimKey(m));
  t.not(dimKey(mul(c(2), n)), dimKey(add(n, c(2))));
  t.not(dimKey(dimFloorDiv(n, c(2))), dimKey(dimMod(n, c(2))));
  t.not(dimKey(dimMin(n, m)), dimKey(dimMax(n, m)));
  t.not(dimKey(dimVar('a b')), dimKey(mul(dimVar('a'), dimVar('b'))));
  t.not(dimKey(dimVar('min')), dimKey(dimVar('"min"')));
});

test('dimConst / dimVar and inspection', (t) => {
  t.is(dimAsInteger(c(7)), 7);
  t.is(dimAsInteger(c(-0)), 0);
  t.true(Object.is(dimAsInteger(mul(c(0), c(-5))), 0));
  t.is(dimAsInteger(n), null);
  t.is(dimAsVariable(n), 'n');
  t.is(dimAsVariable(mul(c(2), n)), null);
  t.is(dimAsVariable(add(n, c(1))), null);
  t.is(dimAsVariable(c(3)), null);
  t.is(dimAsVariable(dimMin(n, m)), null);
  t.is(dimAsVariable(dimSub(add(n, m), m)), 'n');
  t.deepEqual(dimVariables(add(mul(n, m), dimFloorDiv(h, dimMin(m, dimVar('k'))))), ['h', 'k', 'm', 'n']);
  t.deepEqual(dimVariables(c(3)), []);
  t.throws(() => c(2 ** 53), { instanceOf: DimError });
  t.throws(() => c(1.5), { instanceOf: DimError });
  t.throws(() => c(Number.NaN), { instanceOf: DimError });
  t.throws(() => dimVar(''), { instanceOf: DimError });
});

test('dims are frozen plain objects', (t) => {
  const d = add(mul(c(2), n), dimMin(n, m), c(1));
  t.true(Object.isFrozen(d));
  t.true(Object.isFrozen(d.terms));
  for (const term of d.terms) {
    t.true(Object.isFrozen(term));
    t.true(Object.isFrozen(term.factors));
    for (const f of term.factors) t.true(Object.isFrozen(f));
  }
  t.is(Object.getPrototypeOf(d), Object.prototype);
});

// ─── Unit tests: simplification ──────────────────────────────────────────────

test('constant folding with floor semantics', (t) => {
  t.is(dimAsInteger(dimFloorDiv(c(-7), c(2))), -4);
  t.is(dimAsInteger(dimMod(c(-7), c(2))), 1);
  t.is(dimAsInteger(dimFloorDiv(c(7), c(-2))), -4);
  t.is(dimAsInteger(dimMod(c(7), c(-2))), -1);
  t.is(dimAsInteger(dimMin(c(3), c(-2))), -2);
  t.is(dimAsInteger(dimMax(c(3), c(-2))), 3);
  t.is(dimAsInteger(mul(add(c(2), c(3)), c(4))), 20);
});

test('floordiv by a constant', (t) => {
  t.is(dimToString(dimFloorDiv(add(mul(c(4), n), c(3)), c(2))), '2*n + 1');
  t.is(dimToString(dimFloorDiv(add(mul(c(2), n), c(3)), c(2))), 'n + 1');
  t.is(dimToString(dimFloorDiv(add(mul(c(2), n), c(2)), c(2))), 'n + 1');
  t.is(dimToString(dimFloorDiv(add(h, c(2)), c(2))), '(h + 2) / 2');
  t.is(dimToString(dimFloorDiv(add(mul(c(2), n), h, c(2)), c(2))), 'n + (h + 2) / 2');
  t.is(dimKey(dimFloorDiv(add(mul(c(3), n), h), c(1))), dimKey(add(mul(c(3), n), h)));
  t.is(dimToString(dimFloorDiv(n, c(-1))), '-n');
  t.is(dimToString(dimFloorDiv(add(mul(c(2), h), c(2)), c(4))), '(h + 1) / 2'); // common factor
  t.is(dimToString(dimFloorDiv(dimFloorDiv(n, c(2)), c(3))), 'n / 6'); // nested
  t.is(dimToString(dimFloorDiv(dimMod(n, c(3)), c(3))), '0'); // 0 <= n % 3 < 3
});

test('mod by a constant', (t) => {
  t.is(dimAsInteger(dimMod(add(mul(c(4), n), c(3)), c(2))), 1);
  t.is(dimAsInteger(dimMod(mul(c(2), n), c(2))), 0);
  t.is(dimAsInteger(dimMod(add(n, m, h), c(1))), 0);
  t.is(dimToString(dimMod(add(h, c(2)), c(2))), 'h % 2');
  t.is(dimToString(dimMod(add(h, c(1)), c(2))), '(h + 1) % 2');
  t.is(dimToString(dimMod(mul(c(6), n), c(4))), '2*(n % 2)');
  t.is(dimKey(dimMod(dimMod(n, c(6)), c(3))), dimKey(dimMod(n, c(3))));
  t.is(dimKey(dimMod(dimMod(n, c(3)), c(3))), dimKey(dimMod(n, c(3))));
  // Coefficients and the constant are reduced into [0, c).
  t.is(dimKey(dimMod(dimNeg(n), c(3))), dimKey(dimMod(mul(c(2), n), c(3))));
  t.is(dimKey(dimMod(add(n, c(-1)), c(3))), dimKey(dimMod(add(n, c(2)), c(3))));
  t.is(dimToString(dimMod(add(mul(c(-1), n), c(7)), c(3))), '(2*n + 1) % 3');
  // When floor(p / c) is the same t for every value of p, p % c = p - c*t.
  const p = dimMin(dimSub(n, c(5)), c(-3)); // in [-5, -3]
  const r = dimMod(p, c(7));
  t.is(dimKey(r), dimKey(dimAdd(p, c(7))));
  for (let v = 0; v <= 12; v++) t.is(dimEvaluate(r, { n: v }), Math.min(v - 5, -3) + 7);
});

test('division and modulo by zero throw DimError', (t) => {
  t.throws(() => dimFloorDiv(n, c(0)), { instanceOf: DimError });
  t.throws(() => dimMod(n, c(0)), { instanceOf: DimError });
  t.throws(() => dimFloorDiv(c(3), dimSub(m, m)), { instanceOf: DimError });
  t.throws(() => dimEvaluate(dimFloorDiv(n, m), { n: 3, m: 0 }), { instanceOf: DimError });
  t.throws(() => dimEvaluate(dimMod(n, m), { n: 3, m: 0 }), { instanceOf: DimError });
  t.is(dimEvaluate(dimFloorDiv(n, m), { n: 7, m: 2 }), 3);
});

test('min / max', (t) => {
  t.is(dimKey(dimMin(n, add(n, c(2)))), 'n');
  t.is(dimKey(dimMax(n, add(n, c(2)))), 'n + 2');
  t.is(dimKey(dimMax(n, c(0))), 'n');
  t.is(dimKey(dimMin(n, c(0))), '0');
  t.is(dimToString(dimMin(n, m)), 'min(m, n)');
  t.is(dimToString(dimMax(n, c(3))), 'max(n, 3)');
  // Flattening, and pruning of a flattened argument.
  t.is(dimToString(dimMin(dimMin(n, m), h)), 'min(h, m, n)');
  t.is(dimToString(dimMin(dimMin(n, m), c(0))), '0');
  t.is(dimToString(dimMax(dimMax(n, m), add(n, c(1)))), 'max(m, n + 1)');
  // min inside max is not flattened.
  t.is(dimToString(dimMax(dimMin(n, m), h)), 'max(h, min(m, n))');
  // Two different arguments that the analysis finds equal (x - y in [0, 0]): one survives, deterministically.
  const x = n;
  const y = add(n, dimFloorDiv(dimMin(n, c(1)), add(m, c(2))));
  t.is(dimCompare(x, y, '=='), true);
  t.not(dimKey(x), dimKey(y));
  t.is(dimKey(dimMin(x, y)), dimKey(dimMin(y, x)));
  t.is(dimKey(dimMax(x, y)), dimKey(dimMax(y, x)));
  t.true([dimKey(x), dimKey(y)].includes(dimKey(dimMin(x, y))));
});

test('expressions too large throw DimError', (t) => {
  const sum = add(n, m, h, dimVar('k'), c(1));
  t.throws(
    () => {
      let p = sum;
      for (let i = 0; i < 8; i++) p = dimMul(p, sum);
    },
    { instanceOf: DimError },
  );
  t.throws(
    () => {
      let p = n;
      for (let i = 0; i < MAX_DIM_SIZE + 1; i++) p = dimMul(p, n);
    },
    { instanceOf: DimError },
  );
  t.true(dimSize(mul(sum, sum)) <= MAX_DIM_SIZE);
  t.is(dimSize(c(0)), 1);
  t.is(dimSize(n), 2); // one monomial, one atom
  t.is(dimSize(add(mul(c(2), n), c(1))), 3);
  t.is(dimSize(dimFloorDiv(add(h, c(2)), c(2))), 1 + 1 + 3 + 1); // monomial + atom(h + 2, 2)
});

// ─── Unit tests: printing ────────────────────────────────────────────────────

test('printing', (t) => {
  t.is(dimToString(add(mul(c(2), n), c(1))), '2*n + 1');
  t.is(dimToString(dimSub(mul(n, m), c(3))), 'm*n - 3');
  t.is(dimToString(dimSub(c(4), n)), '-n + 4');
  t.is(dimToString(c(0)), '0');
  t.is(dimToString(c(-3)), '-3');
  t.is(dimToString(add(n, mul(n, n), c(-1))), 'n*n + n - 1'); // highest degree first
  t.is(dimToString(dimSub(mul(c(-2), n, m), h)), '-2*m*n - h');
  t.is(dimToString(dimNeg(dimFloorDiv(add(h, c(2)), c(2)))), '-((h + 2) / 2)');
  t.is(dimToString(mul(c(3), dimFloorDiv(add(h, c(2)), c(2)))), '3*((h + 2) / 2)');
  t.is(dimToString(mul(n, dimMod(add(h, c(1)), c(2)))), 'n*((h + 1) % 2)');
  t.is(dimToString(dimSub(n, dimFloorDiv(add(h, c(2)), c(2)))), 'n - (h + 2) / 2');
  t.is(dimToString(dimFloorDiv(n, add(m, c(1)))), 'n / (m + 1)');
  t.is(dimToString(dimFloorDiv(mul(c(2), n), c(3))), '(2*n) / 3');
  t.is(dimToString(dimFloorDiv(n, dimNeg(m))), '(-n) / m');
  t.is(dimToString(dimFloorDiv(dimMin(n, m), c(2))), 'min(m, n) / 2');
  t.is(dimToString(add(dimMax(n, m), n)), 'n + max(m, n)');
  t.is(dimToString(dimVar('a b')), '"a b"');
  t.is(dimKey(add(mul(c(2), n), c(1))), dimToString(add(mul(c(2), n), c(1))));
});

// ─── Unit tests: comparison ──────────────────────────────────────────────────

test('dimCompare examples', (t) => {
  t.is(dimCompare(add(n, c(1)), c(0), '>'), true);
  t.is(dimCompare(n, c(0), '>='), true);
  t.is(dimCompare(n, c(1), '=='), undefined);
  t.is(dimCompare(n, c(1), '!='), undefined);
  t.is(dimCompare(add(n, c(1)), c(0), '!='), true);
  t.is(dimCompare(add(n, c(1)), c(0), '=='), false);
  t.is(dimCompare(mul(c(2), n), mul(n, c(2)), '=='), true);
  t.is(dimCompare(mul(c(2), n), mul(n, c(2)), '!='), false);
  t.is(dimCompare(n, m, '=='), undefined);
  t.is(dimCompare(n, add(n, c(1)), '<'), true);
  t.is(dimCompare(n, add(n, c(1)), '>='), false);
  t.is(dimCompare(dimMin(n, c(0)), c(0), '=='), true);
  t.is(dimCompare(c(3), c(5), '<'), true);
  t.is(dimCompare(c(3), c(5), '>'), false);
  t.is(dimCompare(c(Number.MAX_SAFE_INTEGER), c(-Number.MAX_SAFE_INTEGER), '>'), true);
  t.is(dimCompare(n, c(0), '<'), false);
  t.is(dimCompare(dimNeg(n), c(0), '<='), true);
  t.is(dimCompare(mul(n, m), c(0), '>='), true);
  t.is(dimCompare(mul(n, n), mul(c(-1), c(1)), '>'), true);
  t.is(dimCompare(dimMod(n, c(4)), c(4), '<'), true);
  t.is(dimCompare(dimMod(n, c(4)), c(3), '<='), true);
  t.is(dimCompare(dimMod(n, c(4)), c(2), '<='), undefined);
  t.is(dimCompare(dimFloorDiv(n, c(2)), c(0), '>='), true);
  t.is(dimCompare(dimFloorDiv(n, c(2)), c(-1), '>'), true);
  t.is(dimCompare(dimFloorDiv(dimNeg(n), c(2)), c(0), '<='), true);
  t.is(dimCompare(dimMod(dimNeg(n), c(-3)), c(-2), '>='), true);
  t.is(dimCompare(dimMax(n, m), n, '>='), true);
  t.is(dimCompare(dimMin(n, m), add(m, c(1)), '<'), true);
  t.is(dimCompare(dimSub(n, m), c(0), '>='), undefined);
  // Relational facts (refinement of the interval analysis).
  t.is(dimCompare(dimFloorDiv(n, c(2)), n, '<='), true);
  t.is(dimCompare(dimFloorDiv(add(n, c(1)), c(2)), n, '>'), false);
  t.is(dimCompare(dimFloorDiv(add(n, c(2)), c(2)), n, '>'), undefined); // true at n = 0, false at n = 2
  t.is(dimCompare(mul(c(2), dimFloorDiv(n, c(2))), add(n, c(1)), '<'), true);
  t.is(dimCompare(mul(c(3), dimFloorDiv(n, c(3))), dimSub(n, c(3)), '>'), true);
  t.is(dimCompare(mul(c(3), dimFloorDiv(n, c(3))), dimSub(n, c(2)), '>='), true);
  t.is(dimCompare(mul(c(3), dimFloorDiv(n, c(3))), dimSub(n, c(1)), '>='), undefined); // n = 2
  t.is(dimCompare(mul(c(2), dimFloorDiv(n, c(2))), n, '>='), undefined); // n = 1
  t.is(dimCompare(dimMod(n, c(5)), n, '<='), true);
  t.is(dimCompare(dimMod(n, c(5)), dimSub(n, c(1)), '<='), undefined);
  t.is(dimCompare(dimMin(n, m), n, '<='), true);
  t.is(dimCompare(dimMin(n, m), add(n, m), '<='), true);
  t.is(dimCompare(dimMax(n, m), add(n, m), '<='), true);
  t.is(dimCompare(dimMax(n, m), dimMin(n, m), '>='), true);
  t.is(dimCompare(dimMax(n, m), dimMin(n, m), '>'), undefined);
});

// ─── Random expression trees ─────────────────────────────────────────────────

type Op = '+' | '-' | '*' | '/' | '%' | 'min' | 'max';
type Tree =
  | { readonly k: 'var'; readonly name: string }
  | { readonly k: 'const'; readonly v: number }
  | { readonly k: 'op'; readonly op: Op; readonly l: Tree; readonly r: Tree };

const VARS = ['n', 'm', 'h'] as const;
const OPS: readonly Op[] = ['+', '-', '*', '/', '%', 'min', 'max'];

const leafArb: fc.Arbitrary<Tree> = fc.oneof(
  fc.constantFrom(...VARS).map((name): Tree => ({ k: 'var', name })),
  fc.integer({ min: -3, max: 6 }).map((v): Tree => ({ k: 'const', v })),
);

function treeArb(maxDepth: number): fc.Arbitrary<Tree> {
  return fc.letrec<{ tree: Tree }>((tie) => ({
    tree: fc.oneof(
      { maxDepth, depthIdentifier: `tree${maxDepth}` },
      leafArb,
      fc.record({ op: fc.constantFrom(...OPS), l: tie('tree'), r: tie('tree') }).map(({ op, l, r }): Tree => ({ k: 'op', op, l, r })),
    ),
  })).tree;
}

const smallTree = treeArb(2);
const tree = treeArb(4);

type Env = Record<(typeof VARS)[number], number>;
const envArb: fc.Arbitrary<Env> = fc.record({
  n: fc.integer({ min: 0, max: 12 }),
  m: fc.integer({ min: 0, max: 12 }),
  h: fc.integer({ min: 0, max: 12 }),
});
/** Random assignments, always including the all-zero and all-one corners. */
const envsArb = fc.array(envArb, { minLength: 1, maxLength: 10 }).map((es) => [{ n: 0, m: 0, h: 0 }, { n: 1, m: 1, h: 1 }, ...es]);

class DivByZero extends Error {}

/** Independent reference evaluator, Python semantics: floor division and floor modulo. */
function directEval(t: Tree, env: Env): number {
  const norm = (x: number) => (x === 0 ? 0 : x);
  switch (t.k) {
    case 'var':
      return env[t.name as keyof Env];
    case 'const':
      return t.v;
    case 'op': {
      const a = directEval(t.l, env);
      const b = directEval(t.r, env);
      switch (t.op) {
        case '+':
          return norm(a + b);
        case '-':
          return norm(a - b);
        case '*':
          return norm(a * b);
        case '/':
          if (b === 0) throw new DivByZero();
          return norm(Math.floor(a / b));
        case '%':
          if (b === 0) throw new DivByZero();
          return norm(a - b * Math.floor(a / b));
        case 'min':
          return Math.min(a, b);
        case 'max':
          return Math.max(a, b);
      }
    }
  }
}

/** directEval, or undefined when the tree divides by zero under env. */
function tryEval(t: Tree, env: Env): number | undefined {
  try {
    return directEval(t, env);
  } catch (e) {
    if (e instanceof DivByZero) return undefined;
    throw e;
  }
}

function build(t: Tree): Dim {
  switch (t.k) {
    case 'var':
      return dimVar(t.name);
    case 'const':
      return dimConst(t.v);
    case 'op': {
      const a = build(t.l);
      const b = build(t.r);
      switch (t.op) {
        case '+':
          return dimAdd(a, b);
        case '-':
          return dimSub(a, b);
        case '*':
          return dimMul(a, b);
        case '/':
          return dimFloorDiv(a, b);
        case '%':
          return dimMod(a, b);
        case 'min':
          return dimMin(a, b);
        case 'max':
          return dimMax(a, b);
      }
    }
  }
}

/**
 * build(t), or undefined if that throws DimError. A DimError must be justified:
 * either the tree divides by zero under every sampled assignment (a divisor is
 * identically zero), or the expression is too large.
 */
function tryBuild(t: Tree, envs: readonly Env[]): Dim | undefined {
  try {
    return build(t);
  } catch (e) {
    if (!(e instanceof DimError)) throw e;
    if (/too large/.test(e.message)) return undefined;
    if (!/by zero/.test(e.message)) throw e;
    for (const env of envs) {
      if (tryEval(t, env) !== undefined) throw new Error(`spurious ${e.message}: the tree evaluates under ${JSON.stringify(env)}`);
    }
    return undefined;
  }
}

/** A small deterministic PRNG so that tree rewrites can be driven by a fast-check seed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const op = (o: Op, l: Tree, r: Tree): Tree => ({ k: 'op', op: o, l, r });
const lit = (v: number): Tree => ({ k: 'const', v });

/**
 * A semantically equal tree that the normaliser must map to the same key:
 * commutes + * min max, re-associates them, rewrites a - b as a + (-1)*b, and
 * inserts neutral elements and cancelling terms.
 */
function rewrite(t: Tree, rand: () => number): Tree {
  if (t.k !== 'op') {
    const r = rand();
    if (r < 0.1) return op('+', t, lit(0));
    if (r < 0.2) return op('*', lit(1), t);
    if (r < 0.25) return op('-', op('+', t, t), t);
    return t;
  }
  let l = rewrite(t.l, rand);
  let r = rewrite(t.r, rand);
  const commutative = t.op === '+' || t.op === '*' || t.op === 'min' || t.op === 'max';
  if (commutative && rand() < 0.5) [l, r] = [r, l];
  // (a . b) . c  <->  a . (b . c)
  if (commutative && l.k === 'op' && l.op === t.op && rand() < 0.5) return op(t.op, l.l, op(t.op, l.r, r));
  if (commutative && r.k === 'op' && r.op === t.op && rand() < 0.5) return op(t.op, op(t.op, l, r.l), r.r);
  if (t.op === '-' && rand() < 0.3) return op('+', l, op('*', lit(-1), r));
  if (t.op === '*' && rand() < 0.2) return op('-', op('*', op('+', l, l), r), op('*', r, l)); // 2ab - ba
  return op(t.op, l, r);
}

const OPS_CMP: readonly DimCompareOp[] = ['==', '!=', '<', '<=', '>', '>='];

function concreteCompare(a: number, b: number, o: DimCompareOp): boolean {
  switch (o) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

// ─── Property 1: normalisation is sound ──────────────────────────────────────

test('property: dimEvaluate(canonical) equals direct evaluation of the tree', (t) => {
  let checked = 0;
  fc.assert(
    fc.property(tree, envsArb, (tr, envs) => {
      const d = tryBuild(tr, envs);
      if (d === undefined) return;
      for (const env of envs) {
        const expected = tryEval(tr, env);
        if (expected === undefined) continue; // the tree divides by zero here
        const actual = dimEvaluate(d, env);
        if (actual !== expected) {
          throw new Error(`${dimToString(d)} under ${JSON.stringify(env)}: got ${actual}, expected ${expected}`);
        }
        checked++;
      }
    }),
    { numRuns: runs(1500) },
  );
  t.true(checked > 5000, `only ${checked} evaluations were checked`);
});

// ─── Property 2: canonical keys ──────────────────────────────────────────────

test('property: rewritten (commuted, re-associated, ...) trees get the same key', (t) => {
  fc.assert(
    fc.property(tree, fc.integer(), (tr, seed) => {
      const d = tryBuild(tr, []);
      if (d === undefined) return;
      const variant = rewrite(tr, prng(seed));
      const e = build(variant); // must not throw where the original did not
      if (dimKey(d) !== dimKey(e)) throw new Error(`${dimKey(d)} !== ${dimKey(e)}`);
    }),
    { numRuns: runs(1500) },
  );
  t.pass();
});

test('property: trees with the same key evaluate equal', (t) => {
  let collisions = 0;
  fc.assert(
    fc.property(smallTree, smallTree, envsArb, (t1, t2, envs) => {
      const d1 = tryBuild(t1, envs);
      const d2 = tryBuild(t2, envs);
      if (d1 === undefined || d2 === undefined || dimKey(d1) !== dimKey(d2)) return;
      collisions++;
      for (const env of envs) {
        const v1 = tryEval(t1, env);
        const v2 = tryEval(t2, env);
        if (v1 === undefined || v2 === undefined) continue;
        if (v1 !== v2) throw new Error(`key ${dimKey(d1)}: ${v1} !== ${v2} under ${JSON.stringify(env)}`);
      }
    }),
    { numRuns: runs(3000) },
  );
  t.true(collisions > 50, `only ${collisions} key collisions were exercised`);
});

// ─── Property 3: dimCompare is sound ─────────────────────────────────────────

/** Pairs of trees, often related (b = a + small, min(a, small), ...) so that comparisons are decidable. */
const comparePairArb: fc.Arbitrary<[Tree, Tree]> = fc.oneof(
  fc.tuple(tree, tree),
  fc.tuple(tree, smallTree).map(([a, s]): [Tree, Tree] => [a, op('+', a, s)]),
  fc.tuple(tree, smallTree, fc.constantFrom<Op>('min', 'max', '-', '/', '%')).map(([a, s, o]): [Tree, Tree] => [a, op(o, a, s)]),
  fc.tuple(smallTree, smallTree).map(([a, s]): [Tree, Tree] => [op('*', a, a), s]),
  // c*(a / c) and a % c against a shifted a: exercises the floordiv/mod refinement.
  fc
    .tuple(tree, fc.integer({ min: 2, max: 5 }), fc.integer({ min: -6, max: 6 }), fc.boolean())
    .map(([a, k, shift, useMod]): [Tree, Tree] => [useMod ? op('%', a, lit(k)) : op('*', lit(k), op('/', a, lit(k))), op('+', a, lit(shift))]),
);

test('property: dimCompare agrees with every sampled assignment when it decides', (t) => {
  let decided = 0;
  fc.assert(
    fc.property(comparePairArb, fc.constantFrom(...OPS_CMP), envsArb, ([ta, tb], o, envs) => {
      const a = tryBuild(ta, envs);
      const b = tryBuild(tb, envs);
      if (a === undefined || b === undefined) return;
      const verdict = dimCompare(a, b, o);
      if (verdict === undefined) return;
      decided++;
      for (const env of envs) {
        const va = tryEval(ta, env);
        const vb = tryEval(tb, env);
        if (va === undefined || vb === undefined) continue;
        if (concreteCompare(va, vb, o) !== verdict) {
          throw new Error(`${dimKey(a)} ${o} ${dimKey(b)} decided ${verdict}, but ${va} vs ${vb} under ${JSON.stringify(env)}`);
        }
      }
    }),
    { numRuns: runs(3000) },
  );
  t.true(decided > 500, `only ${decided} comparisons were decided`);
});

// ─── Property 4: overflow ────────────────────────────────────────────────────

const bigInt = fc.oneof(
  fc.maxSafeInteger(),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
  fc.integer({ min: -(2 ** 27), max: 2 ** 27 }),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 26, 2 ** 27, 3, -1, 0),
);
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const isSafe = (x: bigint) => x <= SAFE && x >= -SAFE;

/** `f()` is DimError exactly when `exact` is not a safe integer, and the exact value otherwise. */
function expectExactOrDimError(f: () => number | null, exact: bigint): void {
  let result: number | null;
  try {
    result = f();
  } catch (e) {
    if (isDimError(e) && !isSafe(exact)) return;
    throw e;
  }
  if (!isSafe(exact)) throw new Error(`expected DimError, got ${result} (exact ${exact})`);
  if (result === null || BigInt(result) !== exact) throw new Error(`got ${result}, expected ${exact}`);
}

test('property: large constants give exact results or DimError, never a wrong number', (t) => {
  fc.assert(
    fc.property(bigInt, bigInt, (x, y) => {
      const X = BigInt(x);
      const Y = BigInt(y);
      expectExactOrDimError(() => dimAsInteger(dimMul(c(x), c(y))), X * Y);
      expectExactOrDimError(() => dimAsInteger(dimAdd(c(x), c(y))), X + Y);
      expectExactOrDimError(() => dimAsInteger(dimSub(c(x), c(y))), X - Y);
      // Coefficients of symbolic terms.
      expectExactOrDimError(() => dimEvaluate(dimMul(mul(c(x), n), c(y)), { n: 1 }), X * Y);
      expectExactOrDimError(() => dimEvaluate(dimAdd(mul(c(x), n), mul(c(y), n)), { n: 1 }), X + Y);
      // Concrete evaluation.
      if (x >= 0) expectExactOrDimError(() => dimEvaluate(mul(c(y), n), { n: x }), X * Y);
      // Floor division and modulo stay exact for large operands.
      if (y !== 0) {
        const q = X / Y - (X % Y !== 0n && X < 0n !== Y < 0n ? 1n : 0n);
        expectExactOrDimError(() => dimAsInteger(dimFloorDiv(c(x), c(y))), q);
        expectExactOrDimError(() => dimAsInteger(dimMod(c(x), c(y))), X - Y * q);
      }
    }),
    { numRuns: runs(2000) },
  );
  t.throws(() => dimMul(c(2 ** 30), c(2 ** 30)), { instanceOf: DimError });
  t.throws(() => dimMul(mul(c(2 ** 30), n), mul(c(2 ** 30), m)), { instanceOf: DimError });
  t.throws(() => dimAdd(c(Number.MAX_SAFE_INTEGER), c(1)), { instanceOf: DimError });
  t.is(dimAsInteger(dimMul(c(2 ** 26), c(2 ** 26))), 2 ** 52);
});

test('dimEvaluate rejects missing and negative variables', (t) => {
  t.throws(() => dimEvaluate(n, {}), { instanceOf: DimError });
  t.throws(() => dimEvaluate(n, { n: -1 }), { instanceOf: DimError });
  t.throws(() => dimEvaluate(n, { n: 1.5 }), { instanceOf: DimError });
  t.is(dimEvaluate(add(mul(c(2), n), dimMin(n, m), c(1)), { n: 3, m: 1 }), 8);
});
