// Sorted distinct tuples (printing and answers) must equal sorting the tuples one by one
// with the term order and dropping repeats, through each of their code paths (a bitmap
// of keys, radix sort of 31-bit keys, doubles, row comparison, and the one chosen by the sizes).
import test from 'ava';
import { testProp } from '@fast-check/ava';
import fc from 'fast-check';
import { sortedTuples, type SortPath } from '../solver/sorted-tuples.js';
import { compareTerms } from '../solver/terms/order.js';
import { TermStore, type TermId } from '../solver/terms/term-store.js';

type Spec = { k: 'int'; v: number } | { k: 'atom'; v: string } | { k: 'str'; v: string } | { k: 'f'; v: number };
const spec: fc.Arbitrary<Spec> = fc.oneof(
  fc.record({ k: fc.constant('int' as const), v: fc.integer({ min: -5, max: 5 }) }),
  fc.record({ k: fc.constant('atom' as const), v: fc.constantFrom('a', 'b', 'zz', 'Q') }),
  fc.record({ k: fc.constant('str' as const), v: fc.constantFrom('x', 'y') }),
  fc.record({ k: fc.constant('f' as const), v: fc.integer({ min: 0, max: 3 }) }),
);

function term(store: TermStore, s: Spec): TermId {
  switch (s.k) {
    case 'int':
      return store.int(s.v);
    case 'atom':
      return store.atom(s.v);
    case 'str':
      return store.str(s.v);
    case 'f':
      return store.compound('f', [store.int(s.v)]);
  }
}

const rows = fc
  .integer({ min: 1, max: 3 })
  .chain((arity) => fc.tuple(fc.constant(arity), fc.array(fc.array(spec, { minLength: arity, maxLength: arity }), { maxLength: 40 })));

const path: fc.Arbitrary<SortPath> = fc.constantFrom('auto', 'bitmap', 'radix', 'key', 'rows');

testProp(
  'sortedTuples equals a one-by-one sort without repeats',
  [rows, path],
  (t, [arity, specs], how) => {
    const store = new TermStore();
    const facts = specs.map((r) =>
      store.compound(
        'p',
        r.map((s) => term(store, s)),
      ),
    );
    const expected: TermId[][] = [];
    const seen = new Set<TermId>();
    for (const f of facts) {
      if (seen.has(f)) continue; // equal tuples are the same interned fact
      seen.add(f);
      expected.push(store.args(f));
    }
    expected.sort((a, b) => {
      for (let c = 0; c < arity; c++) {
        const d = compareTerms(store, a[c]!, b[c]!);
        if (d !== 0) return d;
      }
      return 0;
    });
    const got = sortedTuples(store, facts, arity, how);
    t.is(got.count, expected.length);
    t.deepEqual(Array.from(got.ids), expected.flat());
  },
  { seed: 5, numRuns: 200 },
);

// columns of integers only take their own paths (a table for dense values, packed
// doubles for sparse ones, the term order beyond 2^30): each against the term order
const intColumn = fc.oneof(
  fc.integer({ min: -20, max: 20 }),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
  fc.constantFrom(2 ** 30 - 1, 2 ** 30, -(2 ** 30) + 1, 2 ** 40, -(2 ** 52), 0),
);
const intRows = fc
  .integer({ min: 1, max: 2 })
  .chain((arity) => fc.tuple(fc.constant(arity), fc.array(fc.array(intColumn, { minLength: arity, maxLength: arity }), { maxLength: 60 })));

testProp(
  'sortedTuples of integer columns (dense, sparse, huge) equals a one-by-one sort',
  [intRows, path],
  (t, [arity, values], how) => {
    const store = new TermStore();
    const facts = values.map((r) =>
      store.compound(
        'p',
        r.map((v) => store.int(v)),
      ),
    );
    const expected = [...new Set(facts)].map((f) => store.args(f));
    expected.sort((a, b) => {
      for (let c = 0; c < arity; c++) {
        const d = compareTerms(store, a[c]!, b[c]!);
        if (d !== 0) return d;
      }
      return 0;
    });
    t.deepEqual(Array.from(sortedTuples(store, facts, arity, how).ids), expected.flat());
  },
  { seed: 7, numRuns: 300 },
);

test('sortedTuples reads only the first n facts it is given, and repeats given twice are kept once', (t) => {
  const store = new TermStore();
  const f = (a: number, b: number) => store.compound('p', [store.int(a), store.int(b)]);
  const facts = [f(2, 1), f(1, 5), f(2, 1), f(1, 2), f(0, 9)];
  for (const how of ['auto', 'bitmap', 'radix', 'key', 'rows'] as const) {
    const got = sortedTuples(store, facts, 2, how, 4);
    t.deepEqual(
      Array.from(got.ids),
      [1, 2, 1, 5, 2, 1].map((v) => store.int(v)),
      how,
    );
    t.is(got.count, 3, how);
  }
});

test('a column of more distinct values than 16-bit ranks hold is still sorted (every path)', (t) => {
  const store = new TermStore();
  const n = 70_000;
  // a permutation of 0..n-1 (multiplying by a unit mod n), second column constant
  const facts = Array.from({ length: n }, (_, i) => store.compound('p', [store.int((i * 7919) % n), store.int(0)]));
  for (const how of ['auto', 'bitmap', 'radix', 'key', 'rows'] as const) {
    const got = sortedTuples(store, facts, 2, how);
    t.is(got.count, n, how);
    let sorted = true;
    for (let r = 0; r < n && sorted; r++) sorted = store.intValue(got.ids[2 * r]!) === r;
    t.true(sorted, how);
  }
});

test('thousands of rows, with repeats, sorted through each path, with radix keys of up to 31 bits and beyond', (t) => {
  // a fixed pseudo-random sequence (a linear congruential generator), so the case is the same every run
  let seed = 12345;
  const next = (bound: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % bound;
  };
  const cases: { arity: number; rows: number; bound: number }[] = [
    { arity: 2, rows: 5000, bound: 60 }, // keys of 12 bits, many repeats
    { arity: 2, rows: 20000, bound: 3000 }, // 24 bits
    { arity: 3, rows: 40000, bound: 1000 }, // 30 bits, near the most a radix key holds (31)
    { arity: 3, rows: 40000, bound: 2000 }, // 33 bits: radix falls back to doubles
  ];
  for (const { arity, rows, bound } of cases) {
    const store = new TermStore();
    const tuples = Array.from({ length: rows }, () => Array.from({ length: arity }, () => next(bound) - (bound >> 1)));
    const facts = tuples.map((r) =>
      store.compound(
        'p',
        r.map((v) => store.int(v)),
      ),
    );
    const expected = [...new Map(tuples.map((r) => [r.join(','), r])).values()].sort((a, b) => {
      for (let c = 0; c < arity; c++) if (a[c] !== b[c]) return a[c]! - b[c]!;
      return 0;
    });
    for (const how of ['auto', 'bitmap', 'radix', 'key', 'rows'] as const) {
      const got = sortedTuples(store, facts, arity, how);
      t.is(got.count, expected.length, `${arity}/${bound}/${how}`);
      t.deepEqual(
        Array.from(got.ids, (id) => store.intValue(id)),
        expected.flat(),
        `${arity}/${bound}/${how}`,
      );
    }
  }
});

test('facts of another arity than the first one are refused, not read past their arguments', (t) => {
  const store = new TermStore();
  const pair = store.compound('p', [store.int(1), store.int(2)]);
  const triple = store.compound('p', [store.int(1), store.int(2), store.int(3)]);
  for (const how of ['auto', 'bitmap', 'radix', 'key', 'rows'] as const) {
    t.throws(() => sortedTuples(store, [pair, triple], 2, how), { message: /different arities/ }, how);
    t.throws(() => sortedTuples(store, [triple, pair], 3, how), { message: /different arities/ }, how);
  }
});
