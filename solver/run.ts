// The public entry point: compile sources, solve with a strategy, and read results.
import { GOAL, compileProgram, type CompiledProgram, type StrategyName } from './compile/program.js';
import { errorRelation, isAuxiliary, isErrorRelation, userPredOf } from './compile/relation-names.js';
import { where } from './compile/lower.js';
import type { Plan } from './compile/plan.js';
import type { Relation } from './store/relation.js';
import { DEFAULT_LIMITS, LimitError, type Limits } from './engine/limits.js';
import { budgetTick } from './engine/budget.js';
import { Solver, type Progress, type SolveStats, WAITS_ON_CONDITION } from './engine/solve.js';
import { displayFact, explainFact, visiblePremises } from './explain.js';
export type { SortedTuples };
import type { AstTerm, Literal, Span } from './language/ast.js';
import { walkTerm } from './language/ast-walk.js';
import { Database } from './store/database.js';
import { FactMeta } from './store/fact-meta.js';
import { MutableRelationMap } from './store/mutable-relations.js';
import { type Diagnostic, diagnostic, UserError } from '../diagnostics/diagnostic.js';
import { MAX_NESTING, parseGoal, parseTerm } from './language/parse.js';
import { checkLiteralDepth, checkStatementDepth, checkTermDepth } from './language/depth.js';
import { loadFiles, type LoadedSources, loadText } from './load.js';
import { sortedTuples, type SortedTuples } from './sorted-tuples.js';
import { writeFactLines } from './fact-lines.js';
import { type JsonValue, termJson, termText } from './terms/print.js';
import { type TermId, TermStore } from './terms/term-store.js';
import { resolve } from './store/union-find.js';
import { REBUILT } from './store/ids.js';

export type { StrategyName };

export interface RunOptions {
  /** Label for source text given directly (default `<input>`). */
  readonly file?: string;
  /** Default: `demand` when the goal binds an argument (goal-directed), else `seminaive`. */
  readonly strategy?: StrategyName;
  /** A goal such as `path(1, X)`; its answers are collected. */
  readonly goal?: string;
  readonly limits?: Partial<Limits>;
  readonly onProgress?: (p: Progress) => void;
}

/** Bad input that stops a run before solving: unreadable files, syntax and static errors. */
export class ProgramError extends UserError {
  constructor(
    diagnostics: readonly Diagnostic[],
    readonly texts: ReadonlyMap<string, string>,
  ) {
    super(diagnostics);
    this.name = 'ProgramError';
  }
}

export function runText(source: string, options: RunOptions = {}): RunResult {
  return runSources(loadText(source, options.file ?? '<input>'), options);
}

/**
 * Reads, parses and solves the files. The time limit covers reading and parsing too:
 * parsing stops with a limit error past the deadline (or near the heap limit), and
 * solving gets the time that is left.
 */
export function runFiles(paths: readonly string[], options: RunOptions = {}): RunResult {
  const maxMillis = options.limits?.maxMillis ?? DEFAULT_LIMITS.maxMillis;
  const started = Date.now();
  let sources: LoadedSources;
  try {
    sources = loadFiles(paths, undefined, budgetTick(started + maxMillis));
  } catch (e) {
    if (e instanceof LimitError) throw new ProgramError([readingLimit(e, maxMillis)], new Map());
    throw e;
  }
  const left = Math.max(1, maxMillis - (Date.now() - started));
  return runSources(sources, { ...options, limits: { ...options.limits, maxMillis: left } });
}

/** The diagnostic for a limit hit while reading the input, naming the flag that raises it. */
export function readingLimit(e: LimitError, maxMillis: number): Diagnostic {
  const hint = e.kind === 'time' ? `the time limit is ${maxMillis} ms; raise it with --max-time` : 'the input is too large for the memory available';
  return diagnostic('error', 'limit', e.message, null, [hint]);
}

export function runSources(sources: LoadedSources, options: RunOptions = {}): RunResult {
  const { store, compiled, strategy, texts } = compileSources(sources, options);
  return solveCompiled(store, compiled, strategy, texts, options);
}

/** A program parsed and compiled once, solved afresh by every call of `solve`. */
export interface PreparedProgram {
  /** Solves the compiled program from its given facts, on a copy of its term store. */
  solve(): RunResult;
}

/**
 * Parses and compiles a program without solving it: what a benchmark of the evaluation
 * alone times (as a Prolog system's timing of a query leaves out consulting the file).
 * Every `solve()` starts from a copy of the compiled term store, so runs do not share
 * terms; the copy is part of what `solve()` costs.
 */
export function prepareText(source: string, options: RunOptions = {}): PreparedProgram {
  const { store, compiled, strategy, texts } = compileSources(loadText(source, options.file ?? '<input>'), options);
  return { solve: () => solveCompiled(store.clone(), compiled, strategy, texts, options) };
}

/** Parse-level checks, the goal and compilation; throws ProgramError on a diagnostic. */
function compileSources(
  sources: LoadedSources,
  options: RunOptions,
): { store: TermStore; compiled: CompiledProgram; strategy: StrategyName; texts: Map<string, string> } {
  const texts = new Map(sources.texts);
  if (sources.diagnostics.length > 0) throw new ProgramError(sources.diagnostics, texts);
  let goal: readonly Literal[] | null = null;
  if (options.goal !== undefined) {
    texts.set('<goal>', options.goal);
    try {
      goal = parseGoal(options.goal, '<goal>');
    } catch (e) {
      if (e instanceof UserError) throw new ProgramError(e.diagnostics, texts);
      throw e;
    }
  }
  // the compiler recurses over terms: deeper ones are refused here, at their place
  try {
    for (const p of sources.programs) checkStatementDepth(p.statements, MAX_NESTING);
    if (goal !== null) checkLiteralDepth(goal, MAX_NESTING);
  } catch (e) {
    if (e instanceof UserError) throw new ProgramError(e.diagnostics, texts);
    throw e;
  }
  const store = new TermStore();
  const strategy = options.strategy ?? defaultStrategy(goal);
  const compiled = compileProgram(store, sources.programs, strategy, goal, sources.roots);
  if (!compiled.ok) throw new ProgramError(compiled.diagnostics, texts);
  return { store, compiled: compiled.program, strategy, texts };
}

function solveCompiled(store: TermStore, program: CompiledProgram, strategy: StrategyName, texts: Map<string, string>, options: RunOptions): RunResult {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const start = strategy === 'mutable' ? Database.empty(new FactMeta(), new MutableRelationMap()) : Database.empty();
  const solver = new Solver(store, program.plans, strategy === 'naive' ? 'naive' : 'seminaive', limits, start, options.onProgress);
  solver.addFacts(program.facts);
  solver.solve();
  return new RunResult(store, program, solver, texts, strategy);
}

/**
 * The strategy used when none is asked for: a goal that binds an argument (a constant or
 * a term without variables in some position, e.g. `path(0, X)`) is answered
 * goal-directed, on demand; anything else is evaluated bottom-up, semi-naively.
 */
export function defaultStrategy(goal: readonly Literal[] | null): StrategyName {
  if (goal === null) return 'seminaive';
  const bindsArgument = goal.some((l) => l.kind === 'call' && (l.args.some((a) => !hasVariable(a)) || l.named.some((a) => !hasVariable(a.value))));
  return bindsArgument ? 'demand' : 'seminaive';
}

function hasVariable(t: AstTerm): boolean {
  let found = false;
  walkTerm(t, (x) => {
    if (x.kind === 'var') found = true;
  });
  return found;
}

/** A diagnostic with the facts it was derived from; a clash also keeps its two terms. */
export interface Problem {
  readonly diagnostic: Diagnostic;
  readonly premises: readonly TermId[];
  readonly clash?: { readonly left: TermId; readonly right: TermId; readonly reason: string; readonly outer: readonly [TermId, TermId] };
}

export class RunResult {
  constructor(
    readonly store: TermStore,
    readonly program: CompiledProgram,
    readonly solver: Solver,
    readonly texts: ReadonlyMap<string, string>,
    readonly strategy: StrategyName,
  ) {}

  /** Each rule's span by rule id, from the plans (see ruleSpan); built on first use. */
  private ruleSpans: Map<number, Span> | undefined;

  get stats(): SolveStats {
    return this.solver.stats;
  }

  /**
   * Live facts of every internal relation that stands for a user predicate: its first `n`
   * entries. One relation with no replaced facts lends its log as it is (no copy: printing
   * millions of facts should not hold them twice).
   */
  private factsOf(pred: string): { facts: ArrayLike<TermId>; n: number } {
    const rels = [...this.solver.db.relations].filter(([name]) => name === pred || userPredOf(name) === pred).map(([, rel]) => rel);
    if (rels.length === 1 && rels[0]!.removed === 0) return { facts: rels[0]!.log.raw, n: rels[0]!.log.length };
    const out: TermId[] = [];
    for (const rel of rels) {
      const raw = rel.log.raw;
      const n = rel.log.length;
      if (rel.removed === 0) for (let i = 0; i < n; i++) out.push(raw[i]!);
      else for (let i = 0; i < n; i++) if (this.solver.db.has(raw[i]!)) out.push(raw[i]!);
    }
    return { facts: out, n: out.length };
  }

  /** Distinct argument tuples of a user predicate, sorted, as one flat array of term ids (no term is interned). */
  sortedTuples(pred: string): SortedTuples {
    const { facts, n } = this.factsOf(pred);
    // (sortedTuples checks that every fact has the first one's arity)
    const arity = n > 0 ? this.store.arity(facts[0]!) : 0;
    return sortedTuples(this.store, facts, arity, 'auto', n);
  }

  /** Distinct argument tuples of a user predicate, sorted. */
  tuples(pred: string): TermId[][] {
    const { arity, count, ids } = this.sortedTuples(pred);
    const rows: TermId[][] = new Array(count);
    for (let r = 0; r < count; r++) rows[r] = Array.from(ids.subarray(r * arity, r * arity + arity));
    return rows;
  }

  /** How many distinct tuples a user predicate has. */
  factCount(pred: string): number {
    // one relation without replaced facts holds each tuple once
    let only: { size: number; removed: number } | null = null;
    let relations = 0;
    for (const [name, rel] of this.solver.db.relations) {
      if (name !== pred && userPredOf(name) !== pred) continue;
      relations++;
      only = rel;
    }
    if (relations === 0) return 0;
    if (relations === 1 && only!.removed === 0) return only!.size;
    return this.sortedTuples(pred).count;
  }

  /** The user predicates that have facts, sorted by name (internal predicates left out). */
  predicates(): string[] {
    const preds = new Set<string>();
    for (const name of this.solver.db.relations.keys()) {
      const u = userPredOf(name);
      if (u !== null) preds.add(u);
    }
    return [...preds].sort().filter((p) => this.factsOf(p).n > 0);
  }

  /** Every fact grouped by predicate (sorted by name), each group sorted; internal predicates left out. */
  factsByPredicate(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const p of this.predicates()) {
      const lines: string[] = [];
      writeFactLines(this.store, p, this.sortedTuples(p), (line) => void lines.push(line));
      out.set(p, lines);
    }
    return out;
  }

  /** The goal's answers: one object per distinct answer, mapping each goal variable to its value; null without a goal. */
  get answers(): Record<string, JsonValue>[] | null {
    const vars = this.program.goalVars;
    if (vars === null) return null;
    return this.tuples(GOAL).map((row) => Object.fromEntries(vars.map((v, i) => [v, termJson(this.store, row[i]!)])));
  }

  /** The goal's answers as text (`X = 3, Y = [1, 2]`). */
  get answerTexts(): string[] | null {
    const vars = this.program.goalVars;
    if (vars === null) return null;
    return this.tuples(GOAL).map((row) => (vars.length === 0 ? 'true' : vars.map((v, i) => `${v} = ${termText(this.store, row[i]!)}`).join(', ')));
  }

  /** Errors (error facts, clashes, arithmetic errors, a limit hit) and warnings (undecided conditions, compile warnings). */
  get diagnostics(): Diagnostic[] {
    return this.problems().map((p) => p.diagnostic);
  }

  /**
   * Every diagnostic with the facts it was derived from (for locating it in a program).
   * `only: 'rule-errors'`: only the errors the rules found (error facts, clashes,
   * arithmetic errors, a limit hit), without the undecided conditions (re-checked under the
   * final bindings) and the instances that determined nothing, for a caller that reports no
   * other: the same errors, without the cost of the rest.
   */
  problems(only: 'all' | 'rule-errors' = 'all'): Problem[] {
    const store = this.store;
    const out: Problem[] = this.program.warnings.map((d) => ({ diagnostic: d, premises: [] }));
    const s = this.solver;
    if (s.limitHit) {
      const sizes = [...s.db.relations.entries()]
        .filter(([n]) => !isAuxiliary(n))
        .map(([n, r]) => [n, r.size] as const)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([n, k]) => `${userPredOf(n) ?? n}: ${k} facts`);
      const flag = { rounds: '--max-rounds', facts: '--max-facts', time: '--max-time', depth: '--max-depth', memory: '--max-facts' }[s.limitHit.kind];
      out.push({
        diagnostic: diagnostic(
          'error',
          'limit',
          `${s.limitHit.message} (round ${s.stats.rounds}, ${s.db.factCount} facts); the rules may derive without end`,
          null,
          [...(sizes.length ? [`largest relations: ${sizes.join(', ')}`] : []), `raise the limit with ${flag} if the program is expected to be this large`],
        ),
        premises: [],
      });
    }
    const shown = (ps: readonly TermId[]) => visiblePremises(store, s.meta, ps);
    // all the facts matched, demand facts included: their provenance leads to the program fact that asked
    for (const p of s.runtimeProblems()) out.push({ diagnostic: p.diagnostic, premises: p.premises });
    // the relations this run has facts in (a library declares many more than a program uses), for the determined-nothing walk below
    const present = new Map<string, Relation>();
    for (const [name, rel] of s.db.relations) {
      if (only === 'all') present.set(name, rel);
      if (!isErrorRelation(name)) continue;
      const plan = this.errorPlan(name);
      if (plan?.rule.head.k !== 'error') continue;
      const template = plan.rule.head.template;
      for (let i = 0; i < rel.log.length; i++) {
        const f = rel.log.get(i);
        if (rel.removed > 0 && !s.db.has(f)) continue;
        let k = 0;
        const message = template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, () => termText(store, store.arg(f, k++)));
        const premises = shown(s.meta.provenance(f)?.premises ?? []);
        out.push({
          diagnostic: diagnostic(
            'error',
            'error-fact',
            message,
            plan.rule.head.span,
            premises.map((p) => this.premiseNote(p)),
          ),
          premises,
        });
      }
    }
    // clashes after the error facts: a rule's own message says more than a unification's
    for (const c of s.clashes) {
      const premises = shown(c.premises);
      out.push({
        diagnostic: diagnostic(
          'error',
          'clash',
          `cannot unify ${termText(store, c.left)} with ${termText(store, c.right)} (${c.reason})`,
          c.plan.rule.head.span,
          premises.map((p) => this.premiseNote(p)),
        ),
        premises,
        clash: c,
      });
    }
    if (only === 'rule-errors') return onceEach(out);
    // a negation that waits because its computation waits on an undecided condition is a
    // consequence: the condition itself, reported where it is asked, is the one warning
    const residuals = s.residuals();
    const rootAsked = residuals.some((r) => !r.alternative && r.text.endsWith(' cannot be decided') && !r.text.startsWith('not '));
    const folded = residuals.filter((r) => rootAsked && r.text.endsWith(WAITS_ON_CONDITION));
    for (const r of residuals.filter((r) => !folded.includes(r)))
      out.push({
        diagnostic: r.alternative
          ? diagnostic(
              'note',
              'undecided-alternative',
              `${r.text} (another derivation of a call that has an answer)`,
              r.step >= 0 ? r.steps[r.step]!.span : r.plan.rule.head.span,
            )
          : diagnostic('warning', 'undecided', r.text, r.step >= 0 ? r.steps[r.step]!.span : r.plan.rule.head.span),
        premises: r.premises,
      });
    // a declared relation's instance whose inputs are all known but whose result was
    // determined by nothing is itself an error (Relay: "Broadcast failed for ..."),
    // unless an error or an undecided condition already concerns it
    if (s.limitHit === null) {
      const covered = new Set<TermId>();
      for (const p of [...out, ...folded]) for (const f of p.premises) covered.add(resolve(store, s.db.uf, f));
      for (const [name, decl] of this.program.decls) {
        const n = decl.params.length;
        const rel = present.get(name);
        if (n < 2 || rel === undefined) continue;
        for (let i = 0; i < rel.log.length; i++) {
          const f = rel.log.get(i);
          if (rel.removed > 0 && !s.db.has(f)) continue;
          if (store.isGround(store.arg(f, n - 1)) || covered.has(f)) continue;
          let inputsKnown = true;
          for (let k = 0; k < n - 1 && inputsKnown; k++) inputsKnown = store.isGround(store.arg(f, k));
          if (!inputsKnown) continue;
          out.push({
            diagnostic: diagnostic(
              'error',
              'determined-nothing',
              `${displayFact(store, f)} determined nothing: its inputs are known, but no rule gave its ${decl.params[n - 1]}`,
              this.spanOfGiven(f),
            ),
            premises: [f],
          });
        }
      }
    }
    return onceEach(out);
  }

  /** `from <fact> (given at file:line)` or `(by rule at file:line)`: a premise and where it came from. */
  private premiseNote(fact: TermId): string {
    const store = this.store;
    const text = displayFact(store, resolve(store, this.solver.db.uf, fact));
    let f = fact;
    for (let guard = 0; guard < 10_000; guard++) {
      const p = this.solver.meta.provenance(f);
      if (p === null) return `from ${text}`;
      if (p.rule === REBUILT) {
        f = p.premises[0]!;
        continue;
      }
      if (p.rule >= 0) {
        const span = this.ruleSpan(p.rule);
        return span ? `from ${text} (by rule at ${where(span)})` : `from ${text}`;
      }
      const span = this.program.factSpans.get(f);
      return span ? `from ${text} (given at ${where(span)})` : `from ${text} (given)`;
    }
    return `from ${text}`;
  }

  /**
   * Where rule `id` is written. From the plans, which carry their rules' spans: a derived
   * fact's rule has a plan, and a compiled library read from the cache reads its rule table
   * only when asked (typing/compiled-cache.ts), which a premise's note should not do (the
   * failing world of an ONNX If reports a clash with notes: a few ms of a cold process).
   */
  private ruleSpan(id: number): Span | undefined {
    if (this.ruleSpans === undefined) {
      this.ruleSpans = new Map();
      for (const p of this.program.plans) this.ruleSpans.set(p.rule.id, p.rule.span);
    }
    return this.ruleSpans.get(id) ?? this.program.rules[id]?.span;
  }

  /** Where a fact (or the fact it was rebuilt from) was given in the source, if it was. */
  private spanOfGiven(fact: TermId): Diagnostic['span'] {
    let f = fact;
    for (let guard = 0; guard < 10_000; guard++) {
      const span = this.program.factSpans.get(f);
      if (span) return span;
      const p = this.solver.meta.provenance(f);
      if (p === null || p.rule !== REBUILT) return null;
      f = p.premises[0]!;
    }
    return null;
  }

  private errorPlan(rel: string): Plan | undefined {
    return this.solver.plans.find((p) => errorRelation(p.rule.id) === rel);
  }

  get ok(): boolean {
    return this.diagnostics.every((d) => d.severity !== 'error');
  }

  /** The derivation tree of a fact written in rule syntax, e.g. `path(1, 5)`. */
  explain(factSource: string): string {
    const t = parseTerm(factSource, '<explain>');
    checkTermDepth(t, MAX_NESTING);
    const store = this.store;
    const toTerm = (a: typeof t): TermId => {
      switch (a.kind) {
        case 'int':
          return store.int(a.value);
        case 'float':
          return store.float(a.value);
        case 'atom':
          return store.atom(a.name);
        case 'string':
          return store.str(a.value);
        case 'hole':
          return /^\d+$/.test(a.name) ? store.hole(Number(a.name)) : fail();
        case 'compound':
          return store.compound(a.functor, a.args.map(toTerm));
        case 'list':
          return store.list(a.items.map(toTerm), a.tail ? toTerm(a.tail) : store.nil);
        case 'neg':
          if (a.arg.kind === 'int') return store.int(-a.arg.value);
          return fail();
        default:
          return fail();
      }
    };
    function fail(): never {
      throw new UserError([diagnostic('error', 'explain', 'explain takes a fact without variables or expressions, e.g. path(1, 5)', t.span)]);
    }
    let pred: string;
    let args: TermId[];
    if (t.kind === 'compound') {
      pred = t.functor;
      args = t.args.map(toTerm);
    } else if (t.kind === 'atom') {
      pred = t.name;
      args = [];
    } else fail();
    for (const [name] of this.solver.db.relations) {
      if (userPredOf(name) !== pred) continue;
      const f = store.findCompoundSym(store.symbol(name), args);
      if (f !== 0 && this.solver.db.has(f))
        return explainFact({ store, meta: this.solver.meta, rules: this.program.rules, factSpans: this.program.factSpans, solver: this.solver }, f);
    }
    throw new UserError([diagnostic('error', 'explain', `${displayFact(store, store.compound(pred, args))} does not hold`, t.span)]);
  }
}

export { where };

/** The same problem found again after a rebuild is reported once. */
function onceEach(problems: readonly Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter(({ diagnostic: d }) => {
    const k = `${d.severity}|${d.code}|${d.message}|${d.span ? where(d.span) : ''}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
