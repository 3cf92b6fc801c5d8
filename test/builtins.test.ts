// Every built-in: expressions, comparisons, tests, and integer exactness. Expected
// values are worked out by hand (Python semantics for floor division, modulo, slices).
import test from 'ava';
import { compileErrors, errors, run, warnings } from './helpers.js';

/** The value of an expression over given bindings, as JSON. */
function value(expr: string, setup = ''): unknown {
  const r = run(`${setup}\nv(X) :- X = ${expr}.`, { goal: 'v(X)' });
  const a = r.answers!;
  return a.length === 0 ? undefined : a[0]!['X'];
}

test('integer arithmetic with floor division and modulo', (t) => {
  t.is(value('1 + 2 * 3'), 7);
  t.is(value('(1 + 2) * 3'), 9);
  t.is(value('7 / 2'), 3);
  t.is(value('-7 / 2'), -4);
  t.is(value('7 / -2'), -4);
  t.is(value('7 % 3'), 1);
  t.is(value('-7 % 3'), 2);
  t.is(value('7 % -3'), -2);
  t.is(value('- (2 - 5)'), 3);
  t.is(value('min(3, -1)'), -1);
  t.is(value('max(3, -1)'), 3);
});

test('float arithmetic in doubles: + - * give floats, / the floor of the real quotient, comparisons with ints are numeric', (t) => {
  t.is(value('2.5 * 2'), 5);
  t.is(value('0.5 - 3.2'), -2.7);
  t.is(value('(3.2 - 0.5) / 0.5'), 5); // 5.4 rounded down
  t.is(value('-((0.5 - 3.2) / 0.5)'), 6); // ceil(5.4)
  t.is(value('(1 - 20) / 1.5'), -13);
  t.is(value('7.5 % 2'), 1.5);
  t.is(value('min(2.5, 3)'), 2.5);
  const r = run('p(yes) :- 0.0 == 0, 2.5 < 3, 2.5 != 2, 0.5 >= 0.5.\np(no) :- 0.0 != 0.\np(sym) :- X = n + 0.5.', { goal: 'p(X)' });
  t.deepEqual(
    r.answers!.map((a) => a['X']),
    ['yes'],
  ); // a float never mixes with a size variable
  t.regex(errors(run('v(X) :- X = 1.5 / 0.', { goal: 'v(X)' }))[0]!.message, /division by zero/);
});

test('list functions', (t) => {
  t.is(value('len([a, b, c])'), 3);
  t.is(value('len([])'), 0);
  t.is(value('prod([2, 3, 4])'), 24);
  t.is(value('prod([])'), 1);
  t.is(value('sum([2, 3, 4])'), 9);
  t.deepEqual(value('reverse([1, 2, 3])'), [3, 2, 1]);
  t.deepEqual(value('append([1, 2], [3])'), [1, 2, 3]);
  t.deepEqual(value('append([], [])'), []);
});

test('indexing and slicing follow Python', (t) => {
  const s = 'sh([10, 20, 30, 40]).\n';
  const v = (e: string) => {
    const r = run(`${s}v(X) :- sh(S), X = ${e}.`, { goal: 'v(X)' });
    return r.answers!.length === 0 ? undefined : r.answers![0]!['X'];
  };
  t.is(v('S[0]'), 10);
  t.is(v('S[3]'), 40);
  t.is(v('S[-1]'), 40);
  t.is(v('S[4]'), undefined, 'out of range: no value');
  t.deepEqual(v('S[1:]'), [20, 30, 40]);
  t.deepEqual(v('S[:2]'), [10, 20]);
  t.deepEqual(v('S[1:3]'), [20, 30]);
  t.deepEqual(v('S[-2:]'), [30, 40]);
  t.deepEqual(v('S[3:1]'), []);
  t.deepEqual(v('S[0:100]'), [10, 20, 30, 40]);
  t.deepEqual(v('S[:]'), [10, 20, 30, 40]);
});

test('symbolic dims are canonical: equal expressions print and compare equal', (t) => {
  t.is(value('n * 2'), '2*n');
  t.is(value('n + n'), '2*n');
  t.is(value('(2 * n + 2) / 2'), 'n + 1');
  t.is(value('(h + 2) / 2'), '(h + 2) / 2');
  t.is(value('prod([n, 3, m])'), '3*m*n');
  t.is(value('n - n'), 0);
  t.is(value('(4 * n + 3) % 2'), 1);
  // a monomial divisor that divides every term: exact (assuming it is not zero)
  t.is(value('(768 * n) / n'), 768);
  t.is(value('(m * n + 2 * n) / n'), 'm + 2');
  t.is(value('(2 * n + 1) / n'), '(2*n + 1) / n');
  const r = run('ok :- 2 * n == n * 2, n + 1 > 0, n >= 0, min(n, n + 2) == n.', { goal: 'ok' });
  t.deepEqual(r.answers, [{}]);
});

test('comparisons are three-valued', (t) => {
  const decided = (c: string) => run(`c :- ${c}.`, { goal: 'c' });
  t.deepEqual(decided('3 < 4').answers, [{}]);
  t.deepEqual(decided('4 < 3').answers, []);
  t.deepEqual(decided('3 == 3, 3 != 4, 3 <= 3, 4 >= 3, 4 > 3').answers, [{}]);
  const u = decided('n == 1');
  t.deepEqual(u.answers, []);
  t.deepEqual(
    warnings(u, 'undecided').map((d) => d.message),
    ['n == 1 cannot be decided'],
  );
  const v = decided('n != m');
  t.deepEqual(
    warnings(v, 'undecided').map((d) => d.message),
    ['n != m cannot be decided'],
  );
  // structures compare structurally, numbers inside numerically
  t.deepEqual(decided('[1, n] == [1, n]').answers, [{}]);
  t.deepEqual(decided('[1, 2] != [1, 3]').answers, [{}]);
});

test('= binds or tests; \\= is syntactic difference', (t) => {
  const r = run(
    'p([1, 2, 3]).\nq(H, T) :- p(L), [H | T] = L.\nr :- p(L), L = [1, 2, 3].\ns :- p(L), L = [1].\nd :- float32 \\= int32, n \\= 3, f(1) \\= f(2).\ne :- a \\= a.',
    {},
  );
  t.deepEqual(r.factsByPredicate().get('q'), ['q(1, [2, 3])']);
  t.deepEqual(r.factsByPredicate().get('r'), ['r']);
  t.is(r.factsByPredicate().get('s'), undefined);
  t.deepEqual(r.factsByPredicate().get('d'), ['d']);
  t.is(r.factsByPredicate().get('e'), undefined);
});

test('type tests', (t) => {
  const r = run(`
val(1). val(n). val("s"). val([1, 2]). val([1 | ?1]). val(?2). val(f(?3)). val(2*m + 1).
is_ground(X) :- val(X), ground(X).
is_hole(X) :- val(X), hole(X).
is_int(X) :- val(X), integer(X).
is_atom(X) :- val(X), atom(X).
is_string(X) :- val(X), string(X).
is_list_(X) :- val(X), is_list(X).
`);
  const f = r.factsByPredicate();
  t.deepEqual(f.get('is_ground'), ['is_ground(1)', 'is_ground(2*m + 1)', 'is_ground(n)', 'is_ground("s")', 'is_ground([1, 2])']);
  t.deepEqual(f.get('is_hole'), ['is_hole(?2)']);
  t.deepEqual(f.get('is_int'), ['is_int(1)']);
  t.deepEqual(f.get('is_atom'), ['is_atom(n)']);
  t.deepEqual(f.get('is_string'), ['is_string("s")']);
  t.deepEqual(f.get('is_list_'), ['is_list_([1, 2])']);
});

test('integers are exact to 2^53 - 1; overflow at run time is an error, not a wrong number', (t) => {
  t.is(value('9007199254740990 + 1'), 9007199254740991);
  const r = run('v(X) :- X = 9007199254740991 + 1.', { goal: 'v(X)' });
  t.deepEqual(r.answers, []);
  t.regex(errors(r)[0]!.message, /overflow/);
  const z = run('v(X) :- X = 1 / 0.', { goal: 'v(X)' });
  t.regex(errors(z)[0]!.message, /division by zero/);
  t.regex(compileErrors('p(99999999999999999999).')[0]!.message, /too large/);
});

test('reserved names are rejected with a reason', (t) => {
  t.regex(compileErrors('len(X) :- p(X).\np(1).')[0]!.message, /not a predicate|built-in/);
  t.regex(compileErrors('ground(1).')[0]!.message, /built-in/);
  t.regex(compileErrors('p :- error("x").')[0]!.message, /only be a rule head/);
});

test("Any ('?') absorbs arithmetic, is never decided, and unifies with every dim", (t) => {
  t.is(value("'?' + 1"), '?');
  t.is(value("2 * '?'"), '?');
  const u = run("c :- '?' == 1.", { goal: 'c' });
  t.deepEqual(u.answers, []);
  t.true(warnings(u, 'undecided').length > 0);
  const r = run("X = Y :- eq(X, Y).\neq(tensor(['?', 3], f32), tensor([5, ?1], f32)).");
  t.deepEqual(errors(r), []);
  t.deepEqual(r.factsByPredicate().get('eq'), ["eq(tensor(['?', 3], f32), tensor([5, 3], f32))"]);
});

test('atom/1 rejects the empty list, which is_list/1 accepts', (t) => {
  const r = run(`
val([]). val(nil). val([a]).
is_atom(X) :- val(X), atom(X).
is_list_(X) :- val(X), is_list(X).
`);
  const f = r.factsByPredicate();
  t.deepEqual(f.get('is_atom'), ['is_atom(nil)']);
  t.deepEqual(f.get('is_list_'), ['is_list_([])', 'is_list_([a])']);
});
