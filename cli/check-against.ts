// `shapelog check --against OLD.rules...` and `--against-rev GITREV`: what an edit of
// the rules changed. The library is built a second time with older rule files — each
// OLD file replaces the library file of the same name (a built-in one or one given with
// --relations), or every built-in file is read at a git revision (`git show`; a file
// the revision lacks is empty there) — and both versions type the cross-check's sweep
// and random cases of the operators (proofs/cross-check/against.ts). Each case whose
// answer changed is printed (the first few shrunk) as a `shapelog typeof` line with
// both answers. Exit 1 when anything changed (0 with --expect-changes), 1 with located
// diagnostics when an old file does not load, 2 on bad usage (no such file name in the
// library, not a git checkout, an unknown revision).
import { spawnSync } from 'node:child_process';
import { basename, dirname, relative, resolve } from 'node:path';
import pc from 'picocolors';
import { type AnswerChange, compareVersions, type VersionDiff } from '../proofs/cross-check/against.js';
import { libraryFiles, libraryWith, loadedRuleFiles } from '../relations/library.js';
import { label, type FileOverride } from '../solver/load.js';
import { MAX_SOURCE_BYTES, readSource } from '../diagnostics/read-source.js';
import type { TypeofAnswer } from '../typing/typeof.js';
import { EXIT_OK, EXIT_USAGE, EXIT_USER_ERROR, printDiagnostics } from './report.js';

export interface AgainstOptions {
  readonly ops: readonly string[];
  readonly against?: readonly string[];
  readonly againstRev?: string;
  readonly expectChanges: boolean;
  readonly depth: number;
  readonly random: number;
  readonly seed: number;
  readonly json: boolean;
}

type Resolved = { readonly ok: true; readonly overrides: Map<string, FileOverride>; readonly what: string } | { readonly ok: false; readonly code: number };

function usage(message: string): Resolved {
  process.stderr.write(`shapelog check: ${message}\n`);
  return { ok: false, code: EXIT_USAGE };
}

/** OLD files by the library file they replace (same base name). */
function oldFiles(paths: readonly string[]): Resolved {
  const library = loadedRuleFiles();
  const overrides = new Map<string, FileOverride>();
  for (const path of paths) {
    const target = library.find((f) => basename(f) === basename(path));
    if (target === undefined)
      return usage(
        `--against ${path}: no rule file of the library is named ${basename(path)} (an old version replaces the file of its name: ${library.map((f) => basename(f)).join(', ')})`,
      );
    if (overrides.has(target)) return usage(`--against: two old versions of ${basename(path)}`);
    const read = readSource(resolve(path), MAX_SOURCE_BYTES);
    if (!read.ok) {
      process.stderr.write(`shapelog check: cannot read ${path}: ${read.why}\n`);
      return { ok: false, code: EXIT_USER_ERROR };
    }
    overrides.set(target, { text: read.text, label: label(resolve(path)) });
  }
  return { ok: true, overrides, what: paths.join(', ') };
}

function git(cwd: string, args: readonly string[]): { ok: true; out: string } | { ok: false; why: string } {
  const p = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (p.error !== undefined) return { ok: false, why: p.error.message };
  if (p.status !== 0) return { ok: false, why: p.stderr.trim().split('\n')[0] ?? `git exited ${p.status}` };
  return { ok: true, out: p.stdout };
}

/** Every built-in rule file as it was at `rev` (empty where the revision lacks it). */
function filesAtRevision(rev: string): Resolved {
  const builtIn = libraryFiles();
  const dir = dirname(builtIn[0]!);
  const top = git(dir, ['rev-parse', '--show-toplevel']);
  if (!top.ok) return usage(`--against-rev reads the rule files from git, but ${dir} is not in a git checkout (${top.why})`);
  const commit = git(dir, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
  if (!commit.ok) return usage(`--against-rev ${rev}: not a revision of the repository at ${top.out.trim()}`);
  const overrides = new Map<string, FileOverride>();
  for (const f of builtIn) {
    const inRepo = relative(top.out.trim(), f).split('\\').join('/');
    const shown = git(dir, ['show', `${rev}:${inRepo}`]);
    overrides.set(f, { text: shown.ok ? shown.out : '', label: `${rev}:${inRepo}` });
  }
  return { ok: true, overrides, what: `revision ${rev}` };
}

export function checkAgainst(o: AgainstOptions): number {
  if (o.against !== undefined && o.againstRev !== undefined) {
    process.stderr.write('shapelog check: give --against or --against-rev, not both\n');
    return EXIT_USAGE;
  }
  const resolved = o.againstRev !== undefined ? filesAtRevision(o.againstRev) : oldFiles(o.against ?? []);
  if (!resolved.ok) return resolved.code;
  const built = libraryWith(resolved.overrides);
  if (built.errors.length > 0) {
    process.stderr.write(`shapelog check: the old rules (${resolved.what}) do not load:\n`);
    printDiagnostics(built.errors, built.library.sources.texts, { warnings: false });
    return EXIT_USER_ERROR;
  }
  const started = Date.now();
  const diffs = o.ops.map((op) => compareVersions(op, built.library, { depth: o.depth, random: o.random, seed: o.seed }));
  const seconds = (Date.now() - started) / 1000;
  const changed = diffs.reduce((s, d) => s + d.changed, 0);
  if (o.json)
    process.stdout.write(
      `${JSON.stringify({ against: resolved.what, seed: o.seed, depth: o.depth, random: o.random, seconds, changed, ops: diffs }, null, 2)}\n`,
    );
  else printDiffs(diffs, resolved.what, o.seed, seconds);
  return changed > 0 && !o.expectChanges ? EXIT_USER_ERROR : EXIT_OK;
}

const show = (a: TypeofAnswer): string => JSON.stringify(a);

function printChange(op: string, c: AnswerChange): void {
  process.stdout.write(`\n${op}: the answer changed (${c.kind}, ${c.source} case)${c.shrunk ? '; minimal case' : ''}:\n`);
  process.stdout.write(`  echo '${c.line}' | shapelog typeof\n    now:    ${show(c.now)}\n    before: ${show(c.before)}\n`);
  if (c.shrunk && c.found !== c.line) process.stdout.write(pc.dim(`  (shrunk from ${c.found})\n`));
}

function printDiffs(diffs: readonly VersionDiff[], what: string, seed: number, seconds: number): void {
  const w = Math.max(8, ...diffs.map((d) => d.op.length));
  process.stdout.write(`${'operator'.padEnd(w)}  ${'cases'.padStart(6)}  ${'same'.padStart(6)}  ${'changed'.padStart(7)}\n`);
  for (const d of diffs)
    process.stdout.write(`${d.op.padEnd(w)}  ${String(d.cases).padStart(6)}  ${String(d.same).padStart(6)}  ${String(d.changed).padStart(7)}\n`);
  for (const d of diffs) for (const c of d.changes) printChange(d.op, c);
  const sum = (f: (d: VersionDiff) => number) => diffs.reduce((s, d) => s + f(d), 0);
  process.stdout.write(
    `\nagainst ${what}: ${diffs.length} operators, ${sum((d) => d.cases)} cases (seed ${seed}): ${sum((d) => d.same)} same, ${sum((d) => d.changed)} changed (${seconds.toFixed(1)} s)\n`,
  );
}
