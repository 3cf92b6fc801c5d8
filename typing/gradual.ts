// Gradual typing of a Relay program (`shapelog infer --gradual`): where a condition on
// size variables cannot be decided, typing does not stop; the condition becomes a
// residual check at the call that needs it, and typing goes on under it. Rounds of
// ordinary inference (either strategy), each elaborating the program further:
//   - a call whose inputs are known but whose result nothing determined (a broadcast of
//     `n` against `3`) is typed under an assumption: a size variable of its inputs is set,
//     in turn, to each size its inputs mention and to 1, and the call typed alone (same
//     strategy); the settings under which it types become the check (`n == 1 || n == 3`)
//     when they all give the same result, else the first that does not set it to 1 (the
//     sizes being equal: TVM's and GraTen's assumption) alone. The call's result is then
//     that type (constraints.ts: assumedResults);
//   - a parameter whose type inference leaves dims unknown gets a fresh size variable for
//     each (`d1`, `d2`, ...): the most general type its uses allow; one parameter per
//     round, so that what it determines of the others is used before they get any.
// until a round changes nothing. The checks are then the undecided conditions of the
// last round (typing/undecided.ts) and the assumptions made, canonical
// (typing/residual-checks.ts), each once at its first call site.
import type { DimExpr, Module, Param, RDim, RExpr, RType, Span } from '../frontends/relay/ast.js';
import { parseRelayType } from '../frontends/relay/parse.js';
import { UserError } from '../diagnostics/diagnostic.js';
import type { Limits } from '../solver/engine/limits.js';
import { type Dim, dimVar } from '../solver/terms/dims.js';
import { inferModule, type InferResult, type InferStrategy, readProgram, typedText } from './infer.js';
import { dimExpr } from './constraints.js';
import { canonicalComparison, checksOf, type Comparison, disjunction, firstOfEach, type ResidualCheck } from './residual-checks.js';
import { UNDETERMINED } from './call-site-diagnostics.js';
import { lookupOp } from '../relations/catalogue.js';

export interface GradualResult {
  /** The last round: its module is the elaborated program (fresh size variables in parameter types). */
  readonly result: InferResult;
  readonly checks: readonly ResidualCheck[];
  /** The fresh size variables given to dims that no rule determines. */
  readonly freshDims: readonly string[];
}

const MAX_ROUNDS = 64;
/** How many pairs of settings a stuck call may be typed under before it is left failed. */
const PAIR_BUDGET = 48;

/** Parses and types a program gradually. */
export function inferGradualText(text: string, file: string, strategy: InferStrategy, limits: Partial<Limits> = {}): GradualResult {
  const read = readProgram(text, file, limits);
  return inferGradual(read.module, read.texts, strategy, read.limits);
}

export function inferGradual(module: Module, texts: ReadonlyMap<string, string>, strategy: InferStrategy, limits: Partial<Limits> = {}): GradualResult {
  const assumedResults = new Map<RExpr, RType>();
  const assumptions: ResidualCheck[] = [];
  const taken = sizeVariablesOf(texts, module);
  const freshDims: string[] = [];
  const freshName = (): string => {
    let k = freshDims.length + 1;
    while (taken.has(`d${k}`)) k++;
    const name = `d${k}`;
    taken.add(name);
    freshDims.push(name);
    return name;
  };
  let current = module;
  let result = inferModule(current, texts, strategy, limits, undefined, { assumedResults });
  for (let round = 1; round < MAX_ROUNDS; round++) {
    let changed = false;
    for (const s of result.outcome.stuck ?? []) {
      const call = callAt(current, s.span);
      if (call === null || assumedResults.has(call)) continue;
      const a = assumeResult(call, s.args, strategy, limits);
      if (a === null) continue;
      assumedResults.set(call, a.type);
      assumptions.push(...a.checks);
      changed = true;
    }
    if (!changed) {
      // a fresh size variable that a use needs equal to another size is that size
      const equated = withFreshDimsEquated(current, result, freshDims);
      changed = equated !== current;
      current = equated;
      // the assumptions were made for the parameters as they were: made again
      if (changed) {
        assumedResults.clear();
        assumptions.length = 0;
      }
    }
    if (!changed) {
      const filled = withFreshParamDims(current, result, freshName);
      changed = filled !== current;
      current = filled;
    }
    if (!changed) break;
    result = inferModule(current, texts, strategy, limits, undefined, { assumedResults });
  }
  const checks = firstOfEach([...checksOf(result.outcome.undecided ?? []), ...assumptions]);
  // the undecided conditions are reported as checks, not as warnings
  const diagnostics = result.diagnostics.filter((d) => !(d.code === 'undecided' && !d.message.startsWith('not ') && /cannot be decided\)?$/.test(d.message)));
  return { result: { ...result, diagnostics }, checks, freshDims };
}

/** The program printed back with every binding's type and, beside each call, the checks it needs. */
export function gradualText(g: GradualResult): string {
  const r = g.result;
  const pending = [...g.checks];
  const remark = (e: RExpr): string | null => {
    const mine = pending.filter((c) => c.span.file === e.span.file && c.span.start.offset >= e.span.start.offset && c.span.end.offset <= e.span.end.offset);
    if (mine.length === 0) return null;
    for (const c of mine) pending.splice(pending.indexOf(c), 1);
    return `check: ${mine.map((c) => c.condition).join('; ')}`;
  };
  return typedText(r, remark);
}

// ---------------------------------------------------------------- assumptions for stuck calls

/**
 * The result of a call nothing determined, under an assumption on one size variable of
 * its inputs, and the check that stands for the assumption; null when no setting types it.
 */
function assumeResult(call: Extract<RExpr, { kind: 'call' }>, args: readonly string[], strategy: InferStrategy, limits: Partial<Limits>): { type: RType; checks: ResidualCheck[] } | null {
  let types: RType[];
  try {
    types = args.map((a) => parseRelayType(a));
  } catch (e) {
    if (e instanceof UserError) return null;
    throw e;
  }
  const op = call.callee.kind === 'op' ? call.callee.name : 'call';
  const found = lookupOp(op);
  const site = (type: string) => ({ operator: op, relation: found.ok ? found.op.relation : null, span: call.span, assumes: `${op} gives ${type}` });
  const dims = types.flatMap(dimsOf);
  const variables = [...new Set(dims.flatMap((d) => (d.kind === 'sym' ? varsOf(d.expr) : [])))];
  for (const v of variables) {
    // the sizes to try: 1, then every size the inputs mention that does not mention v
    const sizes = new Map<string, DimExpr>([['1', { kind: 'int', value: 1 }]]);
    for (const d of dims) {
      const e: DimExpr | null = d.kind === 'int' ? { kind: 'int', value: d.value } : d.kind === 'sym' ? d.expr : null;
      if (e !== null && !varsOf(e).includes(v)) sizes.set(dimText(dimExpr(e)), e);
    }
    const typed: { size: DimExpr; type: string }[] = [];
    for (const size of sizes.values()) {
      const type = typeCallAlone(call, types.map((t) => substituteType(t, v, size)), strategy, limits);
      if (type !== null) typed.push({ size, type });
    }
    if (typed.length === 0) continue;
    const same = typed.every((t) => t.type === typed[0]!.type);
    const chosen = same ? typed : [typed.find((t) => !(t.size.kind === 'int' && t.size.value === 1)) ?? typed[0]!];
    const comparisons = chosen.map((t) => canonicalComparison(dimVar(v), '==', dimExpr(t.size))).filter((c): c is Comparison => c !== null);
    if (comparisons.length === 0) continue;
    const check = disjunction(comparisons, site(chosen[0]!.type));
    return { type: parseRelayType(chosen[0]!.type), checks: [check] };
  }
  // no one size variable suffices (two dims undecided): the first pair of settings that
  // types the call, sizes other than 1 first, each setting a check of its own
  const sizesFor = (v: string, ts: readonly RType[]): DimExpr[] => {
    const found = new Map<string, DimExpr>();
    for (const d of ts.flatMap(dimsOf)) {
      const e: DimExpr | null = d.kind === 'int' ? { kind: 'int', value: d.value } : d.kind === 'sym' ? d.expr : null;
      if (e !== null && !varsOf(e).includes(v) && !(e.kind === 'int' && e.value === 1)) found.set(dimText(dimExpr(e)), e);
    }
    return [...found.values(), { kind: 'int', value: 1 }];
  };
  let tried = 0;
  for (const v1 of variables) {
    for (const size1 of sizesFor(v1, types)) {
      const once = types.map((t) => substituteType(t, v1, size1));
      for (const v2 of variables) {
        if (v2 === v1) continue;
        for (const size2 of sizesFor(v2, once)) {
          if (++tried > PAIR_BUDGET) return null;
          const type = typeCallAlone(call, once.map((t) => substituteType(t, v2, size2)), strategy, limits);
          if (type === null) continue;
          const checks = [canonicalComparison(dimVar(v1), '==', dimExpr(size1)), canonicalComparison(dimExpr(substituteExpr({ kind: 'var', name: v2 }, v1, size1)), '==', dimExpr(size2))]
            .filter((c): c is Comparison => c !== null)
            .map((c) => disjunction([c], site(type)));
          if (checks.length === 0) continue;
          return { type: parseRelayType(type), checks };
        }
      }
    }
  }
  return null;
}

/** The call alone on arguments of these types, typed by the strategy: its result, or null (an error, a part unknown, or a condition left undecided). */
function typeCallAlone(call: Extract<RExpr, { kind: 'call' }>, types: readonly RType[], strategy: InferStrategy, limits: Partial<Limits>): string | null {
  const span = call.span;
  const params: Param[] = types.map((type, i) => ({ name: `a${i}`, type, span }));
  const body: RExpr = { ...call, args: params.map((p) => ({ kind: 'local', name: p.name, span })) };
  const module: Module = { file: span.file, version: null, typeDefs: [], functions: [{ name: 'main', typeParams: [], params, ret: null, body, span }] };
  const r = inferModule(module, new Map(), strategy, limits);
  if (r.diagnostics.some((d) => d.severity === 'error' || d.code === UNDETERMINED) || (r.outcome.undecided ?? []).length > 0) return null;
  const type = r.outcome.results.get(body) ?? null;
  return type === null || /(^|[^\w])_([^\w]|$)/.test(type) ? null : type;
}

// ---------------------------------------------------------------- fresh size variables for parameters

/** The module with the unknown dims of the first parameter that has some replaced by fresh size variables (the same module when there is none). */
function withFreshParamDims(module: Module, r: InferResult, freshName: () => string): Module {
  const typeOf = new Map<Param, string>();
  for (const b of r.outcome.bindings) if (b.kind === 'param') typeOf.set(b.node as Param, b.type);
  let changed = false;
  const functions = module.functions.map((f) => {
    const params = f.params.map((p) => {
      // one parameter per round: the others may then be determined by it (a conv2d's weight channels by its data's)
      if (changed) return p;
      const text = typeOf.get(p);
      if (text === undefined || text === '_' || !/(^|[^\w])_([^\w]|$)/.test(text)) return p;
      let type: RType;
      try {
        type = parseRelayType(text, p.span.file);
      } catch (e) {
        if (e instanceof UserError) return p;
        throw e;
      }
      const filled = fillUnknownDims(type, freshName);
      if (filled === type) return p;
      changed = true;
      return { ...p, type: filled };
    });
    return params.every((p, i) => p === f.params[i]) ? f : { ...f, params };
  });
  return changed ? { ...module, functions } : module;
}

function fillUnknownDims(t: RType, freshName: () => string): RType {
  switch (t.kind) {
    case 'tensor': {
      if (!t.shape.some((d) => d.kind === 'unknown')) return t;
      return { ...t, shape: t.shape.map((d): RDim => (d.kind === 'unknown' ? { kind: 'sym', expr: { kind: 'var', name: freshName() }, span: d.span } : d)) };
    }
    case 'tuple': {
      const fields = t.fields.map((x) => fillUnknownDims(x, freshName));
      return fields.every((x, i) => x === t.fields[i]) ? t : { ...t, fields };
    }
    default:
      return t;
  }
}

/**
 * The module with a fresh size variable replaced by the size a clash says it must equal
 * (`n vs d1`: both strategies name the two sizes of a clash so): the parameter's type is
 * then what its uses need. The same module when no clash is about a fresh variable.
 */
function withFreshDimsEquated(module: Module, r: InferResult, freshDims: readonly string[]): Module {
  const fresh = new Set(freshDims);
  for (const d of r.diagnostics) {
    if (d.severity !== 'error') continue;
    for (const m of d.message.matchAll(/\b([A-Za-z_]\w*|\d+) vs ([A-Za-z_]\w*|\d+)\b/g)) {
      const [a, b] = [m[1]!, m[2]!];
      const [v, other] = fresh.has(b) ? [b, a] : fresh.has(a) ? [a, b] : [null, null];
      if (v === null || other === null || v === other) continue;
      const by: DimExpr = /^\d+$/.test(other) ? { kind: 'int', value: Number(other) } : { kind: 'var', name: other };
      return { ...module, functions: module.functions.map((f) => ({ ...f, params: f.params.map((p) => (p.type === null ? p : { ...p, type: substituteType(p.type, v, by) })) })) };
    }
  }
  return module;
}

// ---------------------------------------------------------------- helpers over the AST

/** The operator call at this span. */
function callAt(module: Module, span: Span): Extract<RExpr, { kind: 'call' }> | null {
  const stack: RExpr[] = module.functions.map((f) => f.body);
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (e.kind === 'call' && e.span === span) return e;
    switch (e.kind) {
      case 'call':
        stack.push(e.callee, ...e.args);
        break;
      case 'tuple':
        stack.push(...e.fields);
        break;
      case 'proj':
        stack.push(e.tuple);
        break;
      case 'let':
        stack.push(e.value, e.body);
        break;
      case 'if':
        stack.push(e.cond, e.then, e.else);
        break;
      case 'fn':
        stack.push(e.body);
        break;
      case 'match':
        stack.push(e.scrutinee, ...e.clauses.map((c) => c.body));
        break;
      default:
        break;
    }
  }
  return null;
}

/** The size variables a type mentions. */
export function typeSizeVariables(t: RType): string[] {
  switch (t.kind) {
    case 'tensor':
      return t.shape.flatMap((d) => (d.kind === 'sym' ? varsOf(d.expr) : []));
    case 'tuple':
      return t.fields.flatMap(typeSizeVariables);
    case 'func':
      return [...t.params.flatMap(typeSizeVariables), ...typeSizeVariables(t.ret)];
    case 'call':
      return t.args.flatMap(typeSizeVariables);
    default:
      return [];
  }
}

function dimsOf(t: RType): RDim[] {
  switch (t.kind) {
    case 'tensor':
      return [...t.shape];
    case 'tuple':
      return t.fields.flatMap(dimsOf);
    default:
      return [];
  }
}

function varsOf(e: DimExpr): string[] {
  return e.kind === 'var' ? [e.name] : e.kind === 'binop' ? [...varsOf(e.left), ...varsOf(e.right)] : [];
}

function dimText(d: Dim): string {
  return d.key;
}

function substituteExpr(e: DimExpr, v: string, by: DimExpr): DimExpr {
  if (e.kind === 'var') return e.name === v ? by : e;
  if (e.kind === 'binop') return { ...e, left: substituteExpr(e.left, v, by), right: substituteExpr(e.right, v, by) };
  return e;
}

function substituteType(t: RType, v: string, by: DimExpr): RType {
  switch (t.kind) {
    case 'tensor':
      return { ...t, shape: t.shape.map((d): RDim => (d.kind === 'sym' ? { ...d, expr: substituteExpr(d.expr, v, by) } : d)) };
    case 'tuple':
      return { ...t, fields: t.fields.map((x) => substituteType(x, v, by)) };
    default:
      return t;
  }
}

/** The size variables the program's text or parameters mention (fresh ones avoid them). */
function sizeVariablesOf(texts: ReadonlyMap<string, string>, module: Module): Set<string> {
  const names = new Set<string>();
  for (const text of texts.values()) for (const m of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) names.add(m[0]);
  for (const f of module.functions) for (const p of f.params) for (const d of p.type === null ? [] : dimsOf(p.type)) if (d.kind === 'sym') for (const n of varsOf(d.expr)) names.add(n);
  return names;
}
