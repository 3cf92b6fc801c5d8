// The layout attributes of a program as facts for the rule library. Each distinct
// layout string an operator call uses (given or by default) becomes, once per program:
//   layout_axes(L, Axes)     Axes in layout order, each p("C") (a primal axis) or
//                            s("C", 16) (a sub-axis of C split by 16), or
//   layout_invalid(L, Why)   when L is not a layout (relations/layout.ts says why);
//   layout_primals(L, Key)   Key = L's primal axes sorted ("NCHW16c": "CHNW"; primalKey);
// and, for every canonical layout Can with the same primal axes (CANONICAL_LAYOUTS),
// and for Key (as Can: what layout_transform converts through):
//   layout_view(Can, L, P, Q)        P = the position in L of each axis of Can, then of
//                                    each sub-axis (layout order); Q = its inverse
//   layout_packing(Can, L, Fs, Subs) Fs = the factor each axis of Can is split by (1:
//                                    not split); Subs = s(I, F) for each sub-axis in
//                                    layout order: I the index in Can of its primal axis
// relations/layout.ts is the one parser and computes the views; the rules
// (relations/layout.rules, conv.rules) look these facts up and never take a layout
// string apart, so a view costs the engine nothing per call and no derivation.
import type { AttrValue } from '../relations/attr-value.js';
import { canonicalViews, parseLayout, primalKey, splitFactor } from '../relations/layout.js';
import type { OpInfo } from '../relations/schema.js';
import type { TermId, TermStore } from '../solver/terms/term-store.js';

/** The relations whose facts this file gives. */
export const LAYOUT_RELATIONS: readonly string[] = ['layout_axes', 'layout_invalid', 'layout_primals', 'layout_view', 'layout_packing'];

/** The layout strings among an operator call's attributes (`""` is not a layout: it means "as the data"). */
export function layoutStrings(op: OpInfo, given: ReadonlyMap<string, AttrValue>): string[] {
  const out: string[] = [];
  for (const a of op.attrs) {
    if (a.format !== 'layout' && a.format !== 'layout-or-empty') continue;
    const v = given.get(a.name) ?? (a.default === 'required' ? undefined : a.default);
    if (v !== undefined && v.kind === 'string' && v.value !== '') out.push(v.value);
  }
  return out;
}

/** The facts describing one layout string: each with its relation name. */
export function layoutFacts(store: TermStore, layout: string): { rel: string; fact: TermId }[] {
  const parsed = parseLayout(layout);
  const l = store.str(layout);
  if (!parsed.ok) return [{ rel: 'layout_invalid', fact: store.compound('layout_invalid', [l, store.str(parsed.reason)]) }];
  const axes = parsed.axes.map((a) =>
    a.factor === null ? store.compound('p', [store.str(a.primal)]) : store.compound('s', [store.str(a.primal), store.int(a.factor)]),
  );
  const out = [
    { rel: 'layout_axes', fact: store.compound('layout_axes', [l, store.list(axes)]) },
    { rel: 'layout_primals', fact: store.compound('layout_primals', [l, store.str(primalKey(parsed.axes))]) },
  ];
  const ints = (xs: readonly number[]) => store.list(xs.map((x) => store.int(x)));
  for (const { canonical, view } of canonicalViews(layout)) {
    const can = store.str(canonical);
    const p = [...view.primalAt, ...view.subs.map((s) => s.at)];
    const q = p.map((_, at) => p.indexOf(at));
    out.push({ rel: 'layout_view', fact: store.compound('layout_view', [can, l, ints(p), ints(q)]) });
    const fs = view.primalAt.map((_, c) => splitFactor(view, c) ?? 1);
    const subs = view.subs.map((s) => store.compound('s', [store.int(s.of), store.int(s.factor)]));
    out.push({ rel: 'layout_packing', fact: store.compound('layout_packing', [can, l, ints(fs), store.list(subs)]) });
  }
  return out;
}
