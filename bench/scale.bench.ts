// Big inputs, whole process: `npm run bench:scale [-- --facts N] [--bindings N]`.
//
// 1. A facts file of 2 million facts (~50 MB) plus two rules reading them, through
//    `shapelog query FILE --stats` (every fact printed, to /dev/null). Target: within
//    30 s and 2 GB peak RSS.
// 2. A Relay program of 1.7 million bindings (a chain of elementwise calls), through
//    `shapelog infer FILE` with each strategy. Target: typed within 60 s and 3 GB, or
//    refused early with a clear limit error (by default, more than 500,000 bindings are
//    refused before parsing: frontends/relay/binding-count.ts).
// Each run is a fresh process (bin/shapelog.js, compiled code: run `npm run build`
// first), timed wall-clock and in CPU time (user + system: what counts on a shared
// machine) with its peak resident memory read by /usr/bin/time; memory
// per fact and per binding = (peak RSS - RSS of the same command on a tiny input) / count.
//
// Writes bench/results/scale.json and the table between the scale markers in bench/README.md.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = join(benchDir, '..');
const bin = join(root, 'bin', 'shapelog.js');
const { values } = parseArgs({
  options: { facts: { type: 'string', default: '2000000' }, bindings: { type: 'string', default: '1700000' }, 'no-write': { type: 'boolean', default: false } },
});
const factCount = Number(values.facts);
const bindingCount = Number(values.bindings);
if (!existsSync('/usr/bin/time')) {
  console.error('bench:scale needs /usr/bin/time (Debian package `time`) to read peak memory');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'shapelog-scale-'));
const loadStart = loadavg()[0]!;

/** Writes `count` lines made by `line` to `path`, streaming (the file is larger than a string should be). */
async function writeLines(path: string, head: string, count: number, line: (i: number) => string, tail = ''): Promise<void> {
  const out = createWriteStream(path);
  const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((ok) => out.once('drain', () => ok())));
  await write(head);
  let chunk = '';
  for (let i = 0; i < count; i++) {
    chunk += line(i);
    if (chunk.length > 1 << 20) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk + tail);
  await new Promise<void>((ok) => out.end(() => ok()));
}

interface Run {
  readonly seconds: number;
  /** User + system CPU time: on a shared machine, what the run itself cost. */
  readonly cpuSeconds: number;
  readonly peakMb: number;
  readonly code: number;
  readonly message: string;
}

/** One fresh process under /usr/bin/time; stdout to /dev/null. */
function measure(args: readonly string[]): Run {
  const p = spawnSync('/usr/bin/time', ['-f', 'SCALE %e %M %U %S', process.execPath, bin, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const m = /SCALE ([\d.]+) (\d+) ([\d.]+) ([\d.]+)\s*$/.exec(p.stderr);
  const message =
    p.stderr
      .replace(/SCALE [\d.]+ \d+ [\d.]+ [\d.]+\s*$/, '')
      .trim()
      .split('\n')
      .filter((l) => /error|stopped/.test(l))[0] ?? '';
  return {
    seconds: m ? Number(m[1]) : NaN,
    cpuSeconds: m ? Number(m[3]) + Number(m[4]) : NaN,
    peakMb: m ? Number(m[2]) / 1024 : NaN,
    code: p.status ?? -1,
    message,
  };
}

const rows: { job: string; count: number; unit: string; sizeMb: number; run: Run; baseMb: number; bytesPer: number; target: string; pass: boolean }[] = [];
const report = (job: string, count: number, unit: string, file: string, run: Run, base: Run, seconds: number, gb: number, refusalOk: boolean) => {
  const bytesPer = ((run.peakMb - base.peakMb) * 2 ** 20) / count;
  const typed = run.code === 0 && run.seconds <= seconds && run.peakMb <= gb * 1024;
  const refused = refusalOk && run.code === 1 && /limit|budget/.test(run.message) && run.peakMb <= gb * 1024;
  const row = {
    job,
    count,
    unit,
    sizeMb: statSync(file).size / 2 ** 20,
    run,
    baseMb: base.peakMb,
    bytesPer,
    target: `<= ${seconds} s, <= ${gb} GB${refusalOk ? ', or refused with a limit error' : ''}`,
    pass: typed || refused,
  };
  rows.push(row);
  console.log(
    `${job.padEnd(28)} ${String(count).padStart(9)} ${unit}  ${row.sizeMb.toFixed(1)} MB  ${run.seconds.toFixed(1)} s (CPU ${run.cpuSeconds.toFixed(1)} s)  peak ${run.peakMb.toFixed(0)} MB  ${bytesPer.toFixed(0)} B/${unit}  exit ${run.code}${run.message ? `  (${run.message})` : ''}  ${row.pass ? 'PASS' : 'FAIL'}`,
  );
};

try {
  // ---- 1. facts
  const rules = 'succ(X) :- edge(X, _).\nlinked(X, Z) :- edge(X, Y), edge(Y, Z), X < 100.\n';
  const facts = join(work, 'facts.rules');
  await writeLines(facts, rules, factCount, (i) => `edge(${i}, ${(i * 7919 + 13) % factCount}).\n`);
  const tinyFacts = join(work, 'tiny.rules');
  writeFileSync(tinyFacts, `${rules}edge(1, 2).\n`);
  const baseFacts = measure(['query', tinyFacts, '--max-time', '600000']);
  report(
    'query: facts + 2 rules',
    factCount,
    'fact',
    facts,
    measure(['query', facts, '--max-time', '600000', '--max-memory', '6000']),
    baseFacts,
    30,
    2,
    false,
  );

  // ---- 2. a Relay program of many bindings
  const relay = join(work, 'chain.relay');
  const head = '#[version = "0.0.5"]\ndef @main(%x: Tensor[(8, 16), float32], %y: Tensor[(8, 16), float32]) {\n  %0 = add(%x, %y);\n';
  await writeLines(
    relay,
    head,
    bindingCount - 1,
    (i) => `  %${i + 1} = ${i % 2 === 0 ? 'multiply' : 'add'}(%${i}, %y);\n`,
    `  nn.relu(%${bindingCount - 1})\n}\n`,
  );
  const tinyRelay = join(work, 'tiny.relay');
  writeFileSync(tinyRelay, `${head}  nn.relu(%0)\n}\n`);
  for (const strategy of ['rules', 'relay']) {
    const base = measure(['infer', tinyRelay, '--strategy', strategy]);
    report(
      `infer --strategy ${strategy}`,
      bindingCount,
      'binding',
      relay,
      measure(['infer', relay, '--strategy', strategy, '--max-time', '600000', '--max-memory', '6000']),
      base,
      60,
      3,
      true,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const summary = {
  date: new Date().toISOString().slice(0, 10),
  machine: `${cpus().length} cores, load ${loadStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`,
  rows,
};
if (!values['no-write']) {
  mkdirSync(join(benchDir, 'results'), { recursive: true });
  writeFileSync(join(benchDir, 'results', 'scale.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const table = [
    '| job | size | time | CPU time | peak RSS | memory per item | target | |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.job} | ${r.count.toLocaleString('en')} ${r.unit}s, ${r.sizeMb.toFixed(0)} MB | ${r.run.seconds.toFixed(1)} s | ${r.run.cpuSeconds.toFixed(1)} s | ${r.run.peakMb.toFixed(0)} MB | ${r.bytesPer.toFixed(0)} B | ${r.target} | ${r.pass ? 'PASS' : `FAIL${r.run.message ? `: ${r.run.message}` : ''}`} |`,
    ),
  ].join('\n');
  const block = `<!-- scale:begin -->\n${summary.date}, ${summary.machine}:\n\n${table}\n<!-- scale:end -->`;
  const readme = join(benchDir, 'README.md');
  const text = readFileSync(readme, 'utf8');
  writeFileSync(
    readme,
    text.includes('<!-- scale:begin -->')
      ? text.replace(/<!-- scale:begin -->[\s\S]*<!-- scale:end -->/, block)
      : `${text.trimEnd()}\n\n## Big inputs (\`npm run bench:scale\`)\n\n${block}\n`,
  );
}
process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
