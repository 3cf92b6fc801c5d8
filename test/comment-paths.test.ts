// Every repository path a source comment cites exists (STYLE.md item 5: no comments citing
// files that do not exist): comments of the TypeScript and JavaScript sources, the rule
// files, the grammars and the Python scripts, as git lists them.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Top-level folders a cited path starts with. */
const TOP = [
  'api',
  'bench',
  'bin',
  'cli',
  'diagnostics',
  'docs',
  'examples',
  'frontends',
  'grammar',
  'proofs',
  'relations',
  'scripts',
  'solver',
  'test',
  'typing',
  '.ci',
];
const PATH = new RegExp(`(?<![\\w./-])((?:${TOP.map((t) => t.replace('.', '\\.')).join('|')})/[\\w./-]*\\w)`, 'g');
/** A comment's text: after `//`, `/*`, a block comment's `*`, `%` (rules) or `#` (Python), each followed by a space. */
const COMMENT = /(?:^|\s)(?:\/\/|\/\*+|\*|%|#)\s(.*)$/;

/** The paths cited in the comments of `text`, with their line numbers; placeholders (`<dir>`, `*`, `{a,b}`, NAME) skipped. */
function citedPaths(text: string): { line: number; path: string }[] {
  const out: { line: number; path: string }[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    const comment = COMMENT.exec(line);
    if (comment === null) continue;
    for (const m of comment[1]!.matchAll(PATH)) {
      const path = m[1]!.replace(/\.+$/, '');
      if (!/[*<>{]|NAME/.test(path)) out.push({ line: i + 1, path });
    }
  }
  return out;
}

/** A cited path names a file or folder, or a module by its name without `.ts` / `.js`. */
function exists(path: string): boolean {
  return ['', '.ts', '.js'].some((ext) => existsSync(join(root, path + ext)));
}

test('the scanner finds paths in each comment style and skips placeholders', (t) => {
  const text = [
    'const x = 1; // see solver/engine/solve.ts.',
    '/* typing/nowhere.ts */',
    ' * relations/*.rules and <dir>/NAME.ts',
    '% relations/lib.rules',
    'const s = "solver/not-a-comment.ts";',
  ].join('\n');
  t.deepEqual(citedPaths(text), [
    { line: 1, path: 'solver/engine/solve.ts' },
    { line: 2, path: 'typing/nowhere.ts' },
    { line: 4, path: 'relations/lib.rules' },
  ]);
  t.true(exists('solver/engine/solve.ts'));
  t.true(exists('cli/bench-worker'));
  t.false(exists('typing/nowhere.ts'));
});

test('every path a source comment cites exists', (t) => {
  const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|js|cjs|mjs|rules|peggy|py)$/.test(f) && !/generated|wire-static|vendor/.test(f));
  t.true(files.length > 300, `${files.length} files`);
  const missing: string[] = [];
  let cited = 0;
  for (const f of files) {
    for (const { line, path } of citedPaths(readFileSync(join(root, f), 'utf8'))) {
      cited++;
      if (!exists(path)) missing.push(`${f}:${line}: ${path}`);
    }
  }
  t.true(cited > 300, `${cited} cited paths`);
  t.deepEqual(missing, []);
});
