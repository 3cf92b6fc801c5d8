// typing/value-sharing.ts: equal plain objects and arrays become one object, and nothing
// else changes: the copy is deep-equal to the original, the original is untouched, and
// values that merging could change (an object in a Set, a sparse array, a cycle) are refused.
import test from 'ava';
import { fc, testProp } from '@fast-check/ava';
import { isDeepStrictEqual } from 'node:util';
import { deserialize, serialize } from 'node:v8';
import { shareEqualValues } from '../typing/value-sharing.js';

test('equal objects and arrays become one object; the original is untouched', (t) => {
  const span = () => ({ file: 'a.rules', start: { offset: 3, line: 1, column: 4 }, end: { offset: 5, line: 1, column: 6 } });
  const input = { a: { k: 'var', v: 0, span: span() }, b: { k: 'var', v: 0, span: span() }, c: [1, 2, [3]], d: [1, 2, [3]] };
  const out = shareEqualValues(input)!;
  t.true(isDeepStrictEqual(out, input));
  t.is(out.a, out.b);
  t.is(out.c, out.d);
  t.is(out.c[2], out.d[2]);
  t.not(input.a, input.b, 'the original keeps its own objects');
  t.not(input.a.span, input.b.span);
  t.not(out as unknown, input as unknown);
  // kept one object through v8's serializer (what the compiled-library cache writes)
  const back = deserialize(serialize(out)) as typeof out;
  t.is(back.a, back.b);
  t.is(back.a.span.start.line, 1);
});

test('values that differ stay apart', (t) => {
  const nullProto = Object.assign(Object.create(null) as object, { x: 1 });
  const input = [
    { x: 1 },
    { x: '1' },
    { x: 0 },
    { x: -0 },
    { a: 1, b: 2 },
    { b: 2, a: 1 },
    nullProto,
    { x: 1 },
    [1],
    { 0: 1 },
    { x: undefined },
    {},
    { x: null },
    { x: 1n },
    { x: true },
  ];
  const out = shareEqualValues(input)!;
  t.true(isDeepStrictEqual(out, input));
  t.is(out[0], out[7], 'the two { x: 1 } are one');
  const distinct = new Set(out);
  t.is(distinct.size, input.length - 1, 'and no other two are');
  t.true(Object.is((out[3] as { x: number }).x, -0));
  t.is(Object.getPrototypeOf(out[6]), null);
  t.deepEqual(Object.keys(out[5]!), ['b', 'a'], 'keys keep their order');
});

test('maps and sets keep their entries; typed arrays are kept as they are', (t) => {
  const ints = new Int32Array([1, 2]);
  const set = new Set(['p', 'q']);
  const input = {
    m: new Map<string, object>([
      ['x', { v: 1 }],
      ['y', { v: 1 }],
    ]),
    s: set,
    i: ints,
    j: new Int32Array([1, 2]),
  };
  const out = shareEqualValues(input)!;
  t.true(isDeepStrictEqual(out, input));
  t.not(out.m, input.m, 'the map is copied');
  t.is(out.m.get('x'), out.m.get('y'), 'its equal values shared');
  t.is(out.s, set);
  t.is(out.i, ints);
  t.not(out.j, out.i as unknown, 'typed arrays are not merged');
});

test('what merging could change is refused', (t) => {
  t.is(shareEqualValues({ s: new Set([{ a: 1 }, { a: 1 }]) }), null, 'an object in a set');
  t.is(shareEqualValues(new Map([[{ a: 1 }, 1]])), null, 'an object as a map key');
  // biome-ignore lint/suspicious/noSparseArray: the hole is what is tested
  t.is(shareEqualValues([1, , 3]), null, 'a sparse array');
  const cycle: { self?: unknown } = {};
  cycle.self = cycle;
  t.is(shareEqualValues(cycle), null, 'a cycle');
  t.is(shareEqualValues({ f: () => 1 }), null, 'a function');
  class Point {
    constructor(readonly x: number) {}
  }
  t.is(shareEqualValues({ p: new Point(1) }), null, 'a class instance');
  t.is(shareEqualValues(7), 7, 'a primitive is itself');
});

/** A deep copy keeping prototypes (structuredClone makes null-prototype objects plain). */
function clone(x: unknown): unknown {
  if (x === null || typeof x !== 'object') return x;
  if (Array.isArray(x)) return x.map(clone);
  const out = Object.create(Object.getPrototypeOf(x) as object | null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(x)) out[k] = clone(v);
  return out;
}

/** Equal as plain data: the same prototype, keys in the same order (a test-side definition, independent of the code under test). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return Object.is(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false;
  return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

// JSON-like trees with many repeats: the copy is deep-equal to the original, and every
// two of its objects that are deep-equal (same keys in the same order) are one object
const leaf = fc.oneof(fc.integer({ min: -2, max: 2 }), fc.constantFrom('a', 'b', '', null, true, -0));
const tree = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('k', 'v', 'span'), tie('node'), { maxKeys: 3 }),
  ),
})).node;

testProp('the copy equals the original, and equal parts are one object', [fc.array(tree, { maxLength: 8 })], (t, input) => {
  const snapshot = clone(input);
  const out = shareEqualValues(input)!;
  t.not(out, null);
  t.true(isDeepStrictEqual(out, input));
  t.true(isDeepStrictEqual(input, snapshot), 'the original is unchanged');
  const objects: object[] = [];
  const walk = (x: unknown): void => {
    if (x === null || typeof x !== 'object') return;
    objects.push(x);
    for (const y of Object.values(x)) walk(y);
  };
  walk(out);
  for (let i = 0; i < objects.length; i++)
    for (let j = i + 1; j < objects.length; j++) {
      const [a, b] = [objects[i]!, objects[j]!];
      if (a !== b && sameValue(a, b)) return t.fail(`two equal objects not shared: ${JSON.stringify(a)}`);
    }
  t.pass();
});
