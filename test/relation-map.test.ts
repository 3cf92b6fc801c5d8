// The persistent relation map (solver/store/relation-map.ts) is a value: a batch of writes
// gives a new map and leaves every earlier one as it was, two maps written from one base
// do not see each other's writes, and lookups, size and iteration agree with a plain
// JavaScript Map kept beside it (the oracle), across many relation numbers.
import test from 'ava';
import { testProp } from '@fast-check/ava';
import fc from 'fast-check';
import { PersistentRelation, type Relation } from '../solver/store/relation.js';
import { PersistentRelationMap, relationId, type RelationMap } from '../solver/store/relation-map.js';

const rel = (...facts: number[]): Relation => PersistentRelation.empty.insertBatch(facts);
const facts = (r: Relation | undefined): number[] | undefined => (r === undefined ? undefined : Array.from({ length: r.log.length }, (_, i) => r.log.get(i)));
const contents = (m: RelationMap): [string, number[] | undefined][] => [...m.entries()].map(([name, r]) => [name, facts(r)]);

test('a batch of writes leaves the map it was applied to unchanged', (t) => {
  const a = relationId('relmap_test_a');
  const b = relationId('relmap_test_b');
  const base = PersistentRelationMap.empty.withWrites((m) => m.set(a, rel(1, 2)));
  const next = base.withWrites((m) => {
    m.set(a, m.get(a)!.insertBatch([3]));
    m.set(b, rel(7));
  });
  t.deepEqual(contents(base), [['relmap_test_a', [1, 2]]]);
  t.is(base.size, 1);
  t.is(base.get('relmap_test_b'), undefined);
  t.deepEqual(facts(next.get('relmap_test_a')), [1, 2, 3]);
  t.deepEqual(facts(next.getById(b)), [7]);
  t.is(next.size, 2);
});

test('two maps written from one base do not see each other', (t) => {
  const ids = Array.from({ length: 70 }, (_, i) => relationId(`relmap_test_shared_${i}`));
  const base = PersistentRelationMap.empty.withWrites((m) => {
    for (const [i, id] of ids.entries()) m.set(id, rel(i));
  });
  const left = base.fork().withWrites((m) => m.set(ids[3]!, rel(-1)));
  const right = base.fork().withWrites((m) => m.set(ids[3]!, rel(-2)));
  t.deepEqual(facts(base.getById(ids[3]!)), [3]);
  t.deepEqual(facts(left.getById(ids[3]!)), [-1]);
  t.deepEqual(facts(right.getById(ids[3]!)), [-2]);
  t.deepEqual(facts(left.getById(ids[69]!)), [69]);
  t.is(left.size, 70);
});

testProp(
  'lookups, size and iteration agree with a plain Map after any sequence of batches',
  [fc.array(fc.array(fc.tuple(fc.nat(200), fc.integer()), { maxLength: 12 }), { minLength: 1, maxLength: 20 })],
  (t, batches) => {
    const ids = Array.from({ length: 201 }, (_, i) => relationId(`relmap_test_prop_${i}`));
    let map: RelationMap = PersistentRelationMap.empty;
    const oracle = new Map<number, number[]>();
    const history: [RelationMap, Map<number, number[]>][] = [];
    for (const batch of batches) {
      map = map.withWrites((m) => {
        for (const [k, v] of batch) {
          oracle.set(ids[k]!, [...(oracle.get(ids[k]!) ?? []), v]);
          m.set(ids[k]!, rel(...oracle.get(ids[k]!)!));
        }
      });
      history.push([map, new Map(oracle)]);
    }
    // every snapshot still holds what it held when it was made
    for (const [m, o] of history) {
      t.is(m.size, o.size);
      const expected = [...o].sort((x, y) => x[0] - y[0]).map(([id, fs]) => [`relmap_test_prop_${ids.indexOf(id)}`, fs]);
      t.deepEqual(contents(m), expected);
      for (const id of ids) t.deepEqual(facts(m.getById(id)), o.get(id));
    }
  },
);
