// The benchmark report: its JSON shape, the markdown table, and the README update.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface SwiResult {
  readonly medianMs: number;
  readonly cpuMedianMs: number;
  readonly samplesMs: readonly number[];
  readonly count: number;
}

export interface Row {
  readonly id: string; // e.g. `chain-1000 seminaive`
  readonly workload: string;
  readonly description: string;
  readonly strategy: string;
  readonly goal: string | null;
  readonly expected: number;
  readonly medianMs: number;
  readonly samplesMs: readonly number[];
  readonly stats: { rounds: number; facts: number; millis: number } | null;
  /** The tabled SWI-Prolog run computing the same answers; null when not measured. */
  readonly swipl: SwiResult | null;
  /** shapelog median / SWI median. */
  readonly ratioToSwipl: number | null;
}

export interface Target {
  readonly id: string;
  readonly description: string;
  /** The measured ratio, in the direction stated by `requirement`. */
  readonly measured: number | null;
  readonly requirement: string;
  readonly pass: boolean | null;
  readonly note?: string;
}

export interface Report {
  readonly machine: {
    readonly date: string;
    readonly node: string;
    readonly platform: string;
    readonly cpus: { readonly count: number; readonly model: string };
    readonly totalMemMB: number;
    readonly swipl: string | null;
  };
  readonly options: { readonly quick: boolean; readonly reps: number; readonly budgetSec: number };
  readonly engine: string;
  readonly rows: readonly Row[];
  readonly targets: readonly Target[];
}

export { median } from '../cli/sample-stats.js';

export function fmtMs(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0);
}

const fmtRatio = (r: number): string => `${r < 10 ? r.toFixed(2) : r.toFixed(1)}×`;
const fmtInt = (n: number): string => n.toLocaleString('en-US');

export function renderMarkdown(r: Report): string {
  const m = r.machine;
  const lines = [
    `Measured ${m.date} on ${m.cpus.count} × ${m.cpus.model}, ${m.totalMemMB} MB, node ${m.node}, ` +
      `${m.swipl ?? 'swipl not installed'}. Engine: \`${r.engine}\`.`,
    `Times are medians of wall-clock milliseconds (runs: shapelog / SWI${r.options.quick ? '; `--quick`' : ''}). ` +
      'shapelog: evaluation of the program, parsed and compiled beforehand, untimed (`prepareText` then `solve()`: adding the given facts and solving); plain-js the same loop over edges already read; SWI: computing and counting all answers with tabling, ' +
      'timed inside Prolog after startup and loading. ratio = shapelog / SWI.',
    '',
    '| workload | strategy | answers | shapelog (ms) | SWI tabled (ms) | ratio | runs |',
    '|---|---|--:|--:|--:|--:|--:|',
  ];
  for (const row of r.rows) {
    const what = row.goal ? `${row.workload} \`${row.goal}\`` : row.workload;
    const swi = row.swipl ? fmtMs(row.swipl.medianMs) : '–';
    const ratio = row.ratioToSwipl === null ? '–' : fmtRatio(row.ratioToSwipl);
    const runs = `${row.samplesMs.length} / ${row.swipl ? row.swipl.samplesMs.length : '–'}`;
    lines.push(`| ${what} | ${row.strategy} | ${fmtInt(row.expected)} | ${fmtMs(row.medianMs)} | ${swi} | ${ratio} | ${runs} |`);
  }
  lines.push('', '| target | measured | required | result |', '|---|--:|--:|---|');
  for (const t of r.targets) {
    const measured = t.measured === null ? '–' : fmtRatio(t.measured);
    const result = t.pass === null ? `n/a${t.note ? ` (${t.note})` : ''}` : t.pass ? '**PASS**' : '**FAIL**';
    lines.push(`| (${t.id}) ${t.description} | ${measured} | ${t.requirement} | ${result} |`);
  }
  return lines.join('\n');
}

const BEGIN = '<!-- engine:begin -->';
const END = '<!-- engine:end -->';

const README_INTRO = `# Benchmarks

Engine benchmarks for shapelog, with SWI-Prolog's tabling as a side-by-side peer.

    npm run bench:engine                # up to 5 runs per case within ~2 min, then benny's suites
    npm run bench:engine -- --quick     # 1 cold run per case, no benny: a smoke test, not for the targets

Other flags: \`--reps N\` (default 5), \`--budget SECONDS\` (for the median-of-N timing, default 120;
cases that do not fit get fewer runs), \`--no-swipl\`, \`--no-benny\`, \`--benny\` (with \`--quick\`).
benny runs after the table is written and calls every operation about 3 more times.
SWI-Prolog is optional (\`apt-get install swi-prolog-nox\`); without it the SWI column is empty.
\`SWIPL=/path/to/swipl\` picks another executable, \`SHAPELOG_ENGINE=/path/to/module.ts\` another engine module.

Workloads (\`bench/workloads.ts\`; expected counts are computed there by plain graph algorithms and
checked against the engine before anything is timed):

- **chain-1000**: transitive closure of a 1000-node chain, 499,500 \`path\` tuples.
- **random-1000**: closure of a random graph (1000 nodes, 2000 distinct edges, mulberry32 seed 7), 644,135 tuples.
- **sg-tree-10**: same generation on a complete binary tree of depth 10 (2047 nodes);
  all pairs of non-root nodes at equal depth, \`sum 4^d, d = 1..10\` = 1,398,100 tuples.
- **chain-200**: naive vs semi-naive evaluation, 19,900 tuples.
- **random-2000**: point query \`path(0, X)\` with the demand strategy (1,563 answers) vs the full
  semi-naive closure (2,464,029 tuples); random graph with 2000 nodes, 4000 edges, seed 3.

Timings are wall-clock, so run on an otherwise idle machine (\`engine.json\` also has SWI's CPU time;
a wall time well above it means something else was competing for the CPU).

The table below is regenerated by each run; raw numbers are in \`bench/results/engine.json\`,
benny's ops/sec suites in \`bench/results/*.json\` and \`*.chart.html\` (secondary: each operation
is a whole fixpoint, so benny gets few samples).

${BEGIN}
${END}
`;

/** Replaces the text between a section's markers (`<!-- engine:begin -->`...), creating the README when needed. */
export function updateReadme(path: string, markdown: string, section = 'engine'): void {
  const BEGIN = `<!-- ${section}:begin -->`;
  const END = `<!-- ${section}:end -->`;
  let text = existsSync(path) ? readFileSync(path, 'utf8') : README_INTRO;
  if (!text.includes(BEGIN) || !text.includes(END)) text = `${text.trimEnd()}\n\n${BEGIN}\n${END}\n`;
  const start = text.indexOf(BEGIN) + BEGIN.length;
  const end = text.indexOf(END);
  writeFileSync(path, `${text.slice(0, start)}\n${markdown}\n${text.slice(end)}`);
}
