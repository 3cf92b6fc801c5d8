// The engine benchmark cases, shared by the harness (bench/engine.bench.ts) and the
// process that times one case (bench/engine-case.ts).
import { BENCH_LIMITS, type EngineApi, type RunResult, type StrategyName } from './engine-api.js';
import type { Row } from './report.js';
import type { Sample } from './sampling.js';
import type { SwiMode } from './swipl.js';
import { chain1000, chain200, random1000, random2000, sgTree10, type Workload } from './workloads.js';

export interface EngineRun extends Sample {
  readonly stats: Row['stats'];
}

/** `plain-js`: the floor, a plain-JavaScript semi-naive loop over Sets (bench/plain-js.ts), not the engine. */
export type CaseStrategy = StrategyName | 'plain-js';

export interface EngineCase {
  readonly id: string;
  readonly workload: Workload;
  readonly strategy: CaseStrategy;
  /** When set, the answers of this goal are counted; otherwise all facts of the workload's predicate. */
  readonly goal: string | null;
  readonly expected: number;
  /** The SWI measurement computing the same answers. */
  readonly swi: SwiMode;
}

export function cases(): EngineCase[] {
  const full = (w: Workload, strategy: CaseStrategy): EngineCase => ({
    id: `${w.id} ${strategy}`,
    workload: w,
    strategy,
    goal: null,
    expected: w.expected,
    swi: 'full',
  });
  const [a, b, c, d, e] = [chain1000(), random1000(), sgTree10(), chain200(), random2000()];
  const q = e.query!;
  return [
    full(a, 'seminaive'),
    full(b, 'seminaive'),
    full(c, 'seminaive'),
    full(d, 'naive'),
    full(d, 'seminaive'),
    full(e, 'seminaive'),
    { id: `${e.id} demand ${q.goal}`, workload: e, strategy: 'demand', goal: q.goal, expected: q.expected, swi: 'query' },
    // what persistence costs: the same plans over the mutable store
    full(a, 'mutable'),
    full(b, 'mutable'),
    full(c, 'mutable'),
    full(e, 'mutable'),
    // the floor: plain JavaScript over Sets
    full(a, 'plain-js'),
    full(b, 'plain-js'),
    full(c, 'plain-js'),
    full(e, 'plain-js'),
    { id: `${e.id} plain-js ${q.goal}`, workload: e, strategy: 'plain-js', goal: q.goal, expected: q.expected, swi: 'query' },
  ];
}

export function runEngine(api: EngineApi, c: EngineCase): RunResult {
  return prepareEngine(api, c, false)();
}

/**
 * The case as a function that evaluates it. With `evaluationOnly` and an engine that
 * has `prepareText`, parsing and compiling happen here, once, and the function only
 * solves (what SWI-Prolog's timing and the plain-JavaScript floor measure: evaluation of
 * a loaded program); otherwise every call parses, compiles and solves.
 */
export function prepareEngine(api: EngineApi, c: EngineCase, evaluationOnly: boolean): () => RunResult {
  if (c.strategy === 'plain-js') throw new Error(`${c.id} is not an engine case`);
  const base = { file: `<bench ${c.workload.id}>`, strategy: c.strategy, limits: BENCH_LIMITS };
  const options = c.goal === null ? base : { ...base, goal: c.goal };
  /** `f`, with what the engine throws named by the case. */
  const named = <T>(f: () => T): T => {
    try {
      return f();
    } catch (e) {
      throw new Error(`${c.id}: the engine threw: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  };
  const prepareText = evaluationOnly ? api.prepareText : undefined;
  if (prepareText !== undefined) {
    const prepared = named(() => prepareText.call(api, c.workload.source, options));
    return () => named(() => prepared.solve());
  }
  return () => named(() => api.runText(c.workload.source, options));
}

/** Throws unless the engine derived exactly the expected number of answers. */
export function check(c: EngineCase, r: RunResult): void {
  let got: number;
  if (c.goal === null) got = r.factCount(c.workload.pred);
  else if (r.answers === null) throw new Error(`${c.id}: the engine returned no answers for goal ${c.goal}`);
  else got = r.answers.length;
  if (got !== c.expected) {
    const what = c.goal === null ? `${c.workload.pred} facts` : `answers to ${c.goal}`;
    throw new Error(`COUNT MISMATCH in ${c.id}: the engine gave ${got} ${what}, expected ${c.expected}`);
  }
}
