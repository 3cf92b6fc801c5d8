// Turns a scheduled rule into an executable join plan: each positive literal becomes a
// scan of a relation through an index on the columns already bound (or a full scan),
// each variable occurrence becomes a bind (first) or a check (later), and the head
// becomes a fact to insert, a unification to apply or an error to report.
import type { CompareOp, Span } from '../language/ast.js';
import type { TermId, TermStore } from '../terms/term-store.js';
import { relationId } from '../store/relation-map.js';
import { allBound, headVars, isExpression, litVars, type HeadIR, type Lit, type Rule, type TestName, type Tmpl, varsOf } from './ir.js';
import { demandOfCopy, errorRelation, isAdornedCopy, isDemandRelation } from './relation-names.js';
import { schedule } from './schedule.js';

/** A pattern compiled for matching (engine/build.ts matches it): each variable occurrence either binds or checks. */
export type Pat =
  | { readonly k: 'const'; readonly id: TermId }
  | { readonly k: 'bind'; readonly v: number }
  | { readonly k: 'check'; readonly v: number }
  | { readonly k: 'any' }
  | { readonly k: 'cons'; readonly head: Pat; readonly tail: Pat }
  | { readonly k: 'struct'; readonly sym: number; readonly args: readonly Pat[] }
  /** A sub-term that is fully computable from bound variables (an expression): compare by value. */
  | { readonly k: 'value'; readonly t: Tmpl };

/** How a scan or a negation reads its relation: through an index on the positions bound before it. */
interface IndexedRead {
  readonly rel: string;
  /** The relation's number (store/relation-map.ts). */
  readonly relId: number;
  /** Argument positions whose values are known before the step: looked up through an index. */
  readonly keyCols: readonly number[];
  readonly keyTmpls: readonly Tmpl[];
  readonly indexName: string;
  readonly span: Span;
}

export type Step =
  | (IndexedRead & {
      readonly k: 'scan';
      /** Patterns for the other positions (null at key positions). */
      readonly pats: readonly (Pat | null)[];
      /** Which premise slot this scan fills. */
      readonly scanNo: number;
      /**
       * When the scan binds something nothing later reads (a `_`, or a variable used only
       * here): the variables it binds that later steps or the head do read. Facts that
       * agree on them lead to the same derivations, so the rest of the join runs once per
       * distinct value (once in all when empty). Null when every match is distinct.
       */
      readonly project: readonly number[] | null;
    })
  | (IndexedRead & {
      readonly k: 'neg';
      readonly arity: number;
      /** For a demanded copy: its demand relation (the negation waits while that demand is incomplete). */
      readonly demandRel: string | null;
      /** Bottom-up relations the negated one depends on (the negation waits while any is incomplete). */
      dependsOn: readonly string[];
    })
  | { readonly k: 'compare'; readonly op: CompareOp; readonly a: Tmpl; readonly b: Tmpl; readonly span: Span }
  /**
   * An early copy of a later comparison (`earlyGuards`): drops a binding only when both
   * sides are integers and the comparison is false. Anything else (undecided, not
   * integers) goes on to the comparison itself, which decides and reports as before.
   */
  | { readonly k: 'guard'; readonly op: CompareOp; readonly a: Tmpl; readonly b: Tmpl; readonly span: Span }
  | { readonly k: 'match'; readonly pat: Pat; readonly value: Tmpl; readonly span: Span } // X = E binding the pattern side
  | { readonly k: 'equal'; readonly a: Tmpl; readonly b: Tmpl; readonly negate: boolean; readonly span: Span } // X = Y / X \= Y, both bound
  | { readonly k: 'test'; readonly name: TestName; readonly a: Tmpl; readonly span: Span };

export type HeadPlan =
  | { readonly k: 'fact'; readonly rel: string; readonly relSym: number; readonly args: readonly Tmpl[] }
  | { readonly k: 'unify'; readonly a: Tmpl; readonly b: Tmpl }
  | { readonly k: 'error'; readonly rel: string; readonly relSym: number; readonly vars: readonly number[] };

/**
 * What running a plan needs of its rule: its id (provenance), variable names, spans,
 * where it came from, and of its head the kind, the predicate and an error's message
 * template. A compiled library read from its cache (typing/compiled-cache.ts) keeps only
 * this on its plans; the whole rule (body included) stays in the program's rule table.
 */
export type PlanRule = Pick<Rule, 'id' | 'varNames' | 'span' | 'origin' | 'role'> & { readonly head: PlanRuleHead };
export type PlanRuleHead =
  | { readonly k: 'atom'; readonly pred: string; readonly span: Span }
  | { readonly k: 'unify'; readonly span: Span }
  | Extract<HeadIR, { readonly k: 'error' }>;

/** `rule` reduced to what its plans need (a copy). */
export function planRule(rule: Rule): PlanRule {
  const h = rule.head;
  const head: PlanRuleHead = h.k === 'error' ? h : h.k === 'atom' ? { k: 'atom', pred: h.pred, span: h.span } : { k: 'unify', span: h.span };
  return { id: rule.id, varNames: rule.varNames, span: rule.span, origin: rule.origin, role: rule.role, head };
}

export interface Plan {
  readonly index: number;
  readonly rule: PlanRule;
  readonly stratum: number;
  readonly steps: readonly Step[];
  /**
   * Per scan number: the join order to use when that scan reads the new facts (the
   * delta literal first, the others looked up through indexes), or null to use `steps`.
   * Scan numbers are those of `steps`, so old/new ranges mean the same in every order.
   */
  readonly variants: readonly (readonly Step[] | null)[];
  readonly head: HeadPlan;
  readonly scanCount: number;
  readonly nvars: number;
  /** Relations read by positive scans (to know when the plan has new input). */
  readonly reads: readonly string[];
  /**
   * For a rule whose body reads one relation (one positive literal, no negation): that
   * relation and a bit mask of the columns the rule looks at (bit 30 stands for all
   * columns from 30 on; bit 31, always set, for facts that are new rather than rebuilt). A fact rebuilt with changes only in other columns derives
   * nothing the fact before it did not (the solver skips such a delta). A column whose variable
   * only the head carries (as an argument or inside constructors, not computed from) counts as
   * not looked at: what the rule derived from the fact before holds the same hole, and the
   * commit that bound it rebuilt that too. Null otherwise.
   */
  readonly singleScan: { readonly rel: string; readonly columns: number } | null;
  /**
   * The first step scans a demand relation (`$demand:p@bf`, premise 0): the plan is a
   * rule of an adorned copy, run for the arguments asked of the copy, or one that asks a
   * helper on behalf of such a demand.
   */
  readonly demandGuarded: boolean;
}

/** The columns of a rule's only positive literal that the rule looks at, as a bit mask. */
function columnsUsed(rule: Rule): { rel: string; columns: number } | null {
  const atoms = rule.body.filter((l) => l.k === 'atom');
  if (atoms.length !== 1 || atoms[0]!.k !== 'atom' || atoms[0]!.neg) return null;
  const lit = atoms[0]!;
  // a variable the head only carries is passed through (see Plan.singleScan)
  const elsewhere = headVarsEvaluated(rule.head);
  for (const l of rule.body) if (l !== lit) for (const v of litVars(l)) elsewhere.add(v);
  const count = new Map<number, number>();
  for (const a of lit.args) if (a.k === 'var') count.set(a.v, (count.get(a.v) ?? 0) + 1);
  // bit 31: new facts (not rebuilt ones), which every rule must see
  let columns = 1 << 31;
  lit.args.forEach((a, c) => {
    const ignored = a.k === 'var' && (rule.varNames[a.v] === '_' || (!elsewhere.has(a.v) && count.get(a.v) === 1 && !varsInOtherArgs(lit.args, c).has(a.v)));
    if (!ignored) columns |= 1 << Math.min(c, 30);
  });
  return { rel: lit.pred, columns };
}

/** Variables of the head that building it evaluates (under arithmetic, a function, an index or a slice), or every head variable of an error head. */
function headVarsEvaluated(h: HeadIR): Set<number> {
  const out = new Set<number>();
  const walk = (t: Tmpl): void => {
    if (t.k === 'cons') {
      walk(t.head);
      walk(t.tail);
    } else if (t.k === 'struct') for (const a of t.args) walk(a);
    else if (t.k !== 'var' && t.k !== 'const') varsOf(t, out);
  };
  if (h.k === 'atom') for (const a of h.args) walk(a);
  else if (h.k === 'unify') {
    walk(h.a);
    walk(h.b);
  } else for (const v of h.vars) out.add(v);
  return out;
}

function varsInOtherArgs(args: readonly Tmpl[], c: number): Set<number> {
  const out = new Set<number>();
  args.forEach((a, i) => {
    if (i !== c) varsOf(a, out);
  });
  return out;
}

/**
 * Fill in, for every negation, the bottom-up relations its negated relation depends on
 * (positively, transitively), so that it can wait while any of them is incomplete.
 */
export function linkNegations(plans: readonly Plan[]): void {
  const deps = new Map<string, Set<string>>();
  for (const p of plans) {
    if (p.head.k !== 'fact') continue;
    let d = deps.get(p.head.rel);
    if (!d) deps.set(p.head.rel, (d = new Set()));
    for (const r of p.reads) d.add(r);
  }
  const closure = (rel: string): string[] => {
    const seen = new Set<string>([rel]);
    const stack = [rel];
    while (stack.length > 0)
      for (const r of deps.get(stack.pop()!) ?? [])
        if (!seen.has(r)) {
          seen.add(r);
          stack.push(r);
        }
    return [...seen].filter((r) => !isDemandRelation(r) && !(isAdornedCopy(r) && r !== rel));
  };
  // the negated relation itself is checked precisely (pending head instances), its dependencies coarsely
  for (const p of plans)
    for (const steps of [p.steps, ...p.variants]) for (const st of steps ?? []) if (st.k === 'neg') st.dependsOn = closure(st.rel).filter((r) => r !== st.rel);
}

/** Steps for a body in a given order; `scanOf` fixes the scan numbers (else they count up). */
function compileSteps(rule: Rule, body: readonly Lit[], scanOf: ReadonlyMap<Lit, number> | null): { steps: Step[]; reads: string[]; scanCount: number } {
  const bound = new Set<number>();
  const anon = (v: number) => rule.varNames[v] === '_';
  const toPat = (t: Tmpl): Pat => {
    switch (t.k) {
      case 'const':
        return { k: 'const', id: t.id };
      case 'var':
        if (anon(t.v)) return { k: 'any' };
        if (bound.has(t.v)) return { k: 'check', v: t.v };
        bound.add(t.v);
        return { k: 'bind', v: t.v };
      case 'cons':
        return { k: 'cons', head: toPat(t.head), tail: toPat(t.tail) };
      case 'struct':
        return { k: 'struct', sym: t.sym, args: t.args.map(toPat) };
      default:
        return { k: 'value', t };
    }
  };
  const steps: Step[] = [];
  const reads: string[] = [];
  let scanNo = 0;
  // usedAfter[j]: the variables read by the literals after body[j] or by the head
  const usedAfter: Set<number>[] = new Array(body.length);
  let acc = headVars(rule.head);
  for (let j = body.length - 1; j >= 0; j--) {
    usedAfter[j] = acc;
    acc = new Set([...acc, ...litVars(body[j]!)]);
  }
  for (const [j, l] of body.entries()) {
    switch (l.k) {
      case 'atom': {
        const keyCols: number[] = [];
        const keyTmpls: Tmpl[] = [];
        l.args.forEach((a, i) => {
          const isAnon = a.k === 'var' && anon(a.v);
          if (!isAnon && allBound(a, bound)) {
            keyCols.push(i);
            keyTmpls.push(a);
          }
        });
        const indexName = keyCols.join(',');
        if (l.neg) {
          const demandRel = demandOfCopy(l.pred);
          steps.push({
            k: 'neg',
            rel: l.pred,
            relId: relationId(l.pred),
            keyCols,
            keyTmpls,
            indexName,
            arity: l.args.length,
            demandRel,
            dependsOn: [],
            span: l.span,
          });
        } else {
          const before = new Set(bound);
          const pats = l.args.map((a, i) => (keyCols.includes(i) ? null : toPat(a)));
          const no = scanOf?.get(l) ?? scanNo;
          scanNo++;
          // the variables this scan binds, and whether it drops any part of a fact
          const binds = new Set<number>();
          let drops = false;
          for (const [i, a] of l.args.entries()) {
            if (keyCols.includes(i)) continue;
            for (const v of varsOf(a)) {
              if (anon(v)) drops = true;
              else if (!before.has(v)) binds.add(v);
            }
          }
          const kept = [...binds].filter((v) => usedAfter[j]!.has(v));
          if (kept.length < binds.size) drops = true;
          steps.push({
            k: 'scan',
            rel: l.pred,
            relId: relationId(l.pred),
            keyCols,
            keyTmpls,
            indexName,
            pats,
            scanNo: no,
            project: drops ? kept : null,
            span: l.span,
          });
          if (!reads.includes(l.pred)) reads.push(l.pred);
        }
        break;
      }
      case 'compare':
        steps.push({ k: 'compare', op: l.op, a: l.a, b: l.b, span: l.span });
        break;
      case 'test':
        steps.push({ k: 'test', name: l.name, a: l.a, span: l.span });
        break;
      case 'differ':
        steps.push({ k: 'equal', a: l.a, b: l.b, negate: true, span: l.span });
        break;
      case 'unify': {
        const aBound = allBound(l.a, bound);
        const bBound = allBound(l.b, bound);
        if (aBound && bBound) steps.push({ k: 'equal', a: l.a, b: l.b, negate: false, span: l.span });
        else if (aBound && !isExpression(l.b)) steps.push({ k: 'match', pat: toPat(l.b), value: l.a, span: l.span });
        else steps.push({ k: 'match', pat: toPat(l.a), value: l.b, span: l.span });
        break;
      }
    }
  }
  return { steps, reads, scanCount: scanNo };
}

/** A variable or a constant: building it reads a value and does nothing else. */
function isPlain(t: Tmpl): boolean {
  return t.k === 'var' || t.k === 'const';
}

/** Does matching this pattern only read the fact and bind or check variables (no expression is built)? */
function isPlainPat(p: Pat | null): boolean {
  if (p === null) return true;
  switch (p.k) {
    case 'value':
      return false;
    case 'cons':
      return isPlainPat(p.head) && isPlainPat(p.tail);
    case 'struct':
      return p.args.every(isPlainPat);
    default:
      return true;
  }
}

function patBinds(p: Pat | null, out: Set<number>): Set<number> {
  if (p === null) return out;
  if (p.k === 'bind') out.add(p.v);
  else if (p.k === 'cons') {
    patBinds(p.head, out);
    patBinds(p.tail, out);
  } else if (p.k === 'struct') for (const a of p.args) patBinds(a, out);
  return out;
}

/**
 * A scan that has no effect but its bindings: plain keys and patterns, so it never
 * waits, never builds a term and never meets an arithmetic error. A binding that skips
 * it loses only the derivations it would have led to.
 */
function isPlainScan(st: Step): st is Extract<Step, { k: 'scan' }> {
  return st.k === 'scan' && st.keyTmpls.every(isPlain) && st.pats.every(isPlainPat);
}

/**
 * The steps with a guard (see Step) for each comparison of plain operands, placed right
 * after the step that binds its last variable, when only plain scans lie between there
 * and the comparison: `linked(X, Z) :- edge(X, Y), edge(Y, Z), X < 100` drops X >= 100
 * before the second scan instead of after it. A binding the guard drops would have
 * reached the comparison with the same integers (or not reached it), so the results,
 * the waits (undecided comparisons) and the run-time errors are those of `steps`.
 * The first step is never preceded by a guard (it names a demand plan's demand).
 */
export function earlyGuards(steps: readonly Step[]): readonly Step[] {
  const before = new Map<number, Step[]>();
  steps.forEach((st, j) => {
    if (st.k !== 'compare' || !isPlain(st.a) || !isPlain(st.b)) return;
    const vars = new Set<number>();
    for (const t of [st.a, st.b]) if (t.k === 'var') vars.add(t.v);
    let p = j;
    for (; p - 1 >= 1; p--) {
      const prev = steps[p - 1]!;
      if (!isPlainScan(prev)) break;
      const binds = new Set<number>();
      for (const pat of prev.pats) patBinds(pat, binds);
      if ([...vars].some((v) => binds.has(v))) break;
    }
    if (p === j) return;
    let list = before.get(p);
    if (!list) before.set(p, (list = []));
    list.push({ k: 'guard', op: st.op, a: st.a, b: st.b, span: st.span });
  });
  if (before.size === 0) return steps;
  const out: Step[] = [];
  steps.forEach((st, j) => {
    out.push(...(before.get(j) ?? []), st);
  });
  return out;
}

export function compilePlan(store: TermStore, rule: Rule, index: number, stratum: number): Plan {
  const main = compileSteps(rule, rule.body, null);
  const scanOf = new Map<Lit, number>();
  let n = 0;
  for (const l of rule.body) if (l.k === 'atom' && !l.neg) scanOf.set(l, n++);
  const variants: (readonly Step[] | null)[] = [];
  for (const [lit, scanNo] of scanOf) {
    if (scanNo === 0) {
      variants.push(null);
      continue;
    }
    // the delta literal first; the rest in their order, delayed until they can run
    const reordered = schedule({ ...rule, body: [lit, ...rule.body.filter((l) => l !== lit)] }, new Set(), null);
    variants.push(reordered.ok && reordered.body[0] === lit ? earlyGuards(compileSteps(rule, reordered.body, scanOf).steps) : null);
  }
  const { reads, scanCount } = main;
  const steps = earlyGuards(main.steps);
  const h = rule.head;
  const head: HeadPlan =
    h.k === 'atom'
      ? { k: 'fact', rel: h.pred, relSym: store.symbol(h.pred), args: h.args }
      : h.k === 'unify'
        ? { k: 'unify', a: h.a, b: h.b }
        : { k: 'error', rel: errorRelation(rule.id), relSym: store.symbol(errorRelation(rule.id)), vars: h.vars };
  const first = steps[0];
  const demandGuarded = first !== undefined && first.k === 'scan' && isDemandRelation(first.rel);
  return { index, rule, stratum, steps, variants, head, scanCount, nvars: rule.varNames.length, reads, singleScan: columnsUsed(rule), demandGuarded };
}
