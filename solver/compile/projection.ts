// Reading a bottom-up rule's first literal by the part of each fact the rule uses.
//
// Relation instances are facts like `Concatenate(tuple(Fs), Out; axis: A)`, one per
// call, and many calls share their argument types (fifty identical blocks of a network),
// differing only in the result hole `Out`. Two rewrites keep the rule's helpers from
// being joined once per call:
//
// Projection. When the first literal drops a whole argument (`_`, or a variable used
// nowhere else), the rule reads it through a relation holding only what it keeps:
//
//   error(...) :- Concatenate(tuple(Fs), _), rest.
// becomes
//   $proj:3(Fs) :- Concatenate(tuple(Fs), _).
//   error(...) :- $proj:3(Fs), rest.
//
// so `rest` is joined once per distinct Fs, and a fact rebuilt after its result hole
// is bound (a new fact, the same projection) gives nothing new to join.
//
// Factoring the result. When an argument of the first literal is a variable used only
// in the head (`Out = tensor(OS, D) :- Reshape(tensor(S, D), Out), rest`), the rest is
// computed without it, once per distinct input, and joined back per call by key:
//
//   $part:5(S, D, OS) :- Reshape(tensor(S, D), _), rest.      (then projected as above)
//   Out = tensor(OS, D) :- Reshape(tensor(S, D), Out), $part:5(S, D, OS).
//
// Rules with the same literal and the same kept variables share one projection. Both
// rewrites apply only to relations with a fact per operator call (declared relations
// and the relations derived from them), and only when the rest of the body joins
// something (a positive literal). They change no derivation: a projected
// or factored fact is an internal step that explanations walk through.
import type { AtomLit, Lit, Rule, Tmpl } from './ir.js';
import { headVars, litVars, spanOf, varsOf } from './ir.js';
import { partName, projectionName } from './relation-names.js';

export class Projections {
  private readonly byShape = new Map<string, string>();
  private parts = 0;

  constructor(
    private readonly emit: (rule: Omit<Rule, 'id'>) => void,
    /** Which relations may be read through a projection: those with one fact per operator call (declared relations and what is derived from them), not evaluated on demand. */
    private readonly eligible: (pred: string) => boolean,
  ) {}

  /** The rules to evaluate for a scheduled root rule: itself with a cheaper body, or a factored part and the rule joining it back. */
  apply(rule: Rule, body: readonly Lit[]): { rule: Rule; body: readonly Lit[] }[] {
    const first = body[0];
    if (first === undefined || first.k !== 'atom' || first.neg || !this.eligible(first.pred)) return [{ rule, body }];
    const rest = body.slice(1);
    if (!rest.some((l) => l.k === 'atom' && !l.neg)) return [{ rule, body }];
    const inRest = new Set<number>();
    for (const l of rest) for (const v of litVars(l)) inRest.add(v);
    const inHead = headVars(rule.head);
    const anon = (v: number) => rule.varNames[v] === '_';
    const counts = new Map<number, number>();
    for (const a of first.args) for (const v of varsOf(a)) counts.set(v, (counts.get(v) ?? 0) + 1);
    // arguments that are a variable read only by the head: the call's own result
    const results = first.args.flatMap((a) => (a.k === 'var' && !anon(a.v) && counts.get(a.v) === 1 && !inRest.has(a.v) && inHead.has(a.v) ? [a.v] : []));
    if (results.length === 0) return [{ rule, body: this.project(rule, first, rest, inRest, inHead) }];
    const drop = new Set(results);
    // the part: the rule without the result arguments, giving what the head needs
    const varNames = [...rule.varNames, '_'];
    const hole = varNames.length - 1;
    const firstWithout: AtomLit = { ...first, args: first.args.map((a) => (a.k === 'var' && drop.has(a.v) ? { k: 'var', v: hole, ...spanOf(a) } : a)) };
    const carried: number[] = [];
    for (const a of first.args)
      for (const v of varsOf(a)) if (!drop.has(v) && !anon(v) && (inRest.has(v) || inHead.has(v)) && !carried.includes(v)) carried.push(v);
    for (const v of inHead) if (!drop.has(v) && !anon(v) && inRest.has(v) && !carried.includes(v)) carried.push(v);
    const name = partName(this.parts++);
    const args: Tmpl[] = carried.map((v) => ({ k: 'var', v, span: rule.head.span }));
    const part: Rule = { ...rule, head: { k: 'atom', pred: name, args, span: rule.head.span }, varNames, body: [firstWithout, ...rest] };
    const partHead = new Set(carried);
    const joinBack: Rule = { ...rule, body: [first, { k: 'atom', pred: name, args, neg: false, span: rule.span }] };
    return [
      { rule: part, body: this.project(part, firstWithout, rest, inRest, partHead) },
      { rule: joinBack, body: joinBack.body },
    ];
  }

  /** The body with its first literal read through a projection, when that drops a whole argument. */
  private project(rule: Rule, first: AtomLit, rest: readonly Lit[], inRest: ReadonlySet<number>, inHead: ReadonlySet<number>): readonly Lit[] {
    const anon = (v: number) => rule.varNames[v] === '_';
    const counts = new Map<number, number>();
    for (const a of first.args) for (const v of varsOf(a)) counts.set(v, (counts.get(v) ?? 0) + 1);
    const used = (v: number) => inRest.has(v) || inHead.has(v);
    const dropsColumn = first.args.some((a) => a.k === 'var' && (anon(a.v) || (!used(a.v) && counts.get(a.v) === 1)));
    if (!dropsColumn) return [first, ...rest];
    const kept = [...counts.keys()].filter((v) => !anon(v) && used(v));
    // the projection's identity: the literal's shape, variables numbered by first occurrence, and which are kept
    const numbering = new Map<number, number>();
    const shape = `${first.pred}(${first.args.map((a) => canonical(a, numbering, anon)).join(',')})->${kept.map((v) => numbering.get(v)).join(',')}`;
    const args: Tmpl[] = kept.map((v) => ({ k: 'var', v, span: first.span }));
    let name = this.byShape.get(shape);
    if (name === undefined) {
      name = projectionName(this.byShape.size);
      this.byShape.set(shape, name);
      this.emit({
        head: { k: 'atom', pred: name, args, span: first.span },
        body: [first],
        varNames: rule.varNames,
        span: first.span,
        origin: rule.origin,
        role: 'projection',
      });
    }
    return [{ k: 'atom', pred: name, args, neg: false, span: first.span }, ...rest];
  }
}

/** A template as text, variables renamed by first occurrence (`_` stays anonymous). */
function canonical(t: Tmpl, numbering: Map<number, number>, anon: (v: number) => boolean): string {
  const c = (x: Tmpl) => canonical(x, numbering, anon);
  switch (t.k) {
    case 'const':
      return `c${t.id}`;
    case 'var': {
      if (anon(t.v)) return '_';
      let n = numbering.get(t.v);
      if (n === undefined) numbering.set(t.v, (n = numbering.size));
      return `v${n}`;
    }
    case 'cons':
      return `[${c(t.head)}|${c(t.tail)}]`;
    case 'struct':
      return `s${t.sym}(${t.args.map(c).join(',')})`;
    case 'arith':
      return `(${c(t.a)}${t.op}${c(t.b)})`;
    case 'neg':
      return `-(${c(t.a)})`;
    case 'fn':
      return `${t.name}(${t.args.map(c).join(',')})`;
    case 'index':
      return `${c(t.t)}[${c(t.i)}]`;
    case 'slice':
      return `${c(t.t)}[${t.from ? c(t.from) : ''}:${t.to ? c(t.to) : ''}]`;
  }
}
