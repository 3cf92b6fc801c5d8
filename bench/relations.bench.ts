// Per-operator benchmark: the rule-based relations vs the imperative twins on each
// operator's documented example call (the `example` of its declaration).
//
//   npm run bench:relations [-- --copies 50] [--rounds 7] [--ops a,b] [--quick]
//   npm run bench:relations -- --relations FILE.rules...   a user's operators (rules only)
//
// Throughput: one module with `copies` independent calls of the operator (each on
// its own parameters) is inferred with each strategy; time per call = time of the
// whole inference / copies. Both strategies run in the same process, alternating
// round by round, after a warm-up; each round times a few back-to-back inferences
// and the median over rounds is kept. ratio = rules / imperative.
// Also reported, not targeted: the latency of one lone call (`shapelog typeof`),
// where the rules pay a fixed per-solve cost.
//
// Targets (issue 10): median ratio <= 1.5x, worst operator <= 3x. Writes bench/results/relations.json
// and the table in bench/README.md (between the relations markers).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { allOps } from '../relations/catalogue.js';
import { addRelationFiles } from '../relations/library.js';
import { inferModule } from '../typing/infer.js';
import { callModule, typeofCall, type TypeofRequest } from '../typing/typeof.js';
import { median } from '../cli/sample-stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    copies: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '7' },
    ops: { type: 'string' },
    quick: { type: 'boolean', default: false },
    relations: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h', default: false },
  },
  allowPositionals: true,
});
if (values.help) {
  console.log(`usage: npm run bench:relations [-- --ops OP1,OP2,...] [--copies N] [--rounds N] [--quick] [--relations FILE.rules...]

Times each operator's catalogue example with the rules and the imperative twins (a module of
--copies independent calls, default 50; the median of --rounds rounds, default 7, strategies
alternating) and reports rules/imperative per operator, the median and the worst.
  --ops        only these operators (then bench/README.md is not rewritten)
  --quick      one short round: a smoke test, not for the targets
  --relations  a user's rule files: their operators, timed with the rules only
Targets (issue 10): median <= 1.5x, worst <= 3x; exits 1 when missed.`);
  process.exit(0);
}
const copies = Number(values.copies);
const rounds = values.quick ? 1 : Number(values.rounds);
const userFiles = [...(values.relations ?? []), ...process.argv.slice(2).filter((a) => a.endsWith('.rules') && !(values.relations ?? []).includes(a))];
// A user's operators have no imperative twin: they are timed with the rules only.
for (const w of userFiles.length > 0 ? addRelationFiles(userFiles) : []) console.error(`warning: ${w.message}`);
const userOps = new Set(
  allOps()
    .filter((op) => op.span !== undefined && !op.span.file.startsWith('relations/'))
    .map((op) => op.name),
);
const only = values.ops?.split(',').map((s) => s.trim()) ?? (userFiles.length > 0 ? [...userOps] : undefined);

type Strategy = 'rules' | 'relay';
const STRATEGIES: readonly Strategy[] = ['rules', 'relay'];

/** Milliseconds per call of `f`, timing enough back-to-back calls to fill ~`targetMs`. */
function timePerCall(f: () => void, targetMs: number): number {
  let n = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) f();
    const ms = performance.now() - t0;
    if (ms >= targetMs || n >= 1 << 12) return ms / n;
    n = Math.max(n * 2, Math.ceil((n * targetMs) / Math.max(ms, 0.01)));
  }
}

interface Row {
  readonly op: string;
  readonly call: string;
  /** Microseconds per call in a batch of `copies`. */
  readonly rules: number;
  readonly relay: number;
  readonly ratio: number;
  /** Microseconds for one lone call. */
  readonly singleRules: number;
  readonly singleRelay: number;
}

const rows: Row[] = [];
const ops = allOps().filter((op) => op.example !== undefined && (only === undefined || only.includes(op.name)));
const started = Date.now();
for (const [i, op] of ops.entries()) {
  const req: TypeofRequest = { op: op.name, args: op.example!.args, ...(op.example!.attrs !== undefined ? { attrs: op.example!.attrs } : {}) };
  // check: both strategies type the example alike, without errors
  const strategies = userOps.has(op.name) ? (['rules'] as const) : STRATEGIES;
  const answers = strategies.map((s) => typeofCall(req, s));
  if (answers.some((a) => 'error' in a) || (answers.length > 1 && JSON.stringify(answers[0]) !== JSON.stringify(answers[1]))) {
    console.error(`${op.name}: the example does not type alike: ${JSON.stringify(answers)}`);
    process.exitCode = 1;
    continue;
  }
  const module = callModule(req, copies);
  const batch = (s: Strategy) => () => {
    const r = inferModule(module, new Map(), s);
    if (r.diagnostics.some((d) => d.severity === 'error')) throw new Error(`${op.name}: ${s}: ${r.diagnostics[0]!.message}`);
  };
  const single = (s: Strategy) => () => void typeofCall(req, s);
  // warm-up
  for (const s of strategies) timePerCall(batch(s), values.quick ? 20 : 150);
  const samples: Record<Strategy, number[]> = { rules: [], relay: [] };
  const singles: Record<Strategy, number[]> = { rules: [], relay: [] };
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? strategies : [...strategies].reverse();
    for (const s of order) samples[s].push(timePerCall(batch(s), values.quick ? 20 : 60) / copies);
    for (const s of order) singles[s].push(timePerCall(single(s), values.quick ? 10 : 30));
  }
  const rules = median(samples.rules) * 1000;
  const relay = strategies.length > 1 ? median(samples.relay) * 1000 : NaN;
  const row: Row = {
    op: op.name,
    call: JSON.stringify(req),
    rules,
    relay,
    ratio: rules / relay,
    singleRules: median(singles.rules) * 1000,
    singleRelay: strategies.length > 1 ? median(singles.relay) * 1000 : NaN,
  };
  rows.push(row);
  process.stderr.write(
    `[${i + 1}/${ops.length}] ${op.name.padEnd(24)} rules ${row.rules.toFixed(0).padStart(6)} µs${strategies.length > 1 ? `  imperative ${row.relay.toFixed(0).padStart(6)} µs  ratio ${row.ratio.toFixed(2)}` : ''}\n`,
  );
}

if (userFiles.length > 0) {
  // a user's operators: rules only, nothing to compare with and nothing recorded
  for (const r of rows)
    console.log(
      `${r.op}: ${r.rules.toFixed(1)} µs per call in a batch of ${copies}${userOps.has(r.op) ? '' : `, imperative ${r.relay.toFixed(1)} µs`}; a lone call ${r.singleRules.toFixed(0)} µs`,
    );
  process.exit(process.exitCode ?? 0);
}
const ratios = rows.map((r) => r.ratio);
const med = median(ratios);
const worst = rows.reduce((a, b) => (b.ratio > a.ratio ? b : a), rows[0]!);
const MEDIAN_TARGET = 1.5;
const WORST_TARGET = 3;
const pass = med <= MEDIAN_TARGET && worst.ratio <= WORST_TARGET;
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 20)} MB, node ${process.version}`;
const summary = {
  date: new Date().toISOString(),
  machine,
  copies,
  rounds,
  seconds: (Date.now() - started) / 1000,
  median: med,
  worst: { op: worst.op, ratio: worst.ratio },
  pass,
  rows,
};
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'relations.json'), `${JSON.stringify(summary, null, 2)}\n`);

const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const md = [
  `Measured ${summary.date} on ${machine}; ${rows.length} operators, each its catalogue example; ${copies} independent calls per inference, median of ${rounds} rounds (strategies alternating) after a warm-up.`,
  '',
  `**Median ratio ${med.toFixed(2)}× (target ≤ ${MEDIAN_TARGET}×) ${med <= MEDIAN_TARGET ? 'PASS' : 'FAIL'}; worst ${worst.op} ${worst.ratio.toFixed(2)}× (target ≤ ${WORST_TARGET}×) ${worst.ratio <= WORST_TARGET ? 'PASS' : 'FAIL'}.**`,
  '',
  '| operator | rules µs/call | imperative µs/call | ratio | lone call: rules µs | imperative µs |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| \`${r.op}\` | ${fmt(r.rules)} | ${fmt(r.relay)} | ${r.ratio.toFixed(2)} | ${fmt(r.singleRules)} | ${fmt(r.singleRelay)} |`),
].join('\n');
const readme = join(here, 'README.md');
const text = readFileSync(readme, 'utf8');
const block = `<!-- relations:begin -->\n${md}\n<!-- relations:end -->`;
if (!values.quick && only === undefined) {
  writeFileSync(
    readme,
    text.includes('<!-- relations:begin -->')
      ? text.replace(/<!-- relations:begin -->[\s\S]*<!-- relations:end -->/, block)
      : `${text.trimEnd()}\n\n## Relations (\`npm run bench:relations\`)\n\n${block}\n`,
  );
}
console.log(
  `\nmedian ratio ${med.toFixed(2)}x (target <= ${MEDIAN_TARGET}x), worst ${worst.op} ${worst.ratio.toFixed(2)}x (target <= ${WORST_TARGET}x): ${pass ? 'PASS' : 'FAIL'}`,
);
if (!pass) process.exitCode = 1;
