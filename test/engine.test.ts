// The engine as a whole: provenance, limits, persistence of snapshots, strategies.
import test from 'ava';
import { compileProgram } from '../solver/compile/program.js';
import { Solver } from '../solver/engine/solve.js';
import { parseProgram } from '../solver/language/parse.js';
import { UserError } from '../diagnostics/diagnostic.js';
import { TermStore } from '../solver/terms/term-store.js';
import { errors, facts, run } from './helpers.js';
import { prepareText, runText } from '../solver/run.js';

const TC = 'path(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\n';

test('explain prints the derivation tree with rules, lines and given facts', (t) => {
  const r = run(`${TC}edge(1, 2).\nedge(2, 3).\n`);
  t.is(
    r.explain('path(1, 3)'),
    [
      'path(1, 3)   (by rule at t.rules:2:1)',
      '  path(1, 2)   (by rule at t.rules:1:1)',
      '    edge(1, 2)   (given at t.rules:3:1)',
      '  edge(2, 3)   (given at t.rules:4:1)',
    ].join('\n'),
  );
  t.throws(() => r.explain('path(3, 1)'), { instanceOf: UserError, message: /does not hold/ });
  t.throws(() => r.explain('path(X, 1)'), { instanceOf: UserError, message: /without variables/ });
});

test('explain shows bindings behind rebuilt facts', (t) => {
  const r = run('relation Id(in, out).\nOut = In :- Id(In, Out).\nId(tensor([3], f32), ?1).');
  const text = r.explain('Id(tensor([3], f32), tensor([3], f32))');
  t.regex(text, /rebuilt after \?1 := tensor\(\[3\], f32\) by rule at t\.rules:2:1/);
  t.regex(text, /Id\(tensor\(\[3\], f32\), \?1\) {3}\(given at t\.rules:3:1\)/);
});

test('explain works for demanded helpers under their own name', (t) => {
  const r = run('app([], L, L).\napp([H|T], L, [H|R]) :- app(T, L, R).\nj(X) :- app([1], [2], X).');
  t.regex(
    r.explain('app([1], [2], [1, 2])'),
    /^app\(\[1\], \[2\], \[1, 2\]\) {3}\(by rule at t\.rules:2:1\)\n {2}app\(\[\], \[2\], \[2\]\) {3}\(by rule at t\.rules:1:1\)$/,
  );
});

test('limits end runaway programs with a clear error', (t) => {
  const rounds = run('nat(0).\nnat(N + 1) :- nat(N).', { limits: { maxRounds: 500 } });
  t.is(rounds.solver.limitHit?.kind, 'rounds');
  t.regex(errors(rounds)[0]!.message, /stopped after 500 rounds/);
  t.regex(errors(rounds)[0]!.notes.join('\n'), /nat: 501 facts/);

  const factsLimit = run('n(0).\nn(X + 1) :- n(X), X < 1000.\np(X, Y) :- n(X), n(Y).', { limits: { maxFacts: 5000 } });
  t.is(factsLimit.solver.limitHit?.kind, 'facts');

  const depth = run('p(z).\np(s(X)) :- p(X).', { limits: { maxTermDepth: 50 } });
  t.is(depth.solver.limitHit?.kind, 'depth');
  t.regex(errors(depth)[0]!.message, /deeper than 50/);

  const started = Date.now();
  const time = run('n(0).\nn(X + 1) :- n(X), X < 100000.\np(X, Y) :- n(X), n(Y).', { limits: { maxMillis: 300 } });
  t.is(time.solver.limitHit?.kind, 'time');
  t.true(Date.now() - started < 5000);
});

test('the default limits stop `nat(N + 1) :- nat(N).` well within 30 seconds', (t) => {
  const started = Date.now();
  const r = run('nat(0).\nnat(N + 1) :- nat(N).');
  t.not(r.solver.limitHit, null);
  t.true(Date.now() - started < 30_000);
});

function solverFor(source: string): { solver: Solver; store: TermStore } {
  const store = new TermStore();
  const c = compileProgram(store, [parseProgram(source, 't.rules')], 'seminaive', null);
  if (!c.ok) throw new Error(c.diagnostics[0]!.message);
  const solver = new Solver(store, c.program.plans, 'seminaive');
  solver.addFacts(c.program.facts);
  return { solver, store };
}

test('snapshots are persistent: a database taken before solving does not change', (t) => {
  const { solver, store } = solverFor(`${TC}edge(1, 2).\nedge(2, 3).`);
  const before = solver.db;
  solver.solve();
  const after = solver.db;
  const p13 = store.findCompoundSym(store.symbol('path'), [store.int(1), store.int(3)]);
  t.true(p13 !== 0 && after.has(p13));
  t.false(before.has(p13));
  t.is(before.relation('path'), undefined);
  t.is(after.relation('path')!.size, 3);
  t.is(before.relation('edge')!.size, 2);
});

test('snapshots see a fact before its rebuild and not after', (t) => {
  const { solver, store } = solverFor('X = Y :- eq(X, Y).\neq(?1, 5).');
  const before = solver.db;
  solver.solve();
  const stale = store.findCompoundSym(store.symbol('eq'), [store.hole(1), store.int(5)]);
  const fresh = store.findCompoundSym(store.symbol('eq'), [store.int(5), store.int(5)]);
  t.true(before.has(stale));
  t.false(solver.db.has(stale));
  t.true(solver.db.has(fresh));
  t.false(before.has(fresh));
});

test('two solvers forked from one snapshot do not see each other', (t) => {
  const source = `${TC}edge(1, 2).\nedge(2, 3).`;
  const store = new TermStore();
  const c = compileProgram(store, [parseProgram(source, 't.rules')], 'seminaive', null);
  if (!c.ok) return t.fail();
  const base = new Solver(store, c.program.plans, 'seminaive');
  base.addFacts(c.program.facts);
  base.solve();
  const e = (a: number, b: number) => store.compound('edge', [store.int(a), store.int(b)]);
  const plansA = compileProgram(store, [parseProgram(source, 't.rules')], 'seminaive', null);
  const plansB = compileProgram(store, [parseProgram(source, 't.rules')], 'seminaive', null);
  if (!plansA.ok || !plansB.ok) return t.fail();
  const a = new Solver(store, plansA.program.plans, 'seminaive', undefined, base.db.fork());
  const b = new Solver(store, plansB.program.plans, 'seminaive', undefined, base.db.fork());
  a.addFacts(new Map([['edge', [e(3, 4)]]]));
  b.addFacts(new Map([['edge', [e(3, 9)]]]));
  a.solve();
  b.solve();
  const path = (x: number, y: number) => store.findCompoundSym(store.symbol('path'), [store.int(x), store.int(y)]);
  t.true(a.db.has(path(1, 4)));
  t.false(a.db.has(path(1, 9)));
  t.true(b.db.has(path(1, 9)));
  t.false(b.db.has(path(1, 4)));
  t.is(base.db.relation('path')!.size, 3);
});

test('incremental re-solve from a solved state only derives the new consequences', (t) => {
  const { solver, store } = solverFor(TC + Array.from({ length: 50 }, (_, i) => `edge(${i}, ${i + 1}).`).join('\n'));
  solver.solve();
  const derivedBefore = solver.stats.derived;
  solver.addFacts(new Map([['edge', [store.compound('edge', [store.int(50), store.int(51)])]]]));
  solver.solve();
  // 51 new paths into node 51 (from 0..50); the edge is given, not derived
  t.is(solver.stats.derived - derivedBefore, 51);
  t.is(solver.db.relation('path')!.size, (52 * 51) / 2); // a 52-node chain
});

test('facts rebuilt after a binding: rules reading the bound column see it, rules ignoring it derive nothing twice', (t) => {
  const src = `
relation Call(in, out).
Out = tensor([N, N]) :- Call(tensor([N]), Out).
In = tensor([4]) :- start(In).
seen(N) :- Call(tensor([N]), _).
result(S) :- Call(_, tensor(S)).
pair(N, S) :- Call(tensor([N]), tensor(S)).
some_call :- Call(_, _).
start(?2).
Call(tensor([3]), ?1).
Call(?2, ?3).
`;
  const all = (s: 'naive' | 'seminaive') => JSON.stringify([...run(src, { strategy: s }).factsByPredicate()]);
  t.is(all('seminaive'), all('naive'));
  const r = run(src);
  t.deepEqual(facts(r, 'seen'), ['seen(3)', 'seen(4)']);
  t.deepEqual(facts(r, 'result'), ['result([3, 3])', 'result([4, 4])']);
  t.deepEqual(facts(r, 'pair'), ['pair(3, [3, 3])', 'pair(4, [4, 4])']);
  t.deepEqual(facts(r, 'some_call'), ['some_call']);
  // each fact derived once (rebuilt facts are counted apart)
  t.is(r.solver.stats.derived, facts(r, 'seen').length + facts(r, 'result').length + facts(r, 'pair').length + 1);
});

test('seminaive, naive and demand agree on a recursive program with arithmetic and negation', (t) => {
  const src = `
${TC}
dist(0, 0).
dist(Y, D + 1) :- dist(X, D), edge(X, Y), D < 10.
short(Y) :- dist(Y, D), D <= 2.
far(Y) :- path(0, Y), not short(Y).
${Array.from({ length: 8 }, (_, i) => `edge(${i}, ${i + 1}).`).join('\n')}
edge(3, 0).
`;
  const all = (s: 'naive' | 'seminaive') => JSON.stringify([...run(src, { strategy: s }).factsByPredicate()]);
  t.is(all('naive'), all('seminaive'));
  t.deepEqual(facts(run(src), 'far'), ['far(3)', 'far(4)', 'far(5)', 'far(6)', 'far(7)', 'far(8)']);
  for (const goal of ['far(X)', 'path(2, X)', 'dist(X, 3)', 'path(3, 0)']) {
    t.deepEqual(run(src, { strategy: 'demand', goal }).answers, run(src, { strategy: 'naive', goal }).answers, goal);
  }
});

test('a prepared program solves afresh each time: the same facts and answers as runText, runs independent', (t) => {
  const source = ['edge(1, 2). edge(2, 3). edge(3, 1). edge(3, 4).', 'path(X, Y) :- edge(X, Y).', 'path(X, Z) :- path(X, Y), edge(Y, Z).'].join('\n');
  for (const goal of [undefined, 'path(4, X)', 'path(1, X)']) {
    const options = goal === undefined ? {} : { goal };
    const prepared = prepareText(source, options);
    const first = prepared.solve();
    const second = prepared.solve();
    const direct = runText(source, options);
    // independently: 1, 2 and 3 reach each other and 4; 4 reaches nothing
    if (goal === undefined) t.is(direct.factCount('path'), 12);
    for (const r of [first, second]) {
      t.deepEqual([...r.factsByPredicate()], [...direct.factsByPredicate()]);
      t.deepEqual(r.answers, direct.answers);
    }
    if (goal === 'path(4, X)') t.deepEqual(first.answers, []);
    if (goal === 'path(1, X)') t.is(first.answers?.length, 4);
  }
});

test('one commit rebuilding a fact in a column a rule ignores and another in a column it reads: the rule still reads the second', (t) => {
  // seen/1 reads only Call's first column. In the same commit ?2 (a second column) and ?1 (a
  // first column) are bound: skipping the rebuilt facts because one of them changed only
  // the ignored column would lose seen([7]).
  const src = `
relation Call(in, out).
seen(S) :- Call(tensor(S), _).
X = tensor([7]) :- bind_in(X).
Y = tensor([8]) :- bind_out(Y).
bind_in(?1). bind_out(?2).
Call(tensor([1]), ?2).
Call(?1, tensor([2])).
`;
  const r = run(src);
  t.deepEqual(errors(r), []);
  t.deepEqual(facts(r, 'seen'), ['seen([1])', 'seen([7])']);
  t.deepEqual(facts(r, 'Call'), ['Call(tensor([1]), tensor([8]))', 'Call(tensor([7]), tensor([2]))']);
});

/** A program whose single-scan rules carry Call's second column into their heads; `head` is how the first rule's head holds it. */
const carrying = (head: string) => `
relation Call(in, out).
carried(S, ${head}) :- Call(tensor(S), Y).
nested(S, [Y]) :- Call(tensor(S), Y).
plus(S, N + 1) :- Count(S, N).
X = 5 :- bind3(X).
Y = tensor([8]) :- bind_out(Y).
N = 2 :- bindn(N).
bind_out(?2). bind3(?3). bindn(?4).
Call(tensor([1]), ?2).
Call(tensor([2]), tensor([?3])).
Count(a, ?4).
`;

test('facts rebuilt only in a column a rule passes to its head: what the rule derived is rebuilt with them, in every strategy', (t) => {
  for (const strategy of ['seminaive', 'naive', 'mutable'] as const) {
    const r = run(carrying('[Y]'), { strategy });
    t.deepEqual(errors(r), [], strategy);
    t.deepEqual(facts(r, 'carried'), ['carried([1], [tensor([8])])', 'carried([2], [tensor([5])])'], strategy);
    t.deepEqual(facts(r, 'nested'), ['nested([1], [tensor([8])])', 'nested([2], [tensor([5])])'], strategy);
    // N + 1 is computed when the head is built: the rule must see N bound, so it runs again on the rebuilt fact
    t.deepEqual(facts(r, 'plus'), ['plus(a, 3)'], strategy);
  }
});

test('a rule that passes a column to its head is not joined again when only that column is rebuilt', (t) => {
  // the same facts, the first rule's head carrying Y ([Y]) or computing from it (append([Y], [])):
  // only the second must see the rebuilt Call facts again
  const carried = run(carrying('[Y]'));
  const computed = run(carrying('append([Y], [])'));
  t.deepEqual(facts(computed, 'carried'), facts(carried, 'carried'));
  t.true(carried.solver.stats.planRuns < computed.solver.stats.planRuns, `${carried.solver.stats.planRuns} vs ${computed.solver.stats.planRuns}`);
});

test('a rule whose first scan reads a relation with no facts is not run, and still derives once the relation has some', (t) => {
  const src = `
p(X) :- q(X).
r(X) :- s(X).
t(X) :- r(X), X > 0.
q(X) :- u(X), X > 1.
s(1). s(2). u(5).
`;
  for (const strategy of ['seminaive', 'naive', 'mutable'] as const) {
    const r = run(src, { strategy });
    t.deepEqual(facts(r, 'p'), ['p(5)'], strategy);
    t.deepEqual(facts(r, 't'), ['t(1)', 't(2)'], strategy);
  }
  // in the first round, p and t have nothing to read: two of the four rules run
  const empty = run('p(X) :- q(X).\nr(X) :- s(X).\nt(X) :- r(X), X > 0.\nq(X) :- u(X), X > 1.\ns(1). u(0).\n');
  t.deepEqual(facts(empty, 'p'), []);
  t.is(empty.solver.stats.planRuns, 2 + 1); // r and q in the first round (q finds u(0), too small), then t on r's new facts
});
