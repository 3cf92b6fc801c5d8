// Canonical form of residual checks (typing/residual-checks.ts): one condition stated in
// different ways, by different rules or strategies, must print as one check, and the
// check must hold for exactly the sizes for which the condition holds (checked against
// the condition evaluated directly, by exhaustive search over small sizes).
import test from 'ava';
import { type Dim, dimConst, dimEvaluate, dimFloorDiv, dimMod, dimMul, dimSub, dimVar } from '../solver/terms/dims.js';
import { canonicalComparison, checkHolds, comparisonText, disjunction } from '../typing/residual-checks.js';

const N = dimMul(dimVar('d2'), dimVar('n'));
const c = (k: number) => dimConst(k);

/** The canonical text of `left == right`. */
function canonical(left: Dim, right: Dim): string {
  const x = canonicalComparison(left, '==', right);
  if (x === null) throw new Error('decided');
  return comparisonText(x);
}

/** Sizes d2, n in 0..40 where the check and `left == right` (evaluated directly) disagree. */
function disagreement(left: Dim, right: Dim): string | null {
  const x = canonicalComparison(left, '==', right)!;
  const check = disjunction([x], {
    operator: 'test',
    relation: null,
    span: { file: 't', start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } },
    assumes: null,
  });
  for (let d2 = 0; d2 <= 40; d2++) {
    for (let n = 0; n <= 40; n++) {
      const sizes = { d2, n };
      const direct = dimEvaluate(left, sizes) === dimEvaluate(right, sizes);
      if (checkHolds(check, sizes) !== direct) return `d2 = ${d2}, n = ${n}: the condition ${direct ? 'holds' : 'fails'}, ${check.condition} does not`;
    }
  }
  return null;
}

// the regression: on bert_layer with parameter dims removed (a random property case), one
// strategy wrote ((d2*n) / 6) % 128 == 0 and the other (d2*n) % 6 == (d2*n) % 768: one
// condition (d2*n mod 768 < 6), stated here in four ways
const FORMS: [string, Dim, Dim][] = [
  ['a modulo of a floor division', dimMod(dimFloorDiv(N, c(6)), c(128)), c(0)],
  ['two multiples of floor divisions', dimMul(c(6), dimFloorDiv(N, c(6))), dimMul(c(768), dimFloorDiv(N, c(768)))],
  ['a floor division against a multiple of another', dimFloorDiv(N, c(6)), dimMul(c(128), dimFloorDiv(N, c(768)))],
  ['the difference of two modulos', dimMod(N, c(6)), dimMod(N, c(768))],
];

test('a nested divisibility condition has one canonical form however it is stated', (t) => {
  const texts = FORMS.map(([, l, r]) => canonical(l, r));
  t.deepEqual(new Set(texts).size, 1, JSON.stringify(texts));
  t.is(texts[0], '(d2*n) % 6 == (d2*n) % 768');
  t.is(canonical(c(0), dimMod(dimFloorDiv(N, c(6)), c(128))), texts[0]!, 'either side');
});

test('the canonical form of each statement holds for exactly the sizes the condition holds for', (t) => {
  for (const [what, l, r] of FORMS) t.is(disagreement(l, r), null, what);
  const half = dimFloorDiv(dimVar('n'), c(2));
  t.is(disagreement(half, dimFloorDiv(dimVar('d2'), c(2))), null, 'n / 2 == d2 / 2');
  t.is(disagreement(dimMod(dimFloorDiv(N, c(4)), c(3)), c(1)), null, '((d2*n) / 4) % 3 == 1');
});

test('one floor division alone keeps its form; a modulo of a modulo-free product is unchanged', (t) => {
  t.is(canonical(dimFloorDiv(dimVar('h'), c(2)), c(3)), 'h / 2 == 3');
  t.is(canonical(dimMod(N, c(4)), c(0)), '(d2*n) % 4 == 0');
  t.is(canonical(dimSub(dimMul(c(8), N), dimMul(c(32), dimFloorDiv(N, c(4)))), c(0)), '(d2*n) % 4 == 0');
});
