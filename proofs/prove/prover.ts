// The prover: rules and twin proved equal for every size, by symbolic execution
// with case splits and an SMT solver.
//
// For one combination (combos.ts) both strategies run on the call whose dims are
// size variables, under a path condition: substitutions (`d3 := d1`, `d2 := 1`,
// equalities are applied to the inputs, so a strategy sees the equal variable or
// the constant itself) and facts (`d2 - 3 >= 0`, `d1 - 1 != 0`) that dims.ts
// consults on comparisons it cannot decide (conditions.ts). A question neither
// side can settle from the facts is put to z3: entailed or refuted by the path
// condition, it becomes a fact; otherwise the branch splits on it. On a leaf (no
// open question) the two answers must agree under the path condition: both
// errors, or the same structure, dtypes and holes with every dim pair proved
// equal by z3. A leaf is then checked against concrete runs at sample points of
// its path condition (a generic point, all sizes >= 2 and distinct, and a small
// one): a strategy whose concrete answer differs from its symbolic answer
// evaluated there decided something by the shape of an expression rather than by
// a comparison (a literal `1`, two distinct variables); the branch is split on
// the size equalities of that point (`d2 == 1`, `d1 == d3`) and explored again.
// Any symbolic disagreement is confirmed by concrete runs at a z3 model before it
// is reported; a model that does not confirm it refines the branch the same way.
//
// Verdicts: proved (with the number of leaves), counterexample (concrete sizes,
// both answers, the reference executor's view), unknown (depth limit, time
// budget, z3 gave up, or a symbolic run that no refinement made faithful).
import {
  type Dim,
  type Atom,
  DimError,
  dimAdd,
  dimConst,
  dimEvaluate,
  dimFloorDiv,
  dimMax,
  dimMin,
  dimMod,
  dimMul,
  dimNeg,
  dimSub,
  dimToString,
  dimVar,
  dimVariables,
  withDimAssumptions,
} from '../../solver/terms/dims.js';
import { parseType } from '../../relations/imperative/type-text.js';
import { type IType, TypeSolverState, dimValue } from '../../relations/imperative/types.js';
import type { TypeofAnswer, TypeofRequest } from '../../typing/typeof.js';
import { type Answers, answers as bothAnswers, classify } from '../cross-check/compare.js';
import { referenceCheck } from '../reference/check.js';
import { type Combo, comboText, instantiate, variablesOf } from './combos.js';
import { type Condition, PathContext, conditionKey, conditionText, negate } from './conditions.js';
import { differ, entails, model, samplePoint, satisfiable } from './smt.js';

export interface ProveOptions {
  /** Deepest chain of case splits. */
  readonly maxDepth: number;
  /** Milliseconds per z3 question. */
  readonly smtMs: number;
  /** Absolute time (Date.now()) after which remaining work is unknown ('time budget'). */
  readonly deadline: number;
  /** Both strategies' answers to a call; replaceable to prove a planted twin. */
  readonly answers?: (c: TypeofRequest) => Answers;
}

export interface Counterexample {
  readonly combo: string;
  /** The sizes (a z3 model), variable → value. */
  readonly sizes: Record<string, number>;
  /** The path condition of the branch. */
  readonly condition: string[];
  readonly call: TypeofRequest;
  /** A ready-to-paste `shapelog typeof` line with both answers. */
  readonly line: string;
  readonly rules: TypeofAnswer;
  readonly relay: TypeofAnswer;
  /** What the reference executor says of each answer (agree / unsound / stricter / skipped: why). */
  readonly reference: { readonly rules: string; readonly relay: string };
}

export type ComboVerdict =
  | { readonly kind: 'proved'; readonly branches: number }
  | { readonly kind: 'counterexample'; readonly branches: number; readonly counterexample: Counterexample }
  | { readonly kind: 'unknown'; readonly branches: number; readonly reason: string };

/** A path condition: substitutions applied to the inputs, facts for dims.ts, and every condition for z3. */
interface Path {
  readonly subst: ReadonlyMap<string, Dim>;
  readonly facts: readonly Condition[];
  /** In the original variables: the facts as assumed, and `v - rhs == 0` for each substitution. */
  readonly smt: readonly Condition[];
  readonly depth: number;
}

class Limit extends Error {}

// ─── substitution ────────────────────────────────────────────────────────────

function substitute(d: Dim, subst: ReadonlyMap<string, Dim>): Dim {
  if (subst.size === 0) return d;
  const atom = (a: Atom): Dim => {
    switch (a.kind) {
      case 'var':
        return subst.get(a.name) ?? dimVar(a.name);
      case 'floordiv':
        return dimFloorDiv(substitute(a.num, subst), substitute(a.den, subst));
      case 'mod':
        return dimMod(substitute(a.num, subst), substitute(a.den, subst));
      case 'min':
        return a.args.map((x) => substitute(x, subst)).reduce(dimMin);
      case 'max':
        return a.args.map((x) => substitute(x, subst)).reduce(dimMax);
    }
  };
  let out = dimConst(d.constant);
  for (const t of d.terms) out = dimAdd(out, t.factors.map(atom).reduce(dimMul, dimConst(t.coeff)));
  return out;
}

/** `e == 0` solved for a variable with coefficient ±1 that occurs nowhere else in e: [v, rhs]. */
function solveFor(e: Dim): [string, Dim] | null {
  for (const t of e.terms) {
    const f = t.factors[0];
    if (t.factors.length !== 1 || f?.kind !== 'var' || Math.abs(t.coeff) !== 1) continue;
    const v = dimVar(f.name);
    const rest = dimSub(e, t.coeff === 1 ? v : dimNeg(v));
    if (dimVariables(rest).includes(f.name)) continue;
    return [f.name, t.coeff === 1 ? dimNeg(rest) : rest];
  }
  return null;
}

function assume(p: Path, c: Condition): Path {
  const e = substitute(c.e, p.subst);
  const cond = { e, op: c.op };
  if (c.op === '==') {
    const solved = solveFor(e);
    if (solved !== null) {
      const [v, rhs] = solved;
      const one = new Map([[v, rhs]]);
      const subst = new Map<string, Dim>([...[...p.subst].map(([k, x]) => [k, substitute(x, one)] as [string, Dim]), [v, rhs]]);
      return {
        subst,
        facts: p.facts.map((f) => ({ e: substitute(f.e, one), op: f.op })),
        smt: [...p.smt, { e: dimSub(dimVar(v), rhs), op: '==' }],
        depth: p.depth,
      };
    }
  }
  return { ...p, facts: [...p.facts, cond], smt: [...p.smt, cond] };
}

// ─── comparing answers ───────────────────────────────────────────────────────

type Shape = { ok: true; pairs: [Dim, Dim][] } | { ok: false; why: string };

/** Structural comparison of two type texts: the dim pairs to prove equal, or why they cannot be. */
function pairUp(a: string, b: string): Shape {
  const pa = parseType(a, new TypeSolverState());
  const pb = parseType(b, new TypeSolverState());
  if (!pa.ok || !pb.ok) return a === b ? { ok: true, pairs: [] } : { ok: false, why: `${a} vs ${b}` };
  const pairs: [Dim, Dim][] = [];
  const walk = (x: IType, y: IType): string | null => {
    if (x.kind !== y.kind) return `${x.kind} vs ${y.kind}`;
    if (x.kind === 'tensor' && y.kind === 'tensor') {
      if (x.shape.length !== y.shape.length) return `rank ${x.shape.length} vs ${y.shape.length}`;
      if (JSON.stringify(x.dtype) !== JSON.stringify(y.dtype)) return 'dtype';
      for (const [i, dx] of x.shape.entries()) {
        const dy = y.shape[i]!;
        const vx = dimValue(dx);
        const vy = dimValue(dy);
        if (vx !== null && vy !== null) {
          if (vx.key !== vy.key) pairs.push([vx, vy]);
        } else if (dx.kind !== dy.kind) return `dim ${i}: ${dx.kind} vs ${dy.kind}`;
      }
      return null;
    }
    if (x.kind === 'tuple' && y.kind === 'tuple') {
      if (x.fields.length !== y.fields.length) return 'tuple size';
      for (const [i, f] of x.fields.entries()) {
        const w = walk(f, y.fields[i]!);
        if (w !== null) return w;
      }
      return null;
    }
    return printedEqual(a, b) ? null : `${a} vs ${b}`;
  };
  const why = walk(pa.type, pb.type);
  return why === null ? { ok: true, pairs } : { ok: false, why };
}

function printedEqual(a: string, b: string): boolean {
  return a === b;
}

/** All (result and argument) dim pairs of two type answers, or why they differ structurally. */
function answerPairs(r: TypeofAnswer, t: TypeofAnswer): Shape {
  if ('error' in r || 'error' in t) return 'error' in r && 'error' in t ? { ok: true, pairs: [] } : { ok: false, why: 'one side is an error' };
  if (r.args.length !== t.args.length) return { ok: false, why: 'argument count' };
  const pairs: [Dim, Dim][] = [];
  for (const [x, y] of [[r.type, t.type], ...r.args.map((a, i) => [a, t.args[i]!])] as [string, string][]) {
    const s = pairUp(x, y);
    if (!s.ok) return s;
    pairs.push(...s.pairs);
  }
  return { ok: true, pairs };
}

/** A symbolic answer evaluated at concrete sizes (every dim of every `Tensor[(…), …]` computed), or null if one cannot be. */
function evaluateAnswer(a: TypeofAnswer, env: Record<string, number>): TypeofAnswer | null {
  if ('error' in a) return a;
  const type = evaluateText(a.type, env);
  const args = a.args.map((x) => evaluateText(x, env));
  if (type === null || args.some((x) => x === null)) return null;
  return { type, args: args as string[] };
}

/** Rewrites the dims of every tensor type in `text` to their values under env. */
function evaluateText(text: string, env: Record<string, number>): string | null {
  let out = '';
  let i = 0;
  for (;;) {
    const start = text.indexOf('Tensor[(', i);
    if (start < 0) return out + text.slice(i);
    let j = start + 'Tensor[('.length;
    out += text.slice(i, j);
    let depth = 0;
    let current = '';
    const dims: string[] = [];
    for (; j < text.length; j++) {
      const ch = text[j]!;
      if (ch === '(') depth++;
      if (ch === ')' && depth-- === 0) break;
      if (ch === ',' && depth === 0) {
        dims.push(current);
        current = '';
      } else current += ch;
    }
    if (current.trim() !== '' || dims.length > 0) dims.push(current);
    const values = dims.map((d) => evaluateDimText(d.trim(), env));
    if (values.some((v) => v === null)) return null;
    out += values.join(', ');
    i = j;
  }
}

/** The value of one dim's text (`min(d0, 1)`, `(d2 + 2) / 2`, `_`, `?` kept), or null. */
function evaluateDimText(text: string, env: Record<string, number>): string | null {
  if (text === '_' || text === '?') return text;
  const tokens = text.match(/[A-Za-z_][A-Za-z0-9_]*|\d+|[-+*/%(),]/g) ?? [];
  let k = 0;
  const floorDiv = (x: number, y: number) => Math.floor(x / y);
  const primary = (): number => {
    const t = tokens[k++];
    if (t === undefined) throw new DimError('unexpected end');
    if (t === '(') {
      const v = sum();
      k++;
      return v;
    }
    if (t === '-') return -primary();
    if (t === 'min' || t === 'max') {
      k++; // (
      const args = [sum()];
      while (tokens[k] === ',') {
        k++;
        args.push(sum());
      }
      k++; // )
      return t === 'min' ? Math.min(...args) : Math.max(...args);
    }
    if (/^\d+$/.test(t)) return Number(t);
    const v = env[t];
    if (v === undefined) throw new DimError(`no value for ${t}`);
    return v;
  };
  const product = (): number => {
    let v = primary();
    while (tokens[k] === '*' || tokens[k] === '/' || tokens[k] === '%') {
      const op = tokens[k++];
      const w = primary();
      if ((op === '/' || op === '%') && w === 0) throw new DimError('division by zero');
      v = op === '*' ? v * w : op === '/' ? floorDiv(v, w) : v - w * floorDiv(v, w);
    }
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (tokens[k] === '+' || tokens[k] === '-') v = tokens[k++] === '+' ? v + product() : v - product();
    return v;
  };
  try {
    const v = sum();
    return k === tokens.length && Number.isSafeInteger(v) ? String(v) : null;
  } catch (e) {
    if (e instanceof DimError) return null;
    throw e;
  }
}

function canonAnswer(a: TypeofAnswer): string {
  if ('error' in a) return 'error';
  return [a.type, ...a.args].map((t) => evaluateText(t, {}) ?? t).join(' ; ');
}

// ─── the search ──────────────────────────────────────────────────────────────

interface Search {
  readonly combo: Combo;
  readonly names: readonly string[];
  readonly options: ProveOptions;
  readonly answers: (c: TypeofRequest) => Answers;
  leaves: number;
}

function callAt(s: Search, subst: ReadonlyMap<string, Dim>): TypeofRequest {
  return instantiate(s.combo, (i) => dimToString(subst.get(s.names[i]!) ?? dimVar(s.names[i]!)));
}

function concreteCall(s: Search, sizes: Record<string, number>): TypeofRequest {
  return instantiate(s.combo, (i) => String(sizes[s.names[i]!] ?? 0));
}

/** Values for every variable: the model's, with substituted variables computed from their right-hand side. */
function fullSizes(s: Search, p: Path, m: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of s.names) out[n] = m[n] ?? 0;
  for (const [v, rhs] of p.subst) {
    try {
      out[v] = dimEvaluate(rhs, out);
    } catch (e) {
      if (!(e instanceof DimError)) throw e;
    }
  }
  return out;
}

function checkTime(s: Search): void {
  if (Date.now() > s.options.deadline) throw new Limit('time budget');
}

async function ask<T>(q: Promise<T | 'unknown'>): Promise<T> {
  const a = await q;
  if (a === 'unknown') throw new Limit('z3 gave up (timeout per question)');
  return a;
}

function runSymbolic(s: Search, p: Path): { a: Answers; open: Condition[] } {
  const ctx = new PathContext(p.facts);
  const call = callAt(s, p.subst);
  const a = withDimAssumptions(ctx, () => s.answers(call));
  return { a, open: [...ctx.open.values()] };
}

/** Splits the branch on `c`: both sides, infeasible ones dropped. */
async function split(s: Search, p: Path, c: Condition): Promise<ComboVerdict> {
  if (p.depth >= s.options.maxDepth) throw new Limit(`split depth ${s.options.maxDepth} (at ${conditionText(c)})`);
  let branches = 0;
  for (const side of [c, negate(c)]) {
    const sat = await satisfiable([...p.smt, side], { timeoutMs: s.options.smtMs });
    if (sat === 'unknown') throw new Limit('z3 gave up (timeout per question)');
    if (sat === 'unsat') continue;
    const v = await explore(s, { ...assume(p, side), depth: p.depth + 1 });
    branches += v.branches;
    if (v.kind !== 'proved') return { ...v, branches };
  }
  return { kind: 'proved', branches };
}

/** One branch: settle the open questions, split, or compare on a leaf. */
async function explore(s: Search, p0: Path): Promise<ComboVerdict> {
  let p = p0;
  for (let round = 0; ; round++) {
    checkTime(s);
    const { a, open } = runSymbolic(s, p);
    const known = new Set(p.facts.map(conditionKey));
    let progressed = false;
    let undecided: Condition | null = null;
    for (const q of open) {
      if (known.has(conditionKey(q))) continue;
      const yes = await ask(entails(p.smt, q, { timeoutMs: s.options.smtMs }));
      if (yes === 'yes') {
        p = assume(p, q);
        progressed = true;
        continue;
      }
      const no = await ask(entails(p.smt, negate(q), { timeoutMs: s.options.smtMs }));
      if (no === 'yes') {
        p = assume(p, negate(q));
        progressed = true;
        continue;
      }
      undecided ??= q;
    }
    if (progressed && round < 16) continue;
    if (undecided !== null) return split(s, p, undecided);
    return leaf(s, p, a);
  }
}

async function leaf(s: Search, p: Path, a: Answers): Promise<ComboVerdict> {
  const shape = answerPairs(a.rules, a.relay);
  const opts = { timeoutMs: s.options.smtMs };
  if (!shape.ok) {
    const m = (await model(p.smt, s.names, { ...opts, bound: 8 })) ?? (await model(p.smt, s.names, opts));
    if (m === null) throw new Limit('z3 found no model of a feasible branch');
    return confirm(s, p, a, m, shape.why);
  }
  for (const [x, y] of shape.pairs) {
    let m = await ask(differ(p.smt, x, y, s.names, { ...opts, bound: 8 }));
    if (m === null) m = await ask(differ(p.smt, x, y, s.names, opts));
    if (m !== null) return confirm(s, p, a, m, `${dimToString(x)} vs ${dimToString(y)}`);
  }
  // symbolic agreement: check that the symbolic runs are faithful at sample points
  const points = [await samplePoint(p.smt, s.names, opts), await model(p.smt, s.names, { ...opts, bound: 8 })];
  for (const m of points) {
    if (m === null) continue;
    const sizes = fullSizes(s, p, m);
    const concrete = s.answers(concreteCall(s, sizes));
    if (classify(concrete.rules, concrete.relay).kind === 'disagree')
      return { kind: 'counterexample', branches: 1, counterexample: counterexample(s, p, sizes, concrete) };
    const faithful = (['rules', 'relay'] as const).every((side) => {
      const expected = evaluateAnswer(a[side], sizes);
      return expected !== null && canonAnswer(expected) === canonAnswer(concrete[side]);
    });
    if (!faithful) return refine(s, p, sizes, 'a symbolic run differs from the concrete run');
  }
  s.leaves++;
  return { kind: 'proved', branches: 1 };
}

/** A symbolic disagreement at model m: confirmed by concrete runs, or the branch is refined. */
async function confirm(s: Search, p: Path, a: Answers, m: Record<string, number>, why: string): Promise<ComboVerdict> {
  const sizes = fullSizes(s, p, m);
  const concrete = s.answers(concreteCall(s, sizes));
  if (classify(concrete.rules, concrete.relay).kind === 'disagree')
    return { kind: 'counterexample', branches: 1, counterexample: counterexample(s, p, sizes, concrete) };
  void a;
  return refine(s, p, sizes, `symbolic answers differ (${why}) but concrete ones agree`);
}

/** Splits on a size equality that holds at `sizes` and is open under p (`d2 == 1`, `d0 == 0`, `d1 == d3`). */
async function refine(s: Search, p: Path, sizes: Record<string, number>, why: string): Promise<ComboVerdict> {
  const live = s.names.filter((n) => !p.subst.has(n));
  const candidates: Condition[] = [];
  for (const v of live) for (const k of sizes[v]! <= 1 ? [sizes[v]!, 1 - sizes[v]!] : [1, 0]) candidates.push({ e: dimSub(dimVar(v), dimConst(k)), op: '==' });
  for (const [i, v] of live.entries())
    for (const w of live.slice(i + 1)) if (sizes[v] === sizes[w]) candidates.push({ e: dimSub(dimVar(v), dimVar(w)), op: '==' });
  for (const c of candidates) {
    if ((await entails(p.smt, c, { timeoutMs: s.options.smtMs })) !== 'no') continue;
    if ((await entails(p.smt, negate(c), { timeoutMs: s.options.smtMs })) !== 'no') continue;
    return split(s, p, c);
  }
  throw new Limit(`not faithful: ${why} at ${JSON.stringify(sizes)}, and no equality to 0, 1 or another size splits it`);
}

function counterexample(s: Search, p: Path, sizes: Record<string, number>, concrete: Answers): Counterexample {
  const call = concreteCall(s, sizes);
  const ref = (answer: TypeofAnswer): string => {
    const r = referenceCheck(call, answer);
    return r.kind === 'skipped' ? `skipped: ${r.why}` : r.kind === 'agree' ? `agree (executed: ${r.executed})` : `${r.kind} (executed: ${r.executed})`;
  };
  const show = (x: TypeofAnswer): string => ('error' in x ? `error: ${x.error}` : x.type);
  return {
    combo: comboText(s.combo),
    sizes,
    condition: p.smt.map(conditionText),
    call,
    line: `echo '${JSON.stringify(call)}' | shapelog typeof   # rules: ${show(concrete.rules)}; imperative: ${show(concrete.relay)}`,
    rules: concrete.rules,
    relay: concrete.relay,
    reference: { rules: ref(concrete.rules), relay: ref(concrete.relay) },
  };
}

/** Proves one combination. */
export async function proveCombo(combo: Combo, options: ProveOptions): Promise<ComboVerdict> {
  const s: Search = { combo, names: variablesOf(combo), options, answers: options.answers ?? bothAnswers, leaves: 0 };
  try {
    return await explore(s, { subst: new Map(), facts: [], smt: [], depth: 0 });
  } catch (e) {
    if (e instanceof Limit) return { kind: 'unknown', branches: s.leaves, reason: e.message };
    if (e instanceof DimError) return { kind: 'unknown', branches: s.leaves, reason: `dims: ${e.message}` };
    throw e;
  }
}
