// Without --strategy, a goal that binds an argument is answered goal-directed (on
// demand), and any other run is semi-naive; the answers are the same either way.
import test from 'ava';
import { runText } from '../solver/run.js';

// a chain 0 -> 1 -> ... -> 39: the closure has 40 * 39 / 2 = 780 path facts, path(30, X) only 9 answers
const chain = `${Array.from({ length: 39 }, (_, i) => `edge(${i}, ${i + 1}).`).join('\n')}\npath(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\n`;

test('a goal that binds an argument is evaluated on demand by default', (t) => {
  const r = runText(chain, { goal: 'path(30, X)' });
  t.is(r.strategy, 'demand');
  t.deepEqual(
    r.answers,
    [31, 32, 33, 34, 35, 36, 37, 38, 39].map((x) => ({ X: x })),
  );
  // goal-directed: far fewer facts than the 780 of the closure (plus 39 edges)
  t.true(r.stats.facts < 100, `${r.stats.facts} facts`);
});

test('a goal that binds a compound argument is goal-directed too', (t) => {
  const r = runText('p(f(1), 2). p(f(3), 4).\nq(X, Y) :- p(X, Y).\n', { goal: 'q(f(3), Y)' });
  t.is(r.strategy, 'demand');
  t.deepEqual(r.answers, [{ Y: 4 }]);
});

test('a goal with only variables, or no goal, is semi-naive by default', (t) => {
  t.is(runText(chain, { goal: 'path(X, Y)' }).strategy, 'seminaive');
  t.is(runText(chain, { goal: 'path(_, _)' }).strategy, 'seminaive');
  t.is(runText(chain).strategy, 'seminaive');
  t.is(runText(chain).factCount('path'), 780);
});

test('naive and seminaive stay selectable with a goal that binds an argument', (t) => {
  for (const strategy of ['naive', 'seminaive'] as const) {
    const r = runText(chain, { goal: 'path(30, X)', strategy });
    t.is(r.strategy, strategy);
    t.is(r.answers?.length, 9);
    t.true(r.stats.facts > 780, `${strategy}: ${r.stats.facts} facts`);
  }
});
