// Orders a rule body for left-to-right evaluation given which head variables are
// bound on entry (the binding pattern it is called with), and checks safety: every
// literal must become evaluable, and every head variable must end up bound.
// The user's order is kept; a literal that needs bound values (a comparison, a
// negation, an expression argument) is delayed until they are bound.
import { type Diagnostic, diagnostic } from '../../diagnostics/diagnostic.js';
import { allBound, isExpression, type Lit, type Rule, type Tmpl, varsOf } from './ir.js';

export type ScheduleResult = { readonly ok: true; readonly body: Lit[]; readonly bound: Set<number> } | { readonly ok: false; readonly problem: Diagnostic };

function anonymous(rule: Rule, t: Tmpl): boolean {
  return t.k === 'var' && rule.varNames[t.v] === '_';
}

/** Can this literal run now, and which variables does it bind? */
function readiness(rule: Rule, l: Lit, bound: ReadonlySet<number>): { ready: boolean; binds: number[]; missing: number[] } {
  const missingOf = (ts: readonly Tmpl[]) => {
    const m: number[] = [];
    for (const t of ts) for (const v of varsOf(t)) if (!bound.has(v) && !m.includes(v)) m.push(v);
    return m;
  };
  switch (l.k) {
    case 'atom': {
      if (l.neg) {
        const named = l.args.filter((a) => !anonymous(rule, a));
        const missing = missingOf(named);
        return { ready: missing.length === 0, binds: [], missing };
      }
      const exprs = l.args.filter(isExpression);
      const missing = missingOf(exprs);
      return { ready: missing.length === 0, binds: [...new Set(l.args.flatMap((a) => [...varsOf(a)]))], missing };
    }
    case 'compare':
    case 'differ':
    case 'test': {
      const missing = missingOf(l.k === 'test' ? [l.a] : [l.a, l.b]);
      return { ready: missing.length === 0, binds: [], missing };
    }
    case 'unify': {
      const aBound = allBound(l.a, bound);
      const bBound = allBound(l.b, bound);
      if (aBound && bBound) return { ready: true, binds: [], missing: [] };
      if (aBound && !isExpression(l.b)) return { ready: true, binds: [...varsOf(l.b)], missing: [] };
      if (bBound && !isExpression(l.a)) return { ready: true, binds: [...varsOf(l.a)], missing: [] };
      return { ready: false, binds: [], missing: missingOf([l.a, l.b]) };
    }
  }
}

export function schedule(rule: Rule, boundOnEntry: ReadonlySet<number>, pattern: string | null): ScheduleResult {
  const bound = new Set(boundOnEntry);
  const remaining = [...rule.body];
  const body: Lit[] = [];
  const mode = pattern === null ? 'in bottom-up evaluation' : `when the predicate is called with binding pattern ${pattern} (b = bound, f = free)`;
  while (remaining.length > 0) {
    let picked = -1;
    for (let i = 0; i < remaining.length; i++) {
      if (readiness(rule, remaining[i]!, bound).ready) {
        picked = i;
        break;
      }
    }
    if (picked < 0) {
      const l = remaining[0]!;
      const { missing } = readiness(rule, l, bound);
      const names = missing.map((v) => rule.varNames[v]).filter((n) => n !== '_');
      return {
        ok: false,
        problem: diagnostic(
          'error',
          'unsafe',
          `this literal cannot be evaluated ${mode}: ${names.length ? `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} never bound before it` : 'an expression needs bound values'}`,
          l.span,
        ),
      };
    }
    const l = remaining.splice(picked, 1)[0]!;
    for (const v of readiness(rule, l, bound).binds) bound.add(v);
    body.push(l);
  }
  const unbound = headNeeds(rule).filter((v) => !bound.has(v));
  if (unbound.length > 0) {
    // head wildcards are variables named `_N` internally; show them as `_`
    const names = [...new Set(unbound.map((v) => (/^_\d+$/.test(rule.varNames[v]!) ? '_' : rule.varNames[v]!)))];
    return {
      ok: false,
      problem: diagnostic(
        'error',
        'unsafe',
        `head variable${names.length > 1 ? 's' : ''} ${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} not bound by the body ${mode}`,
        rule.head.span,
        ['a rule evaluated bottom-up must bind every head variable in its body; a helper called only with some arguments bound is evaluated on demand'],
      ),
    };
  }
  return { ok: true, body, bound };
}

/**
 * Head variables that must be bound: all of them, except in a unification head `_` and
 * named wildcards such as `_D` (a fresh hole; a named one is the same hole at each of
 * its occurrences in the head, so `T = fn([val(it, _D, _S)], val(value, _D, _S))` builds
 * one new dtype and one new size per firing).
 */
function headNeeds(rule: Rule): number[] {
  const h = rule.head;
  const vs = new Set<number>();
  if (h.k === 'atom') for (const a of h.args) varsOf(a, vs);
  else if (h.k === 'unify') {
    varsOf(h.a, vs);
    varsOf(h.b, vs);
    for (const v of [...vs]) if (rule.varNames[v]!.startsWith('_')) vs.delete(v);
  } else for (const v of h.vars) vs.add(v);
  return [...vs];
}
