// The ids of solver/store/ids.ts are types of their own: the compiler refuses a round's
// stamp where a fact's origin is due, a plain number where a stamp is due, and the like.
// Each `@ts-expect-error` below fails `npm test`'s type check (tsc --noEmit) if the call
// it marks is accepted. At run time they are the plain numbers the fact tables hold.
import test from 'ava';
import { FactMeta } from '../solver/store/fact-meta.js';
import { FIRST_STAMP, GIVEN, NEVER, nextStamp, REBUILT, ruleId } from '../solver/store/ids.js';
import { RoundBuffer, BufferMarks } from '../solver/engine/round.js';
import { everyFact, PlanClock, readsFrom, readsTo } from '../solver/engine/window.js';
import type { TermId } from '../solver/terms/term-store.js';

test('a stamp, a rule and a fact passed in the wrong places do not type-check', (t) => {
  const meta = new FactMeta();
  const fact: TermId = 7;
  const round = nextStamp(FIRST_STAMP);
  const rule = ruleId(3);
  const wrong = () => {
    // @ts-expect-error the origin and the round swapped
    meta.record(fact, rule, round, [], 0);
    // @ts-expect-error a plain number is not a round's stamp
    meta.record(fact, 2, rule, [], 0);
    // @ts-expect-error a plain number is not an origin
    meta.record(fact, round, 3, [], 0);
    // @ts-expect-error a rule is not a stamp
    meta.markRemoved(fact, rule);
    // @ts-expect-error a plain number is not an origin
    new RoundBuffer(new BufferMarks()).add('edge', fact, 0, new Int32Array(0), 0);
    // @ts-expect-error a plain number is not a stamp
    new PlanClock(1).ran(0, 5);
  };
  void wrong;
  meta.record(fact, round, rule, [], 0);
  meta.record(8, round, GIVEN, [], 0);
  meta.record(9, nextStamp(round), REBUILT, [8], 1);
  t.is(meta.timestamp(fact) as number, 2);
  t.deepEqual(meta.provenance(fact), { rule: 3, premises: [] });
  t.deepEqual(meta.provenance(8), { rule: -1, premises: [] });
  t.deepEqual(meta.provenance(9), { rule: -2, premises: [8] });
  t.true(meta.visibleAt(fact, nextStamp(round)));
  t.false(meta.visibleAt(fact, round), 'a snapshot holds only facts stamped before its next stamp');
});

test('a round buffer writes each fact with its stamp and origin', (t) => {
  const meta = new FactMeta();
  const buffer = new RoundBuffer(new BufferMarks());
  buffer.add('edge', 5, GIVEN, new Int32Array(0), 0);
  buffer.add('path', 6, ruleId(1), Int32Array.of(5, 99), 1);
  buffer.add('path', 7, ruleId(2), Int32Array.of(5, 6), 2);
  buffer.recordInto(meta, FIRST_STAMP);
  t.deepEqual(
    [5, 6, 7].map((f) => meta.timestamp(f)),
    [1, 1, 1],
  );
  t.deepEqual(
    [5, 6, 7].map((f) => meta.provenance(f)),
    [
      { rule: -1, premises: [] },
      { rule: 1, premises: [5] },
      { rule: 2, premises: [5, 6] },
    ],
  );
  t.deepEqual(
    [...buffer.facts],
    [
      ['edge', [5]],
      ['path', [6, 7]],
    ],
  );
});

test('a plan that never ran reads every fact; then only what is new since it ran', (t) => {
  const clock = new PlanClock(2);
  t.is(clock.lastRunOf(1), NEVER);
  const end = nextStamp(nextStamp(FIRST_STAMP));
  const first = everyFact(false, end);
  t.is(readsFrom(first, 0), NEVER);
  t.is(readsTo(first, 0), end);
  clock.ran(1, end);
  const later = clock.newFactsAt(1, 1, nextStamp(end));
  t.is(readsFrom(later, 1), end, 'the delta scan reads from the last run');
  t.is(readsTo(later, 0), end, 'a scan before it reads only older facts');
  t.is(readsFrom(later, 2), NEVER);
  t.is(readsTo(later, 2), nextStamp(end), 'a scan after it reads every fact');
  t.is(clock.lastRunOf(0), NEVER, "another plan's clock did not move");
});
