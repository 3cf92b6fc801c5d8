// The last rewrite before join plans are built: term templates lose their spans. A
// template's span (a variable's occurrence, a sub-term) serves the compiler's diagnostics,
// all given by then; what runs after (the engine's waits, run-time errors and error facts,
// explanations) names a literal, a head or a rule, which keep theirs. Without spans, equal
// templates are equal everywhere: `X` is one object in every plan of a compiled relation
// library (typing/value-sharing.ts writes equal parts once), which then keeps about a third
// fewer objects and reads back from its cache (typing/compiled-cache.ts) in about half
// the time.
import type { HeadIR, Lit, Rule, Tmpl } from './ir.js';

/** `rule` with no span on any template of its head and body. */
export function withoutTemplateSpans(rule: Rule): Rule {
  const head = headWithout(rule.head);
  let changed = head !== rule.head;
  const body = rule.body.map((l) => {
    const m = litWithout(l);
    if (m !== l) changed = true;
    return m;
  });
  return changed ? { ...rule, head, body } : rule;
}

function headWithout(h: HeadIR): HeadIR {
  switch (h.k) {
    case 'atom': {
      const args = allWithout(h.args);
      return args === h.args ? h : { ...h, args };
    }
    case 'unify': {
      const a = without(h.a);
      const b = without(h.b);
      return a === h.a && b === h.b ? h : { ...h, a, b };
    }
    case 'error':
      return h;
  }
}

function litWithout(l: Lit): Lit {
  switch (l.k) {
    case 'atom': {
      const args = allWithout(l.args);
      return args === l.args ? l : { ...l, args };
    }
    case 'compare':
    case 'unify':
    case 'differ': {
      const a = without(l.a);
      const b = without(l.b);
      return a === l.a && b === l.b ? l : { ...l, a, b };
    }
    case 'test': {
      const a = without(l.a);
      return a === l.a ? l : { ...l, a };
    }
  }
}

/** The templates without spans (the same array when none had one). */
function allWithout(ts: readonly Tmpl[]): readonly Tmpl[] {
  let out: Tmpl[] | null = null;
  for (let i = 0; i < ts.length; i++) {
    const t = without(ts[i]!);
    if (t !== ts[i] && out === null) out = ts.slice(0, i);
    if (out !== null) out.push(t);
  }
  return out ?? ts;
}

/** `t` with no span on it or its sub-templates (`t` itself when none has one). */
function without(t: Tmpl): Tmpl {
  switch (t.k) {
    case 'const': {
      if (t.span === undefined) return t;
      const { span: _, ...rest } = t;
      return rest;
    }
    case 'var': {
      if (t.span === undefined) return t;
      const { span: _, ...rest } = t;
      return rest;
    }
    case 'cons': {
      const head = without(t.head);
      const tail = without(t.tail);
      return t.span === undefined && head === t.head && tail === t.tail ? t : { k: 'cons', head, tail };
    }
    case 'struct':
      return stripped(t, { k: 'struct', sym: t.sym, args: allWithout(t.args) }, t.args);
    case 'fn':
      return stripped(t, { k: 'fn', name: t.name, args: allWithout(t.args) }, t.args);
    case 'arith': {
      const a = without(t.a);
      const b = without(t.b);
      return t.span === undefined && a === t.a && b === t.b ? t : { k: 'arith', op: t.op, a, b };
    }
    case 'neg': {
      const a = without(t.a);
      return t.span === undefined && a === t.a ? t : { k: 'neg', a };
    }
    case 'index': {
      const x = without(t.t);
      const i = without(t.i);
      return t.span === undefined && x === t.t && i === t.i ? t : { k: 'index', t: x, i };
    }
    case 'slice': {
      const x = without(t.t);
      const from = t.from === null ? null : without(t.from);
      const to = t.to === null ? null : without(t.to);
      return t.span === undefined && x === t.t && from === t.from && to === t.to ? t : { k: 'slice', t: x, from, to };
    }
  }
}

/** A struct or call without its span: `t` itself when it had none and its arguments are unchanged. */
function stripped<T extends Extract<Tmpl, { args: readonly Tmpl[] }>>(t: T, bare: T, before: readonly Tmpl[]): Tmpl {
  return t.span === undefined && bare.args === before ? t : bare;
}
