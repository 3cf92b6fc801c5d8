// The cross-check harness of proofs/cross-check/ on every catalogued operator:
// rules vs imperative twins agree on the whole sweep plus seeded random cases,
// and both agree with the reference executor wherever it runs (what
// `shapelog check --random 25 --seed 1` checks); a tuple where an operator takes a
// tensor, or a tensor where it takes a tuple, is answered alike by both; and the
// comparison does see a disagreement when there is one.
import test from 'ava';
import { casesFor, opNames } from '../proofs/cross-check/cases.js';
import { answers, classify, compareCase } from '../proofs/cross-check/compare.js';
import { checkOp } from '../proofs/cross-check/harness.js';
import { allOps } from '../relations/catalogue.js';

for (const op of opNames()) {
  test(`${op}: rules and twin agree on the sweep and 25 random cases; the reference executor agrees`, (t) => {
    const r = checkOp(op, { random: 25, seed: 1, keep: 1 });
    t.true(r.sweep >= 10, `${op}: only ${r.sweep} sweep cases`);
    t.is(r.random, 25);
    t.is(r.disagree, 0, `${op}: ${JSON.stringify(r.counterexamples[0] ?? null)}`);
    t.is(r.agree, r.cases);
    t.not(r.reference, null);
    const ref = r.reference!;
    t.true(ref.available, `${op} has no reference executor`);
    t.true(ref.executed >= 5, `${op}: the reference executor ran only ${ref.executed} cases`);
    t.is(ref.unsound, 0, `${op}: ${JSON.stringify(ref.problems[0] ?? null)}`);
    t.is(ref.stricterUnexpected, 0, `${op}: ${JSON.stringify(ref.problems[0] ?? null)}`);
  });
}

test('a tuple where a tensor goes and a tensor where a tuple goes, in every argument position, with holes or without: every operator answers as its twin does', (t) => {
  const values = [
    '(Tensor[(2, 3), float32], Tensor[(2, 3), float32])',
    '(Tensor[(_,), float32],)',
    '(_,)',
    '()',
    'Tensor[(_,), float32]',
    'Tensor[(_, _), float32]',
    'Tensor[(2, 3), float32]',
    'Tensor[(), float32]',
    'float32',
  ];
  const others = ['_', 'Tensor[(?, 3), float32]', 'Tensor[(2, 3), float32]'];
  const arity = new Map(allOps().map((o) => [o.name, o.args.length]));
  const disagreements: string[] = [];
  let cases = 0;
  for (const op of opNames()) {
    // attributes the operator accepts (required ones included), from its own sweep
    const attrSets = [...new Map(casesFor(op).map((c) => [JSON.stringify(c.attrs ?? {}), c.attrs ?? {}] as const)).values()].slice(0, 2);
    for (const attrs of attrSets)
      for (let k = 0; k < arity.get(op)!; k++)
        for (const value of values)
          for (const other of others) {
            const args = Array.from({ length: arity.get(op)! }, (_, i) => (i === k ? value : other));
            cases++;
            if (compareCase({ op, attrs, args }).kind !== 'agree') disagreements.push(`${op}(${args.join(', ')}; ${JSON.stringify(attrs)})`);
          }
  }
  t.true(cases >= 10_000, `only ${cases} cases`);
  t.deepEqual(disagreements, []);
});

test('the sweep is deterministic', (t) => {
  t.deepEqual(casesFor('nn.conv2d'), casesFor('nn.conv2d'));
});

test('compareCase detects a disagreement', (t) => {
  const c = { op: 'add', args: ['Tensor[(2, 3), float32]', 'Tensor[(3), float32]'] };
  t.is(compareCase(c).kind, 'agree');
  // The real answers, with the relay side's result replaced by a wrong type.
  const wrongType = compareCase(c, (x) => ({
    ...answers(x),
    relay: { type: 'Tensor[(2, 4), float32]', args: ['Tensor[(2, 3), float32]', 'Tensor[(3), float32]'] },
  }));
  t.is(wrongType.kind, 'disagree');
  // ... or by an error.
  const error = compareCase(c, (x) => ({ ...answers(x), rules: { error: 'fake' } }));
  t.like(error, { kind: 'disagree', rules: { error: 'fake' } });
});

test('classify: errors agree whatever the messages; argument types count', (t) => {
  t.is(classify({ error: 'a' }, { error: 'b' }).kind, 'agree');
  t.is(classify({ type: 'Tensor[(n + 1), float32]', args: ['_'] }, { type: 'Tensor[(1 + n), float32]', args: ['_'] }).kind, 'agree');
  t.is(classify({ type: 'float32', args: ['Tensor[(3), float32]'] }, { type: 'float32', args: ['Tensor[(2), float32]'] }).kind, 'disagree');
  t.is(classify({ type: '_', args: [] }, { error: 'x' }).kind, 'disagree');
});
