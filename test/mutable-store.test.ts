// The `mutable` strategy (semi-naive over the mutable store) must derive exactly what
// `seminaive` derives over the persistent store: the same facts, answers, diagnostics
// and explanations, on the bundled examples, on programs whose holes are bound and
// facts rebuilt, and on random graphs, where both are also checked against a BFS oracle.
import test from 'ava';
import { testProp } from '@fast-check/ava';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFiles, runText, type RunResult } from '../solver/run.js';

const examples = fileURLToPath(new URL('../examples/rules/', import.meta.url));

function snapshot(r: RunResult): string {
  return JSON.stringify({
    facts: [...r.factsByPredicate()],
    answers: r.answers,
    diagnostics: r.diagnostics.map((d) => `${d.severity} ${d.code} ${d.message}`),
  });
}

for (const file of readdirSync(examples).filter((f) => f.endsWith('.rules'))) {
  test(`mutable derives what seminaive derives: ${file}`, (t) => {
    const path = join(examples, file);
    const goal = /^%\s*demo-goal:\s*(.+)$/m.exec(readFileSync(path, 'utf8'))?.[1]?.trim();
    const options = goal === undefined ? {} : { goal };
    const semi = runFiles([path], { ...options, strategy: 'seminaive' });
    const mutable = runFiles([path], { ...options, strategy: 'mutable' });
    t.is(mutable.strategy, 'mutable');
    t.true(semi.factsByPredicate().size > 0);
    t.is(snapshot(mutable), snapshot(semi));
  });
}

test('mutable binds holes and rebuilds facts as seminaive does', (t) => {
  const src = `
    relation Same(a, b).
    B = A :- Same(A, B).
    Same(tensor([2, 3], float32), ?1).
    Same(?1, ?2).
    Same(?2, ?3).
    uses(X) :- Same(X, _).
  `;
  const semi = runText(src, { strategy: 'seminaive' });
  const mutable = runText(src, { strategy: 'mutable' });
  t.is(snapshot(mutable), snapshot(semi));
  t.deepEqual(mutable.factsByPredicate().get('uses'), ['uses(tensor([2, 3], float32))']);
  t.true(mutable.stats.rebuilt > 0);
});

test('mutable explains a fact as seminaive does', (t) => {
  const src = 'edge(a, b). edge(b, c). edge(c, a).\npath(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\n';
  const semi = runText(src, { strategy: 'seminaive', file: 'first.rules' });
  const mutable = runText(src, { strategy: 'mutable', file: 'first.rules' });
  t.is(mutable.explain('path(a, a)'), semi.explain('path(a, a)'));
  t.regex(mutable.explain('path(a, a)'), /edge\(c, a\)\s+\(given at first\.rules:1:25\)/);
});

/** Number of pairs (x, y) joined by a non-empty path: BFS from every node. */
function closureSize(nodes: number, edges: readonly (readonly [number, number])[]): number {
  const adj: number[][] = Array.from({ length: nodes }, () => []);
  for (const [u, v] of edges) adj[u]!.push(v);
  let total = 0;
  for (let s = 0; s < nodes; s++) {
    const seen = new Set<number>();
    const stack = [...adj[s]!];
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (seen.has(v)) continue;
      seen.add(v);
      stack.push(...adj[v]!);
    }
    total += seen.size;
  }
  return total;
}

const graphs = fc
  .integer({ min: 1, max: 12 })
  .chain((n) => fc.tuple(fc.constant(n), fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { minLength: 1, maxLength: 30 })));

testProp(
  'mutable and seminaive derive the same closure, of the size BFS gives',
  [graphs],
  (t, [nodes, edges]) => {
    const program = `${edges.map(([u, v]) => `edge(${u}, ${v}).`).join('\n')}\nnode(-1).\npath(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\nlonely(X) :- node(X), not path(X, _).\n`;
    const semi = runText(program, { strategy: 'seminaive' });
    const mutable = runText(program, { strategy: 'mutable' });
    t.is(snapshot(mutable), snapshot(semi), program);
    t.is(mutable.factCount('path'), closureSize(nodes, edges), program);
  },
  { seed: 12, numRuns: 60 },
);
