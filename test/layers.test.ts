// The layers read top-down: no source file imports from a folder above its own
// (scripts/check-layers.ts names the order).
import test from 'ava';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repositorySources, upwardImports } from '../scripts/check-layers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

test('no import runs upward between layers', (t) => {
  const sources = repositorySources(root);
  t.true(sources.some((f) => f.path.startsWith('solver/')), 'the engine sources are scanned');
  t.true(sources.some((f) => f.path.startsWith('typing/')), 'the typing sources are scanned');
  t.deepEqual(upwardImports(sources), []);
});

test('the check finds a planted upward import', (t) => {
  const planted = [
    { path: 'solver/engine/x.ts', text: "// x\nimport { ruleLibrary } from '../../relations/library.js';\n" },
    { path: 'relations/y.ts', text: "export const y = await import('../typing/infer.js');\n" },
    { path: 'frontends/relay/z.ts', text: "import type { Span } from '../../diagnostics/span.js';\n" },
  ];
  t.deepEqual(upwardImports(planted), [
    { from: 'solver/engine/x.ts', to: 'relations/library.js', line: 2 },
    { from: 'relations/y.ts', to: 'typing/infer.js', line: 1 },
  ]);
});
