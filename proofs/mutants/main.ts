// Mutation check of the cross-check harness, on both sides. A twin mutation
// (proofs/mutants/<family>.ts) is applied to a copy of the repository (one at a
// time) and the harness (`shapelog check`: the exhaustive sweep plus seeded random
// cases) runs on the mutation's operators there: detected when it reports a
// disagreement. A rule mutation (rules.ts) is run in this process on a library with
// the mutated rule file (rule-run.ts): detected when the twins disagree with it or the
// reference executor refutes it. The kill rate of each side is reported.
//
//   npm run mutants [-- --help] [--family conv|rules] [--id conv2d-stride] [--random 50] [--jobs N] [--json]
//   npm run mutants -- --prover [--rank 4] [--timeout 5]
//
// With --prover each mutation also goes through `shapelog prove` on its
// operators (detected = a counterexample), and the table compares the two:
// which mutations the sweep misses and the prover catches, and the reverse.
//
// Twin mutations run in --jobs copies of the repository at once (default: the number of
// cores), rule mutations in this process.
//
// Exits 1 when fewer than 95% of the mutations are detected, 2 on bad usage or
// an invalid mutation (its text not found exactly once).
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { allMutations, FAMILIES, type MutantSide } from './all.js';
import { type Mutation, occurrences } from './mutation.js';
import { runRuleMutation } from './rule-run.js';
import { sweepMinRank } from '../prove/combos.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export type MutantOutcome = 'detected' | 'survived' | 'invalid';

export interface MutantResult {
  readonly family: string;
  readonly side: MutantSide;
  readonly id: string;
  readonly what: string;
  readonly ops: readonly string[];
  readonly outcome: MutantOutcome;
  /** The first counterexample line, when detected; the reason, when invalid. */
  readonly detail: string;
  readonly seconds: number;
  /** With --prover: what `shapelog prove` made of it. */
  readonly prover?: { readonly outcome: MutantOutcome; readonly detail: string; readonly seconds: number };
}

export { occurrences };

/** A copy of the repository to mutate (sources only, no dist/: bin/shapelog.js then runs the sources; node_modules linked). */
function makeCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-mutants-'));
  // scripts/ too: without it (and without dist/), bin/shapelog.js would not see a development checkout and would refuse to run the sources
  for (const sub of ['diagnostics', 'relations', 'solver', 'typing', 'proofs', 'frontends', 'grammar', 'cli', 'bin', 'scripts', 'api'])
    cpSync(join(root, sub), join(dir, sub), { recursive: true });
  for (const f of ['package.json', 'tsconfig.json']) cpSync(join(root, f), join(dir, f));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** A finished child process: its exit status and output. */
interface Finished {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs node with `args` in `cwd` without blocking this process, collecting the output. */
function runNode(args: readonly string[], cwd: string): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => resolve({ status: null, stdout: '', stderr: String(e) }));
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

interface ProverRun {
  readonly rank: number;
  readonly timeout: number;
}

/** `shapelog prove` on the mutated copy: detected when it reports a counterexample. */
async function proveMutant(copy: string, m: Mutation, o: ProverRun): Promise<NonNullable<MutantResult['prover']>> {
  const started = Date.now();
  // an operator whose sweep starts above --rank (the 3-D convolutions and pools: rank 5)
  // is proved at its own smallest rank, not refused
  const rank = Math.min(6, Math.max(o.rank, ...m.ops.map(sweepMinRank).filter(Number.isFinite)));
  const args = ['bin/shapelog.js', 'prove', '--ops', m.ops.join(','), '--rank', String(rank), '--timeout', String(o.timeout), '--json'];
  const p = await runNode(args, copy);
  const seconds = (Date.now() - started) / 1000;
  type Report = { ops: { counterexamples: { line: string }[]; unknown: number; unknowns: { reason: string }[] }[] };
  let report: Report | null;
  try {
    report = JSON.parse(p.stdout) as Report;
  } catch {
    report = null;
  }
  if (report === null || (p.status !== 0 && p.status !== 1))
    return { outcome: 'invalid', detail: `prove exited ${p.status}: ${(p.stderr || p.stdout).trim().split('\n').slice(0, 2).join(' | ')}`, seconds };
  const line = report.ops.flatMap((op) => op.counterexamples)[0]?.line;
  if (line !== undefined) return { outcome: 'detected', detail: line, seconds };
  const unknown = report.ops.reduce((s, op) => s + op.unknown, 0);
  return {
    outcome: 'survived',
    detail: unknown > 0 ? `${unknown} combinations unknown (${report.ops.flatMap((op) => op.unknowns)[0]?.reason ?? ''})` : 'proved equal',
    seconds,
  };
}

async function runOne(copy: string, family: string, m: Mutation, random: number, prover: ProverRun | null = null): Promise<MutantResult> {
  const started = Date.now();
  const base = { family, side: 'twins' as const, id: m.id, what: m.what, ops: m.ops };
  const path = join(copy, m.file);
  const original = readFileSync(join(root, m.file), 'utf8');
  const n = occurrences(original, m.find);
  if (n !== 1) return { ...base, outcome: 'invalid', detail: `the text to replace occurs ${n} times in ${m.file}`, seconds: 0 };
  writeFileSync(
    path,
    original.replace(m.find, () => m.replace),
  );
  try {
    const args = ['bin/shapelog.js', 'check', '--ops', m.ops.join(','), '--random', String(random), '--seed', '7', '--no-reference', '--json'];
    const p = await runNode(args, copy);
    const seconds = (Date.now() - started) / 1000;
    const withProver = prover === null ? {} : { prover: await proveMutant(copy, m, prover) };
    if (p.status === 0) return { ...base, outcome: 'survived', detail: '', seconds, ...withProver };
    if (p.status === 1) {
      let detail = '';
      try {
        const report = JSON.parse(p.stdout) as { ops: { counterexamples: { line: string }[] }[] };
        detail = report.ops.flatMap((o) => o.counterexamples)[0]?.line ?? '';
      } catch {
        detail = '(unreadable report)';
      }
      return { ...base, outcome: 'detected', detail, seconds, ...withProver };
    }
    return {
      ...base,
      ...withProver,
      outcome: 'invalid',
      detail: `the harness exited ${p.status}: ${(p.stderr || p.stdout).trim().split('\n').slice(0, 3).join(' | ')}`,
      seconds,
    };
  } finally {
    writeFileSync(path, original);
  }
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const USAGE = 'usage: npm run mutants [-- --family F,G] [--id ID,...] [--random N] [--jobs N] [--json] [--prover [--rank R] [--timeout S]]';
  const OPTIONS = {
    help: { type: 'boolean', short: 'h', default: false },
    family: { type: 'string' },
    id: { type: 'string' },
    random: { type: 'string', default: '30' },
    json: { type: 'boolean', default: false },
    prover: { type: 'boolean', default: false },
    rank: { type: 'string', default: '4' },
    timeout: { type: 'string', default: '5' },
    jobs: { type: 'string', default: String(availableParallelism()) },
  } as const;
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>;
  try {
    parsed = parseArgs({
      options: OPTIONS,
    });
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const { values } = parsed;
  if (values.help) {
    console.log(
      `${USAGE}\n\nTwin mutations (proofs/mutants/<family>.ts) and rule mutations (rules.ts) through the cross-check; exits 1 below 95% detected.\nFamilies: ${Object.keys(FAMILIES).join(', ')}, rules`,
    );
    process.exit(0);
  }
  const jobs = Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1) {
    console.error(`--jobs must be a positive integer, got '${values.jobs}'`);
    process.exit(2);
  }
  const prover = values.prover ? { rank: Number(values.rank), timeout: Number(values.timeout) } : null;
  if (prover !== null && (!Number.isInteger(prover.rank) || prover.rank < 0 || !(prover.timeout > 0))) {
    console.error(`--rank must be a non-negative integer and --timeout positive, got '${values.rank}', '${values.timeout}'`);
    process.exit(2);
  }
  const random = Number(values.random);
  if (!Number.isInteger(random) || random < 0) {
    console.error(`--random must be a non-negative integer, got '${values.random}'`);
    process.exit(2);
  }
  const chosen = allMutations().filter(
    ({ family, mutation }) =>
      (values.family === undefined || values.family.split(',').includes(family)) && (values.id === undefined || values.id.split(',').includes(mutation.id)),
  );
  if (chosen.length === 0) {
    console.error('no mutation matches');
    process.exit(2);
  }
  const ids = new Set<string>();
  for (const { mutation } of allMutations()) {
    if (ids.has(mutation.id)) {
      console.error(`duplicate mutation id '${mutation.id}'`);
      process.exit(2);
    }
    ids.add(mutation.id);
  }
  report(await runAll(chosen, { random, prover, jobs, quiet: values.json }), values.json, prover !== null);
}

/** Runs the chosen mutations. Twin mutations: one copy of the repository per job, each
 *  taking the next mutation; rule mutations: in this process, after them. Results keep
 *  the chosen order. */
async function runAll(
  chosen: ReturnType<typeof allMutations>,
  o: { random: number; prover: ProverRun | null; jobs: number; quiet: boolean },
): Promise<MutantResult[]> {
  const { random, prover, jobs } = o;
  const results: (MutantResult | undefined)[] = new Array(chosen.length);
  let done = 0;
  const progress = (id: string) => {
    done++;
    if (!o.quiet) process.stderr.write(`\r[${done}/${chosen.length}] ${id}`.padEnd(70));
  };
  const twins = chosen.flatMap((c, i) => (c.side === 'twins' ? [i] : []));
  const copies = Array.from({ length: Math.min(jobs, twins.length) }, makeCopy);
  try {
    let next = 0;
    await Promise.all(
      copies.map(async (copy) => {
        while (next < twins.length) {
          const i = twins[next++]!;
          const { family, mutation } = chosen[i]!;
          results[i] = await runOne(copy, family, mutation, random, prover);
          progress(mutation.id);
        }
      }),
    );
  } finally {
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  }
  for (const [i, { family, side, mutation }] of chosen.entries()) {
    if (side !== 'rules') continue;
    // the prover types with the installed library only: rule mutations go through the sweep
    const started = Date.now();
    const r = runRuleMutation(root, mutation, random);
    results[i] = { family, side, id: mutation.id, what: mutation.what, ops: mutation.ops, ...r, seconds: (Date.now() - started) / 1000 };
    progress(mutation.id);
  }
  if (!o.quiet) process.stderr.write(`${'\r'.padEnd(72)}\r`);
  return results.filter((r): r is MutantResult => r !== undefined);
}

/** Prints the results (a table, or --json) and sets the exit code. */
function report(results: readonly MutantResult[], json: boolean, withProver: boolean): void {
  const detected = results.filter((r) => r.outcome === 'detected').length;
  const invalid = results.filter((r) => r.outcome === 'invalid');
  const valid = results.length - invalid.length;
  const rate = valid === 0 ? 0 : detected / valid;
  const sides = Object.fromEntries((['twins', 'rules'] as const).map((side) => [side, killRate(results.filter((r) => r.side === side))]));
  if (json) console.log(JSON.stringify({ mutations: results.length, valid, detected, rate, sides, results }, null, 2));
  else {
    const w = Math.max(...results.map((r) => r.id.length));
    for (const r of results)
      console.log(`${r.outcome.padEnd(9)} ${r.family.padEnd(9)} ${r.id.padEnd(w)}  ${r.what}${r.outcome === 'detected' ? '' : `\n          ${r.detail}`}`);
    console.log(
      `\n${detected} of ${valid} mutations detected (${(100 * rate).toFixed(1)}%; target >= 95%)${invalid.length > 0 ? `; ${invalid.length} invalid` : ''}`,
    );
    for (const [side, k] of Object.entries(sides))
      if (k.valid > 0) console.log(`  ${side}: ${k.detected} of ${k.valid} detected (${(100 * k.rate).toFixed(1)}%)`);
    const survivors = results.filter((r) => r.outcome === 'survived');
    if (survivors.length > 0) console.log(`survivors: ${survivors.map((r) => r.id).join(', ')}`);
    if (withProver) printComparison(results);
  }
  process.exitCode = invalid.length > 0 ? 2 : rate >= 0.95 ? 0 : 1;
}

/** Detected, valid and their ratio among some results. */
function killRate(results: readonly MutantResult[]): { detected: number; valid: number; rate: number } {
  const valid = results.filter((r) => r.outcome !== 'invalid').length;
  const detected = results.filter((r) => r.outcome === 'detected').length;
  return { detected, valid, rate: valid === 0 ? 0 : detected / valid };
}

/** The sweep-vs-prover table: every mutation with both outcomes, then the differences. */
function printComparison(results: readonly MutantResult[]): void {
  const w = Math.max(...results.map((r) => r.id.length));
  console.log(`\n${'mutation'.padEnd(w)}  ${'sweep'.padEnd(9)}  ${'prover'.padEnd(9)}  prover detail`);
  for (const r of results)
    console.log(
      `${r.id.padEnd(w)}  ${r.outcome.padEnd(9)}  ${(r.prover?.outcome ?? '-').padEnd(9)}  ${r.prover?.outcome === 'detected' ? '' : (r.prover?.detail ?? '')}`,
    );
  const sweepOnly = results.filter((r) => r.outcome === 'detected' && r.prover?.outcome !== 'detected');
  const proverOnly = results.filter((r) => r.outcome !== 'detected' && r.prover?.outcome === 'detected');
  const both = results.filter((r) => r.outcome === 'detected' && r.prover?.outcome === 'detected').length;
  console.log(
    `\nboth detect ${both}; the prover only: ${proverOnly.map((r) => r.id).join(', ') || 'none'}; the sweep only: ${sweepOnly.map((r) => r.id).join(', ') || 'none'}`,
  );
}
