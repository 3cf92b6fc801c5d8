// Times whole-program inference of one workload with one strategy in this fresh process:
// warm-up runs (up to 3 or 2 s), a full collection, then the timed run. Prints one JSON
// line `{ "ms", "instances", "errors" }`.
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
for (let i = 0; i < 3 && (i === 0 || performance.now() - warmStart < 2000); i++) once();
gc();
const t0 = performance.now();
const r = once();
const ms = performance.now() - t0;
console.log(JSON.stringify({ ms, instances: r.outcome.instances, errors: r.diagnostics.filter((d) => d.severity === 'error').length }));
