// Named wildcards (`_D`) in unification heads: a fresh hole per firing, shared by the
// occurrences of the name in the head (the engine change the iterator IR's builtins
// need); a named wildcard bound by the body stays an ordinary variable; in an ordinary
// head an unbound named wildcard is still unsafe.
import test from 'ava';
import { compileErrors, facts, run } from './helpers.js';

test('a named wildcard is one fresh hole per firing, shared within the head', (t) => {
  const r = run('T = fn([val(it, _D, _S)], val(value, _D, _S)) :- B(deref, T).\nB(deref, ?1).\nB(deref, ?2).');
  t.deepEqual(facts(r, 'B'), ['B(deref, fn([val(it, ?3, ?4)], val(value, ?3, ?4)))', 'B(deref, fn([val(it, ?5, ?6)], val(value, ?5, ?6)))']);
});

test('`_` stays a different hole at each occurrence', (t) => {
  const r = run('T = f(_, _) :- B(T).\nB(?1).');
  t.deepEqual(facts(r, 'B'), ['B(f(?2, ?3))']);
});

test('a named wildcard bound by the body is an ordinary variable', (t) => {
  const r = run('T = f(_X, _X) :- B(T, _X).\nB(?1, 7).');
  t.deepEqual(facts(r, 'B'), ['B(f(7, 7), 7)']);
});

test('an unbound named wildcard in an ordinary head is still unsafe', (t) => {
  t.regex(
    compileErrors('p(_X) :- q(1).\nq(1).')
      .map((d) => d.message)
      .join('\n'),
    /_X is not bound/,
  );
});
