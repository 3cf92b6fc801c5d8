// Times one benchmark case in this fresh process: warm-up runs until thirty have run or
// two seconds have passed (at least one; each count is checked), so that a fast case is
// measured with a warm JIT as a slow one is; then a full collection and the timed run. Prints one JSON line
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
gc();
const t0 = performance.now();
const r = runEngine(api, c);
const ms = performance.now() - t0;
check(c, r);
const out: EngineRun = { ms, stats: { ...r.stats } };
console.log(JSON.stringify(out));
