// Static checks: each problem is reported with a location and a message a person can act on.
import test from 'ava';
import { compileErrors, facts, run, warnings } from './helpers.js';

test('unsafe head variable in a rule evaluated bottom-up', (t) => {
  const [d] = compileErrors('p(X, Y) :- q(X).\nq(1).');
  t.is(d!.code, 'unsafe');
  t.regex(d!.message, /head variable Y is not bound by the body in bottom-up evaluation/);
  t.deepEqual([d!.span?.start.line, d!.span?.start.column], [1, 1]);
});

test('app([], L, L) is fine when every call binds the first two or the last argument', (t) => {
  const src = `
app([], L, L).
app([H|T], L, [H|R]) :- app(T, L, R).
joined(X) :- app([1, 2], [3], X).
split(A, B) :- app(A, B, [1, 2]).
`;
  const r = run(src);
  t.deepEqual(facts(r, 'joined'), ['joined([1, 2, 3])']);
  t.deepEqual(facts(r, 'split'), ['split([], [1, 2])', 'split([1], [2])', 'split([1, 2], [])']);
});

test('app called with only its first argument bound is unsafe, at the call pattern', (t) => {
  const ds = compileErrors('app([], L, L).\napp([H|T], L, [H|R]) :- app(T, L, R).\nq(X, Y) :- app([1], X, Y).');
  t.is(ds[0]!.code, 'unsafe');
  t.regex(ds[0]!.message, /binding pattern bff/);
  t.is(ds[0]!.span?.start.line, 1);
});

test('a comparison on a variable that is never bound', (t) => {
  const [d] = compileErrors('p(X) :- q(X), Y > 3.\nq(1).');
  t.regex(d!.message, /Y is never bound before it/);
  t.deepEqual([d!.span?.start.line, d!.span?.start.column], [1, 15]);
});

test('arity mismatch names both uses', (t) => {
  const [d] = compileErrors('p(1, 2).\nq(X) :- p(X).');
  t.is(d!.code, 'arity');
  t.regex(d!.message, /p is used with 1 argument here but with 2 at t\.rules:1:1/);
  t.is(d!.span?.start.line, 2);
});

test('undefined predicate with a suggestion', (t) => {
  const [d] = compileErrors('edge(1, 2).\npath(X, Y) :- egde(X, Y).');
  t.is(d!.code, 'undefined');
  t.is(d!.message, "undefined predicate egde/2; did you mean 'edge'?");
  t.deepEqual([d!.span?.start.line, d!.span?.start.column], [2, 15]);
});

test('negation that cannot be stratified', (t) => {
  const [d] = compileErrors('p(X) :- q(X), not r(X).\nr(X) :- q(X), not p(X).\nq(1).');
  t.is(d!.code, 'stratification');
  t.regex(d!.message, /negation cannot be stratified/);
  t.truthy(d!.span);
});

test('negation needs its named variables bound', (t) => {
  const [d] = compileErrors('p(X) :- not q(X).\nq(1).');
  t.is(d!.code, 'unsafe');
  t.regex(d!.message, /X is never bound/);
});

test('duplicate declarations and reserved names', (t) => {
  const ds = compileErrors('relation R(a).\nrelation R(a, b).\nR(1).');
  t.regex(ds[0]!.message, /relation R is declared twice/);
  t.regex(ds[0]!.notes[0]!, /first declared at t\.rules:1:1/);
  t.regex(compileErrors('relation not(a).')[0]!.message, /built-in/);
  t.regex(compileErrors('relation R(a, a).')[0]!.message, /two arguments named 'a'/);
});

test('attributes: unknown names get suggestions, missing ones their defaults, wrong types an error', (t) => {
  const decl = 'relation Conv(data, out; strides: [int] = [1, 1], groups: int = 1).\n';
  const [d] = compileErrors(`${decl}Conv(a, b; stride: [2, 2]).`);
  t.is(d!.message, "Conv has no attribute 'stride'; did you mean 'strides'?");
  t.deepEqual(facts(run(`${decl}Conv(a, b; groups: 2).`), 'Conv'), ['Conv(a, b, [1, 1], 2)']);
  t.regex(compileErrors(`${decl}Conv(a, b; groups: [2]).`)[0]!.message, /attribute 'groups' of Conv must be of type int/);
  t.regex(compileErrors('relation R(a; k: int).\nR(1).')[0]!.message, /needs attribute 'k'/);
  t.regex(compileErrors('relation R(a; k: int = x).')[0]!.message, /not of type int/);
  t.regex(compileErrors('p(1).\nq(X) :- p(X; k: 1).')[0]!.message, /not a declared relation/);
});

test('attributes in bodies: omitted ones match anything', (t) => {
  const r = run(
    'relation Pool(data, out; size: int = 2, ceil: bool = false).\nPool(a, b; size: 3).\nPool(c, d; ceil: true).\nbig(X) :- Pool(X, _; size: S), S > 2.\nceil(X) :- Pool(X, _; ceil: true).',
  );
  t.deepEqual(facts(r, 'big'), ['big(a)']);
  t.deepEqual(facts(r, 'ceil'), ['ceil(c)']);
});

test('error heads must be strings whose placeholders are rule variables', (t) => {
  t.regex(compileErrors('error(1) :- p(1).\np(1).')[0]!.message, /one string/);
  t.regex(compileErrors('error("{Y}") :- p(X).\np(1).')[0]!.message, /\{Y\}, which is not a variable/);
});

test('singleton variables are warnings, not errors', (t) => {
  const r = run('p(X) :- q(X, Y).\nq(1, 2).');
  t.deepEqual(facts(r, 'p'), ['p(1)']);
  t.deepEqual(
    warnings(r, 'singleton').map((d) => d.message),
    ['variable Y occurs only once in this clause; write _Y or _ if that is intended'],
  );
});

test('imports are followed relative to the importing file, once each', async (t) => {
  const { mkdtempSync, writeFileSync, mkdirSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { runFiles, ProgramError } = await import('../solver/run.js');
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-'));
  mkdirSync(join(dir, 'lib'));
  writeFileSync(join(dir, 'main.rules'), 'import "lib/edges.rules".\nimport "lib/edges.rules".\npath(X, Y) :- edge(X, Y).');
  writeFileSync(join(dir, 'lib', 'edges.rules'), 'import "../main.rules".\nedge(1, 2).');
  t.deepEqual(
    runFiles([join(dir, 'main.rules')])
      .factsByPredicate()
      .get('path'),
    ['path(1, 2)'],
  );
  writeFileSync(join(dir, 'bad.rules'), 'import "missing.rules".');
  const e = t.throws(() => runFiles([join(dir, 'bad.rules')]), { instanceOf: ProgramError });
  t.regex(e!.diagnostics[0]!.message, /cannot read .*missing\.rules: no such file/);
  t.is(e!.diagnostics[0]!.span?.start.line, 1);
});

test('regression: safety is transitive: a rule that is safe only through an on-demand call runs on demand', (t) => {
  const src = `
keep(S, I, Out) :- keep_at(S, 0, I, Out).
keep_at([], _, _, []).
keep_at([D|Ds], N, I, [D|R]) :- N == I, keep_at(Ds, N + 1, I, R).
keep_at([_|Ds], N, I, R) :- N != I, keep_at(Ds, N + 1, I, R).
k(X) :- keep([a, b, c], 1, X).
`;
  t.deepEqual(facts(run(src), 'k'), ['k([b])']);
});

test('regression: a call to a bottom-up predicate with a bound expression position is not treated as unsafe', (t) => {
  const r = run('p2(1, 0).\np2(X + 1, X) :- e(X, X).\ne(3, 3).\np3(X + 1) :- p2(0, X).\np3(Y) :- p2(Y, 3).');
  t.deepEqual(facts(r, 'p3'), ['p3(4)']);
});

test('regression: negating an on-demand helper from inside an on-demand rule is explained', (t) => {
  const [d] = compileErrors(
    'm(X, [X|_]).\nm(X, [_|T]) :- m(X, T).\nf([], _, []).\nf([H|T], L, [H|R]) :- not m(H, L), f(T, L, R).\nf([H|T], L, R) :- m(H, L), f(T, L, R).\nq(X) :- f([1, 2], [2], X).',
  );
  t.regex(d!.message, /negated predicate is evaluated on demand/);
  t.regex(d!.notes.join('\n'), /positive helper/);
});
