// Gradual typing's best effort (issue 14, point 2): `if` branches whose shapes differ
// symbolically join to fresh size variables (plus checks where a use needs them equal),
// an unannotated parameter gets the rank of another argument of a use with fresh dims, or
// the most general type when it is used alone, and a dim no rule can write is a fresh
// size variable. Each expected type and check is
// worked out by hand (in the comments), and both strategies must give them.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InferStrategy } from '../typing/infer.js';
import { gradualText, inferGradualText, type GradualResult } from '../typing/gradual.js';
import { runShapelog } from './helpers.js';

const STRATEGIES: InferStrategy[] = ['rules', 'relay'];
const fixture = (name: string) => join(import.meta.dirname, 'fixtures', 'gradual-best-effort', name);
const gradual = (file: string, strategy: InferStrategy): GradualResult => inferGradualText(readFileSync(file, 'utf8'), file, strategy);
const listed = (g: GradualResult) => g.checks.map((c) => `${c.span.start.line}:${c.span.start.column} ${c.operator}: ${c.condition}`);
const errorsOf = (g: GradualResult) => g.result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
const typeOf = (g: GradualResult, name: string) => g.result.outcome.bindings.find((b) => b.name === name)?.type;

for (const s of STRATEGIES) {
  test(`${s}: if branches of n and m rows join to a fresh d1; a broadcast against n then needs d1 == 1 || d1 == n`, (t) => {
    const g = gradual(fixture('if-join.relay'), s);
    t.deepEqual(errorsOf(g), []);
    // by hand: relu keeps (n, 4) and (m, 4); n and m may differ, so the if has (d1, 4);
    // d1 broadcast against n gives n when d1 is 1 and when d1 is n (and fails for d1 = 2, n = 3)
    t.is(typeOf(g, '%0'), 'Tensor[(d1, 4), float32]');
    t.is(typeOf(g, '%1'), 'Tensor[(n, 4), float32]');
    t.deepEqual(g.freshDims, ['d1']);
    t.deepEqual(listed(g), ['4:8 add: d1 == 1 || d1 == n']);
  });

  test(`${s}: a joined dim that the declared result needs equal to n becomes n, with the check m == n at the if`, (t) => {
    const g = gradual(fixture('if-join-declared.relay'), s);
    t.deepEqual(errorsOf(g), []);
    t.is(g.result.outcome.functions.get('main'), 'fn (bool, Tensor[(n, 4), float32], Tensor[(m, 4), float32]) -> Tensor[(n, 4), float32]');
    t.deepEqual(listed(g), ['3:3 if: m == n']);
    t.deepEqual(g.freshDims, [], 'd1 was equated to n');
    t.regex(gradualText(g), /\} \/\* ty=Tensor\[\(n, 4\), float32\] \*\/ \/\* check: m == n \*\//);
  });

  test(`${s}: branches provably different (4 vs 5 columns) are still a clash, not a join`, (t) => {
    const g = gradual(fixture('if-provably-different.relay'), s);
    t.is(errorsOf(g).length, 1);
    t.regex(errorsOf(g)[0]!, /both branches of if/);
    t.deepEqual(g.checks, []);
  });

  test(`${s}: an unannotated parameter whose rank no use fixes gets its first use's rank with fresh dims`, (t) => {
    const g = gradual(fixture('unranked.relay'), s);
    t.deepEqual(errorsOf(g), []);
    // by hand: add(%x, %z) with %x: (n, 4) gives %z rank 2, (d1, d2); the broadcast types
    // with d1 set to n and d2 to 4 (no one variable suffices), giving (d1, 4)
    t.is(typeOf(g, '%z'), 'Tensor[(d1, d2), float32]');
    t.deepEqual(g.freshDims, ['d1', 'd2']);
    t.deepEqual(listed(g), ['3:8 add: d1 == n', '3:8 add: d2 == 4']);
    t.is(typeOf(g, '%0'), 'Tensor[(d1, 4), float32]');
  });

  test(`${s}: a dim no rule can write (upsampling h by 1.5) is a fresh size variable, without a check`, (t) => {
    const g = gradual(fixture('upsampling.relay'), s);
    t.deepEqual(errorsOf(g), []);
    // by hand: floor(1.5*h) is no polynomial in h; w by 2 is 2*w; the call types for every h
    t.is(typeOf(g, '%0'), 'Tensor[(1, c, d1, 2*w), float32]');
    t.deepEqual(g.freshDims, ['d1']);
    t.deepEqual(g.checks, []);
  });

  test(`${s}: a parameter used alone (no operator constrains it) has the most general type, without failing`, (t) => {
    const g = gradual(fixture('used-alone.relay'), s);
    // by hand: nn.relu accepts any tensor and gives it back; nothing else uses %z
    t.deepEqual(errorsOf(g), []);
    t.is(typeOf(g, '%z'), '_');
    t.is(typeOf(g, '%0'), '_');
    t.is(typeOf(g, '%1'), 'Tensor[(n, 4), float32]');
    t.deepEqual(g.checks, []);
    t.deepEqual(
      g.result.diagnostics.filter((d) => d.code === 'unconstrained').map((d) => d.message),
      ['%z: no use constrains it, so it has the most general type, _ (any type its uses accept), as have the values computed from it'],
    );
  });

  test(`${s}: a parameter used alone first and beside a known argument later gets that argument's rank (not the most general type)`, (t) => {
    const g = gradual(fixture('ranked-by-later-use.relay'), s);
    t.deepEqual(errorsOf(g), []);
    // by hand: nn.dense(%x: (n, 4), %z) gives %z rank 2, (d1, d2); dense needs its columns equal to %x's: d2 == 4
    t.is(typeOf(g, '%z'), 'Tensor[(d1, d2), float32]');
    t.is(typeOf(g, '%1'), 'Tensor[(n, d1), float32]');
    t.deepEqual(listed(g), ['4:8 nn.dense: d2 == 4']);
  });

  test(`${s}: a parameter used alone does not hide a real error elsewhere`, (t) => {
    const g = gradual(fixture('used-alone-and-clash.relay'), s);
    t.is(errorsOf(g).length, 1);
    t.regex(errorsOf(g)[0]!, /cannot broadcast/);
  });

  test(`${s}: a broadcast whose result only the declared result type gives needs d == 1 || d == n (not d == 1 and n == 1)`, (t) => {
    const g = gradual(fixture('declared-result.relay'), s);
    t.deepEqual(errorsOf(g), []);
    t.deepEqual(listed(g), ['3:3 add: d == 1 || d == n']);
  });
}

test('without --gradual the joined, ranked and fresh cases stay errors or unknowns', (t) => {
  for (const [name, pattern] of [
    ['if-join.relay', /n vs m|cannot unify/],
    ['unranked.relay', /cannot infer the type of %z/],
    ['used-alone.relay', /cannot infer the type of %z: annotate it/],
    ['upsampling.relay', /nn.upsampling: cannot infer the result type/],
  ] as const) {
    const r = runShapelog(['infer', fixture(name)]);
    t.is(r.code, 1, name);
    t.regex(r.err, pattern);
  }
});
