// The last rewrite before join plans are built: every term template takes the span of
// the literal or head holding it. A template's own span (a variable's occurrence, a
// sub-term) serves the compiler's diagnostics, all given by then; what runs after
// (the engine's waits, run-time errors and error facts, explanations) names a literal, a
// head or a rule. Dropping the finer spans leaves equal templates equal: a compiled
// relation library keeps about half as many objects, and reads back from its cache
// (typing/compiled-cache.ts) in about half the time.
import type { Span } from '../language/ast.js';
import type { HeadIR, Lit, Rule, Tmpl } from './ir.js';

/** `rule` with each template in its head and body carrying the span of its head or literal. */
export function withLiteralSpans(rule: Rule): Rule {
  const head = headAt(rule.head);
  let changed = head !== rule.head;
  const body = rule.body.map((l) => {
    const m = litAt(l);
    if (m !== l) changed = true;
    return m;
  });
  return changed ? { ...rule, head, body } : rule;
}

function headAt(h: HeadIR): HeadIR {
  switch (h.k) {
    case 'atom': {
      const args = allAt(h.args, h.span);
      return args === h.args ? h : { ...h, args };
    }
    case 'unify': {
      const a = at(h.a, h.span);
      const b = at(h.b, h.span);
      return a === h.a && b === h.b ? h : { ...h, a, b };
    }
    case 'error':
      return h;
  }
}

function litAt(l: Lit): Lit {
  switch (l.k) {
    case 'atom': {
      const args = allAt(l.args, l.span);
      return args === l.args ? l : { ...l, args };
    }
    case 'compare':
    case 'unify':
    case 'differ': {
      const a = at(l.a, l.span);
      const b = at(l.b, l.span);
      return a === l.a && b === l.b ? l : { ...l, a, b };
    }
    case 'test': {
      const a = at(l.a, l.span);
      return a === l.a ? l : { ...l, a };
    }
  }
}

/** The templates, each with `span` (the same array when none changed). */
function allAt(ts: readonly Tmpl[], span: Span): readonly Tmpl[] {
  let out: Tmpl[] | null = null;
  for (let i = 0; i < ts.length; i++) {
    const t = at(ts[i]!, span);
    if (t !== ts[i] && out === null) out = ts.slice(0, i);
    if (out !== null) out.push(t);
  }
  return out ?? ts;
}

/** `t` and its sub-templates with `span` (`t` itself when they all have it). */
function at(t: Tmpl, span: Span): Tmpl {
  switch (t.k) {
    case 'const':
    case 'var':
      return t.span === span ? t : { ...t, span };
    case 'cons': {
      const head = at(t.head, span);
      const tail = at(t.tail, span);
      return t.span === span && head === t.head && tail === t.tail ? t : { ...t, head, tail, span };
    }
    case 'struct':
    case 'fn': {
      const args = allAt(t.args, span);
      return t.span === span && args === t.args ? t : { ...t, args, span };
    }
    case 'arith': {
      const a = at(t.a, span);
      const b = at(t.b, span);
      return t.span === span && a === t.a && b === t.b ? t : { ...t, a, b, span };
    }
    case 'neg': {
      const a = at(t.a, span);
      return t.span === span && a === t.a ? t : { ...t, a, span };
    }
    case 'index': {
      const x = at(t.t, span);
      const i = at(t.i, span);
      return t.span === span && x === t.t && i === t.i ? t : { ...t, t: x, i, span };
    }
    case 'slice': {
      const x = at(t.t, span);
      const from = t.from === null ? null : at(t.from, span);
      const to = t.to === null ? null : at(t.to, span);
      return t.span === span && x === t.t && from === t.from && to === t.to ? t : { ...t, t: x, from, to, span };
    }
  }
}
