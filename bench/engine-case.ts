// Times one benchmark case in this fresh process: warm-up runs until thirty have run or
// two seconds have passed (at least one; each count is checked), so that a fast case is
// measured with a warm JIT as a slow one is; then the median of three timed runs (no
// forced collection: it was found to slow the following runs). Prints one JSON line
// `{ "ms": ..., "stats": ... }`. Usage: node --expose-gc --import=tsx bench/engine-case.ts '<case id>'
import { loadEngine } from './engine-api.js';
import { cases, check, runEngine, type EngineRun } from './cases.js';

const id = process.argv[2];
const c = cases().find((x) => x.id === id);
if (c === undefined) {
  console.error(`unknown case '${id}'; cases: ${cases().map((x) => x.id).join(', ')}`);
  process.exit(2);
}
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const { api } = await loadEngine();
const warmStart = performance.now();
for (let i = 0; i < 30 && (i === 0 || performance.now() - warmStart < 2000); i++) check(c, runEngine(api, c));
void gc;
const times: number[] = [];
let r = runEngine(api, c);
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  r = runEngine(api, c);
  times.push(performance.now() - t0);
}
const ms = times.sort((a, b) => a - b)[1]!;
check(c, r);
const out: EngineRun = { ms, stats: { ...r.stats } };
console.log(JSON.stringify(out));
