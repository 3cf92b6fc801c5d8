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
import { type Diagnostic, diagnostic, UserError } from '../diagnostics/diagnostic.js';
import type { Limits } from '../solver/engine/limits.js';
import { type Dim, dimConst, dimSub, dimVar } from '../solver/terms/dims.js';
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
  const joins = new Map<IfExpr, IfJoin>();
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
  const infer = (m: Module, apart = false): InferResult => {
    const results = new Map(assumedResults);
    const joinedIfs = new Map<RExpr, RType>([...joins].map(([e, j]) => [e, j.type]));
    return inferModule(m, texts, strategy, limits, undefined, { assumedResults: results, joinedIfs, branchesApart: apart });
  };
  let current = module;
  let result = infer(current);
  for (let round = 1; round < MAX_ROUNDS; round++) {
    let changed = false;
    for (const s of [...(result.outcome.stuck ?? []), ...typedOnlyByContext(current, result, strategy, limits)]) {
      const call = callAt(current, s.span);
      if (call === null || assumedResults.has(call)) continue;
      const a = assumeResult(call, s.args, strategy, limits, freshName);
      if (a === null) continue;
      assumedResults.set(call, a.type);
      assumptions.push(...a.checks);
      changed = true;
    }
    if (!changed) {
      // a fresh size variable that a use needs equal to another size is that size
      const equated = withFreshDimsEquated(current, result, new Set(freshDims), joins);
      changed = equated !== current;
      current = equated;
      // the assumptions were made for the parameters as they were: made again
      if (changed) {
        assumedResults.clear();
        assumptions.length = 0;
      }
    }
    if (!changed && result.diagnostics.some((d) => d.severity === 'error')) changed = joinBranches(current, infer(current, true), joins, freshName);
    if (!changed) {
      const filled = withFreshParamDims(current, result, freshName);
      changed = filled !== current;
      current = filled;
    }
    if (!changed) {
      const ranked = withUnrankedParamsRanked(current, result, freshName);
      changed = ranked !== current;
      current = ranked;
    }
    if (!changed) break;
    result = infer(current);
  }
  const checks = firstOfEach([...checksOf(result.outcome.undecided ?? []), ...assumptions, ...[...joins].flatMap(([e, j]) => joinChecks(e, j))]);
  // the undecided conditions are reported as checks, not as warnings
  const reported = result.diagnostics.filter((d) => !(d.code === 'undecided' && !d.message.startsWith('not ') && /cannot be decided\)?$/.test(d.message)));
  const diagnostics = withUnconstrainedParamsGeneral(current, result, reported);
  // a fresh size variable later equated to another size is gone from the program
  const typed = result.outcome.bindings.map((b) => b.type).join(' ');
  const used = freshDims.filter((d) => new RegExp(`\\b${d}\\b`).test(typed));
  return { result: { ...result, diagnostics }, checks, freshDims: used };
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
function assumeResult(
  call: Extract<RExpr, { kind: 'call' }>,
  args: readonly string[],
  strategy: InferStrategy,
  limits: Partial<Limits>,
  freshName: () => string,
): { type: RType; checks: ResidualCheck[] } | null {
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
  const general = resultForEverySize(call, types, variables, strategy, limits, freshName);
  if (general !== null) return { type: general, checks: [] };
  for (const v of variables) {
    // the sizes to try: 1, then every size the inputs mention that does not mention v
    const sizes = new Map<string, DimExpr>([['1', { kind: 'int', value: 1 }]]);
    for (const d of dims) {
      const e: DimExpr | null = d.kind === 'int' ? { kind: 'int', value: d.value } : d.kind === 'sym' ? d.expr : null;
      if (e !== null && !varsOf(e).includes(v)) sizes.set(dimText(dimExpr(e)), e);
    }
    const typed: { size: DimExpr; type: string }[] = [];
    for (const size of sizes.values()) {
      const type = typeCallAlone(
        call,
        types.map((t) => substituteType(t, v, size)),
        strategy,
        limits,
      );
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
          const type = typeCallAlone(
            call,
            once.map((t) => substituteType(t, v2, size2)),
            strategy,
            limits,
          );
          if (type === null) continue;
          const checks = [
            canonicalComparison(dimVar(v1), '==', dimExpr(size1)),
            canonicalComparison(dimExpr(substituteExpr({ kind: 'var', name: v2 }, v1, size1)), '==', dimExpr(size2)),
          ]
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

/** The sizes a size variable is set to when asking whether a call types for every size. */
const SAMPLE_SIZES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 224];

/**
 * The result of a call that types for every size of one of its input's size variables
 * tried (SAMPLE_SIZES) but whose dims no rule can write in terms of it (`nn.upsampling`
 * by 1.5 of `h`): the dims that do not change with the size kept, those equal to it
 * that size variable, the others fresh size variables (a dim no rule determines). No
 * check is needed, since no size tried fails. Null when some size fails (then a check
 * is needed) or none of the variables gives such a result.
 */
function resultForEverySize(
  call: Extract<RExpr, { kind: 'call' }>,
  types: readonly RType[],
  variables: readonly string[],
  strategy: InferStrategy,
  limits: Partial<Limits>,
  freshName: () => string,
): RType | null {
  for (const v of variables) {
    const results: RType[] = [];
    for (const k of SAMPLE_SIZES) {
      const text = typeCallAlone(
        call,
        types.map((t) => substituteType(t, v, { kind: 'int', value: k })),
        strategy,
        limits,
      );
      const type = text === null ? null : knownType(text);
      if (type === null) break;
      results.push(type);
    }
    if (results.length < SAMPLE_SIZES.length) continue;
    const general = generalise(results, v);
    if (general !== null) return fillUnknownDims(general, freshName);
  }
  return null;
}

/** The type whose instances for v = SAMPLE_SIZES are these: equal dims kept, dims equal to the size `v`, other differing dims unknown; null when the types differ in structure. */
function generalise(results: readonly RType[], v: string): RType | null {
  const first = results[0]!;
  if (first.kind === 'tuple') {
    const fields = first.fields.map((_, i) =>
      generalise(
        results.map((r) => (r.kind === 'tuple' && r.fields.length === first.fields.length ? r.fields[i]! : first)),
        v,
      ),
    );
    return results.every((r) => r.kind === 'tuple' && r.fields.length === first.fields.length) && fields.every((f) => f !== null)
      ? { ...first, fields: fields as RType[] }
      : null;
  }
  if (first.kind !== 'tensor' || !results.every((r) => r.kind === 'tensor' && r.dtype === first.dtype && r.shape.length === first.shape.length)) return null;
  const shapes = results.map((r) => (r as Extract<RType, { kind: 'tensor' }>).shape);
  return {
    ...first,
    shape: first.shape.map((d, i): RDim => {
      const column = shapes.map((s) => s[i]!);
      if (column.every((x) => dimsEqual(x, d))) return d;
      if (column.every((x, k) => x.kind === 'int' && x.value === SAMPLE_SIZES[k])) return { kind: 'sym', expr: { kind: 'var', name: v }, span: d.span };
      return { kind: 'unknown', span: d.span };
    }),
  };
}

/**
 * Calls left with undecided conditions whose result their inputs alone do not determine
 * (typed alone, they are stuck): the result came from their context (a declared result
 * type), and the conditions are what a rule waited on to derive it from the inputs, not
 * what the call needs. The rules strategy types such a call so; the relay strategy,
 * which types calls from their inputs only, reports it stuck. Both then assume its result.
 */
function typedOnlyByContext(module: Module, r: InferResult, strategy: InferStrategy, limits: Partial<Limits>): { span: Span; args: string[] }[] {
  const out: { span: Span; args: string[] }[] = [];
  const seen = new Set<Span>();
  for (const u of r.outcome.undecided ?? []) {
    if (seen.has(u.span)) continue;
    seen.add(u.span);
    const call = callAt(module, u.span);
    if (call === null) continue;
    const fn =
      r.outcome.bindings.find((b) => b.node === call)?.fn ??
      module.functions.find((f) => f.body.span.start.offset <= call.span.start.offset && call.span.end.offset <= f.body.span.end.offset)?.name;
    const args = call.args.map((a) => (a.kind === 'local' ? (r.outcome.bindings.find((b) => b.fn === fn && b.name === `%${a.name}`)?.type ?? null) : null));
    const types = args.map((t) => (t === null ? null : knownType(t)));
    if (types.some((t) => t === null)) continue;
    if (stuckAlone(call, types as RType[], strategy, limits)) out.push({ span: u.span, args: args as string[] });
  }
  return out;
}

/** Whether the call alone on arguments of these types is stuck: no error, but its result not determined. */
function stuckAlone(call: Extract<RExpr, { kind: 'call' }>, types: readonly RType[], strategy: InferStrategy, limits: Partial<Limits>): boolean {
  const r = inferModule(aloneModule(call, types), new Map(), strategy, limits);
  return (r.outcome.stuck ?? []).length > 0;
}

function aloneModule(call: Extract<RExpr, { kind: 'call' }>, types: readonly RType[]): Module {
  const span = call.span;
  const params: Param[] = types.map((type, i) => ({ name: `a${i}`, type, span }));
  const body: RExpr = { ...call, args: params.map((p) => ({ kind: 'local', name: p.name, span })) };
  return { file: span.file, version: null, typeDefs: [], functions: [{ name: 'main', typeParams: [], params, ret: null, body, span }] };
}

/** The call alone on arguments of these types, typed by the strategy: its result, or null (an error, a part unknown, or a condition left undecided). */
function typeCallAlone(call: Extract<RExpr, { kind: 'call' }>, types: readonly RType[], strategy: InferStrategy, limits: Partial<Limits>): string | null {
  const module = aloneModule(call, types);
  const body = module.functions[0]!.body;
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
 * (`n vs d1`, `cannot unify n with d1`: the strategies name the two sizes of a clash so): a
 * parameter's type or an `if`'s join is then what its uses need. The same module when no
 * clash is about a fresh variable (joins are updated in place).
 */
function withFreshDimsEquated(module: Module, r: InferResult, fresh: ReadonlySet<string>, joins: Map<IfExpr, IfJoin>): Module {
  for (const d of r.diagnostics) {
    if (d.severity !== 'error') continue;
    for (const m of d.message.matchAll(/\b([A-Za-z_]\w*|\d+) (?:vs|with) ([A-Za-z_]\w*|\d+)\b/g)) {
      const [a, b] = [m[1]!, m[2]!];
      const [v, other] = fresh.has(b) ? [b, a] : fresh.has(a) ? [a, b] : [null, null];
      if (v === null || other === null || v === other) continue;
      const by: DimExpr = /^\d+$/.test(other) ? { kind: 'int', value: Number(other) } : { kind: 'var', name: other };
      for (const [e, j] of joins) joins.set(e, { ...j, type: substituteType(j.type, v, by) });
      return {
        ...module,
        functions: module.functions.map((f) => ({ ...f, params: f.params.map((p) => (p.type === null ? p : { ...p, type: substituteType(p.type, v, by) })) })),
      };
    }
  }
  return module;
}

// ---------------------------------------------------------------- if branches joined

type IfExpr = Extract<RExpr, { kind: 'if' }>;

/** An `if` typed as the join of its branches: equal dims kept, differing ones fresh size variables (`joined`). */
interface IfJoin {
  readonly type: RType;
  readonly branches: readonly [RType, RType];
  /** The fresh size variables the join introduced. */
  readonly joined: ReadonlySet<string>;
}

/**
 * Joins the branches of each `if` whose branch types (typed apart, in `apart`) are fully
 * known and differ only in dims not provably different (`n` vs `m`, `n` vs `3`; not `3`
 * vs `4`, nor ranks or dtypes): the `if` then has the join's type. Whether any was joined.
 */
function joinBranches(module: Module, apart: InferResult, joins: Map<IfExpr, IfJoin>, freshName: () => string): boolean {
  let changed = false;
  for (const e of expressionsOf(module)) {
    if (e.kind !== 'if' || joins.has(e)) continue;
    const [a, b] = [apart.outcome.results.get(lastOf(e.then)), apart.outcome.results.get(lastOf(e.else))].map((t) => (t === undefined ? null : knownType(t)));
    if (a === null || b === null || a === undefined || b === undefined || !joinable(a, b)) continue;
    const joined = new Set<string>();
    const type = joinTypes(a, b, () => {
      const name = freshName();
      joined.add(name);
      return name;
    });
    if (joined.size === 0) continue;
    joins.set(e, { type, branches: [a, b], joined });
    changed = true;
  }
  return changed;
}

/** A type with every part known, parsed; null otherwise. */
function knownType(text: string): RType | null {
  if (/(^|[^\w])_([^\w]|$)/.test(text)) return null;
  try {
    return parseRelayType(text);
  } catch (e) {
    if (e instanceof UserError) return null;
    throw e;
  }
}

function joinable(a: RType, b: RType): boolean {
  if (a.kind === 'tuple' && b.kind === 'tuple') return a.fields.length === b.fields.length && a.fields.every((f, i) => joinable(f, b.fields[i]!));
  if (a.kind !== 'tensor' || b.kind !== 'tensor' || a.dtype !== b.dtype || a.shape.length !== b.shape.length) return false;
  return a.shape.every((d, i) => {
    const [x, y] = [rdim(d), rdim(b.shape[i]!)];
    if (x === null || y === null) return dimsEqual(d, b.shape[i]!);
    const diff = dimSub(x, y);
    // provably different: a non-zero constant apart
    return !(diff.terms.length === 0 && diff.constant !== 0);
  });
}

function joinTypes(a: RType, b: RType, freshName: () => string): RType {
  if (a.kind === 'tuple' && b.kind === 'tuple') return { ...a, fields: a.fields.map((f, i) => joinTypes(f, b.fields[i]!, freshName)) };
  if (a.kind !== 'tensor' || b.kind !== 'tensor') return a;
  return {
    ...a,
    shape: a.shape.map((d, i): RDim => (dimsEqual(d, b.shape[i]!) ? d : { kind: 'sym', expr: { kind: 'var', name: freshName() }, span: d.span })),
  };
}

function rdim(d: RDim): Dim | null {
  return d.kind === 'int' ? dimConst(d.value) : d.kind === 'sym' ? dimExpr(d.expr) : null;
}

function dimsEqual(a: RDim, b: RDim): boolean {
  const [x, y] = [rdim(a), rdim(b)];
  return x !== null && y !== null ? x.key === y.key : a.kind === b.kind;
}

/**
 * The checks a join needs: where a use set a joined dim to a size (the join's fresh
 * variable equated), each branch whose dim differs from it must equal it at the `if`.
 */
function joinChecks(e: IfExpr, j: IfJoin): ResidualCheck[] {
  const site = { operator: 'if', relation: null, span: e.span, assumes: null };
  const out: ResidualCheck[] = [];
  const walk = (join: RType, branch: RType) => {
    if (join.kind === 'tuple' && branch.kind === 'tuple')
      join.fields.forEach((f, i) => {
        walk(f, branch.fields[i]!);
      });
    if (join.kind !== 'tensor' || branch.kind !== 'tensor') return;
    join.shape.forEach((d, i) => {
      const [x, y] = [rdim(d), rdim(branch.shape[i]!)];
      if (x === null || y === null || (d.kind === 'sym' && d.expr.kind === 'var' && j.joined.has(d.expr.name))) return;
      const c = canonicalComparison(y, '==', x);
      if (c !== null) out.push(disjunction([c], site));
    });
  };
  for (const b of j.branches) walk(j.type, b);
  return out;
}

// ---------------------------------------------------------------- parameters no use gives a rank

/**
 * The module with the first parameter whose type inference left wholly unknown given the
 * rank and dtype of another tensor argument of its first use that has one (`add(%x, %z)`:
 * %x's), with a fresh size variable for each dim: the most general type of that rank. The
 * same module when there is none, or no use has another argument of known rank.
 */
function withUnrankedParamsRanked(module: Module, r: InferResult, freshName: () => string): Module {
  for (const f of module.functions) {
    const typeOf = new Map(r.outcome.bindings.filter((b) => b.fn === f.name).map((b) => [b.name, b.type]));
    for (const p of f.params) {
      if (p.type !== null || typeOf.get(`%${p.name}`) !== '_') continue;
      const uses = expressionsOf({ ...module, functions: [f] }).filter(
        (e): e is Extract<RExpr, { kind: 'call' }> =>
          e.kind === 'call' && e.callee.kind === 'op' && e.args.some((a) => a.kind === 'local' && a.name === p.name),
      );
      const like = uses
        .flatMap((use) => use.args.map((a) => (a.kind === 'local' && a.name !== p.name ? knownType(typeOf.get(`%${a.name}`) ?? '_') : null)))
        .find((t): t is Extract<RType, { kind: 'tensor' }> => t !== null && t.kind === 'tensor');
      if (like === undefined) continue;
      const type: RType = {
        ...like,
        shape: like.shape.map((): RDim => ({ kind: 'sym', expr: { kind: 'var', name: freshName() }, span: p.span })),
        span: p.span,
      };
      return { ...module, functions: module.functions.map((g) => (g !== f ? g : { ...g, params: g.params.map((q) => (q === p ? { ...q, type } : q)) })) };
    }
  }
  return module;
}

// ---------------------------------------------------------------- parameters no use constrains

/**
 * The diagnostics with `cannot infer the type of %z: annotate it` turned into a warning
 * when %z is a parameter that nothing constrains (its type wholly unknown: no rule
 * derived anything of it, and no use gave it a rank) and every other unknown type of the
 * program is computed from such parameters: they have the most general type (any
 * tensor, `_`), and so have the values computed from them. Unchanged when some other
 * error remains, or some unknown type does not come from such a parameter.
 */
function withUnconstrainedParamsGeneral(module: Module, r: InferResult, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length === 0 || errors.some((d) => d.code !== 'unresolved')) return [...diagnostics];
  const unknown = (type: string) => /(^|[^\w])_([^\w]|$)/.test(type);
  const general = new Set<string>();
  const tainted = new Set<string>();
  for (const b of r.outcome.bindings) {
    const key = `${b.fn} ${b.name}`;
    if (b.kind === 'param') {
      if (b.type === '_') {
        general.add(key);
        tainted.add(key);
      } else if (unknown(b.type)) return [...diagnostics];
      continue;
    }
    const fromTainted = expressionsOf(module, [b.node as RExpr]).some((e) => e.kind === 'local' && tainted.has(`${b.fn} %${e.name}`));
    if (fromTainted) tainted.add(key);
    else if (unknown(b.type)) return [...diagnostics];
  }
  if (general.size === 0) return [...diagnostics];
  // used alone: no call has such a parameter beside an argument of another kind (which would constrain it)
  for (const f of module.functions)
    for (const e of expressionsOf(module, [f.body]))
      if (
        e.kind === 'call' &&
        e.args.some((a) => a.kind === 'local' && general.has(`${f.name} %${a.name}`)) &&
        e.args.some((a) => a.kind !== 'local' || !tainted.has(`${f.name} %${a.name}`))
      )
        return [...diagnostics];
  for (const f of module.functions) {
    const type = r.outcome.results.get(f.body);
    if (type !== undefined && unknown(type) && !expressionsOf(module, [f.body]).some((e) => e.kind === 'local' && tainted.has(`${f.name} %${e.name}`)))
      return [...diagnostics];
  }
  const out = diagnostics.filter((d) => d.severity !== 'error');
  for (const b of r.outcome.bindings)
    if (general.has(`${b.fn} ${b.name}`))
      out.push(
        diagnostic(
          'warning',
          'unconstrained',
          `${b.name}: no use constrains it, so it has the most general type, _ (any type its uses accept), as have the values computed from it`,
          b.span,
        ),
      );
  return out;
}

// ---------------------------------------------------------------- helpers over the AST

/** Every expression of the module (or under `roots`), each once, in source order. */
function expressionsOf(module: Module, roots: readonly RExpr[] = module.functions.map((f) => f.body)): RExpr[] {
  const out: RExpr[] = [];
  const stack: RExpr[] = [...roots].reverse();
  while (stack.length > 0) {
    const e = stack.pop()!;
    out.push(e);
    const children: RExpr[] = [];
    switch (e.kind) {
      case 'call':
        children.push(e.callee, ...e.args);
        break;
      case 'tuple':
        children.push(...e.fields);
        break;
      case 'proj':
        children.push(e.tuple);
        break;
      case 'let':
        children.push(e.value, e.body);
        break;
      case 'if':
        children.push(e.cond, e.then, e.else);
        break;
      case 'fn':
        children.push(e.body);
        break;
      case 'match':
        children.push(e.scrutinee, ...e.clauses.map((c) => c.body));
        break;
      default:
        break;
    }
    stack.push(...children.reverse());
  }
  return out;
}

/** The operator call at this span. */
function callAt(module: Module, span: Span): Extract<RExpr, { kind: 'call' }> | null {
  return (expressionsOf(module).find((e) => e.kind === 'call' && e.span === span) as Extract<RExpr, { kind: 'call' }> | undefined) ?? null;
}

/** The last expression of a block, after its bindings. */
function lastOf(e: RExpr): RExpr {
  while (e.kind === 'let') e = e.body;
  return e;
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
  for (const f of module.functions)
    for (const p of f.params) for (const d of p.type === null ? [] : dimsOf(p.type)) if (d.kind === 'sym') for (const n of varsOf(d.expr)) names.add(n);
  return names;
}
