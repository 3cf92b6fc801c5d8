// The process-to-process table of `npm run bench:engine` (bench/process.ts runs one
// sample): its cases, alternating sampling (each round runs every case's shapelog
// sample, then its SWI sample), medians, targets and markdown.
import { givenFacts, runShapelog, runStartup, runSwiPrinting, shapelogBin, type ProcessCase, type ProcessSample } from './process.js';
import { fmtMs, median, type Target } from './report.js';
import { chain1000, chain2000, random1000, random2000, sgTree10, type Workload } from './workloads.js';

interface SuiteCase {
  readonly c: ProcessCase;
  /** Also run SWI-Prolog printing the same output. */
  readonly swi: boolean;
}

export interface ProcessRow {
  readonly id: string;
  readonly lines: number;
  readonly shapelog: { readonly medianMs: number; readonly samplesMs: readonly number[]; readonly rssMB: number | null; readonly solveMs: number | null };
  readonly swipl: { readonly medianMs: number; readonly samplesMs: readonly number[]; readonly rssMB: number | null } | null;
}

export interface ProcessReport {
  readonly bin: string;
  readonly rows: readonly ProcessRow[];
  readonly startup: { readonly shapelogMs: number; readonly swiplMs: number | null; readonly nodeMs: number; readonly runs: number };
  readonly targets: readonly Target[];
}

const STATS = ['--stats'];
/** Solves the whole closure bottom-up and prints one line (`false.`): the run without printing. */
const NO_PRINT = ['--strategy', 'seminaive', '--stats'];

function suiteCases(): SuiteCase[] {
  const all = (w: Workload, swi = true): SuiteCase => ({
    c: { id: `${w.id} all facts`, workload: w, goal: null, expectedLines: givenFacts(w) + w.expected, flags: STATS },
    swi,
  });
  const point = (w: Workload): SuiteCase => ({
    c: { id: `${w.id} ${w.query!.goal}`, workload: w, goal: w.query!.goal, expectedLines: w.query!.expected, flags: STATS },
    swi: true,
  });
  const noPrint = (w: Workload): SuiteCase => ({
    c: { id: `${w.id} closure, not printed`, workload: w, goal: `${w.pred}(-1, X)`, expectedLines: 1, flags: NO_PRINT },
    swi: false,
  });
  const [a, b, c, e, big] = [chain1000(), random1000(), sgTree10(), random2000(), chain2000()];
  return [all(a), noPrint(a), all(b), point(b), all(c), all(e), point(e), all(big), noPrint(big)];
}

export function runProcessSuite(reps: number, withSwi: boolean, progress: (line: string) => void): ProcessReport {
  const cases = suiteCases();
  const shapelog: ProcessSample[][] = cases.map(() => []);
  const swi: ProcessSample[][] = cases.map(() => []);
  const show = (label: string, s: ProcessSample) =>
    progress(`process ${label}: ${fmtMs(s.ms)} ms${s.rssMB === null ? '' : `, ${s.rssMB.toFixed(0)} MB`}${s.solveMs === null ? '' : ` (solve ${s.solveMs} ms)`}`);
  for (let r = 0; r < reps; r++) {
    cases.forEach(({ c, swi: withSwiRow }, i) => {
      const s = runShapelog(c);
      shapelog[i]!.push(s);
      show(`shapelog ${c.id} ${r + 1}/${reps}`, s);
      if (withSwi && withSwiRow) {
        const t = runSwiPrinting(c);
        swi[i]!.push(t);
        show(`swipl ${c.id} ${r + 1}/${reps}`, t);
      }
    });
  }
  const startRuns = Math.max(9, reps);
  const start = { shapelog: [] as number[], swipl: [] as number[], node: [] as number[] };
  for (let r = 0; r < startRuns; r++) {
    start.shapelog.push(runStartup('shapelog').ms);
    if (withSwi) start.swipl.push(runStartup('swipl').ms);
    start.node.push(runStartup('node').ms);
  }
  const medianOf = (xs: readonly ProcessSample[], f: (s: ProcessSample) => number | null): number | null => {
    const vs = xs.map(f).filter((v): v is number => v !== null);
    return vs.length === 0 ? null : median(vs);
  };
  const rows: ProcessRow[] = cases.map(({ c }, i) => ({
    id: c.id,
    lines: c.expectedLines,
    shapelog: { medianMs: median(shapelog[i]!.map((s) => s.ms)), samplesMs: shapelog[i]!.map((s) => s.ms), rssMB: medianOf(shapelog[i]!, (s) => s.rssMB), solveMs: medianOf(shapelog[i]!, (s) => s.solveMs) },
    swipl: swi[i]!.length === 0 ? null : { medianMs: median(swi[i]!.map((s) => s.ms)), samplesMs: swi[i]!.map((s) => s.ms), rssMB: medianOf(swi[i]!, (s) => s.rssMB) },
  }));
  return {
    bin: shapelogBin,
    rows,
    startup: { shapelogMs: median(start.shapelog), swiplMs: start.swipl.length ? median(start.swipl) : null, nodeMs: median(start.node), runs: startRuns },
    targets: processTargets(rows),
  };
}

function processTargets(rows: readonly ProcessRow[]): Target[] {
  const row = (id: string): ProcessRow => rows.find((r) => r.id === id)!;
  const target = (id: string, description: string, measured: number | null, requirement: string, ok: (x: number) => boolean): Target =>
    ({ id, description, measured, requirement, pass: measured === null ? null : ok(measured) });
  const vsSwi = (r: ProcessRow) => (r.swipl ? r.shapelog.medianMs / r.swipl.medianMs : null);
  const out: Target[] = [];
  for (const id of ['chain-1000 all facts', 'random-1000 all facts', 'sg-tree-10 all facts', 'random-2000 all facts', 'random-2000 path(0, X)'])
    out.push(target('p1', `process to process vs SWI, ${id}`, vsSwi(row(id)), '≤ 1.0× SWI', (x) => x <= 1.0));
  out.push(target('p2', 'point query `path(0, X)` (default strategy) speed-up over the full closure, random-1000, process to process',
    row('random-1000 all facts').shapelog.medianMs / row('random-1000 path(0, X)').shapelog.medianMs, '≥ 10×', (x) => x >= 10));
  const printed = row('chain-1000 all facts').shapelog;
  const unprinted = row('chain-1000 closure, not printed').shapelog;
  out.push(target('p3', 'printing ~500,000 facts (chain-1000: printed run − unprinted run) / solving them (`--stats`)',
    unprinted.solveMs ? (printed.medianMs - unprinted.medianMs) / unprinted.solveMs : null, '≤ 0.25', (x) => x <= 0.25));
  const bigPrinted = row('chain-2000 all facts');
  const bigUnprinted = row('chain-2000 closure, not printed').shapelog;
  out.push(target('p4', 'peak RSS printing the chain-2000 closure / not printing it', bigPrinted.shapelog.rssMB && bigUnprinted.rssMB ? bigPrinted.shapelog.rssMB / bigUnprinted.rssMB : null, '≤ 1.2×', (x) => x <= 1.2));
  out.push(target('p5', 'peak RSS printing the chain-2000 closure vs SWI', bigPrinted.shapelog.rssMB && bigPrinted.swipl?.rssMB ? bigPrinted.shapelog.rssMB / bigPrinted.swipl.rssMB : null, '≤ 1.2× SWI', (x) => x <= 1.2));
  return out;
}

const fmtRatio = (r: number): string => (r < 10 ? r.toFixed(2) : r.toFixed(1));

export function renderProcessMarkdown(r: ProcessReport, date: string): string {
  const mb = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(0));
  const lines = [
    `Measured ${date}; shapelog: \`node ${r.bin.replace(/.*\/(bin|dist)\//, '$1/')} query FILE\` (start, parse, solve, print every fact sorted, to a file), ` +
      `SWI: \`swipl FILE.pl\` with tabling printing the same facts (unsorted). Medians of wall-clock ms, samples alternating; peak RSS from GNU time.`,
    '',
    '| case | lines | shapelog (ms) | solve (ms) | SWI (ms) | ratio | shapelog RSS (MB) | SWI RSS (MB) | runs |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const row of r.rows) {
    const ratio = row.swipl ? `${fmtRatio(row.shapelog.medianMs / row.swipl.medianMs)}×` : '–';
    lines.push(`| ${row.id} | ${row.lines.toLocaleString('en-US')} | ${fmtMs(row.shapelog.medianMs)} | ${row.shapelog.solveMs ?? '–'} | ${row.swipl ? fmtMs(row.swipl.medianMs) : '–'} | ${ratio} | ${mb(row.shapelog.rssMB)} | ${mb(row.swipl?.rssMB)} | ${row.shapelog.samplesMs.length} / ${row.swipl?.samplesMs.length ?? '–'} |`);
  }
  const s = r.startup;
  lines.push('', `Start-up (one-fact program, medians of ${s.runs}): shapelog ${fmtMs(s.shapelogMs)} ms, SWI ${s.swiplMs === null ? '–' : fmtMs(s.swiplMs)} ms, node running an empty script ${fmtMs(s.nodeMs)} ms.`);
  lines.push('', '| target | measured | required | result |', '|---|--:|--:|---|');
  for (const t of r.targets) {
    const result = t.pass === null ? 'n/a' : t.pass ? '**PASS**' : '**FAIL**';
    lines.push(`| (${t.id}) ${t.description} | ${t.measured === null ? '–' : fmtRatio(t.measured)} | ${t.requirement} | ${result} |`);
  }
  return lines.join('\n');
}

/** One PASS/FAIL line per target, for the console. */
export function targetLines(targets: readonly Target[]): string[] {
  return targets.map((t) => `${t.pass === null ? 'N/A ' : t.pass ? 'PASS' : 'FAIL'} (${t.id}) ${t.description}: ${t.measured === null ? '–' : fmtRatio(t.measured)} (required ${t.requirement})`);
}
