// solver/compile/template-spans.ts: once compiled, a term template carries no span; the
// literal or head holding it does. The compiler's own diagnostics still name the exact
// sub-term (they are given before), the engine's name the literal, and what the
// program derives does not change.
import test from 'ava';
import { compileProgram } from '../solver/compile/program.js';
import type { Span } from '../diagnostics/span.js';
import { parseProgram } from '../solver/language/parse.js';
import { TermStore } from '../solver/terms/term-store.js';
import { compileErrors, facts, run, warnings } from './helpers.js';

const at = (s: Span | null | undefined) => (s ? `${s.start.line}:${s.start.column}-${s.end.line}:${s.end.column}` : 'none');

test('compile-time diagnostics still name the variable or sub-term', (t) => {
  const r = run('q(1).\np(X) :- q(X), r(Yy).\nr(2).\n');
  const w = warnings(r, 'singleton');
  t.is(w.length, 1);
  t.is(at(w[0]!.span), '2:17-2:19', 'the singleton Yy itself, not its literal');
  const e = compileErrors('p(3, 1 / 0).\n');
  t.deepEqual(
    e.map((d) => [d.code, at(d.span)]),
    [['arithmetic', '1:6-1:11']],
    'the expression 1 / 0, not the fact',
  );
});

test('a run-time error names the literal, and the answers do not change', (t) => {
  const r = run('q(0).\nq(2).\np(X, Z) :- q(X), Z = 10 / X.\n');
  t.deepEqual(facts(r, 'p'), ['p(2, 5)']);
  const e = r.diagnostics.filter((d) => d.code === 'arithmetic');
  t.is(e.length, 1);
  t.is(at(e[0]!.span), '3:18-3:28', 'the literal Z = 10 / X');
});

test('no template of the compiled rules and plans carries a span; every literal, step and head does', (t) => {
  const text = 'e(1, [2, 3]).\np(X, [H|T], f(X + 1)) :- e(X, [H|T]), X < H * 2, not q(T).\nq([]).\n';
  const compiled = compileProgram(new TermStore(), [parseProgram(text, 'l.rules')], 'seminaive', null);
  if (!compiled.ok) return t.fail('did not compile');
  /** The templates in `x` (objects with a term kind and a variable, constant, arguments or list head), at any depth. */
  const templatesIn = (x: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] => {
    if (x === null || typeof x !== 'object') return out;
    const o = x as Record<string, unknown>;
    if (typeof o.k === 'string' && ['const', 'var', 'cons', 'struct', 'arith', 'neg', 'fn', 'index', 'slice'].includes(o.k) && !('pred' in o) && !('rel' in o))
      out.push(o);
    for (const v of Object.values(o)) templatesIn(v, out);
    return out;
  };
  let checked = 0;
  for (const rule of compiled.program.rules) {
    for (const l of rule.body) {
      t.truthy(l.span, 'a literal keeps its span');
      for (const tm of templatesIn(l.k === 'atom' ? l.args : l)) {
        checked++;
        t.false('span' in tm, JSON.stringify(tm));
      }
    }
    t.truthy(rule.head.span, 'a head keeps its span');
    for (const tm of templatesIn(rule.head.k === 'atom' ? rule.head.args : rule.head)) {
      checked++;
      t.false('span' in tm, JSON.stringify(tm));
    }
  }
  for (const plan of compiled.program.plans)
    for (const st of plan.steps) {
      t.truthy(st.span, 'a step keeps its span');
      for (const tm of templatesIn(st.k === 'scan' || st.k === 'neg' ? st.keyTmpls : st)) {
        checked++;
        t.false('span' in tm, JSON.stringify(tm));
      }
    }
  t.true(checked > 10, `${checked} templates checked`);
});
