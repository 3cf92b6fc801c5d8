// The whole compile pipeline: lower the parsed files (and the goal), check that every
// called predicate exists, check stratification, decide which predicates are
// evaluated on demand, apply the demand transformation, stratify the result, and
// build one join plan per rule (its templates carrying their literal's span).
import type { Literal, Program, Span } from '../language/ast.js';
import { literalTerms, walkTerm } from '../language/ast-walk.js';
import { type Diagnostic, diagnostic } from '../../diagnostics/diagnostic.js';
import { didYouMean } from '../../diagnostics/suggest.js';
import type { TermId, TermStore } from '../terms/term-store.js';
import { compilePlan, linkNegations, type Plan } from './plan.js';
import { withoutTemplateSpans } from './template-spans.js';
import { transformForDemand } from './demand.js';
import { userPredOf } from './relation-names.js';
import type { RelationDecl, Rule } from './ir.js';
import { type GivenFact, lower, where } from './lower.js';
import { Modes } from './modes.js';
import { schedule } from './schedule.js';
import { stratify } from './stratify.js';

/**
 * `mutable` is `seminaive` over the mutable store (store/mutable-relations.ts): the same
 * plans and the same facts, to measure what the persistent store costs.
 */
export type StrategyName = 'naive' | 'seminaive' | 'demand' | 'mutable';

export const GOAL = '$goal';

export interface CompiledProgram {
  readonly plans: Plan[];
  /** All rules after the demand transformation, indexed by rule id (provenance refers to them). */
  readonly rules: Rule[];
  readonly facts: Map<string, TermId[]>;
  /**
   * Where each given fact was written (its first occurrence). Built when first read (an
   * explanation, a diagnostic, the compiled-library cache): a run of millions of facts
   * that explains nothing computes no span.
   */
  readonly factSpans: Map<TermId, Span>;
  readonly decls: Map<string, RelationDecl>;
  readonly goalVars: string[] | null;
  /** Predicates evaluated on demand (magic sets). */
  readonly demanded: Set<string>;
  readonly warnings: Diagnostic[];
}

export type CompileOutcome = { readonly ok: true; readonly program: CompiledProgram } | { readonly ok: false; readonly diagnostics: Diagnostic[] };

/**
 * `roots`: the files that were run (not imported). An unsafe predicate that nothing
 * calls is an error only when a root file defines it; null means every file is a root.
 */
export function compileProgram(
  store: TermStore,
  files: readonly Program[],
  strategy: StrategyName,
  goal: readonly Literal[] | null,
  roots: ReadonlySet<string> | null = null,
): CompileOutcome {
  let goalVars: string[] | null = null;
  const programs = [...files];
  if (goal !== null && goal.length > 0) {
    goalVars = [];
    for (const l of goal)
      for (const top of literalTerms(l))
        walkTerm(top, (t) => {
          if (t.kind === 'var' && !t.name.startsWith('_') && !goalVars!.includes(t.name)) goalVars!.push(t.name);
        });
    const span = goal[0]!.span;
    programs.push({
      file: span.file,
      statements: [
        {
          kind: 'clause',
          head: { kind: 'call', pred: GOAL, args: goalVars.map((name) => ({ kind: 'var', name, span })), named: [], span },
          body: goal,
          span,
        },
      ],
    });
  }

  const lowered = lower(store, programs);
  const errors = lowered.diagnostics.filter((d) => d.severity === 'error');
  const warnings = lowered.diagnostics.filter((d) => d.severity !== 'error' && !(d.span && d.span.file === '<goal>' && d.code === 'singleton'));
  // calls of predicates that nothing defines
  const known = new Set<string>([...lowered.defined, ...lowered.decls.keys(), ...lowered.facts.keys()]);
  for (const [pred, span] of lowered.calls) {
    if (known.has(pred) || lowered.arityErrors.has(pred)) continue;
    const hint =
      pred === 'not'
        ? '; negation is written `not p(X)`, without parentheses around the call'
        : didYouMean(
            pred,
            [...known].filter((k) => k !== GOAL),
          );
    errors.push(diagnostic('error', 'undefined', `undefined predicate ${pred}/${lowered.preds.get(pred)?.arity ?? 0}${hint}`, span));
  }
  if (errors.length > 0) return { ok: false, diagnostics: dedupe(errors) };

  const userStrata = stratify(lowered.rules);
  if (!userStrata.ok) return { ok: false, diagnostics: [userStrata.problem] };

  // predicates that cannot be evaluated bottom-up are evaluated on demand, in every strategy
  const needsDemand = new Set<string>();
  const unsafeProblems: Diagnostic[] = [];
  const modes = new Modes(lowered.rules);
  for (const r of lowered.rules) {
    if (r.head.k !== 'atom' || r.head.pred === GOAL || needsDemand.has(r.head.pred)) continue;
    if (modes.safe(r.head.pred, 'f'.repeat(r.head.args.length))) continue;
    // a predicate nobody calls is evaluated bottom-up (a root); in a file that was run
    // (not a library helper) its unsafe rules are errors
    if (!lowered.calls.has(r.head.pred) && (roots === null || roots.has(r.span.file))) {
      for (const q of lowered.rules) {
        if (q.head.k !== 'atom' || q.head.pred !== r.head.pred) continue;
        const s = schedule(q, new Set(), null);
        if (!s.ok) unsafeProblems.push({ ...s.problem, notes: [...s.problem.notes, `${q.head.pred} is never called, so it is evaluated bottom-up`] });
      }
      continue; // evaluated bottom-up; an unsafe call inside is reported for its pattern
    }
    needsDemand.add(r.head.pred);
  }
  if (unsafeProblems.length > 0) return { ok: false, diagnostics: dedupe(unsafeProblems) };
  const goalDirected = new Set<string>(needsDemand);
  if (strategy === 'demand' && goal !== null) for (const r of lowered.rules) if (r.head.k === 'atom' && r.head.pred !== GOAL) goalDirected.add(r.head.pred);

  const attempt = (demanded: Set<string>) => {
    const t = transformForDemand({
      rules: lowered.rules,
      demanded,
      hasFacts: new Set(lowered.facts.keys()),
      perCall: perCallRelations(lowered.rules, new Set(lowered.decls.keys())),
    });
    if (t.problems.length > 0) return { ok: false as const, diagnostics: dedupe(t.problems) };
    const st = stratify(t.rules, (p) => userPredOf(p) ?? p);
    if (!st.ok) return { ok: false as const, diagnostics: [st.problem] };
    return { ok: true as const, rules: t.rules, strata: st.ruleStratum, demanded };
  };
  let result = attempt(goalDirected);
  // goal-directed evaluation is an optimisation: if it breaks stratification, fall back
  if (!result.ok && goalDirected.size > needsDemand.size) result = attempt(needsDemand);
  if (!result.ok) {
    // the program itself is stratified: the cycle comes from evaluating a negated helper on demand
    const diagnostics = result.diagnostics.map((d) =>
      d.code === 'stratification'
        ? {
            ...d,
            message: `this negation cannot be evaluated: the negated predicate is evaluated on demand, and its demand depends on the rule that negates it`,
            notes: [
              'negate a predicate that can be evaluated bottom-up, or replace the negation by a positive helper (e.g. not_member(X, L) with X != Y on each element)',
            ],
          }
        : d,
    );
    return { ok: false, diagnostics };
  }

  // every diagnostic of the compiler is given: templates drop their spans, literals and heads keep theirs (compile/template-spans.ts)
  const rules = result.rules.map(withoutTemplateSpans);
  const plans = rules.map((r, i) => compilePlan(store, r, i, result.strata[i]!));
  linkNegations(plans);
  const facts = new Map<string, TermId[]>();
  for (const [pred, list] of lowered.facts)
    facts.set(
      pred,
      list.map((x) => x.fact),
    );
  let factSpans: Map<TermId, Span> | null = null;
  return {
    ok: true,
    program: {
      plans,
      rules,
      facts,
      get factSpans() {
        return (factSpans ??= factSpanTable(lowered.facts));
      },
      decls: lowered.decls,
      goalVars,
      demanded: result.demanded,
      warnings,
    },
  };
}

/** The span of each given fact (its first occurrence), by fact. */
function factSpanTable(given: ReadonlyMap<string, readonly GivenFact[]>): Map<TermId, Span> {
  const out = new Map<TermId, Span>();
  for (const list of given.values()) for (const x of list) if (!out.has(x.fact)) out.set(x.fact, x.span);
  return out;
}

/**
 * Declared relations (one fact per operator call) and the relations derived from them:
 * their facts are per call, and rules reading them are projected (compile/projection.ts).
 */
function perCallRelations(rules: readonly Rule[], declared: ReadonlySet<string>): Set<string> {
  const out = new Set(declared);
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of rules) {
      if (r.head.k !== 'atom' || out.has(r.head.pred)) continue;
      if (r.body.some((l) => l.k === 'atom' && !l.neg && out.has(l.pred))) {
        out.add(r.head.pred);
        changed = true;
      }
    }
  }
  return out;
}

function dedupe(ds: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return ds.filter((d) => {
    const k = `${d.span ? where(d.span) : ''}:${d.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
