// The SMT side of the prover: canonical dims (solver/terms/dims.ts) as z3 integer
// terms, and the three questions the prover asks about a path condition —
// is it satisfiable, does it entail a condition, a model (concrete sizes).
//
// Encoding: every size variable is a z3 Int with `v >= 0`; a polynomial is a sum
// of products; `a / b` is FLOOR division: z3's `div` is Euclidean, which equals
// floor division for a positive divisor, and floor(a / b) = (-a) div (-b) for a
// negative one; `a % b = a - b * (a / b)`; min/max are if-then-else. Every
// divisor met is asserted non-zero (dims have no value there), so "proved"
// means: for every assignment on which both answers are defined.
// Each question is one fresh solver with the caller's time limit; the answer
// 'unknown' (z3 gave up or timed out) is passed on, never guessed.
import { init } from 'z3-solver';
import { type Atom, type Dim, DimError, dimEvaluate, dimVariables } from '../../solver/terms/dims.js';
import { type Condition, conditionKey, negate } from './conditions.js';

export type { Condition };

type Z3 = Awaited<ReturnType<typeof init>>;
type Ctx = ReturnType<Z3['Context']> & { readonly __name?: 'shapelog' };
const CONTEXT_NAME = 'shapelog';
// z3's expression types are parameterised by the context name; the prover only
// needs integers and booleans of one context.
type IntExpr = ReturnType<Ctx['Int']['const']>;
type BoolExpr = ReturnType<IntExpr['ge']>;

export type SatAnswer = 'sat' | 'unsat' | 'unknown';

let z3: Promise<{ ctx: Ctx; api: Z3 }> | null = null;

/** z3, initialised once per process (~0.2 s). */
function context(): Promise<{ ctx: Ctx; api: Z3 }> {
  z3 ??= init().then((api) => ({ api, ctx: api.Context(CONTEXT_NAME as string) as Ctx }));
  return z3;
}

/** Translates dims to z3 terms over one context, collecting the side conditions (variables >= 0, divisors != 0). */
class Encoder {
  readonly side: BoolExpr[] = [];
  private readonly vars = new Map<string, IntExpr>();

  constructor(readonly ctx: Ctx) {}

  variable(name: string): IntExpr {
    let v = this.vars.get(name);
    if (v === undefined) {
      v = this.ctx.Int.const(name);
      this.vars.set(name, v);
      this.side.push(v.ge(0));
    }
    return v;
  }

  variables(): ReadonlyMap<string, IntExpr> {
    return this.vars;
  }

  dim(d: Dim): IntExpr {
    let sum: IntExpr = this.ctx.Int.val(d.constant);
    for (const t of d.terms) {
      let product: IntExpr = this.ctx.Int.val(t.coeff);
      for (const f of t.factors) product = product.mul(this.atom(f));
      sum = sum.add(product);
    }
    return sum;
  }

  private atom(a: Atom): IntExpr {
    switch (a.kind) {
      case 'var':
        return this.variable(a.name);
      case 'floordiv':
      case 'mod': {
        const p = this.dim(a.num);
        const q = this.dim(a.den);
        this.side.push(q.neq(0));
        const floor = this.ctx.If(q.gt(0), p.div(q), p.neg().div(q.neg())) as IntExpr;
        return a.kind === 'floordiv' ? floor : p.sub(q.mul(floor));
      }
      case 'min':
      case 'max': {
        const args = a.args.map((x) => this.dim(x));
        return args.slice(1).reduce((acc, x) => this.ctx.If(a.kind === 'min' ? x.lt(acc) : x.gt(acc), x, acc) as IntExpr, args[0]!);
      }
    }
  }

  condition(c: Condition): BoolExpr {
    const e = this.dim(c.e);
    return c.op === '==' ? e.eq(0) : c.op === '!=' ? e.neq(0) : e.ge(0);
  }
}

export interface SmtOptions {
  /** Per question, in milliseconds. */
  readonly timeoutMs: number;
}

/** How many questions went to z3 (the rest were answered by candidate points). */
export const smtStats = { calls: 0, millis: 0 };

/** Whether all `conds` (and `extra`, z3 terms built by the callback) can hold together. */
async function check(
  conds: readonly Condition[],
  options: SmtOptions,
  extra?: (enc: Encoder) => BoolExpr[],
  names: readonly string[] = [],
): Promise<{ answer: SatAnswer; model?: Record<string, number> }> {
  const { ctx } = await context();
  const started = Date.now();
  smtStats.calls++;
  if (process.env['SHAPELOG_SMT_TRACE']) process.stderr.write(`z3: ${conds.map(conditionKey).join(' & ')}\n`);
  const enc = new Encoder(ctx);
  for (const n of names) enc.variable(n);
  const goals = conds.map((c) => enc.condition(c));
  if (extra) goals.push(...extra(enc));
  // solvers and models are released here, not left to the garbage collector: z3's
  // WebAssembly heap (at most 2 GB) fills long before JavaScript's heap asks for a
  // collection, and a whole-library run would abort
  const solver = new ctx.Solver();
  try {
    solver.set('timeout', Math.max(1, Math.round(options.timeoutMs)));
    for (const g of [...enc.side, ...goals]) solver.add(g);
    const answer = (await solver.check()) as SatAnswer;
    smtStats.millis += Date.now() - started;
    if (answer !== 'sat') return { answer };
    const model = solver.model();
    try {
      const values: Record<string, number> = {};
      for (const [name, v] of enc.variables()) {
        const value = Number(model.eval(v, true).toString());
        values[name] = Number.isSafeInteger(value) ? value : 0;
      }
      return { answer, model: values };
    } finally {
      model.release();
    }
  } finally {
    solver.release();
  }
}

// ─── points tried before z3 ──────────────────────────────────────────────────
//
// A z3 question costs ~50-100 ms; most "is this satisfiable" questions have an
// obvious witness. So a fixed list of candidate points (distinct primes, all 0,
// all 1, all 2, seeded random small and large sizes) is evaluated first; z3 is
// asked only when none satisfies the conditions. A witness found this way is a
// real model (checked by exact evaluation), so this never changes an answer.

const PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97];

function candidatePoints(names: readonly string[]): Record<string, number>[] {
  const points: Record<string, number>[] = [];
  const make = (f: (i: number) => number) => Object.fromEntries(names.map((n, i) => [n, f(i)]));
  points.push(
    make((i) => PRIMES[i % PRIMES.length]!),
    make(() => 1),
    make(() => 2),
    make(() => 0),
    make((i) => 101 + i),
  );
  let seed = 12345;
  const next = (m: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % m;
  };
  for (let k = 0; k < 24; k++) points.push(make(() => next(k < 16 ? 9 : 300)));
  return points;
}

function holds(c: Condition, env: Record<string, number>): boolean {
  try {
    const v = dimEvaluate(c.e, env);
    return c.op === '==' ? v === 0 : c.op === '!=' ? v !== 0 : v >= 0;
  } catch (e) {
    if (e instanceof DimError) return false;
    throw e;
  }
}

/**
 * Makes the equalities `±v + rest == 0` true by setting v (latest condition first:
 * a path's substitutions are recorded in order, each in the variables left then).
 */
function repair(env: Record<string, number>, conds: readonly Condition[]): void {
  for (let i = conds.length - 1; i >= 0; i--) {
    const c = conds[i]!;
    if (c.op !== '==') continue;
    const t = c.e.terms.find((x) => x.factors.length === 1 && x.factors[0]!.kind === 'var' && Math.abs(x.coeff) === 1);
    if (t === undefined) continue;
    const name = (t.factors[0] as { name: string }).name;
    try {
      const without = dimEvaluate(c.e, { ...env, [name]: 0 }); // e = coeff*v + without
      const value = -without / t.coeff;
      if (Number.isSafeInteger(value) && value >= 0) env[name] = value;
    } catch (e) {
      if (!(e instanceof DimError)) throw e;
    }
  }
}

/** A candidate point satisfying every condition (and `accept`), or null. */
function witness(
  conds: readonly Condition[],
  names: readonly string[],
  accept: (env: Record<string, number>) => boolean = () => true,
): Record<string, number> | null {
  const all = [...new Set([...names, ...conditionVariables(conds)])];
  for (const env of candidatePoints(all)) {
    repair(env, conds);
    if (accept(env) && conds.every((c) => holds(c, env))) return env;
  }
  return null;
}

// Answers are memoised per process by the text of the question: the same
// question recurs across dtype variants of a combination and across operators.
const memo = new Map<string, Promise<unknown>>();

function remember<T>(key: string, compute: () => Promise<T>): Promise<T> {
  let p = memo.get(key) as Promise<T> | undefined;
  if (p === undefined) {
    if (memo.size > 50_000) memo.clear();
    p = compute();
    memo.set(key, p);
  }
  return p;
}

const keyOf = (conds: readonly Condition[]): string => [...new Set(conds.map(conditionKey))].sort().join(' & ');

/** Is the conjunction satisfiable? */
export async function satisfiable(conds: readonly Condition[], options: SmtOptions, forceZ3 = false): Promise<SatAnswer> {
  if (!forceZ3 && witness(conds, []) !== null) return 'sat';
  return remember(`sat ${keyOf(conds)}`, async () => (await check(conds, options)).answer);
}

/** 'yes' when `conds` entail `goal` (conds ∧ ¬goal is unsatisfiable), 'no' when not, 'unknown' when z3 cannot tell. */
export async function entails(conds: readonly Condition[], goal: Condition, options: SmtOptions): Promise<'yes' | 'no' | 'unknown'> {
  const without = [...conds, negate(goal)];
  if (witness(without, []) !== null) return 'no';
  const a = await remember(`sat ${keyOf(without)}`, async () => (await check(without, options)).answer);
  return a === 'unsat' ? 'yes' : a === 'sat' ? 'no' : 'unknown';
}

/**
 * A model of `conds` over the variables `names` (each one gets a value), or null
 * when unsatisfiable/unknown. `bound`: every variable <= bound; `distinctFrom`:
 * variables >= this and pairwise distinct (a "generic" point, away from 0 and 1).
 */
export async function model(
  conds: readonly Condition[],
  names: readonly string[],
  options: SmtOptions & { readonly bound?: number; readonly generic?: number },
): Promise<Record<string, number> | null> {
  const extra = (enc: Encoder): BoolExpr[] => {
    const out: BoolExpr[] = [];
    const vs = names.map((n) => enc.variable(n));
    if (options.bound !== undefined) for (const v of vs) out.push(v.le(options.bound));
    if (options.generic !== undefined) {
      for (const v of vs) out.push(v.ge(options.generic));
      if (vs.length > 1) out.push(enc.ctx.Distinct(...vs));
    }
    return out;
  };
  const distinct = (env: Record<string, number>) => new Set(names.map((n) => env[n])).size === names.length;
  const quick = witness(
    conds,
    names,
    (env) =>
      names.every((n) => (options.bound === undefined || env[n]! <= options.bound) && (options.generic === undefined || env[n]! >= options.generic)) &&
      (options.generic === undefined || distinct(env)),
  );
  if (quick !== null) return quick;
  const r = await remember(`model ${keyOf(conds)} | ${names.join(',')} | ${options.bound} ${options.generic}`, () => check(conds, options, extra, names));
  return r.answer === 'sat' ? r.model! : null;
}

/**
 * A sample point of `conds` for the faithfulness check: a generic one (all sizes
 * >= 2 and distinct) when a candidate point is, else any candidate point, else
 * a z3 model; null when there is none.
 */
export async function samplePoint(conds: readonly Condition[], names: readonly string[], options: SmtOptions): Promise<Record<string, number> | null> {
  const generic = witness(conds, names, (env) => names.every((n) => env[n]! >= 2) && new Set(names.map((n) => env[n])).size === names.length);
  return generic ?? witness(conds, names) ?? model(conds, names, options);
}

/** A model of `conds` in which `a != b` (two dims), or null when they are equal under `conds` ('unknown' when z3 gives up). */
export async function differ(
  conds: readonly Condition[],
  a: Dim,
  b: Dim,
  names: readonly string[],
  options: SmtOptions & { readonly bound?: number },
): Promise<Record<string, number> | null | 'unknown'> {
  const extra = (enc: Encoder): BoolExpr[] => {
    const out = [enc.dim(a).neq(enc.dim(b))];
    if (options.bound !== undefined) for (const n of names) out.push(enc.variable(n).le(options.bound));
    return out;
  };
  const quick = witness(conds, names, (env) => names.every((n) => options.bound === undefined || env[n]! <= options.bound) && differs(a, b, env));
  if (quick !== null) return quick;
  const r = await remember(`differ ${keyOf(conds)} | ${a.key} | ${b.key} | ${names.join(',')} | ${options.bound}`, () => check(conds, options, extra, names));
  return r.answer === 'sat' ? r.model! : r.answer === 'unsat' ? null : 'unknown';
}

function differs(a: Dim, b: Dim, env: Record<string, number>): boolean {
  try {
    return dimEvaluate(a, env) !== dimEvaluate(b, env);
  } catch (e) {
    if (e instanceof DimError) return false;
    throw e;
  }
}

/** Every variable of the conditions. */
export function conditionVariables(conds: readonly Condition[]): string[] {
  return [...new Set(conds.flatMap((c) => dimVariables(c.e)))].sort();
}
