// The development checkout's stale-source check (scripts/stale-inputs.cjs), which decides
// whether bin/shapelog.js runs dist/ or the sources: a source, grammar or configuration
// file newer than dist/build.json is stale; generated parsers and node_modules are not
// inputs; no build at all makes everything stale. Checked on a folder built here, with
// file times set explicitly.
import test from 'ava';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staleInputs } from '../scripts/build.js';

const BUILT = new Date('2026-01-02T00:00:00Z');
const BEFORE = new Date('2026-01-01T00:00:00Z');
const AFTER = new Date('2026-01-03T00:00:00Z');

/** A checkout in a temporary folder: `files` (relative path -> time), and dist/build.json at BUILT unless `built` is false. */
function checkout(files: Record<string, Date>, built = true): string {
  const base = mkdtempSync(join(tmpdir(), 'shapelog-stale-'));
  const put = (rel: string, time: Date) => {
    const path = join(base, rel);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, '');
    utimesSync(path, time, time);
  };
  if (built) put('dist/build.json', BUILT);
  for (const [rel, time] of Object.entries(files)) put(rel, time);
  return base;
}

test('files newer than the build are stale, in nested source folders and in the configuration', (t) => {
  const base = checkout({
    'solver/engine/run.ts': AFTER,
    'solver/engine/old.ts': BEFORE,
    'grammar/rules.peggy': AFTER,
    'package.json': AFTER,
    'tsconfig.json': BEFORE,
  });
  t.deepEqual(staleInputs(base).sort(), ['grammar/rules.peggy', 'package.json', join('solver', 'engine', 'run.ts')].sort());
});

test('generated parsers, node_modules and files of other kinds are not inputs', (t) => {
  const base = checkout({
    'grammar/generated/rules-parser.js': AFTER,
    'relations/node_modules/x/index.js': AFTER,
    'relations/conv.rules': AFTER,
    'cli/README.md': AFTER,
  });
  t.deepEqual(staleInputs(base), []);
});

test('without a build, the check says so', (t) => {
  t.deepEqual(staleInputs(checkout({ 'cli/main.ts': BEFORE }, false)), ['dist/build.json (no build yet)']);
});
