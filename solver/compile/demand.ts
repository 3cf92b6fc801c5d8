// Demand transformation (magic sets). A predicate evaluated on demand gets one copy
// per binding pattern it is called with (`bcast@bbf`) and a demand predicate
// (`$demand:bcast@bbf`) that holds the bound arguments of the calls made so far.
// A copy's rules only fire for demanded arguments, so helpers that are unsafe bottom-up
// (`bcast([], R, R).`) work, and a point query computes only what it needs.
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { type AtomLit, isExpression, type Lit, type Rule, type Tmpl, varsOf } from './ir.js';
import { callPattern } from './modes.js';
import { schedule } from './schedule.js';
import { Projections } from './projection.js';
import { adornedName, demandName } from './relation-names.js';
import { ruleId } from '../store/ids.js';

export interface DemandInput {
  readonly rules: readonly Rule[];
  /** Predicates evaluated on demand. */
  readonly demanded: ReadonlySet<string>;
  /** Predicates with ground facts in the source (their copies must see those facts). */
  readonly hasFacts: ReadonlySet<string>;
  /** Relations with one fact per operator call (declared relations and what is derived from them): rules reading one are projected (compile/projection.ts). */
  readonly perCall?: ReadonlySet<string>;
}

export interface DemandOutput {
  readonly rules: Rule[];
  readonly problems: Diagnostic[];
  /** Binding patterns generated per predicate. */
  readonly patterns: Map<string, Set<string>>;
}

export function transformForDemand(input: DemandInput): DemandOutput {
  const out: Rule[] = [];
  const problems: Diagnostic[] = [];
  const patterns = new Map<string, Set<string>>();
  const byPred = new Map<string, Rule[]>();
  for (const r of input.rules) if (r.head.k === 'atom') (byPred.get(r.head.pred) ?? byPred.set(r.head.pred, []).get(r.head.pred)!).push(r);
  const queue: [string, string][] = [];

  const push = (rule: Omit<Rule, 'id'>) => out.push({ ...rule, id: ruleId(out.length) });

  /** Rewrite a scheduled body: calls of demanded predicates become calls of their copies, each preceded by a demand rule. */
  const rewrite = (rule: Rule, entry: Lit[], body: readonly Lit[], boundOnEntry: ReadonlySet<number>): Lit[] => {
    const bound = new Set(boundOnEntry);
    const result = [...entry];
    for (const l of body) {
      if (l.k === 'atom' && input.demanded.has(l.pred)) {
        const pattern = callPattern(rule, l.args, bound);
        const boundArgs = l.args.filter((_, i) => pattern[i] === 'b');
        let seen = patterns.get(l.pred);
        if (!seen) patterns.set(l.pred, (seen = new Set()));
        if (!seen.has(pattern)) {
          seen.add(pattern);
          queue.push([l.pred, pattern]);
        }
        // $demand:q@p(bound args) :- <what is known before the call>.
        push({
          head: { k: 'atom', pred: demandName(l.pred, pattern), args: boundArgs, span: l.span },
          body: [...result],
          varNames: rule.varNames,
          span: l.span,
          origin: rule.origin,
          role: 'demand',
        });
        const call: AtomLit = { ...l, pred: adornedName(l.pred, pattern) };
        result.push(call);
      } else {
        result.push(l);
      }
      if (l.k === 'atom' && !l.neg) for (const a of l.args) varsOf(a, bound);
      if (l.k === 'unify') {
        varsOf(l.a, bound);
        varsOf(l.b, bound);
      }
    }
    return result;
  };

  // Roots: every rule whose head is not a demanded predicate, evaluated bottom-up.
  // A first literal that drops parts of its facts is read through its projection.
  const perCall = input.perCall ?? new Set<string>();
  const projections = new Projections(
    (rule) => push(rule),
    (pred) => perCall.has(pred) && !input.demanded.has(pred),
  );
  for (const r of input.rules) {
    if (r.head.k === 'atom' && input.demanded.has(r.head.pred)) continue;
    const s = schedule(r, new Set(), null);
    if (!s.ok) {
      problems.push(s.problem);
      continue;
    }
    for (const { rule, body } of projections.apply(r, s.body)) push({ ...rule, body: rewrite(rule, [], body, new Set()) });
  }

  // Copies of demanded predicates, one per binding pattern reached.
  while (queue.length > 0) {
    const [pred, pattern] = queue.shift()!;
    const copy = adornedName(pred, pattern);
    const dem = demandName(pred, pattern);
    for (const r of byPred.get(pred) ?? []) {
      if (r.head.k !== 'atom') continue;
      const boundHead = r.head.args.filter((_, i) => pattern[i] === 'b');
      const entryVars = new Set<number>();
      for (const a of boundHead) varsOf(a, entryVars);
      // a bound head argument that is an expression cannot be matched against demand
      if (boundHead.some(isExpression)) {
        problems.push({
          severity: 'error',
          code: 'unsafe',
          message: `a head argument computed by an expression cannot be called with that argument bound (pattern ${pattern})`,
          span: r.head.span,
          notes: [],
        });
        continue;
      }
      const s = schedule(r, entryVars, pattern);
      if (!s.ok) {
        problems.push(s.problem);
        continue;
      }
      const entry: AtomLit = { k: 'atom', pred: dem, args: boundHead, neg: false, span: r.head.span };
      push({
        ...r,
        head: { ...r.head, pred: copy },
        body: rewrite(r, [entry], s.body, entryVars),
        role: 'rule',
      });
    }
    if (input.hasFacts.has(pred)) {
      // copy the predicate's own facts for demanded arguments: p@pat(X..) :- $demand(..), p(X..)
      const n = pattern.length;
      const varNames = Array.from({ length: n }, (_, i) => `A${i + 1}`);
      const span = byPred.get(pred)?.[0]?.span ?? { file: '<facts>', start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } };
      const args: Tmpl[] = varNames.map((_, v) => ({ k: 'var', v, span }));
      push({
        head: { k: 'atom', pred: copy, args, span },
        body: [
          { k: 'atom', pred: dem, args: args.filter((_, i) => pattern[i] === 'b'), neg: false, span },
          { k: 'atom', pred, args, neg: false, span },
        ],
        varNames,
        span,
        origin: -1,
        role: 'demand',
      });
    }
  }
  return { rules: out, problems, patterns };
}
