// Which predicates can be evaluated under which binding patterns. A predicate is safe
// under a pattern (`bbf`: first two arguments bound) when every rule for it can be
// ordered with those head arguments bound, and every call it makes is safe under the
// pattern of that call. Recursion is assumed safe (the greatest fixpoint).
import { isExpression, type Rule, varsOf } from './ir.js';
import { schedule } from './schedule.js';

export function callPattern(rule: Rule, args: readonly import('./ir.js').Tmpl[], bound: ReadonlySet<number>): string {
  return args.map((a) => (!(a.k === 'var' && rule.varNames[a.v] === '_') && [...varsOf(a)].every((v) => bound.has(v)) ? 'b' : 'f')).join('');
}

export class Modes {
  private readonly memo = new Map<string, boolean>();
  private readonly byPred = new Map<string, Rule[]>();

  constructor(rules: readonly Rule[]) {
    for (const r of rules) if (r.head.k === 'atom') (this.byPred.get(r.head.pred) ?? this.byPred.set(r.head.pred, []).get(r.head.pred)!).push(r);
  }

  /** Predicates with rules (the others are stored facts: safe under any pattern). */
  hasRules(pred: string): boolean {
    return this.byPred.has(pred);
  }

  safe(pred: string, pattern: string): boolean {
    const rules = this.byPred.get(pred);
    if (rules === undefined) return true;
    // a predicate that can be evaluated bottom-up can be called with any pattern
    const free = 'f'.repeat(pattern.length);
    if (pattern !== free && this.safe(pred, free)) return true;
    const key = `${pred}/${pattern}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    this.memo.set(key, true); // coinductive assumption for recursive calls
    let ok = true;
    for (const r of rules) {
      if (r.head.k !== 'atom') continue;
      const entry = new Set<number>();
      r.head.args.forEach((a, i) => {
        if (pattern[i] === 'b') varsOf(a, entry);
      });
      if (r.head.args.some((a, i) => pattern[i] === 'b' && isExpression(a))) {
        ok = false;
        break;
      }
      if (!this.ruleSafe(r, entry)) {
        ok = false;
        break;
      }
    }
    this.memo.set(key, ok);
    return ok;
  }

  /** Can this rule run with these variables bound on entry, including every call it makes? */
  ruleSafe(rule: Rule, entry: ReadonlySet<number>): boolean {
    const s = schedule(rule, entry, null);
    if (!s.ok) return false;
    const bound = new Set(entry);
    for (const l of s.body) {
      if (l.k === 'atom') {
        if (!this.safe(l.pred, callPattern(rule, l.args, bound))) return false;
        if (!l.neg) for (const a of l.args) varsOf(a, bound);
      } else if (l.k === 'unify') {
        varsOf(l.a, bound);
        varsOf(l.b, bound);
      }
    }
    return true;
  }
}
