// Times whole-program inference of one workload with one strategy in this fresh process:
// warm-up runs (up to 30 or 2 s, at least one, as bench/engine-case.ts), then five timed
// runs in steady state (no forced collection: what a run leaves to collect is part of
// its cost); prints the median as one JSON line `{ "ms", "instances", "errors" }`.
// Usage: node --expose-gc --import=tsx bench/infer-case.ts <workload> <rules|relay>
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inferText, type InferStrategy } from '../solver/infer/infer.js';
import { syntheticProgram } from '../scripts/gen-models.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function workloadText(id: string): string {
  if (id === 'resnet50') return readFileSync(join(root, 'examples/relay/models/resnet50.relay'), 'utf8');
  if (id === 'bert12') return readFileSync(join(root, 'examples/relay/models/bert12.relay'), 'utf8');
  const m = /^synthetic-(\d+)$/.exec(id);
  if (m) return syntheticProgram(Number(m[1]));
  throw new Error(`unknown workload ${id}`);
}

const [id, strategy] = process.argv.slice(2) as [string, InferStrategy];
const text = workloadText(id);
const once = () => inferText(text, `${id}.relay`, strategy, { maxMillis: 600_000 });
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const warmStart = performance.now();
for (let i = 0; i < 30 && (i === 0 || performance.now() - warmStart < 2000); i++) once();
void gc;
const times: number[] = [];
let r = once();
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  r = once();
  times.push(performance.now() - t0);
}
const ms = times.sort((a, b) => a - b)[2]!;
console.log(JSON.stringify({ ms, instances: r.outcome.instances, errors: r.diagnostics.filter((d) => d.severity === 'error').length }));
