// Times whole-program inference of one workload with one strategy in this fresh process:
// warm-up runs for 4 s (at least one, at most 300), then five timed runs in steady state
// (no forced collection: what a run leaves to collect is part of its cost); prints the
// median as one JSON line `{ "ms", "instances", "errors" }`. The warm-up is by time, not
// by count: the rules strategy runs far more distinct code (a plan per rule) and its
// ResNet-50 times settle only after ~40 runs (25-80 ms before, ~23 ms after), the relay
// strategy's after ~15; a fixed 30 runs measured the rules half-warm.
// Usage: node --expose-gc --import=tsx bench/infer-case.ts <workload> <rules|relay>
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inferText, type InferStrategy } from '../typing/infer.js';
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
for (let i = 0; i < 300 && (i === 0 || performance.now() - warmStart < 4000); i++) once();
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
