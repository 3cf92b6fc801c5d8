// Derivation trees: why a fact holds. Each fact records the rule that first derived it
// and its premises; the tree is rebuilt from those records on demand.
import { isAuxiliary, isProjection, userPredOf } from './compile/relation-names.js';
import type { Rule } from './compile/ir.js';
import { where } from './compile/lower.js';
import type { Span } from './language/ast.js';
import type { FactMeta } from './store/fact-meta.js';
import { GIVEN, REBUILT } from './store/ids.js';
import type { Solver } from './engine/solve.js';
import { factText, termText } from './terms/print.js';
import { holesOf } from './store/union-find.js';
import type { TermId, TermStore } from './terms/term-store.js';

export interface ExplainContext {
  readonly store: TermStore;
  readonly meta: FactMeta;
  readonly rules: readonly Rule[];
  readonly factSpans: ReadonlyMap<TermId, Span>;
  readonly solver: Solver;
}

/** A fact as the user would write it: internal copies print under the user's predicate name. */
export function displayFact(store: TermStore, fact: TermId): string {
  const name = store.functor(fact);
  return factText(store, fact, userPredOf(name) ?? name);
}

export function explainFact(ctx: ExplainContext, fact: TermId, maxLines = 400): string {
  const lines: string[] = [];
  const shown = new Map<TermId, number>();
  const walk = (f: TermId, depth: number): void => {
    if (lines.length >= maxLines) return;
    const pad = '  '.repeat(depth);
    const text = displayFact(ctx.store, f);
    const prev = shown.get(f);
    if (prev !== undefined) {
      lines.push(`${pad}${text}   (see above)`);
      return;
    }
    shown.set(f, lines.length);
    const p = ctx.meta.provenance(f);
    if (p === null) {
      lines.push(`${pad}${text}   (no record)`);
      return;
    }
    if (p.rule === GIVEN) {
      const span = ctx.factSpans.get(f);
      lines.push(`${pad}${text}   (given${span ? ` at ${where(span)}` : ''})`);
      return;
    }
    if (p.rule === REBUILT) {
      const old = p.premises[0]!;
      const still = holesOf(ctx.store, f);
      const holes = [...holesOf(ctx.store, old)].filter((h) => !still.has(h) && ctx.solver.bindingOf.has(h));
      const how = holes.map((h) => {
        const b = ctx.solver.bindings[ctx.solver.bindingOf.get(h)!]!;
        return `?${ctx.store.holeNumber(h)} := ${termText(ctx.store, b.value)} by ${ruleLabel(ctx.rules[b.plan.rule.id]!)}`;
      });
      lines.push(`${pad}${text}   (rebuilt after ${how.join('; ') || 'bindings'})`);
      for (const h of holes) {
        const b = ctx.solver.bindings[ctx.solver.bindingOf.get(h)!]!;
        for (const q of visiblePremises(ctx.store, ctx.meta, b.premises)) walk(q, depth + 1);
      }
      walk(old, depth + 1);
      return;
    }
    const rule = ctx.rules[p.rule];
    lines.push(`${pad}${text}   (by ${rule ? ruleLabel(rule) : `rule ${p.rule}`})`);
    for (const q of visiblePremises(ctx.store, ctx.meta, p.premises)) walk(q, depth + 1);
  };
  walk(fact, 0);
  if (lines.length >= maxLines) lines.push(`... (cut at ${maxLines} lines)`);
  return lines.join('\n');
}

/**
 * The premises a user would see: projected and factored facts (compile/projection.ts)
 * stand for the facts they were derived from; other internal facts (demand) are left out.
 */
export function visiblePremises(store: TermStore, meta: FactMeta, premises: readonly TermId[]): TermId[] {
  const out: TermId[] = [];
  const visit = (f: TermId, depth: number) => {
    const name = store.functor(f);
    if (!isAuxiliary(name)) {
      if (!out.includes(f)) out.push(f);
      return;
    }
    if (depth > 20 || !isProjection(name)) return;
    for (const q of meta.provenance(f)?.premises ?? []) visit(q, depth + 1);
  };
  for (const p of premises) visit(p, 0);
  return out;
}

export function ruleLabel(rule: Rule): string {
  return `rule at ${where(rule.span)}`;
}
