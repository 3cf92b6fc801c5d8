// Whole-program inference per strategy: `npm run bench:infer [-- --reps N]`. Each sample
// is a fresh process (bench/infer-case.ts) with warm-up; the two strategies' samples
// alternate; medians are reported. Writes
// bench/results/infer.json and the table between the infer markers in bench/README.md.
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../cli/sample-stats.js';

const benchDir = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const repsAt = argv.indexOf('--reps');
const reps = repsAt >= 0 ? Math.max(1, Number(argv[repsAt + 1])) : 7;
const workloads = ['resnet50', 'bert12', 'synthetic-10000', 'synthetic-100000'];
const strategies = ['rules', 'relay'] as const;

interface Sample {
  ms: number;
  instances: number;
  errors: number;
}

function sample(id: string, strategy: string): Sample {
  const child = spawnSync(process.execPath, ['--expose-gc', '--import=tsx', join(benchDir, 'infer-case.ts'), id, strategy], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (child.status !== 0) throw new Error(`${id} ${strategy}: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Sample;
}

const rows: { workload: string; strategy: string; instances: number; errors: number; medianMs: number; samplesMs: number[]; usPerInstance: number }[] = [];
for (const id of workloads) {
  // the strategies' samples alternate, so that a slow spell of the machine falls on both
  const n = id === 'synthetic-100000' ? Math.min(reps, 3) : reps;
  const samples = new Map<string, Sample[]>(strategies.map((s) => [s, []]));
  for (let i = 0; i < n; i++) {
    for (const s of strategies) {
      const list = samples.get(s)!;
      list.push(sample(id, s));
      process.stderr.write(`${id} ${s}: run ${i + 1}/${n} … ${list.at(-1)!.ms.toFixed(0)} ms\n`);
    }
  }
  for (const s of strategies) {
    const list = samples.get(s)!;
    const ms = list.map((x) => x.ms);
    const m = median(ms);
    rows.push({
      workload: id,
      strategy: s,
      instances: list[0]!.instances,
      errors: list[0]!.errors,
      medianMs: m,
      samplesMs: ms,
      usPerInstance: (m * 1000) / Math.max(1, list[0]!.instances),
    });
  }
}
const get = (w: string, s: string) => rows.find((r) => r.workload === w && r.strategy === s)!;
const targets = [
  {
    id: 'resnet50',
    description: 'rules / relay time, ResNet-50',
    measured: get('resnet50', 'rules').medianMs / get('resnet50', 'relay').medianMs,
    requirement: '≤ 2×',
    pass: (x: number) => x <= 2,
  },
  {
    id: 'bert12',
    description: 'rules / relay time, 12-layer BERT',
    measured: get('bert12', 'rules').medianMs / get('bert12', 'relay').medianMs,
    requirement: '≤ 2×',
    pass: (x: number) => x <= 2,
  },
  ...strategies.map((s) => ({
    id: `scaling-${s}`,
    description: `${s}: time per instance at 100,000 calls / at 10,000`,
    measured: get('synthetic-100000', s).usPerInstance / get('synthetic-10000', s).usPerInstance,
    requirement: '≤ 1.5×',
    pass: (x: number) => x <= 1.5,
  })),
];
const report = {
  machine: { date: new Date().toISOString(), node: process.version, cpus: `${cpus().length} × ${cpus()[0]?.model.trim()}` },
  reps,
  rows,
  targets: targets.map((t) => ({ id: t.id, description: t.description, measured: t.measured, requirement: t.requirement, pass: t.pass(t.measured) })),
};
mkdirSync(join(benchDir, 'results'), { recursive: true });
writeFileSync(join(benchDir, 'results', 'infer.json'), `${JSON.stringify(report, null, 2)}\n`);
const md = [
  `Measured ${report.machine.date} on ${report.machine.cpus}, node ${report.machine.node}. Medians of ${reps} runs (3 for 100,000 calls), each in a fresh process after warm-up, the strategies' runs alternating; one \`inferText\` call (parse, constraints, solve).`,
  '',
  '| program | strategy | relation instances | median (ms) | µs / instance |',
  '|---|---|--:|--:|--:|',
  ...rows.map((r) => `| ${r.workload} | ${r.strategy} | ${r.instances.toLocaleString('en-US')} | ${r.medianMs.toFixed(0)} | ${r.usPerInstance.toFixed(1)} |`),
  '',
  '| target | measured | required | result |',
  '|---|--:|--:|---|',
  ...report.targets.map((t) => `| ${t.description} | ${t.measured.toFixed(2)}× | ${t.requirement} | **${t.pass ? 'PASS' : 'FAIL'}** |`),
].join('\n');
const readme = join(benchDir, 'README.md');
const text = readFileSync(readme, 'utf8');
const block = `<!-- infer:begin -->\n${md}\n<!-- infer:end -->`;
writeFileSync(
  readme,
  text.includes('<!-- infer:begin -->')
    ? text.replace(/<!-- infer:begin -->[\s\S]*<!-- infer:end -->/, block)
    : `${text}\n## Inference (\`npm run bench:infer\`)\n\n${block}\n`,
);
console.log(md);
