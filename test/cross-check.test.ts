// The cross-check harness of proofs/cross-check/: rules vs imperative relations agree
// on the whole sweep of every catalogued operator (about 4,900 calls), and the
// comparison does see a disagreement when there is one.
import test from 'ava';
import { casesFor } from '../proofs/cross-check/cases.js';
import { answers, classify, compareCase, runSweep } from '../proofs/cross-check/compare.js';

test('rules and imperative relations agree on the sweep of every operator', (t) => {
  const reports = runSweep();
  t.true(reports.length >= 33);
  for (const r of reports) {
    t.true(r.cases > 10, `${r.op}: too few cases`);
    t.is(r.disagree, 0, `${r.op}: ${r.counterexamples[0]?.line ?? ''}`);
    t.is(r.agree, r.cases);
  }
});

test('the sweep is deterministic', (t) => {
  t.deepEqual(casesFor('nn.conv2d'), casesFor('nn.conv2d'));
});

test('compareCase detects a disagreement', (t) => {
  const c = { op: 'add', args: ['Tensor[(2, 3), float32]', 'Tensor[(3), float32]'] };
  t.is(compareCase(c).kind, 'agree');
  // The real answers, with the relay side's result replaced by a wrong type.
  const wrongType = compareCase(c, (x) => ({ ...answers(x), relay: { type: 'Tensor[(2, 4), float32]', args: ['Tensor[(2, 3), float32]', 'Tensor[(3), float32]'] } }));
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
