// Printed fact lines (solver/fact-lines.ts, which reuses the text of the arguments a row
// shares with the row before) must read exactly as each fact printed on its own by
// termText, in the sorted order, for any arity and any kind of argument.
import { testProp } from '@fast-check/ava';
import fc from 'fast-check';
import { writeFactLines } from '../solver/fact-lines.js';
import { sortedTuples } from '../solver/sorted-tuples.js';
import { termText } from '../solver/terms/print.js';
import { TermStore, type TermId } from '../solver/terms/term-store.js';

type Spec = { k: 'int'; v: number } | { k: 'atom'; v: string } | { k: 'str'; v: string } | { k: 'f'; v: number };
const spec: fc.Arbitrary<Spec> = fc.oneof(
  fc.record({ k: fc.constant('int' as const), v: fc.integer({ min: -3, max: 3 }) }),
  fc.record({ k: fc.constant('atom' as const), v: fc.constantFrom('a', 'b', 'Q x') }),
  fc.record({ k: fc.constant('str' as const), v: fc.constantFrom('x', 'y"') }),
  fc.record({ k: fc.constant('f' as const), v: fc.integer({ min: 0, max: 2 }) }),
);

function term(store: TermStore, s: Spec): TermId {
  if (s.k === 'int') return store.int(s.v);
  if (s.k === 'atom') return store.atom(s.v);
  if (s.k === 'str') return store.str(s.v);
  return store.compound('f', [store.int(s.v)]);
}

// few distinct values per column, so that consecutive rows often share a prefix
const rows = fc
  .integer({ min: 1, max: 4 })
  .chain((arity) => fc.tuple(fc.constant(arity), fc.array(fc.array(spec, { minLength: arity, maxLength: arity }), { maxLength: 60 })));

testProp(
  'each printed line is its fact as termText prints it, in sorted order',
  [rows],
  (t, [arity, specs]) => {
    const store = new TermStore();
    const facts = specs.map((r) =>
      store.compound(
        'p',
        r.map((s) => term(store, s)),
      ),
    );
    const tuples = sortedTuples(store, facts, arity);
    const expected: string[] = [];
    for (let r = 0; r < tuples.count; r++) expected.push(termText(store, store.compound('p', Array.from(tuples.ids.subarray(r * arity, (r + 1) * arity)))));
    const got: string[] = [];
    writeFactLines(store, 'p', tuples, (line) => void got.push(line));
    t.deepEqual(got, expected);
  },
  { seed: 11, numRuns: 300 },
);
