// The layers read top-down: no source file imports from a folder above its own, and
// within the engine no sub-folder imports from one above it (scripts/check-layers.ts
// names the order).
import test from 'ava';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repositorySources, upwardImports } from '../scripts/check-layers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

test('no import runs upward between layers', (t) => {
  const sources = repositorySources(root);
  t.true(
    sources.some((f) => f.path.startsWith('solver/')),
    'the engine sources are scanned',
  );
  t.true(
    sources.some((f) => f.path.startsWith('typing/')),
    'the typing sources are scanned',
  );
  t.deepEqual(upwardImports(sources), []);
});

test('the check finds a planted upward import', (t) => {
  const planted = [
    { path: 'solver/engine/x.ts', text: "// x\nimport { ruleLibrary } from '../../relations/library.js';\n" },
    { path: 'relations/y.ts', text: "export const y = await import('../typing/infer.js');\n" },
    { path: 'frontends/relay/z.ts', text: "import type { Span } from '../../diagnostics/span.js';\n" },
    // inside the engine: the compiler below the fixpoint engine, both below the folder's own files
    { path: 'solver/compile/p.ts', text: "import type { Plan } from './plan.js';\nimport { Solver } from '../engine/solve.js';\n" },
    { path: 'solver/engine/q.ts', text: "import type { Plan } from '../compile/plan.js';\nimport { TermStore } from '../terms/term-store.js';\n" },
    { path: 'solver/terms/r.ts', text: "import { runText } from '../run.js';\n" },
    { path: 'solver/run2.ts', text: "import { Solver } from './engine/solve.js';\n" },
  ];
  t.deepEqual(upwardImports(planted), [
    { from: 'solver/engine/x.ts', to: 'relations/library.js', line: 2 },
    { from: 'relations/y.ts', to: 'typing/infer.js', line: 1 },
    { from: 'solver/compile/p.ts', to: 'solver/engine/solve.js', line: 2 },
    { from: 'solver/terms/r.ts', to: 'solver/run.js', line: 1 },
  ]);
});
