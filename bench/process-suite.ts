// The process-to-process table of `npm run bench:engine` (bench/process.ts runs one
// sample): its cases, alternating sampling (each round runs every case's shapelog
// sample, then its SWI sample), medians, targets and markdown. Each target is judged
// twice: on wall-clock time (what a user waits on an idle machine) and on CPU time
// (user + system of all threads: what a shared, loaded machine can still compare; it
// counts node's helper threads against shapelog, so it is the stricter of the two).
import type { ShapelogCommand } from './installed-package.js';
import { givenFacts, runShapelog, runStartup, runSwiPrinting, type ProcessCase, type ProcessSample } from './process.js';
import { fmtMs, median, type Target } from './report.js';
import { chain1000, chain2000, random1000, random2000, sgTree10, type Workload } from './workloads.js';
import { caCertsNote } from './process-env.js';

interface SuiteCase {
  readonly c: ProcessCase;
  /** Also run SWI-Prolog printing the same output. */
  readonly swi: boolean;
  /** Also time node starting an empty script beside each sample: the floor of any node program (the point queries). */
  readonly floor?: boolean;
}

export interface ProcessRow {
  readonly id: string;
  readonly lines: number;
  readonly shapelog: {
    readonly medianMs: number;
    readonly samplesMs: readonly number[];
    readonly cpuMs: number | null;
    readonly rssMB: number | null;
    readonly solveMs: number | null;
    /** Median over the samples of printing / solving within one process (`--stats`), or null without both. */
    readonly printPerSolve: number | null;
  };
  readonly swipl: { readonly medianMs: number; readonly samplesMs: readonly number[]; readonly cpuMs: number | null; readonly rssMB: number | null } | null;
  /** Median wall ms of node starting an empty CommonJS script, timed beside this row's samples (SuiteCase.floor), else null. */
  readonly nodeEmptyMs: number | null;
}

export interface ProcessReport {
  readonly bin: string;
  /** What `bin` is (the installed package, a checkout). */
  readonly package: string;
  readonly rows: readonly ProcessRow[];
  readonly startup: {
    readonly shapelogMs: number;
    readonly swiplMs: number | null;
    readonly nodeMs: number;
    readonly shapelogCpuMs: number | null;
    readonly swiplCpuMs: number | null;
    readonly nodeCpuMs: number | null;
    readonly runs: number;
  };
  /** The workloads run (all unless `--workloads` chose some). */
  readonly workloads: readonly string[];
  readonly targets: readonly Target[];
}

const STATS = ['--stats'];
/** Solves the whole closure bottom-up and prints one line (`false.`): the run without printing. */
const NO_PRINT = ['--strategy', 'seminaive', '--stats'];

/** The workloads of the process table, by id. */
export const PROCESS_WORKLOADS = ['chain-1000', 'random-1000', 'sg-tree-10', 'random-2000', 'chain-2000'] as const;

function suiteCases(only: ReadonlySet<string> | null): SuiteCase[] {
  const all = (w: Workload, swi = true): SuiteCase => ({
    c: { id: `${w.id} all facts`, workload: w, goal: null, expectedLines: givenFacts(w) + w.expected, flags: STATS },
    swi,
  });
  const point = (w: Workload): SuiteCase => ({
    c: { id: `${w.id} ${w.query!.goal}`, workload: w, goal: w.query!.goal, expectedLines: w.query!.expected, flags: STATS },
    swi: true,
    floor: true,
  });
  const noPrint = (w: Workload): SuiteCase => ({
    c: { id: `${w.id} closure, not printed`, workload: w, goal: `${w.pred}(-1, X)`, expectedLines: 1, flags: NO_PRINT },
    swi: false,
  });
  const [a, b, c, e, big] = [chain1000(), random1000(), sgTree10(), random2000(), chain2000()];
  const cases = [all(a), noPrint(a), all(b), point(b), all(c), all(e), point(e), all(big), noPrint(big)];
  return only === null ? cases : cases.filter(({ c: x }) => only.has(x.workload.id));
}

/** `only`: the workload ids to run (null: all); targets whose rows were not run are n/a. */
export function runProcessSuite(
  shapelogCommand: ShapelogCommand,
  reps: number,
  withSwi: boolean,
  progress: (line: string) => void,
  only: ReadonlySet<string> | null = null,
): ProcessReport {
  const bin = shapelogCommand.bin;
  const cases = suiteCases(only);
  const shapelog: ProcessSample[][] = cases.map(() => []);
  const swi: ProcessSample[][] = cases.map(() => []);
  const floor: ProcessSample[][] = cases.map(() => []);
  const show = (label: string, s: ProcessSample) =>
    progress(
      `process ${label}: ${fmtMs(s.ms)} ms${s.cpuMs === null ? '' : ` (CPU ${s.cpuMs} ms)`}${s.rssMB === null ? '' : `, ${s.rssMB.toFixed(0)} MB`}${s.solveMs === null ? '' : ` (solve ${s.solveMs} ms${s.printMs === null ? '' : `, printed in ${s.printMs} ms`})`}`,
    );
  for (let r = 0; r < reps; r++) {
    cases.forEach(({ c, swi: withSwiRow, floor: withFloor }, i) => {
      const s = runShapelog(c, bin);
      shapelog[i]!.push(s);
      show(`shapelog ${c.id} ${r + 1}/${reps}`, s);
      if (withSwi && withSwiRow) {
        const t = runSwiPrinting(c);
        swi[i]!.push(t);
        show(`swipl ${c.id} ${r + 1}/${reps}`, t);
      }
      if (withFloor) floor[i]!.push(runStartup('node', bin));
    });
  }
  const startRuns = Math.max(9, reps);
  const start = { shapelog: [] as ProcessSample[], swipl: [] as ProcessSample[], node: [] as ProcessSample[] };
  for (let r = 0; r < startRuns; r++) {
    start.shapelog.push(runStartup('shapelog', bin));
    if (withSwi) start.swipl.push(runStartup('swipl', bin));
    start.node.push(runStartup('node', bin));
  }
  const medianOf = (xs: readonly ProcessSample[], f: (s: ProcessSample) => number | null): number | null => {
    const vs = xs.map(f).filter((v): v is number => v !== null);
    return vs.length === 0 ? null : median(vs);
  };
  const rows: ProcessRow[] = cases.map(({ c }, i) => ({
    id: c.id,
    lines: c.expectedLines,
    shapelog: {
      medianMs: median(shapelog[i]!.map((s) => s.ms)),
      samplesMs: shapelog[i]!.map((s) => s.ms),
      cpuMs: medianOf(shapelog[i]!, (s) => s.cpuMs),
      rssMB: medianOf(shapelog[i]!, (s) => s.rssMB),
      solveMs: medianOf(shapelog[i]!, (s) => s.solveMs),
      printPerSolve: medianOf(shapelog[i]!, (s) => (s.printMs !== null && s.solveMs ? s.printMs / s.solveMs : null)),
    },
    swipl:
      swi[i]!.length === 0
        ? null
        : {
            medianMs: median(swi[i]!.map((s) => s.ms)),
            samplesMs: swi[i]!.map((s) => s.ms),
            cpuMs: medianOf(swi[i]!, (s) => s.cpuMs),
            rssMB: medianOf(swi[i]!, (s) => s.rssMB),
          },
    nodeEmptyMs: floor[i]!.length === 0 ? null : median(floor[i]!.map((s) => s.ms)),
  }));
  const startup = {
    shapelogMs: median(start.shapelog.map((s) => s.ms)),
    swiplMs: start.swipl.length ? median(start.swipl.map((s) => s.ms)) : null,
    nodeMs: median(start.node.map((s) => s.ms)),
    shapelogCpuMs: medianOf(start.shapelog, (s) => s.cpuMs),
    swiplCpuMs: medianOf(start.swipl, (s) => s.cpuMs),
    nodeCpuMs: medianOf(start.node, (s) => s.cpuMs),
    runs: startRuns,
  };
  return {
    bin,
    package: shapelogCommand.description,
    rows,
    startup,
    workloads: [...new Set(cases.map(({ c }) => c.workload.id))],
    targets: processTargets(rows, startup.shapelogCpuMs),
  };
}

/**
 * p1–p3 on wall-clock and on CPU time; p4–p5 on peak RSS. p3 on CPU: the printed run's CPU
 * minus the unprinted run's, over the unprinted run's minus a one-fact query's (start-up).
 */
function processTargets(rows: readonly ProcessRow[], startupCpuMs: number | null): Target[] {
  const row = (id: string): ProcessRow | undefined => rows.find((r) => r.id === id);
  const target = (id: string, description: string, measured: number | null, requirement: string, ok: (x: number) => boolean): Target => ({
    id,
    description,
    measured,
    requirement,
    pass: measured === null || !Number.isFinite(measured) ? null : ok(measured),
  });
  const ratio = (a: number | null | undefined, b: number | null | undefined): number | null => (a != null && b != null && b > 0 ? a / b : null);
  const out: Target[] = [];
  for (const id of ['chain-1000 all facts', 'random-1000 all facts', 'sg-tree-10 all facts', 'random-2000 all facts', 'random-2000 path(0, X)']) {
    const r = row(id);
    out.push(target('p1', `process to process vs SWI, wall, ${id}`, ratio(r?.shapelog.medianMs, r?.swipl?.medianMs), '≤ 1.0× SWI', (x) => x <= 1.0));
    out.push(target('p1', `process to process vs SWI, CPU, ${id}`, ratio(r?.shapelog.cpuMs, r?.swipl?.cpuMs), '≤ 1.0× SWI', (x) => x <= 1.0));
  }
  const full = row('random-1000 all facts')?.shapelog;
  const point = row('random-1000 path(0, X)')?.shapelog;
  const p2 = 'point query `path(0, X)` (default strategy) speed-up over the full closure, random-1000, process to process';
  out.push(target('p2', `${p2}, wall`, ratio(full?.medianMs, point?.medianMs), '≥ 10×', (x) => x >= 10));
  out.push(target('p2', `${p2}, CPU`, ratio(full?.cpuMs, point?.cpuMs), '≥ 10×', (x) => x >= 10));
  const printed = row('chain-1000 all facts')?.shapelog;
  const unprinted = row('chain-1000 closure, not printed')?.shapelog;
  out.push(
    target(
      'p3',
      'printing ~500,000 facts (chain-1000: printed run − unprinted run, wall) / solving them (`--stats`)',
      printed && unprinted ? ratio(printed.medianMs - unprinted.medianMs, unprinted.solveMs) : null,
      '≤ 0.25',
      (x) => x <= 0.25,
    ),
  );
  out.push(
    target(
      'p3',
      'printing ~500,000 facts (chain-1000: printed run − unprinted run, CPU) / (unprinted run − one-fact query, CPU)',
      printed?.cpuMs != null && unprinted?.cpuMs != null && startupCpuMs !== null
        ? ratio(printed.cpuMs - unprinted.cpuMs, unprinted.cpuMs - startupCpuMs)
        : null,
      '≤ 0.25',
      (x) => x <= 0.25,
    ),
  );
  // the same, each sample's printing and solving timed inside one process: the solve's
  // speed varies from process to process, and the difference of two processes above counts
  // a slow solve in the printed run as printing
  out.push(
    target(
      'p3',
      'printing ~500,000 facts / solving them, in the same process (chain-1000, `--stats`: printed in / solve; median over the samples)',
      printed?.printPerSolve ?? null,
      '≤ 0.25',
      (x) => x <= 0.25,
    ),
  );
  const big = row('chain-2000 all facts');
  const bigUnprinted = row('chain-2000 closure, not printed')?.shapelog;
  out.push(
    target('p4', 'peak RSS printing the chain-2000 closure / not printing it', ratio(big?.shapelog.rssMB, bigUnprinted?.rssMB), '≤ 1.2×', (x) => x <= 1.2),
  );
  out.push(target('p5', 'peak RSS printing the chain-2000 closure vs SWI', ratio(big?.shapelog.rssMB, big?.swipl?.rssMB), '≤ 1.2× SWI', (x) => x <= 1.2));
  return out;
}

const fmtRatio = (r: number): string => (r < 10 ? r.toFixed(2) : r.toFixed(1));

export function renderProcessMarkdown(r: ProcessReport, date: string): string {
  const mb = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(0));
  const lines = [
    `Measured ${date}; shapelog: \`shapelog query FILE\` (start, parse, solve, print every fact sorted, to a file; ${r.package}), ` +
      `SWI: \`swipl FILE.pl\` with tabling printing the same facts (unsorted). Medians of wall-clock and of CPU ms (user + system, GNU time), samples alternating; peak RSS from GNU time. ${caCertsNote()}` +
      `${r.workloads.length < 5 ? ` Workloads run: ${r.workloads.join(', ')}.` : ''}`,
    '',
    '| case | lines | shapelog wall (ms) | shapelog CPU (ms) | solve (ms) | SWI wall (ms) | SWI CPU (ms) | ratio wall | ratio CPU | shapelog RSS (MB) | SWI RSS (MB) | runs |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  const cpu = (x: number | null | undefined) => (x === null || x === undefined ? '–' : String(x));
  for (const row of r.rows) {
    const ratio = row.swipl ? `${fmtRatio(row.shapelog.medianMs / row.swipl.medianMs)}×` : '–';
    const ratioCpu = row.swipl?.cpuMs && row.shapelog.cpuMs !== null ? `${fmtRatio(row.shapelog.cpuMs / row.swipl.cpuMs)}×` : '–';
    lines.push(
      `| ${row.id} | ${row.lines.toLocaleString('en-US')} | ${fmtMs(row.shapelog.medianMs)} | ${cpu(row.shapelog.cpuMs)} | ${row.shapelog.solveMs ?? '–'} | ${row.swipl ? fmtMs(row.swipl.medianMs) : '–'} | ${cpu(row.swipl?.cpuMs)} | ${ratio} | ${ratioCpu} | ${mb(row.shapelog.rssMB)} | ${mb(row.swipl?.rssMB)} | ${row.shapelog.samplesMs.length} / ${row.swipl?.samplesMs.length ?? '–'} |`,
    );
  }
  const s = r.startup;
  lines.push(
    '',
    `Start-up (one-fact program, medians of ${s.runs}), wall / CPU: shapelog ${fmtMs(s.shapelogMs)} / ${cpu(s.shapelogCpuMs)} ms, SWI ${s.swiplMs === null ? '–' : fmtMs(s.swiplMs)} / ${cpu(s.swiplCpuMs)} ms, node running an empty CommonJS script ${fmtMs(s.nodeMs)} / ${cpu(s.nodeCpuMs)} ms.`,
  );
  // the floor of a node program: its runtime's own start, timed beside SWI's whole command on the point queries
  const floors = r.rows
    .filter((row) => row.nodeEmptyMs !== null && row.swipl)
    .map((row) => `${row.id}: node ${fmtMs(row.nodeEmptyMs!)} ms, SWI's whole command ${fmtMs(row.swipl!.medianMs)} ms`);
  if (floors.length > 0)
    lines.push(
      '',
      `The floor on the point queries: node starting an empty CommonJS script, timed beside each sample, against SWI's whole command (${floors.join('; ')}): what is left of SWI's time for shapelog's own start, reading, solving and printing.`,
    );
  lines.push('', '| target | measured | required | result |', '|---|--:|--:|---|');
  for (const t of r.targets) {
    const result = t.pass === null ? 'n/a' : t.pass ? '**PASS**' : '**FAIL**';
    lines.push(`| (${t.id}) ${t.description} | ${t.measured === null ? '–' : fmtRatio(t.measured)} | ${t.requirement} | ${result} |`);
  }
  return lines.join('\n');
}

/** One PASS/FAIL line per target, for the console. */
export function targetLines(targets: readonly Target[]): string[] {
  return targets.map(
    (t) =>
      `${t.pass === null ? 'N/A ' : t.pass ? 'PASS' : 'FAIL'} (${t.id}) ${t.description}: ${t.measured === null ? '–' : fmtRatio(t.measured)} (required ${t.requirement})`,
  );
}
