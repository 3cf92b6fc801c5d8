// Interned terms, persistent vectors, the persistent union-find, term order and JSON.
import test from 'ava';
import fc from 'fast-check';
import { Slice } from '../solver/store/slice.js';
import { resolve, UnionFind } from '../solver/store/union-find.js';
import { compareTerms } from '../solver/terms/order.js';
import { termJson, termText } from '../solver/terms/print.js';
import { dimAdd, dimConst, dimMul, dimVar } from '../solver/terms/dims.js';
import { ArithmeticError, arith, compare, dimTerm, structuralEquals } from '../solver/terms/arith.js';
import { TermDepthError, TermStore } from '../solver/terms/term-store.js';

test('interning: equal structure, equal id; different structure, different id', (t) => {
  const s = new TermStore();
  const a = s.compound('tensor', [s.list([s.int(2), s.atom('n')]), s.atom('float32')]);
  const b = s.compound('tensor', [s.list([s.int(2), s.atom('n')]), s.atom('float32')]);
  const c = s.compound('tensor', [s.list([s.atom('n'), s.int(2)]), s.atom('float32')]);
  t.is(a, b);
  t.not(a, c);
  t.not(s.int(1), s.float(1));
  t.not(s.atom('x'), s.str('x'));
  t.not(s.compound('f', []), s.atom('f'));
  t.is(termText(s, a), 'tensor([2, n], float32)');
});

test('interning stays correct across table growth (property)', (t) => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 })), { maxLength: 3000 }), (pairs) => {
      const s = new TermStore();
      const ids = new Map<string, number>();
      for (const [x, y] of pairs) {
        const id = s.compound('e', [s.int(x), s.int(y)]);
        const prev = ids.get(`${x},${y}`);
        if (prev !== undefined && prev !== id) return false;
        ids.set(`${x},${y}`, id);
        if (s.intValue(s.arg(id, 0)) !== x || s.intValue(s.arg(id, 1)) !== y) return false;
      }
      return new Set(ids.values()).size === ids.size;
    }),
  );
  t.pass();
});

test('a compound of any arity gives back its functor, arity and arguments, inline or pooled (property)', (t) => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom('f', 'g'), fc.array(fc.integer({ min: -3, max: 40 }), { maxLength: 7 })), { maxLength: 400 }), (specs) => {
      const s = new TermStore();
      const built = specs.map(([f, xs]) => ({
        f,
        xs,
        id: s.compound(
          f,
          xs.map((x) => s.int(x)),
        ),
      }));
      return built.every(({ f, xs, id }) => {
        const args = s.args(id);
        return (
          s.functor(id) === f &&
          s.arity(id) === xs.length &&
          args.length === xs.length &&
          xs.every((x, i) => s.intValue(args[i]!) === x && s.arg(id, i) === args[i]) &&
          s.compound(f, args) === id
        );
      });
    }),
  );
  t.pass();
});

test('ground flags and depth; list tails add no depth', (t) => {
  const s = new TermStore();
  const h = s.hole(1);
  t.false(s.isGround(s.compound('f', [s.int(1), s.list([h])])));
  t.true(s.isGround(s.compound('f', [s.int(1)])));
  const long = s.list(Array.from({ length: 10000 }, (_, i) => s.int(i)));
  t.is(s.depth(long), 1);
  s.maxDepth = 10;
  let x = s.atom('z');
  t.throws(
    () => {
      for (let i = 0; i < 20; i++) x = s.compound('s', [x]);
    },
    { instanceOf: TermDepthError },
  );
});

test('slices are persistent: older views never see later appends', (t) => {
  const a = Slice.empty.append([1, 2]);
  const b = a.push(3);
  const c = a.push(4); // appending to an older view copies
  t.deepEqual(a.toArray(), [1, 2]);
  t.deepEqual(b.toArray(), [1, 2, 3]);
  t.deepEqual(c.toArray(), [1, 2, 4]);
  t.deepEqual(Slice.empty.toArray(), []);
  const d = b.append([5, 6]);
  t.deepEqual(b.toArray(), [1, 2, 3]);
  t.deepEqual(d.toArray(), [1, 2, 3, 5, 6]);
});

test('union-find: versions are independent and resolve follows chains', (t) => {
  const s = new TermStore();
  const [h1, h2, h3] = [s.hole(1), s.hole(2), s.hole(3)];
  const v0 = UnionFind.empty;
  const v1 = v0.link(h2, h1);
  const v2 = v1.link(h1, s.list([h3, s.int(4)]));
  const v3 = v2.link(h3, s.int(7));
  const term = s.compound('f', [h2, h3]);
  t.is(resolve(s, v0, term), term);
  t.is(termText(s, resolve(s, v1, term)), 'f(?1, ?3)');
  t.is(termText(s, resolve(s, v2, term)), 'f([?3, 4], ?3)');
  t.is(termText(s, resolve(s, v3, term)), 'f([7, 4], 7)');
  t.is(v1.find(s, h2), h1);
  t.is(v0.find(s, h2), h2, 'the old version is untouched');
  // linking from an older version branches: neither side sees the other's links
  const w2 = v1.link(h3, s.int(5));
  t.is(termText(s, resolve(s, w2, term)), 'f(?1, 5)');
  t.is(termText(s, resolve(s, v3, term)), 'f([7, 4], 7)');
  t.is(v2.find(s, h3), h3);
  const w3 = w2.link(h1, s.int(9));
  t.is(termText(s, resolve(s, w3, term)), 'f(9, 5)');
  t.is(termText(s, resolve(s, v3, term)), 'f([7, 4], 7)');
  t.deepEqual([v0.size, v1.size, v2.size, v3.size, w2.size, w3.size], [0, 1, 2, 3, 2, 3]);
});

test('standard order: numbers < dims < holes < atoms < strings < lists < compounds', (t) => {
  const s = new TermStore();
  const terms = [
    s.compound('f', [s.int(1)]),
    s.list([s.int(1)]),
    s.str('a'),
    s.atom('b'),
    s.hole(3),
    dimTerm(s, dimAdd(dimVar('n'), dimConst(1))),
    s.int(-2),
    s.int(10),
    s.nil,
  ];
  const sorted = [...terms].sort((a, b) => compareTerms(s, a, b)).map((x) => termText(s, x));
  t.deepEqual(sorted, ['-2', '10', 'n + 1', '?3', 'b', '"a"', '[]', '[1]', 'f(1)']);
});

test('JSON: numbers, atoms and strings as strings, lists as arrays, compounds, dims as text, holes as ?N', (t) => {
  const s = new TermStore();
  const term = s.compound('tensor', [s.list([s.int(2), dimTerm(s, dimMul(dimConst(2), dimVar('n'))), s.hole(4)]), s.atom('float32'), s.str('x'), s.nil]);
  t.deepEqual(termJson(s, term), { functor: 'tensor', args: [[2, '2*n', '?4'], 'float32', 'x', []] });
  t.deepEqual(termJson(s, s.list([s.int(1)], s.hole(2))), { functor: '[|]', args: [1, '?2'] });
});

test('a cloned store keeps every id and interns independently', (t) => {
  const s = new TermStore();
  const a = s.compound('f', [s.int(1), s.atom('x')]);
  const c = s.clone();
  t.is(c.compound('f', [c.int(1), c.atom('x')]), a);
  const onlyInClone = c.compound('g', [c.int(2)]);
  t.is(s.findCompoundSym(s.symbol('g'), [s.int(2)]), 0);
  t.is(termText(c, onlyInClone), 'g(2)');
  const onlyInOriginal = s.compound('h', []);
  t.is(c.size, s.size, 'both grew by one term, independently');
  t.is(termText(s, onlyInOriginal), 'h()');
});

test('union-find: resolve follows a list tail bound to a list, through chains of tails', (t) => {
  const s = new TermStore();
  const [h1, h2, h3] = [s.hole(1), s.hole(2), s.hole(3)];
  const open = s.list([s.int(1)], h1); // [1 | ?1]
  const v1 = UnionFind.empty.link(h1, s.list([s.int(2)])); // ?1 = [2]
  t.is(termText(s, resolve(s, v1, open)), '[1, 2]');
  t.is(resolve(s, v1, open), s.list([s.int(1), s.int(2)]), 'the resolved list is the interned closed list');
  // a tail bound to another open list whose tail is bound in turn: [1 | ?1], ?1 = [2 | ?2], ?2 = ?3, ?3 = [3]
  const v2 = UnionFind.empty
    .link(h1, s.list([s.int(2)], h2))
    .link(h2, h3)
    .link(h3, s.list([s.int(3)]));
  t.is(termText(s, resolve(s, v2, open)), '[1, 2, 3]');
  // a tail bound to the empty list closes the list; an unbound tail stays open
  t.is(termText(s, resolve(s, UnionFind.empty.link(h1, s.nil), open)), '[1]');
  t.is(resolve(s, UnionFind.empty.link(h2, s.int(0)), open), open);
  // inside a compound, and with a hole in a head too
  const f = s.compound('shape', [s.list([h2], h1)]);
  t.is(termText(s, resolve(s, UnionFind.empty.link(h1, s.list([s.int(5)])).link(h2, s.int(4)), f)), 'shape([4, 5])');
});

test('an integer beyond ±2^53 (an int64 of a model) is exact against integers; against a symbolic dim it is an error, never a crash', (t) => {
  const s = new TermStore();
  const big = s.int(2 ** 60);
  const n = dimTerm(s, dimVar('n'));
  // between integers: as numbers
  t.true(compare(s, '>', big, s.int(5)));
  t.is(termText(s, arith(s, 'min', big, s.int(5))), '5');
  t.false(structuralEquals(s, s.list([big]), s.list([s.int(2 ** 61)])));
  // with a symbolic dim: an arithmetic error (reported at the rule), an undecided equality
  t.throws(() => arith(s, '+', n, big), { instanceOf: ArithmeticError, message: /integer overflow: 1152921504606847000 is beyond ±2\^53/ });
  t.throws(() => compare(s, '<', big, n), { instanceOf: ArithmeticError, message: /cannot compare 1152921504606847000, beyond ±2\^53, with a symbolic dim/ });
  t.is(structuralEquals(s, s.list([big]), s.list([n])), undefined);
});
