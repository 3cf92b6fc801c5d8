// Stratification: predicates are grouped into strongly connected components of the
// dependency graph; a negated dependency inside a component is an error; components
// get strata in dependency order so that every negated predicate is complete before
// it is used. Unification and error heads define no predicate: their rules sit in the
// stratum after everything their body reads.
import { type Diagnostic, diagnostic } from '../../diagnostics/diagnostic.js';
import type { Rule } from './ir.js';

export type Strata = { readonly ok: true; readonly ruleStratum: number[]; readonly count: number } | { readonly ok: false; readonly problem: Diagnostic };

export function stratify(rules: readonly Rule[], displayName: (pred: string) => string = (p) => p): Strata {
  const preds = new Set<string>();
  const edges = new Map<string, { to: string; neg: boolean }[]>(); // head → body preds
  for (const r of rules) {
    for (const l of r.body) if (l.k === 'atom') preds.add(l.pred);
    if (r.head.k !== 'atom') continue;
    preds.add(r.head.pred);
    let list = edges.get(r.head.pred);
    if (!list) edges.set(r.head.pred, (list = []));
    for (const l of r.body) if (l.k === 'atom') list.push({ to: l.pred, neg: l.neg });
  }
  const comp = sccs([...preds], (p) => (edges.get(p) ?? []).map((e) => e.to));
  for (const r of rules) {
    if (r.head.k !== 'atom') continue;
    for (const l of r.body)
      if (l.k === 'atom' && l.neg && comp.get(l.pred) === comp.get(r.head.pred))
        return {
          ok: false,
          problem: diagnostic(
            'error',
            'stratification',
            `negation cannot be stratified: ${displayName(r.head.pred)} depends on not ${displayName(l.pred)}, which depends on ${displayName(r.head.pred)} again`,
            l.span,
            ['a predicate cannot depend on the negation of itself through a cycle of rules'],
          ),
        };
  }
  // longest-path layering over components (components are numbered in reverse topological order by Tarjan)
  const stratum = new Map<string, number>();
  const order = [...preds].sort((a, b) => comp.get(a)! - comp.get(b)!);
  for (let changed = true, guard = 0; changed && guard <= preds.size + 1; guard++) {
    changed = false;
    for (const p of order) {
      let s = stratum.get(p) ?? 0;
      for (const e of edges.get(p) ?? []) {
        const need = (stratum.get(e.to) ?? 0) + (e.neg ? 1 : 0);
        if (need > s) s = need;
      }
      if (s !== (stratum.get(p) ?? 0)) {
        stratum.set(p, s);
        changed = true;
      }
    }
  }
  const ruleStratum = rules.map((r) => {
    if (r.head.k === 'atom') return stratum.get(r.head.pred) ?? 0;
    let s = 0;
    for (const l of r.body) if (l.k === 'atom') s = Math.max(s, (stratum.get(l.pred) ?? 0) + (l.neg ? 1 : 0));
    return s;
  });
  const count = ruleStratum.reduce((m, s) => Math.max(m, s + 1), 1);
  return { ok: true, ruleStratum, count };
}

/** Tarjan's algorithm, iterative: component number per node. */
function sccs(nodes: string[], next: (n: string) => string[]): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const comp = new Map<string, number>();
  let counter = 0;
  let compCount = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: { node: string; succ: string[]; i: number }[] = [];
    const visit = (n: string) => {
      index.set(n, counter);
      low.set(n, counter);
      counter++;
      stack.push(n);
      onStack.add(n);
      work.push({ node: n, succ: next(n), i: 0 });
    };
    visit(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      if (top.i < top.succ.length) {
        const m = top.succ[top.i++]!;
        if (!index.has(m)) visit(m);
        else if (onStack.has(m)) low.set(top.node, Math.min(low.get(top.node)!, index.get(m)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        for (;;) {
          const m = stack.pop()!;
          onStack.delete(m);
          comp.set(m, compCount);
          if (m === top.node) break;
        }
        compCount++;
      }
    }
  }
  return comp;
}
