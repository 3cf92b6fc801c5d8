// Type inference with the rule engine: constraint types become terms with holes,
// unification constraints become `Unify` facts (solved by a unification-head rule),
// every operator call becomes a fact of its relation, laid out by the relation's
// declaration in the rule files; the engine solves to fixpoint; diagnostics are traced
// back to the call site that produced the relation instance.
import type { AttrValue, Param, RExpr, Span } from '../frontends/relay/ast.js';
import type { CompiledProgram, CompileOutcome } from '../solver/compile/program.js';
import { DEFAULT_LIMITS, type LimitError, type Limits } from '../solver/engine/limits.js';
import { Solver } from '../solver/engine/solve.js';
import { type Diagnostic, diagnostic, formatDiagnostic } from '../diagnostics/diagnostic.js';
import { GIVEN, REBUILT } from '../solver/store/ids.js';
import { holesOf, resolve, UnionFind } from '../solver/store/union-find.js';
import { Database } from '../solver/store/database.js';
import { unify } from '../solver/engine/unify.js';
import { RunResult } from '../solver/run.js';
import { explainFact } from '../solver/explain.js';
import { Kind, type TermId, type TermStore } from '../solver/terms/term-store.js';
import type { Generated } from './constraints.js';
import { LAYOUT_RELATIONS, layoutFacts, layoutStrings } from './layout-facts.js';
import { compileLibraryPart, compiledCache } from './compiled-cache.js';
import { relayTypeText, TypeTerms } from './term-types.js';
import { UNDETERMINED } from './call-site-diagnostics.js';
import { termText } from '../solver/terms/print.js';
import { dimTerm, termDim } from '../solver/terms/arith.js';
import { parseDimText } from '../relations/imperative/type-text.js';
import type { Rule } from '../solver/compile/ir.js';
import { isDemandRelation, isErrorRelation, isInternal } from '../solver/compile/relation-names.js';
import type { UndecidedCondition } from './undecided.js';

import type { RuleLibrary } from '../relations/library.js';

export type { RuleLibrary };

/**
 * The parts of a library compiled so far, by the set of relations a program
 * instantiates (typing/library-subset.ts): compiled once per process and set, then
 * shared by every inference that instantiates the same relations. Their plans are
 * immutable (solvers keep their own progress), and their term stores append-only, so
 * every inference can share both. The newest few sets are kept.
 */
const compiledLibraries = new WeakMap<RuleLibrary, Map<string, SharedLibrary>>();
const KEEP_COMPILED = 16;
const DISK_ENTRIES_PER_PROCESS = 2;
/** Layout strings whose facts a compiled part keeps built (more are built per inference). */
const MAX_SHARED_LAYOUTS = 256;
let diskEntries = 0;

/**
 * A compiled part of the library, solved once on its own facts (tables such as
 * dtype_name and what the rules derive from them alone): every inference forks that
 * fixpoint and adds only its relation instances, so the library's own facts are neither
 * inserted nor derived again per program.
 */
interface SharedLibrary {
  readonly store: TermStore;
  readonly compiled: CompileOutcome;
  /** The solver at the library's own fixpoint, or null when that is not clean (then each inference starts from scratch). */
  readonly base: Solver | null;
  /** The facts of each layout string a program has used, interned in `store` (so valid in every clone made after). */
  readonly layouts: Map<string, readonly { rel: string; fact: TermId }[]>;
}

/** The library compiled for programs that instantiate `instantiated` (null: the whole library). */
function compiledLibrary(library: RuleLibrary, instantiated: ReadonlySet<string> | null): SharedLibrary {
  let byKey = compiledLibraries.get(library);
  if (byKey === undefined) compiledLibraries.set(library, (byKey = new Map()));
  const key = instantiated === null ? '*' : [...instantiated].sort().join(',');
  let c = byKey.get(key);
  if (c !== undefined) {
    // most recently used last
    byKey.delete(key);
    byKey.set(key, c);
    return c;
  }
  // compiled in an earlier process (typing/compiled-cache.ts), or compiled now (and
  // cached). Only a process's first few sets go through the disk: a process that types
  // calls of many operators (shapelog check, typeof, demo) would write an entry per
  // operator, which later processes rarely ask for again (and the cache keeps a few).
  // The compiled rules carry the rule files' labels in their spans, which depend on the
  // working directory: they are part of the key.
  const onDisk = diskEntries++ < DISK_ENTRIES_PER_PROCESS;
  const cache =
    !onDisk || library.key === undefined
      ? null
      : compiledCache(`${library.key}\0${[...library.sources.texts.keys()].join('\0')}`, instantiated === null ? null : [...instantiated]);
  const { store, compiled } = compileLibraryPart(cache, () => library.sources.programs, instantiated);
  let base: Solver | null = null;
  if (compiled.ok) {
    const s = new Solver(store, compiled.program.plans, 'seminaive', DEFAULT_LIMITS, Database.empty());
    s.addFacts(compiled.program.facts);
    s.solve();
    const clean =
      s.limitHit === null &&
      s.clashes.length === 0 &&
      s.waits.size === 0 &&
      s.db.uf.size === 0 &&
      s.runtimeErrors.size === 0 &&
      ![...s.db.relations.keys()].some(isErrorRelation);
    base = clean ? s : null;
  }
  c = { store, compiled, base, layouts: new Map() };
  byKey.set(key, c);
  if (byKey.size > KEEP_COMPILED) byKey.delete(byKey.keys().next().value!);
  return c;
}

export interface InferredBinding {
  readonly fn: string;
  readonly name: string;
  readonly type: string;
  readonly span: Span;
  readonly kind: 'param' | 'let' | 'binding';
  readonly node: RExpr | Param;
}

export interface InferOutcome {
  readonly bindings: InferredBinding[];
  /** Types of the result expressions of function bodies. */
  readonly results: Map<RExpr, string>;
  readonly functions: Map<string, string>;
  /** The result type of each function, by name (printed after its parameters, as TVM does). */
  readonly returns: Map<string, string>;
  readonly diagnostics: Diagnostic[];
  readonly instances: number;
  readonly millis: number;
  /** The solved engine run, for --explain. */
  readonly run: RunResult | null;
  /** Why an operator call (by its span) has its type: the derivation of its relation instance. */
  readonly explainCall?: (span: Span) => string | null;
  /** Undecided conditions, each at the call that needs it (for --gradual). */
  readonly undecided?: readonly UndecidedCondition[];
  /** Calls whose inputs are known but whose result nothing determined, with their input types (for --gradual). */
  readonly stuck?: readonly StuckCall[];
}

export interface StuckCall {
  readonly span: Span;
  readonly op: string;
  /** The argument types, in Relay syntax. */
  readonly args: readonly string[];
}

function attrTerm(store: TermStore, v: AttrValue): TermId {
  switch (v.kind) {
    case 'int':
      return store.int(v.value);
    case 'float':
      return store.float(v.value);
    case 'bool':
      return store.atom(v.value ? 'true' : 'false');
    case 'string':
      return store.str(v.value);
    case 'none':
      return store.atom('none');
    case 'list':
      return store.list(v.items.map((x) => attrTerm(store, x)));
    case 'dim': {
      // a symbolic size, as a dim term like the sizes of argument types (checked attributes always parse)
      const d = parseDimText(v.text);
      return typeof d === 'string' ? store.str(v.text) : dimTerm(store, d);
    }
  }
}

export interface RulesOptions {
  /** Compile the whole library rather than the part the program can use (for tests: both must agree). */
  readonly wholeLibrary?: boolean;
}

/** The types of a program's bindings, results and functions, inferred by the rule engine from its constraints `gen`. */
export function inferWithRules(gen: Generated, library: RuleLibrary, limits: Partial<Limits> = {}, options: RulesOptions = {}): InferOutcome {
  const started = Date.now();
  const { instantiated, layoutsOfCall } = relationsOfProgram(gen, library);
  const shared = compiledLibrary(library, options.wholeLibrary === true ? null : instantiated);
  // a layout's facts are built once per compiled part, in its store, before the clone
  // (up to a bound: the strings are the user's, and the part's store outlives this run)
  for (const layouts of layoutsOfCall.values())
    for (const l of layouts) if (!shared.layouts.has(l) && shared.layouts.size < MAX_SHARED_LAYOUTS) shared.layouts.set(l, layoutFacts(shared.store, l));
  // this inference's own copy of the library's terms, so ids stay small and nothing leaks between runs
  const store = shared.store.clone();
  const compiled = shared.compiled;
  if (!compiled.ok) return libraryFailure(library, compiled.diagnostics);
  const inference = new RulesInference(gen, library, shared, store, compiled.program, layoutsOfCall, limits);
  inference.findUndecided();
  inference.reportProblems();
  const stuck = inference.findStuck();
  inference.retypeWithoutFailedCalls();
  return inference.outcome(started, stuck);
}

/** Each call's layout strings (see layout-facts.ts), by call. */
type LayoutsOfCall = Map<Generated['constraints'][number], string[]>;

/** The relations a program instantiates (only the part of the library that can use them is compiled), and the layout strings of its calls. */
function relationsOfProgram(gen: Generated, library: RuleLibrary): { instantiated: Set<string>; layoutsOfCall: LayoutsOfCall } {
  const instantiated = new Set<string>();
  const layoutsOfCall: LayoutsOfCall = new Map();
  for (const c of gen.constraints) {
    if (c.k === 'proj') instantiated.add('TupleGet');
    else if (c.k === 'op') {
      const rel = library.relationOf(c.op);
      if (rel !== null) instantiated.add(rel);
      // the layout facts this call brings
      const info = library.opsByName.get(c.op);
      const layouts = info === undefined ? [] : layoutStrings(info, c.attrs);
      if (layouts.length > 0) {
        layoutsOfCall.set(c, layouts);
        for (const r of LAYOUT_RELATIONS) instantiated.add(r);
      }
    }
  }
  return { instantiated, layoutsOfCall };
}

/** The outcome of an inference whose library does not compile: its diagnostics, as the library's. */
function libraryFailure(library: RuleLibrary, diagnostics: readonly Diagnostic[]): InferOutcome {
  return {
    bindings: [],
    results: new Map(),
    functions: new Map(),
    returns: new Map(),
    diagnostics: diagnostics.map((d) => ({
      ...d,
      message: `relation library: ${d.message}`,
      notes: [...d.notes, formatDiagnostic(d, library.sources.texts)],
    })),
    instances: 0,
    millis: 0,
    run: null,
  };
}

/**
 * One inference with the rule engine, its steps in the order inferWithRules runs them:
 * the constructor gives the program's unification constraints and relation instances to
 * the engine and solves; then undecided conditions, the problems found, stuck calls, a
 * second run without the failed calls, and the types read back (`outcome`).
 */
class RulesInference {
  /** The terms of the program's constraint types. */
  private readonly terms: TypeTerms;
  /** The facts given to the engine, by relation: the library's own ground facts (tables such as dtype_name) unless the shared fixpoint has them, then the program's. */
  private readonly facts: Map<string, TermId[]>;
  /** The call site (span and operator, or `.i` for a projection) of each fact given. */
  private readonly siteOfFact = new Map<TermId, { span: Span; what: string }>();
  private readonly diagnostics: Diagnostic[] = [];
  private readonly undecided: UndecidedCondition[] = [];
  /** The union-find: the unification constraints', then the engine's (that of the run without the failed calls, after an error). */
  private uf = UnionFind.empty;
  /** The union-find of the unification constraints alone, where every run starts. */
  private readonly unified: UnionFind;
  /** The relation instances given (operator calls). */
  private readonly instances: number;
  /** The engine's limits, scaled with the program. */
  private readonly scaled: Limits;
  private readonly solver: Solver;
  private readonly run: RunResult;
  /** Types in Relay syntax, by resolved term. */
  private readonly texts = new Map<TermId, string>();

  /** Gives the program's constraints to the engine (a fork of the library's fixpoint when there is one) and solves. */
  constructor(
    private readonly gen: Generated,
    private readonly library: RuleLibrary,
    private readonly shared: SharedLibrary,
    private readonly store: TermStore,
    private readonly program: CompiledProgram,
    layoutsOfCall: LayoutsOfCall,
    limits: Partial<Limits>,
  ) {
    this.terms = new TypeTerms(store);
    this.facts = new Map<string, TermId[]>(shared.base !== null ? [] : [...program.facts].map(([k, v]) => [k, [...v]]));
    this.unifyConstraints();
    this.instances = this.giveInstances(layoutsOfCall);
    // the library's rules terminate: rounds and facts grow with the program (a chain of n
    // calls takes ~n rounds), so their limits scale with it; time and memory bound the run
    this.scaled = {
      ...DEFAULT_LIMITS,
      maxRounds: Math.max(DEFAULT_LIMITS.maxRounds, 20 * gen.constraints.length),
      maxFacts: Math.max(DEFAULT_LIMITS.maxFacts, 200 * gen.constraints.length),
      ...limits,
    };
    const solver = this.newSolver();
    this.solver = solver;
    this.unified = this.uf;
    solver.db = solver.db.with({ uf: this.uf });
    solver.addFacts(this.facts);
    solver.solve();
    this.run = new RunResult(store, program, solver, library.sources.texts, 'seminaive');
    this.uf = solver.db.uf;
  }

  /** Adds a fact of `rel`, given at `span` by `what`. */
  private give(rel: string, fact: TermId, span: Span, what: string): void {
    (this.facts.get(rel) ?? this.facts.set(rel, []).get(rel)!).push(fact);
    if (!this.siteOfFact.has(fact)) this.siteOfFact.set(fact, { span, what });
  }

  /** Records an undecided `left op right` over dim terms, if both are dims. */
  private undecidedAt(left: TermId, op: UndecidedCondition['op'], right: TermId, span: Span, operator: string, relation: string | null): void {
    const store = this.store;
    const l = termDim(store, left);
    const r = termDim(store, right);
    if (l !== null && r !== null && typeof l === 'object' && typeof r === 'object') this.undecided.push({ left: l, op, right: r, span, operator, relation });
  }

  /**
   * Unification constraints (the Hindley-Milner part) go straight into the engine's
   * initial union-find, as in Relay's solver; relation instances then start resolved.
   */
  private unifyConstraints(): void {
    const { store, terms } = this;
    const assumptions: Diagnostic[] = [];
    for (const c of this.gen.constraints) {
      if (c.k !== 'unify') continue;
      const a = resolve(store, this.uf, terms.type(c.a));
      const b = resolve(store, this.uf, terms.type(c.b));
      const out = unify(store, this.uf, a, b);
      if (out.k === 'clash') {
        this.diagnostics.push(
          diagnostic(
            'error',
            'clash',
            `${c.reason}: cannot unify ${relayTypeText(store, resolve(store, this.uf, out.left))} with ${relayTypeText(store, resolve(store, this.uf, out.right))} (${out.reason.replace(/\?\d+/g, '_')})`,
            c.span,
          ),
        );
        continue;
      }
      this.uf = out.uf;
      for (const [l, r] of out.residuals) this.undecidedAt(l, '==', r, c.span, c.reason, null);
      for (const [l, r] of out.residuals)
        assumptions.push(diagnostic('warning', 'undecided', `${relayTypeText(store, l)} = ${relayTypeText(store, r)} is assumed (cannot be decided)`, c.span));
    }
    this.diagnostics.push(...assumptions);
  }

  /** Gives a fact per projection and per operator call (with the layout facts of the call); returns the number of calls. */
  private giveInstances(layoutsOfCall: LayoutsOfCall): number {
    const { store, terms, program, library, uf } = this;
    let instances = 0;
    const layoutsGiven = new Set<string>();
    for (const c of this.gen.constraints) {
      switch (c.k) {
        case 'unify':
          break;
        case 'proj':
          this.give(
            'TupleGet',
            resolve(store, uf, store.compound('TupleGet', [terms.type(c.tuple), store.int(c.index), terms.type(c.out)])),
            c.span,
            `.${c.index}`,
          );
          break;
        case 'op': {
          instances++;
          const rel = library.relationOf(c.op);
          const decl = rel === null ? undefined : program.decls.get(rel);
          if (rel === null || decl === undefined) {
            this.diagnostics.push(diagnostic('error', 'library', `no relation for ${c.op} in the rule library`, c.span));
            break;
          }
          if (decl.params.length !== c.args.length + 1) {
            this.diagnostics.push(
              diagnostic('error', 'library', `relation ${rel} takes ${decl.params.length - 1} argument types, ${c.op} gives ${c.args.length}`, c.span),
            );
            break;
          }
          const args = [...c.args.map((a) => terms.type(a)), terms.type(c.out)];
          let ok = true;
          for (const a of decl.attrs) {
            const given = c.attrs.get(a.name);
            if (given !== undefined) args.push(attrTerm(store, given));
            else if (a.default !== null) args.push(a.default);
            else {
              this.diagnostics.push(diagnostic('error', 'attribute', `${c.op} needs attribute '${a.name}'`, c.span));
              ok = false;
              break;
            }
          }
          if (ok) this.give(rel, resolve(store, uf, store.compound(rel, args)), c.span, c.op);
          for (const l of layoutsOfCall.get(c) ?? []) {
            if (layoutsGiven.has(l)) continue;
            layoutsGiven.add(l);
            for (const { rel: lrel, fact } of this.shared.layouts.get(l) ?? layoutFacts(store, l)) this.give(lrel, fact, c.span, c.op);
          }
          break;
        }
      }
    }
    return instances;
  }

  /** A solver for the program: a fork of the library's fixpoint, or a fresh one. */
  private newSolver(): Solver {
    const shared = this.shared;
    return shared.base !== null
      ? shared.base.fork(this.store, this.scaled)
      : new Solver(this.store, this.program.plans, 'seminaive', this.scaled, Database.empty());
  }

  /**
   * The call site behind a fact: follow rebuilds back to the fact inference gave, and
   * derivations back to their premises (an intermediate relation such as a helper that
   * carries a call's sizes), breadth first, so the nearest call site wins.
   */
  private siteOf(fact: TermId): { span: Span; what: string } | undefined {
    const queue = [fact];
    const seen = new Set<TermId>(queue);
    for (let i = 0; i < queue.length && i < 2_000; i++) {
      const f = queue[i]!;
      const site = this.siteOfFact.get(f);
      if (site) return site;
      const p = this.solver.meta.provenance(f);
      if (p === null || p.rule === GIVEN) continue;
      for (const q of p.rule === REBUILT ? p.premises.slice(0, 1) : p.premises) {
        if (!seen.has(q)) {
          seen.add(q);
          queue.push(q);
        }
      }
    }
    return undefined;
  }

  /** Records the conditions the engine's derivations wait on, each at the call site behind it (for --gradual). */
  findUndecided(): void {
    const { store, solver, uf, library } = this;
    for (const r of solver.limitHit === null ? solver.residuals() : []) {
      if (r.alternative || r.condition === undefined) continue;
      const site = [...r.premises, ...(r.sources ?? [])].map(this.siteOf, this).find((x) => x !== undefined);
      if (site === undefined) continue;
      // a derivation that only finds errors, waiting on its last condition, reports the
      // error when it holds: the check is its negation; waiting on an earlier one, it
      // decides nothing on its own (more conditions follow): no check
      const head = r.plan.rule.head;
      const findsErrors = head.k === 'error' || (head.k === 'atom' && errorOnly(this.program.rules).has(head.pred));
      if (findsErrors && r.steps.slice(r.step + 1).some((st) => st.k === 'compare' || st.k === 'equal' || st.k === 'test' || st.k === 'neg')) continue;
      const op = findsErrors ? NEGATED[r.condition.op] : r.condition.op;
      this.undecidedAt(resolve(store, uf, r.condition.left), op, resolve(store, uf, r.condition.right), site.span, site.what, library.relationOf(site.what));
    }
  }

  /** Adds the problems the engine found as diagnostics, each at the program's call site behind it when there is one. */
  reportProblems(): void {
    const solver = this.solver;
    for (const { diagnostic: d0, premises, clash } of this.run.problems()) {
      if (d0.severity === 'note') continue;
      if (d0.code === 'limit' && solver.limitHit !== null) {
        // in the terms of `infer`: its own flags, no relation sizes of the library's internals
        this.diagnostics.push(diagnostic('error', 'limit', typingLimitMessage(solver.limitHit, solver.stats.rounds, this.gen.constraints.length), null));
        continue;
      }
      if (d0.code === 'determined-nothing') continue; // checked per call site below
      // clashes in Relay's type syntax
      // (holes print as `_`, as in Relay's types, not as the engine's `?7`)
      const d = clash ? { ...d0, message: clashMessage(this.store, this.uf, clash), notes: d0.notes } : { ...d0, message: d0.message.replace(/\?\d+/g, '_') };
      // locate the problem at the program's call site; the rule that found it becomes a note
      const site = premises.map(this.siteOf, this).find((x) => x !== undefined);
      const rule = d.span ? `reported by the rule at ${d.span.file}:${d.span.start.line}:${d.span.start.column}` : null;
      // at a call site, the engine's premises (facts of internal relations, in the engine's syntax) are for --explain
      this.diagnostics.push(
        site
          ? { ...d, message: `${site.what}: ${d.message}`, span: site.span, notes: [...(rule ? [rule] : []), ...d.notes.filter((n) => !n.startsWith('from '))] }
          : d,
      );
    }
  }

  /**
   * The calls whose inputs are known but whose result is not: inference failed there (as
   * in Relay; an undecided condition, reported as a warning, says why). Each is an error.
   */
  findStuck(): StuckCall[] {
    const { store, solver } = this;
    const stuck: StuckCall[] = [];
    const failedSites = new Set(this.diagnostics.filter((d) => d.severity === 'error').map((d) => d.span));
    // (a run a limit stopped determined nothing more: no call is to blame)
    for (const [name, rel] of solver.limitHit === null ? solver.db.relations : []) {
      const decl = this.program.decls.get(name);
      if (!decl || name === 'TupleGet') continue;
      const n = decl.params.length;
      for (let i = 0; i < rel.log.length; i++) {
        const f = rel.log.get(i);
        if (!solver.db.has(f) || store.isGround(store.arg(f, n - 1))) continue;
        let known = true;
        for (let k = 0; k < n - 1 && known; k++) known = store.isGround(store.arg(f, k));
        const site = known ? this.siteOf(f) : undefined;
        if (!site || failedSites.has(site.span)) continue;
        failedSites.add(site.span);
        const inputs = Array.from({ length: n - 1 }, (_, k) => relayTypeText(store, store.arg(f, k)));
        stuck.push({ span: site.span, op: site.what, args: inputs });
        this.diagnostics.push(diagnostic('error', UNDETERMINED, `${site.what}: cannot infer the result type from (${inputs.join(', ')})`, site.span));
      }
    }
    return stuck;
  }

  /**
   * After an error, the types shown are those of the program without the failed calls,
   * as the relay strategy gives them: a failed call's result stays unknown, and so does
   * what depends on it (the rules may have derived a result beside the error).
   */
  retypeWithoutFailedCalls(): void {
    const errorSites = new Set(this.diagnostics.filter((d) => d.severity === 'error' && d.span !== null).map((d) => d.span));
    const failed = new Set([...this.siteOfFact].filter(([, site]) => errorSites.has(site.span)).map(([f]) => f));
    if (failed.size > 0 && this.solver.limitHit === null) {
      const again = this.newSolver();
      again.db = again.db.with({ uf: this.unified });
      again.addFacts(new Map([...this.facts].map(([rel, fs]) => [rel, fs.filter((f) => !failed.has(f))])));
      again.solve();
      if (again.limitHit === null) this.uf = again.db.uf;
    }
  }

  /** The type of term `t` in Relay syntax, as solved. */
  private text(t: TermId): string {
    const r = resolve(this.store, this.uf, t);
    let x = this.texts.get(r);
    if (x === undefined) this.texts.set(r, (x = relayTypeText(this.store, r)));
    return x;
  }

  /** The types read back, with an error for each binding or result left with holes (when there is no other error). */
  outcome(started: number, stuck: StuckCall[]): InferOutcome {
    const { gen, store, terms, diagnostics } = this;
    const bindings: InferredBinding[] = gen.bindings.map((b) => ({
      fn: b.fn,
      name: b.name,
      type: this.text(terms.type(b.type)),
      span: b.span,
      kind: b.kind,
      node: b.node,
    }));
    const results = new Map<RExpr, string>();
    for (const [e, t] of gen.results) results.set(e, this.text(terms.type(t)));
    for (const b of gen.bindings) {
      const t = resolve(store, this.uf, terms.type(b.type));
      if (holesOf(store, t).size > 0 && diagnostics.every((d) => d.severity !== 'error'))
        diagnostics.push(
          diagnostic('error', 'unresolved', `cannot infer the type of ${b.name}: annotate it`, b.span, [`what is known: ${relayTypeText(store, t)}`]),
        );
    }
    const functions = new Map<string, string>();
    const returns = new Map<string, string>();
    for (const [name, t] of gen.functions) {
      functions.set(name, this.text(terms.type(t)));
      if (t.k === 'func') returns.set(name, this.text(terms.type(t.ret)));
    }
    for (const [e, t] of gen.results) {
      const r = resolve(store, this.uf, terms.type(t));
      if (holesOf(store, r).size > 0 && diagnostics.every((d) => d.severity !== 'error'))
        diagnostics.push(
          diagnostic('error', 'unresolved', 'cannot infer the type of this result: annotate the function', e.span, [
            `what is known: ${relayTypeText(store, r)}`,
          ]),
        );
    }
    const explainCall = (span: Span) => this.explainCall(span);
    for (const [e, t] of gen.blockResults) if (!results.has(e)) results.set(e, this.text(terms.type(t)));
    const { instances, run, undecided } = this;
    return { bindings, results, functions, returns, diagnostics, instances, millis: Date.now() - started, run, explainCall, undecided, stuck };
  }

  /**
   * The derivation shown for a call: a fact derived from the call's own relation fact
   * (one step from it), else any fact traced back to the call (a shared table the call
   * also reads, such as a layout's view, is found first otherwise).
   */
  private explainCall(span: Span): string | null {
    const { store, solver, program } = this;
    let fallback: TermId | null = null;
    const fromCall = (f: TermId) => (solver.meta.provenance(f)?.premises ?? []).some((q) => this.siteOfFact.get(q)?.span === span);
    for (const [name, rel] of solver.db.relations) {
      if (isInternal(name)) continue;
      for (let i = 0; i < rel.log.length; i++) {
        const f = rel.log.get(i);
        if (!solver.db.has(f)) continue;
        const site = this.siteOf(f);
        if (!site || site.span !== span) continue;
        if (fromCall(f)) return explainFact({ store, meta: solver.meta, rules: program.rules, factSpans: program.factSpans, solver }, f);
        fallback ??= f;
      }
    }
    return fallback === null ? null : explainFact({ store, meta: solver.meta, rules: program.rules, factSpans: program.factSpans, solver }, fallback);
  }
}

/**
 * The relations derived only to find errors (`conv_input_too_small`, read by an error
 * rule and by nothing else, transitively): a comparison they wait on is the negation of
 * a check.
 */
export function errorOnly(rules: readonly Rule[]): ReadonlySet<string> {
  let found = errorOnlyCache.get(rules);
  if (found !== undefined) return found;
  const readers = new Map<string, Rule[]>();
  for (const r of rules) {
    if (r.head.k === 'atom' && isDemandRelation(r.head.pred)) continue;
    for (const l of r.body) if (l.k === 'atom' && !l.neg) (readers.get(l.pred) ?? readers.set(l.pred, []).get(l.pred)!).push(r);
  }
  // the greatest such set: a recursive helper (ew_reversed_dims_clash) that feeds only errors is in it
  const set = new Set(readers.keys());
  for (let shrank = true; shrank; ) {
    shrank = false;
    for (const rel of set) {
      if (readers.get(rel)!.every((r) => r.head.k === 'error' || (r.head.k === 'atom' && set.has(r.head.pred)))) continue;
      set.delete(rel);
      shrank = true;
    }
  }
  found = set;
  errorOnlyCache.set(rules, found);
  return found;
}
const errorOnlyCache = new WeakMap<readonly Rule[], ReadonlySet<string>>();

export const NEGATED = { '==': '!=', '!=': '==', '<': '>=', '>=': '<', '>': '<=', '<=': '>' } as const;

/** Why typing stopped, naming only what `infer` and `typeof` offer. */
function typingLimitMessage(hit: LimitError, rounds: number, constraints: number): string {
  switch (hit.kind) {
    case 'time':
      return `typing stopped: the time limit was reached after ${rounds} rounds (--max-time raises it)`;
    case 'memory':
      return `typing ${hit.message}`;
    default:
      return `typing stopped: ${hit.message.replace(/^stopped:? ?/, '')} for a program of ${constraints} constraints (--strategy relay types it without this limit)`;
  }
}

/**
 * `cannot unify Tensor[(16, 4, 3, 3), float32] with Tensor[(16, 3, 3, 3), float32] (4 vs 3:
 * different sizes)`: the whole types, in Relay syntax, and the parts that clash.
 */
function clashMessage(store: TermStore, uf: UnionFind, clash: { left: TermId; right: TermId; reason: string; outer: readonly [TermId, TermId] }): string {
  // a type in Relay syntax; other terms (a shape list, a size) as the engine prints them
  const show = (t: TermId): string => {
    const r = relayTypeText(store, t);
    if (r !== '_' || store.kind(t) === Kind.Hole) return r;
    const text = termText(store, t).replace(/\?\d+/g, '_');
    return store.kind(t) === Kind.Cons ? `shape (${text.slice(1, -1)})` : text;
  };
  const reason = clash.reason.replace(/\?\d+/g, '_');
  const [a, b] = clash.outer.map((t) => resolve(store, uf, t)) as [TermId, TermId];
  if ((a === clash.left && b === clash.right) || (a === clash.right && b === clash.left))
    return `cannot unify ${show(clash.left)} with ${show(clash.right)} (${reason})`;
  return `cannot unify ${show(a)} with ${show(b)} (${show(clash.left)} vs ${show(clash.right)}: ${reason})`;
}
