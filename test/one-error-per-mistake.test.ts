// One mistake, one message, in the user's terms, the same from both strategies:
// a relation's own error hides the clashes that follow from it; an undecided
// condition is named as the user would write it (`n == 1`), once, inside the
// error of the call it left untyped; how rules are split into files changes nothing.
import test from 'ava';
import { inferText, type InferStrategy } from '../typing/infer.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { undecidedCondition } from '../typing/call-site-diagnostics.js';
import { BROADCAST, run, scratchFolder, warnings } from './helpers.js';
import { runFiles } from '../solver/run.js';

const STRATEGIES: InferStrategy[] = ['rules', 'relay'];
const shown = (ds: readonly Diagnostic[]) =>
  ds.filter((d) => d.severity !== 'note').map((d) => `${d.severity} ${d.span?.start.line}:${d.span?.start.column} ${d.message}`);

const DENSE_MISMATCH = `def @main(%x: Tensor[(1, 1000), float32], %w: Tensor[(10, 16384), float32]) {
  nn.dense(%x, %w)
}`;

for (const s of STRATEGIES) {
  test(`${s}: a dense size mismatch is one error, at the call, with the relation's own message`, (t) => {
    const ds = shown(inferText(DENSE_MISMATCH, 't.relay', s).diagnostics);
    t.is(ds.length, 1, ds.join('\n'));
    t.regex(ds[0]!, /^error 2:3 nn\.dense: .*1000.*16384|^error 2:3 nn\.dense: .*16384.*1000/);
    t.notRegex(ds[0]!, /cannot unify/);
  });

  test(`${s}: n against 3 is one error naming the user-level condition n == 1`, (t) => {
    const src = 'def @main(%x: Tensor[(n, 4), float32], %y: Tensor[(3, 4), float32]) {\n  add(%x, %y)\n}';
    t.deepEqual(shown(inferText(src, 't.relay', s).diagnostics), [
      'error 2:3 add: cannot infer the result type from (Tensor[(n, 4), float32], Tensor[(3, 4), float32]): n == 1 cannot be decided',
    ]);
  });

  test(`${s}: (n, 1) against (1, m) broadcasts to (n, m) without asking anything`, (t) => {
    const src = 'def @main(%x: Tensor[(n, 1), float32], %y: Tensor[(1, m), float32]) {\n  add(%x, %y)\n}';
    const r = inferText(src, 't.relay', s);
    t.deepEqual(shown(r.diagnostics), []);
    t.is(r.outcome.returns.get('main'), 'Tensor[(n, m), float32]');
  });

  test(`${s}: (n, 3) against (n, 3) broadcasts without asking whether n is 1`, (t) => {
    const src = 'def @main(%x: Tensor[(n, 3), float32], %y: Tensor[(n, 3), float32]) {\n  add(%x, %y)\n}';
    const r = inferText(src, 't.relay', s);
    t.deepEqual(shown(r.diagnostics), []);
    t.is(r.outcome.returns.get('main'), 'Tensor[(n, 3), float32]');
  });

  test(`${s}: n against m asks whether either is 1`, (t) => {
    const src = 'def @main(%x: Tensor[(n), float32], %y: Tensor[(m), float32]) {\n  add(%x, %y)\n}';
    const ds = shown(inferText(src, 't.relay', s).diagnostics);
    t.is(ds.length, 1, ds.join('\n'));
    t.regex(ds[0]!, /: n == 1( and m == 1)? cannot be decided$/);
  });
}

test('undecided conditions are put positively: a negated comparison is the same question', (t) => {
  t.is(undecidedCondition('add: n != 1 cannot be decided'), 'n == 1');
  t.is(undecidedCondition('n == 1 cannot be decided'), 'n == 1');
  t.is(undecidedCondition('conv: h - 7 < 0 cannot be decided'), 'h - 7 >= 0');
  t.is(undecidedCondition('not broadcast_shape([n], [3], _) cannot be decided'), null);
});

test('a rule program split across two files reports the same one warning as in one file', (t) => {
  const program = `${BROADCAST}\nBroadcast(tensor([n], float32), tensor([3], float32), ?1).`;
  const whole = warnings(run(program), 'undecided').map((d) => d.message);
  t.deepEqual(whole, ['n == 1 cannot be decided']);
  // the helper predicates in a file of their own, imported
  const lines = program.split('\n');
  const helpers = lines.filter((l) => /^(broadcast_shape|bcast|bdim)\(/.test(l));
  const rest = lines.filter((l) => !helpers.includes(l));
  const dir = scratchFolder('split-rules-');
  dir.file('lib.rules', `${helpers.join('\n')}\n`);
  const main = dir.file('main.rules', `import "lib.rules".\n${rest.join('\n')}\n`);
  const r = runFiles([main]);
  t.deepEqual(
    warnings(r, 'undecided').map((d) => d.message),
    whole,
  );
});

test('after errors both strategies give the same types: a failed call and what depends on it stay unknown', (t) => {
  const src = `def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(4, 3), float32]) {
  %0 = nn.dense(%x, %y);
  %1 = add(%0, %x);
  %2 = reshape(%x, newshape=[7]);
  %3 = nn.relu(%2);
  (%1, %3)
}`;
  const typesOf = (s: InferStrategy) => inferText(src, 't.relay', s).outcome.bindings.map((b) => `${b.name}: ${b.type}`);
  const rules = typesOf('rules');
  t.deepEqual(rules, typesOf('relay'));
  // the dense call typed; the failed add and reshape, and the relu of the reshape, unknown
  t.true(
    rules.some((b) => /Tensor\[\(2, 4\), float32\]/.test(b)),
    rules.join('; '),
  );
  t.is(rules.filter((b) => /: _$/.test(b)).length, 3, rules.join('; '));
});
