// Times one benchmark case in this fresh process: warm-up runs until thirty have run or
// two seconds have passed (at least one; each count is checked), so that a fast case is
// measured with a warm JIT as a slow one is; then the median of three timed runs (no
// forced collection: it was found to slow the following runs). Prints one JSON line
// `{ "ms": ..., "stats": ... }`. What is timed is evaluation: the program is parsed and
// compiled once, untimed (the engine's `prepareText`), and each run solves it afresh
// from its given facts, as SWI-Prolog's figure times the query after consulting the
// file and the plain-JavaScript floor (bench/plain-js.ts, timed the same way) its loop
// over edges already read. Usage: node --import=tsx bench/engine-case.ts '<case id>'
import { loadEngine, type RunResult } from './engine-api.js';
import { cases, check, prepareEngine, type EngineCase, type EngineRun } from './cases.js';
import { plainInput, plainRun } from './plain-js.js';

const id = process.argv[2];
const c = cases().find((x) => x.id === id);
if (c === undefined) {
  console.error(
    `unknown case '${id}'; cases: ${cases()
      .map((x) => x.id)
      .join(', ')}`,
  );
  process.exit(2);
}

/** The case as a timed part (`run`) and an untimed check of its result, which returns the engine's stats (null for the floor). */
interface Runner {
  run(): unknown;
  check(result: unknown): EngineRun['stats'];
}

async function runner(c: EngineCase): Promise<Runner> {
  if (c.strategy === 'plain-js') {
    const input = plainInput(c.workload, c.goal !== null);
    const loop = plainRun(c.workload, c.goal !== null);
    return {
      run: () => loop(input),
      check: (got) => {
        if (got !== c.expected) throw new Error(`COUNT MISMATCH in ${c.id}: the plain loop gave ${String(got)}, expected ${c.expected}`);
        return null;
      },
    };
  }
  const { api } = await loadEngine();
  const evaluate = prepareEngine(api, c, true);
  return {
    run: evaluate,
    check: (r) => {
      check(c, r as RunResult);
      return { ...(r as RunResult).stats };
    },
  };
}

const { run, check: checked } = await runner(c);
const warmStart = performance.now();
for (let i = 0; i < 30 && (i === 0 || performance.now() - warmStart < 2000); i++) checked(run());
const times: number[] = [];
let last: unknown = run();
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  last = run();
  times.push(performance.now() - t0);
}
const ms = times.sort((a, b) => a - b)[1]!;
const out: EngineRun = { ms, stats: checked(last) };
console.log(JSON.stringify(out));
