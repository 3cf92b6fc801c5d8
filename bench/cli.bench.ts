// Cold start of the `shapelog` command, process to process: `npm run bench:cli [-- --runs N]`.
//
// The package is packed (`npm pack`) and installed from the tarball into an empty
// folder, as a user gets it (`--checkout` times bin/shapelog.js in this repository
// instead). Every sample is a fresh process started the way a user starts it
// (node_modules/.bin/shapelog, through its `#!/usr/bin/env node` line), with its
// wall-clock time measured from spawn to exit. The commands alternate within each round,
// in a rotating order, so that a slow spell of the machine falls on all of them; node
// starting an empty script is timed the same way, as the floor. One unmeasured round
// first writes the relation library's cache; `infer, rules, no cache` runs with
// SHAPELOG_CACHE=off (what the first run after an install or a change of the rule files
// costs).
//
// NODE_EXTRA_CA_CERTS is removed from the commands' environment (bench/process-env.ts;
// `--keep-ca-certs` keeps it); when it is set, node starting an empty script with it is
// timed too, as a row of its own.
//
// Writes bench/results/cli.json and the table between the cli markers in bench/README.md.
import { spawnSync } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkoutCommand, installedCommand } from './installed-package.js';
import { benchEnv, caCerts, caCertsNote, keepCaCerts } from './process-env.js';
import { pairedRatio } from '../cli/sample-stats.js';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = join(benchDir, '..');
const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const runs = runsAt >= 0 ? Math.max(1, Number(argv[runsAt + 1])) : 11;
const fromCheckout = argv.includes('--checkout');
const write = !argv.includes('--no-write');

const work = mkdtempSync(join(tmpdir(), 'shapelog-bench-cli-'));
const { bin: shapelog, description: installed } = fromCheckout ? checkoutCommand(root) : installedCommand(root, work);

const oneFact = join(work, 'one.rules');
writeFileSync(oneFact, 'edge(1, 2).\n');
const empty = join(work, 'empty.js');
writeFileSync(empty, '');
const resnet = join(root, 'examples', 'relay', 'models', 'resnet50.relay');
const cache = join(work, 'cache');
const env = benchEnv({ SHAPELOG_CACHE_DIR: cache });

interface Command {
  readonly id: string;
  readonly label: string;
  readonly file: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** What its output must contain. */
  readonly expect: RegExp;
}

const commands: Command[] = [
  { id: 'node', label: '`node empty.js` (node itself)', file: process.execPath, args: [empty], env, expect: /^$/ },
  ...(caCerts !== undefined && !keepCaCerts
    ? [
        {
          id: 'node-ca',
          label: `\`node empty.js\` with NODE_EXTRA_CA_CERTS=${caCerts} (this machine's setting)`,
          file: process.execPath,
          args: [empty],
          env: { ...env, NODE_EXTRA_CA_CERTS: caCerts },
          expect: /^$/,
        },
      ]
    : []),
  {
    id: 'query',
    label: '`shapelog query one.rules` (one fact)',
    file: shapelog,
    args: ['query', oneFact],
    env,
    expect: /^% edge \(1 fact\)\nedge\(1, 2\)\.\n$/,
  },
  {
    id: 'rules',
    label: '`shapelog infer resnet50.relay` (rules)',
    file: shapelog,
    args: ['infer', resnet],
    env,
    expect: /nn\.softmax\(%\d+\) \/\* ty=Tensor\[\(1, 1000\), float32\] \*\//,
  },
  {
    id: 'relay',
    label: '`shapelog infer resnet50.relay --strategy relay`',
    file: shapelog,
    args: ['infer', resnet, '--strategy', 'relay'],
    env,
    expect: /nn\.softmax\(%\d+\) \/\* ty=Tensor\[\(1, 1000\), float32\] \*\//,
  },
  {
    id: 'rules-nocache',
    label: '`shapelog infer resnet50.relay` (rules, SHAPELOG_CACHE=off)',
    file: shapelog,
    args: ['infer', resnet],
    env: { ...env, SHAPELOG_CACHE: 'off' },
    expect: /nn\.softmax\(%\d+\) \/\* ty=Tensor\[\(1, 1000\), float32\] \*\//,
  },
];

function run(c: Command): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(c.file, c.args, { env: c.env, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0 || !c.expect.test(r.stdout)) throw new Error(`${c.label}: exit ${r.status}\n${r.stderr}\n${r.stdout.slice(0, 500)}`);
  return ms;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const loadBefore = loadavg()[0]!;
// two unmeasured rounds: the first checks every output and writes the library's cache,
// the second the code caches (bin/shapelog.js leaves them to a run that does not compile the library)
for (let round = 0; round < 2; round++) for (const c of commands) run(c);
const samples = new Map<string, number[]>(commands.map((c) => [c.id, []]));
for (let i = 0; i < runs; i++) {
  const order = commands.map((_, k) => commands[(i + k) % commands.length]!);
  for (const c of order) samples.get(c.id)!.push(run(c));
  process.stderr.write(`round ${i + 1}/${runs}: ${commands.map((c) => `${c.id} ${samples.get(c.id)!.at(-1)!.toFixed(0)}`).join(', ')} ms\n`);
}
const loadAfter = loadavg()[0]!;
rmSync(work, { recursive: true, force: true });

const rows = commands.map((c) => {
  const ms = samples.get(c.id)!;
  return { id: c.id, command: c.label, medianMs: median(ms), minMs: Math.min(...ms), maxMs: Math.max(...ms), samplesMs: ms };
});
const med = (id: string) => rows.find((r) => r.id === id)!.medianMs;
const targets = [
  { id: 'query', description: 'one-fact query', measured: med('query'), unit: 'ms', requirement: '≤ 150 ms', pass: med('query') <= 150 },
  { id: 'rules', description: 'infer ResNet-50, rules strategy', measured: med('rules'), unit: 'ms', requirement: '≤ 400 ms', pass: med('rules') <= 400 },
  {
    id: 'rules/relay',
    description: 'infer ResNet-50, rules / relay strategy',
    measured: med('rules') / med('relay'),
    unit: '×',
    requirement: '≤ 1.3×',
    pass: med('rules') / med('relay') <= 1.3,
  },
];
// The same ratio round by round: rules and relay run in the same round, close in time, so a
// slow spell of the machine falls on both. Shown beside the verdict (which stays the ratio of
// the medians) as a measure of how far one run's ratio can be trusted.
const paired = pairedRatio(samples.get('rules')!, samples.get('relay')!);
const report = {
  paired,
  machine: {
    date: new Date().toISOString(),
    node: process.version,
    cpus: `${cpus().length} × ${cpus()[0]?.model.trim()}`,
    loadAverage: { before: loadBefore, after: loadAfter },
  },
  package: installed,
  runs,
  nodeExtraCaCerts: caCerts === undefined ? 'not set' : keepCaCerts ? 'kept' : "removed from the commands' environment",
  rows,
  targets,
};
const fmt = (x: number) => x.toFixed(0);
const md = [
  `Measured ${report.machine.date} on ${report.machine.cpus}, node ${report.machine.node}; 1-minute load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after. Package: ${installed}. Wall-clock milliseconds from spawn to exit of a fresh process, ${runs} rounds, the commands alternating. ${caCertsNote()}`,
  '',
  '| command | median (ms) | min | max | over node |',
  '|---|--:|--:|--:|--:|',
  ...rows.map(
    (r) =>
      `| ${r.command} | ${fmt(r.medianMs)} | ${fmt(r.minMs)} | ${fmt(r.maxMs)} | ${r.id === 'node' || r.id === 'node-ca' ? '' : `+${fmt(r.medianMs - med('node'))}`} |`,
  ),
  '',
  '| target | measured | required | result |',
  '|---|--:|--:|---|',
  ...targets.map(
    (t) =>
      `| ${t.description} | ${t.unit === '×' ? `${t.measured.toFixed(2)}×` : `${fmt(t.measured)} ms`} | ${t.requirement} | **${t.pass ? 'PASS' : 'FAIL'}** |`,
  ),
  '',
  `Rules / relay round by round (the two commands of a round run close in time): median ${paired.median.toFixed(2)}×, quartiles ${paired.q1.toFixed(2)}×–${paired.q3.toFixed(2)}× over ${runs} rounds.`,
].join('\n');
if (write) {
  mkdirSync(join(benchDir, 'results'), { recursive: true });
  writeFileSync(join(benchDir, 'results', 'cli.json'), `${JSON.stringify(report, null, 2)}\n`);
  const readme = join(benchDir, 'README.md');
  const text = readFileSync(readme, 'utf8');
  const block = `<!-- cli:begin -->\n${md}\n<!-- cli:end -->`;
  writeFileSync(
    readme,
    text.includes('<!-- cli:begin -->')
      ? text.replace(/<!-- cli:begin -->[\s\S]*<!-- cli:end -->/, block)
      : `${text.trimEnd()}\n\n## Cold start (\`npm run bench:cli\`)\n\nEvery command as a user runs it: the packed package installed from its tarball, a fresh process per sample (see \`bench/cli.bench.ts\`). \`--runs N\` (default 11), \`--checkout\` (time bin/shapelog.js in the repository instead).\n\n${block}\n`,
  );
}
console.log(md);
for (const t of targets)
  console.log(`${t.pass ? 'PASS' : 'FAIL'} ${t.description}: ${t.unit === '×' ? `${t.measured.toFixed(2)}×` : `${fmt(t.measured)} ms`} (${t.requirement})`);
