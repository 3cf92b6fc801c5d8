// Rules that read a declared relation through a projection (compile/projection.ts)
// derive exactly what the same rules derive over an undeclared predicate, which is
// read directly: the same results, the same errors, explanations that still reach the
// operator's fact.
import test from 'ava';
import { BROADCAST, errors, facts, run } from './helpers.js';

// many calls on the same argument types (each with its own result hole), a few
// different ones, one that does not broadcast, and one whose input is still a hole
const calls = [
  ...Array.from({ length: 30 }, (_, i) => `Broadcast(tensor([4, 3], f32), tensor([3], f32), ?${i + 1}).`),
  ...Array.from({ length: 5 }, (_, i) => `Broadcast(tensor([${i + 1}, 1], f32), tensor([7], f32), ?${i + 40}).`),
  'Broadcast(tensor([2, 5], f32), tensor([3], f32), ?50).',
  'Broadcast(tensor([2, 6], f32), tensor([3], f32), ?51).',
  'Broadcast(tensor(?60, f32), tensor([3], f32), ?61).',
].join('\n');
const declared = `${BROADCAST}\n${calls}\n`;
const undeclared = declared.replace('relation Broadcast(lhs, rhs, out).', '');

test('a declared relation read through projections derives what the undeclared one derives', (t) => {
  t.not(declared, undeclared);
  const a = run(declared);
  const b = run(undeclared);
  t.deepEqual(facts(a, 'Broadcast'), facts(b, 'Broadcast'));
  t.true(facts(a, 'Broadcast').includes('Broadcast(tensor([4, 3], f32), tensor([3], f32), tensor([4, 3], f32))'));
  t.true(facts(a, 'Broadcast').includes('Broadcast(tensor([5, 1], f32), tensor([7], f32), tensor([5, 7], f32))'));
  t.deepEqual(
    errors(a).map((d) => d.message),
    errors(b).map((d) => d.message),
  );
  t.deepEqual(
    errors(a).map((d) => d.message),
    ['cannot broadcast [2, 5] with [3]', 'cannot broadcast [2, 6] with [3]'],
  );
  // no internal relation leaks into what a user sees
  t.false([...a.factsByPredicate().keys()].some((p) => p.startsWith('$')));
});

test('an explanation walks through a projection to the operator fact', (t) => {
  const text = run(declared).explain('Broadcast(tensor([4, 3], f32), tensor([3], f32), tensor([4, 3], f32))');
  t.regex(text, /rebuilt after \?\d+ := tensor\(\[4, 3\], f32\)/);
  t.regex(text, /broadcast_shape\(\[4, 3\], \[3\], \[4, 3\]\)/);
  t.regex(text, /Broadcast\(tensor\(\[4, 3\], f32\), tensor\(\[3\], f32\), \?\d+\) {3}\(given/);
});
