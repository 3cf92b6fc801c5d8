// docs/api.md's examples, run against the built package: each ```js block runs in a
// fresh node process in the repository (so `import ... from 'shapelog'` resolves to the
// package itself through package.json `exports`, i.e. dist/api/index.js, which
// `pretest` builds), and prints exactly the ```text block that follows it.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const doc = readFileSync(join(root, 'docs', 'api.md'), 'utf8');

interface Example {
  readonly line: number;
  readonly code: string;
  readonly expected: string;
}

/** Each ```js block with the ```text block after it (before the next ```js block). */
function examples(markdown: string): Example[] {
  const blocks = [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1]!,
    body: m[2]!,
    line: markdown.slice(0, m.index).split('\n').length,
  }));
  const out: Example[] = [];
  blocks.forEach((b, i) => {
    if (b.lang !== 'js' || !b.body.includes("from 'shapelog'") || /^import[^\n]*;\n*$/.test(b.body)) return;
    const next = blocks[i + 1];
    if (next === undefined || next.lang !== 'text') throw new Error(`docs/api.md:${b.line}: a js example must be followed by a text block with its output`);
    out.push({ line: b.line, code: b.body, expected: next.body });
  });
  return out;
}

const found = examples(doc);

test('docs/api.md has runnable examples of every export', (t) => {
  t.true(found.length >= 6, `${found.length} examples`);
  const code = found.map((e) => e.code).join('\n');
  for (const name of [
    'solve(',
    '.facts()',
    '.tuples(',
    '.ask(',
    '.explain(',
    '.answers',
    'typeProgram(',
    '.typeOf(',
    '.toJSON()',
    'typeOf(',
    'crossCheck(',
    'ProgramError',
    'formatDiagnostic',
  ])
    t.true(code.includes(name), `an example uses ${name}`);
});

test('the package exports exactly what docs/api.md documents', async (t) => {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', "const m = await import('shapelog'); console.log(Object.keys(m).sort().join(' '))"], {
    cwd: root,
    encoding: 'utf8',
  });
  t.is(r.status, 0, r.stderr);
  const exported = r.stdout.trim().split(' ');
  for (const name of exported) t.true(doc.includes(`\`${name}`), `docs/api.md mentions ${name}`);
  t.deepEqual(exported, [
    'DEFAULT_LIMITS',
    'LimitError',
    'ProgramError',
    'Solution',
    'TypedProgram',
    'UserError',
    'crossCheck',
    'formatDiagnostic',
    'solve',
    'typeOf',
    'typeProgram',
  ]);
});

for (const e of found) {
  test(`docs/api.md:${e.line} prints what the documentation says`, (t) => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', e.code], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    t.is(r.stderr, '', `docs/api.md:${e.line} wrote to stderr`);
    t.is(r.status, 0);
    t.is(r.stdout, e.expected);
  });
}
