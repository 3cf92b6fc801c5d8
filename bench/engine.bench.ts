// Engine benchmark suite: `npm run bench:engine [-- --quick | --reps N | --budget S | --no-swipl | --benny | --no-benny | --no-process | --only-process | --process-reps N | --workloads ID,ID | --checkout | --keep-ca-certs]`.
// For every case the engine's answer count is checked against the independent count from
// workloads.ts, then the case is timed (median of N wall-clock runs) next to SWI-Prolog's
// tabled evaluation of the same program, the mutable store and a plain-JavaScript floor.
// Then the process-to-process table (bench/process-suite.ts): whole commands that print
// every fact, shapelog's and SWI's samples alternating; shapelog is the package as a user
// gets it, packed and installed from its tarball (bench/installed-package.ts; `--checkout`:
// this repository's bin/shapelog.js; SHAPELOG_BIN=FILE: that script). Writes bench/results/engine.json,
// the tables in bench/README.md, and benny's ops/sec suites; prints one PASS/FAIL line
// per target. Progress goes to stderr.

import { cpus, tmpdir, totalmem } from 'node:os';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { loadEngine } from './engine-api.js';
import { cases, runEngine, type EngineCase, type EngineRun } from './cases.js';
import type { Workload } from './workloads.js';
import { runSwiplOnce, swiplVersion, writePrologFile, type SwiMode, type SwiSample } from './swipl.js';
import { fmtMs, median, renderMarkdown, updateReadme, type Report, type Row, type SwiResult, type Target } from './report.js';
import { PROCESS_WORKLOADS, renderProcessMarkdown, runProcessSuite, targetLines } from './process-suite.js';
import { runBennySuites } from './benny-suites.js';
import { checkoutCommand, installedCommand } from './installed-package.js';
import { sampleAll, type Job, type Sample } from './sampling.js';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const resultsDir = join(benchDir, 'results');

// ---------------------------------------------------------------- options

const argv = process.argv.slice(2);
const flagValue = (name: string): number | undefined => {
  const i = argv.indexOf(name);
  const v = i >= 0 ? Number(argv[i + 1]) : undefined;
  if (v !== undefined && !(v > 0)) {
    console.error(`bench: ${name} needs a positive number`);
    process.exit(2);
  }
  return v;
};
const quick = argv.includes('--quick');
const reps = quick ? 1 : Math.floor(flagValue('--reps') ?? 5);
const budgetSec = flagValue('--budget') ?? 300;
const useSwipl = !argv.includes('--no-swipl');
// benny calls each operation ~3 times on top of the timed runs: off with --quick unless --benny.
const useBenny = argv.includes('--benny') || (!quick && !argv.includes('--no-benny'));
const onlyProcess = argv.includes('--only-process');
const fromCheckout = argv.includes('--checkout');
const useProcess = onlyProcess || !argv.includes('--no-process');
const processReps = quick ? 1 : Math.floor(flagValue('--process-reps') ?? 3);
// --workloads chain-1000,random-1000: only the cases of these workloads (targets on others are n/a)
const workloadsArg = argv.includes('--workloads') ? argv[argv.indexOf('--workloads') + 1] : undefined;
const onlyWorkloads =
  workloadsArg === undefined
    ? null
    : new Set(
        workloadsArg
          .split(',')
          .map((w) => w.trim())
          .filter((w) => w !== ''),
      );
if (onlyWorkloads !== null) {
  const known = new Set<string>([...cases().map((c) => c.workload.id), ...PROCESS_WORKLOADS]);
  const unknown = [...onlyWorkloads].filter((w) => !known.has(w));
  if (onlyWorkloads.size === 0 || unknown.length > 0) {
    console.error(`bench: --workloads takes a comma-separated list of ${[...known].join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
    process.exit(2);
  }
}

const progress = (line: string): void => void process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------- timing

/**
 * One sample = one fresh node process that runs the case once to warm up and once timed
 * (bench/engine-case.ts), so no case runs on a heap or JIT state left by another.
 */
function engineJob(c: EngineCase): Job<EngineRun> {
  return {
    label: c.id,
    warmUp: false,
    run: () => {
      const started = performance.now();
      const child = spawnSync(process.execPath, ['--import=tsx', join(benchDir, 'engine-case.ts'), c.id], {
        encoding: 'utf8',
        maxBuffer: 1 << 24,
        env: process.env,
      });
      if (child.status !== 0) throw new Error(`${c.id}: the benchmark process failed:\n${child.stderr}`);
      const sample = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as EngineRun;
      return { ...sample, costMs: performance.now() - started };
    },
  };
}

interface SwiRun extends Sample {
  readonly cpuMs: number;
  readonly count: number;
  readonly failed: boolean;
}

/** A swipl failure (crash, timeout) skips the row; a wrong count is a bug here and throws. */
function swiJob(w: Workload, mode: SwiMode): Job<SwiRun> {
  const expected = mode === 'full' ? w.expected : w.query!.expected;
  const label = `${w.id} swipl${mode === 'query' ? ` ${w.query!.goal}` : ''}`;
  const file = writePrologFile(w, mode);
  return {
    label,
    warmUp: false,
    run: () => {
      let s: SwiSample;
      try {
        s = runSwiplOnce(file);
      } catch (e) {
        progress(`${label}: swipl failed, row skipped: ${e instanceof Error ? e.message : String(e)}`);
        return { ms: 0, cpuMs: 0, count: 0, failed: true };
      }
      if (s.count !== expected) throw new Error(`COUNT MISMATCH in ${label}: swipl gave ${s.count}, expected ${expected}`);
      return { ms: s.wallMs, cpuMs: s.cpuMs, count: s.count, failed: false };
    },
  };
}

function engineRow(c: EngineCase, runs: readonly EngineRun[], swi: SwiResult | null): Row {
  const samplesMs = runs.map((t) => t.ms);
  const medianMs = median(samplesMs);
  return {
    id: c.id,
    workload: c.workload.id,
    description: c.workload.description,
    strategy: c.strategy,
    goal: c.goal,
    expected: c.expected,
    medianMs,
    samplesMs,
    stats: runs.at(-1)?.stats ?? null,
    swipl: swi,
    ratioToSwipl: swi ? medianMs / swi.medianMs : null,
  };
}

function swiResult(runs: readonly SwiRun[]): SwiResult | null {
  if (runs.some((r) => r.failed)) return null;
  const samplesMs = runs.map((r) => r.ms);
  return { medianMs: median(samplesMs), cpuMedianMs: median(runs.map((r) => r.cpuMs)), samplesMs, count: runs[0]!.count };
}

// ---------------------------------------------------------------- targets

/** `swiNote` explains a missing SWI time. */
function targets(rows: readonly Row[], swiNote: string): Target[] {
  // a row missing (a workload not chosen with --workloads) makes its targets n/a
  const row = (id: string): Row | undefined => rows.find((r) => r.id.startsWith(id));
  const over = (a: Row | undefined, b: Row | undefined): number | null => (a && b ? a.medianMs / b.medianMs : null);
  const target = (id: string, description: string, measured: number | null, requirement: string, ok: (x: number) => boolean, note?: string): Target => ({
    id,
    description,
    measured,
    requirement,
    pass: measured === null ? null : ok(measured),
    ...(note ? { note } : {}),
  });
  return [
    target('i', 'chain-1000 closure time vs SWI tabling', row('chain-1000 seminaive')?.ratioToSwipl ?? null, '≤ 1.5× SWI', (x) => x <= 1.5, swiNote),
    target('ii', 'semi-naive speed-up over naive, chain-200', over(row('chain-200 naive'), row('chain-200 seminaive')), '≥ 10×', (x) => x >= 10),
    target(
      'iii',
      'point query `path(0, X)` (demand) speed-up over full closure, random-2000',
      over(row('random-2000 seminaive'), row('random-2000 demand')),
      '≥ 10×',
      (x) => x >= 10,
    ),
    ...HEADLINE.map(([id]) => target('iv', `in-process steady state vs SWI, ${id}`, row(id)?.ratioToSwipl ?? null, '≤ 0.7× SWI', (x) => x <= 0.7, swiNote)),
    ...HEADLINE.map(([id, floor]) => target('v', `shapelog / plain-JS semi-naive loop over Sets, ${id}`, over(row(id), row(floor)), '≤ 2×', (x) => x <= 2)),
  ];
}

/** The workloads of the headline targets: the engine's case and the plain-JS floor's. */
const HEADLINE: readonly (readonly [string, string])[] = [
  ['chain-1000 seminaive', 'chain-1000 plain-js'],
  ['random-1000 seminaive', 'random-1000 plain-js'],
  ['sg-tree-10 seminaive', 'sg-tree-10 plain-js'],
  ['random-2000 seminaive', 'random-2000 plain-js'],
  ['random-2000 demand path(0, X)', 'random-2000 plain-js path(0, X)'],
];

/** What persistence costs: per workload, the persistent store's time over the mutable store's. */
function mutableMarkdown(rows: readonly Row[]): string {
  const lines = [
    '',
    'What persistence costs (in-process steady state, same plans): persistent (`seminaive`) / mutable store (`mutable`).',
    '',
    '| workload | seminaive (ms) | mutable (ms) | persistent / mutable |',
    '|---|--:|--:|--:|',
  ];
  for (const r of rows) {
    if (r.strategy !== 'mutable') continue;
    const p = rows.find((x) => x.workload === r.workload && x.strategy === 'seminaive' && x.goal === null);
    if (p) lines.push(`| ${r.workload} | ${fmtMs(p.medianMs)} | ${fmtMs(r.medianMs)} | ${(p.medianMs / r.medianMs).toFixed(2)}× |`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const swipl = useSwipl ? swiplVersion() : null;
  if (useSwipl && swipl === null) progress('swipl not installed: SWI-Prolog rows skipped');
  if (!onlyProcess) await inProcess(swipl);
  if (useProcess) {
    const work = mkdtempSync(join(tmpdir(), 'shapelog-bench-engine-'));
    const envBin = process.env['SHAPELOG_BIN'];
    const shapelog =
      envBin !== undefined
        ? { bin: envBin, description: `${envBin} (SHAPELOG_BIN)` }
        : fromCheckout
          ? checkoutCommand(join(benchDir, '..'))
          : installedCommand(join(benchDir, '..'), work);
    let report: ReturnType<typeof runProcessSuite>;
    try {
      report = runProcessSuite(shapelog, processReps, swipl !== null, progress, onlyWorkloads);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(join(resultsDir, 'process.json'), `${JSON.stringify(report, null, 2)}\n`);
    const markdown = renderProcessMarkdown(report, new Date().toISOString());
    updateReadme(join(benchDir, 'README.md'), markdown, 'process');
    console.log(`\n${markdown}\n\n${targetLines(report.targets).join('\n')}\n\nWrote bench/results/process.json and bench/README.md`);
  }
}

async function inProcess(swipl: string | null): Promise<void> {
  const { api, from } = await loadEngine();

  const all = cases().filter((c) => onlyWorkloads === null || onlyWorkloads.has(c.workload.id));
  const swiModes = new Map<string, { w: Workload; mode: SwiMode }>();
  if (swipl) for (const c of all) swiModes.set(`${c.workload.id}/${c.swi}`, { w: c.workload, mode: c.swi });
  const swiKeys = [...swiModes.keys()];
  const engineJobs = all.map((c) => engineJob(c));
  const swiJobs = [...swiModes.values()].map(({ w, mode }) => swiJob(w, mode));

  // One budget for both sides; engine jobs come first, so a count mismatch fails early.
  const runs = sampleAll<Sample>([...engineJobs, ...swiJobs], { quick, reps, progress, budgetMs: budgetSec * 1000 });
  const engineRuns = runs.slice(0, engineJobs.length) as EngineRun[][];
  const swiRuns = runs.slice(engineJobs.length) as SwiRun[][];
  const swiByKey = new Map(swiKeys.map((k, i) => [k, swiResult(swiRuns[i]!)]));
  const rows = all.map((c, i) => engineRow(c, engineRuns[i]!, swiByKey.get(`${c.workload.id}/${c.swi}`) ?? null));

  const cpu = cpus();
  const report: Report = {
    machine: {
      date: new Date().toISOString(),
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: { count: cpu.length, model: cpu[0]?.model.trim() ?? 'unknown' },
      totalMemMB: Math.round(totalmem() / 2 ** 20),
      swipl,
    },
    options: { quick, reps, budgetSec },
    engine: from,
    rows,
    targets: targets(rows, useSwipl ? (swipl ? 'swipl failed' : 'swipl not installed') : 'not measured: --no-swipl'),
  };
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, 'engine.json'), `${JSON.stringify(report, null, 2)}\n`);
  const markdown = renderMarkdown(report) + mutableMarkdown(rows);
  updateReadme(join(benchDir, 'README.md'), markdown);
  console.log(`\n${markdown}\n\n${targetLines(report.targets).join('\n')}\n\nWrote bench/results/engine.json and bench/README.md`);

  // benny's suites pick cases by position in the full list
  if (useBenny && onlyWorkloads === null) {
    const op = (c: EngineCase) => ({ name: c.id, run: () => runEngine(api, c) });
    await runBennySuites(
      [
        { name: 'engine: closure workloads (seminaive)', file: 'benny-workloads', cases: all.slice(0, 3).map(op) },
        { name: 'engine: naive vs semi-naive, chain-200', file: 'benny-naive-vs-seminaive', cases: all.slice(3, 5).map(op) },
        { name: 'engine: demand point query vs full closure, random-2000', file: 'benny-demand-vs-closure', cases: all.slice(5, 7).map(op) },
      ],
      resultsDir,
    );
  }
}

main().catch((e: unknown) => {
  console.error(`\nbench failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
