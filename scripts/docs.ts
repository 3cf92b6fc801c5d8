// Builds docs/rules.md from docs/src/rules.md.tmpl by running every example through the
// real CLI, so the reference shows actual output. `--check` fails when the committed
// document differs from what the engine prints now (timings in --stats lines aside). The
// checkout's own path is printed as <shapelog>, so the document reads the same from any clone.
//
//   @@file NAME ... @@end     write NAME into a scratch folder and show it
//   @@hidden NAME ... @@end   write NAME, do not show it
//   @@run ARGS                run `shapelog ARGS` there (consecutive lines share one block)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin', 'shapelog.js');
const template = join(root, 'docs', 'src', 'rules.md.tmpl');
const target = join(root, 'docs', 'rules.md');
const check = process.argv.includes('--check');

const dir = mkdtempSync(join(tmpdir(), 'shapelog-docs-'));
const lines = readFileSync(template, 'utf8').split('\n');
const out: string[] = [];
const crashes: string[] = [];

function runCli(args: string): string {
  const p = spawnSync(`node ${JSON.stringify(cli)} ${args} 2>&1`, { shell: true, cwd: dir, encoding: 'utf8' });
  // the built-in rule files are named by their absolute path: shown under <shapelog>/, where the package is
  const text = p.stdout.replace(/\n+$/, '').replaceAll(`${root}/`, '<shapelog>/');
  if (/\n\s+at .*\(.*:\d+:\d+\)/.test(text)) crashes.push(args);
  return `$ shapelog ${args}\n${text ? `${text}\n` : ''}${p.status !== 0 ? `[exit status ${p.status}]\n` : ''}`;
}

for (let i = 0; i < lines.length; ) {
  const line = lines[i]!;
  const file = /^@@(file|hidden) (.+)$/.exec(line);
  if (file) {
    const body: string[] = [];
    for (i++; lines[i] !== '@@end'; i++) {
      if (i >= lines.length) throw new Error(`unterminated @@${file[1]} ${file[2]}`);
      body.push(lines[i]!);
    }
    i++;
    const path = join(dir, file[2]!.trim());
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, body.length ? `${body.join('\n')}\n` : '');
    if (file[1] === 'file') out.push(`\`${file[2]!.trim()}\`:`, '', '```prolog', ...body, '```');
    continue;
  }
  if (line.startsWith('@@run ')) {
    const block: string[] = [];
    for (; i < lines.length && lines[i]!.startsWith('@@run '); i++) block.push(runCli(lines[i]!.slice(6).trim()));
    out.push('```console', block.join('').replace(/\n$/, ''), '```');
    continue;
  }
  out.push(line);
  i++;
}

const text = out.join('\n');
if (crashes.length > 0) {
  console.error(`stack traces in the output of: ${crashes.join('; ')}`);
  process.exit(1);
}
if (check) {
  const norm = (s: string) => s.replace(/\d+ ms$/gm, 'N ms');
  if (norm(readFileSync(target, 'utf8')) !== norm(text)) {
    console.error('docs/rules.md is out of date: run `npm run docs`');
    process.exit(1);
  }
  console.log('docs/rules.md is up to date');
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
