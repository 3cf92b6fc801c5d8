// The fuzz harness (scripts/fuzz/): every saved regression under test/fuzz-regressions/
// replays clean, the judge tells a crash from a user error, and a short campaign with a
// fixed seed finds nothing (`npm run fuzz` runs long ones; .ci/run a 60 s one).
import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REGRESSIONS_DIR, type Regression, runCampaign, saveRegression } from '../scripts/fuzz/campaign.js';
import { runFuzzCase } from '../scripts/fuzz/run-case.js';

const saved = readdirSync(REGRESSIONS_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

for (const name of saved) {
  test(`regression ${name} replays clean`, (t) => {
    const r = JSON.parse(readFileSync(join(REGRESSIONS_DIR, name), 'utf8')) as Regression;
    t.deepEqual(runFuzzCase(r.input, { millis: 5000 }), { ok: true }, r.found.message);
  });
}

test('the judge: user errors are fine answers, a deep chain is a limit error, not a crash', (t) => {
  t.deepEqual(runFuzzCase({ kind: 'rules', text: 'p(1).\np(X) :- .\n', goal: 'p(X)' }, { millis: 2000 }), { ok: true });
  t.deepEqual(runFuzzCase({ kind: 'rules', text: `p(${Array(3000).fill('1').join('+')}).\n`, goal: 'p(X)' }, { millis: 2000 }), { ok: true });
  t.deepEqual(runFuzzCase({ kind: 'relay', text: `def @main(%x) { %x${'.0'.repeat(3000)} }` }, { millis: 2000 }), { ok: true });
  t.deepEqual(runFuzzCase({ kind: 'typeof', line: '{"op":"add","args":[1]}' }, { millis: 2000 }), { ok: true });
  t.deepEqual(runFuzzCase({ kind: 'typeof', line: '{"op":"nn.relu","attrs":{"x":{}},"args":["_"]}' }, { millis: 2000 }), { ok: true });
});

test('a failing case is saved as a regression file and read back whole', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-fuzz-'));
  const path = saveRegression({ kind: 'typeof', line: '{}' }, { kind: 'crash', message: 'example' }, 7, dir);
  t.regex(path, /typeof-crash-[0-9a-f]{10}\.json$/);
  const back = JSON.parse(readFileSync(path, 'utf8')) as Regression;
  t.deepEqual(back, { input: { kind: 'typeof', line: '{}' }, found: { kind: 'crash', message: 'example', seed: 7 } });
});

test('a short campaign with a fixed seed: every case clean or a known difference', (t) => {
  const r = runCampaign({ seconds: 4, seed: 42 });
  t.is(r.failure, null, r.failure ? `${r.failure.verdict.message}\n${JSON.stringify(r.failure.input)}` : '');
  t.true(r.tried >= 10, `${r.tried} cases`);
  t.is(r.clean + [...r.known.values()].reduce((a, b) => a + b, 0), r.tried);
});
