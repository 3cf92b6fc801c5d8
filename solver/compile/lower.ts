// AST → IR: numbers variables, interns constants, recognises built-in functions and
// tests, resolves named attributes of declared relations, and reports arity
// mismatches, unknown attributes, misuse of built-ins and duplicate declarations.
import type { AstTerm, AttrType, Call, Head, Literal, Program, Span, Statement } from '../language/ast.js';
import { type Diagnostic, diagnostic } from '../../diagnostics/diagnostic.js';
import { clauseTerms, walkTerm } from '../language/ast-walk.js';
import { didYouMean } from '../../diagnostics/suggest.js';
import { TermDepthError, type TermId, type TermStore } from '../terms/term-store.js';
import { arith, ArithmeticError, FAIL, WAIT } from '../terms/arith.js';
import { GroundFact, ValueKind } from '../language/ground-facts.js';
import { ruleId } from '../store/ids.js';
import { FUNCTIONS, type FunctionName, type HeadIR, type Lit, type RelationDecl, type Rule, spanOf, TESTS, type TestName, type Tmpl } from './ir.js';

export interface Lowered {
  readonly rules: Rule[];
  /** Ground facts given in the source: predicate → fact term ids, with the clause span of each (computed when read). */
  readonly facts: Map<string, GivenFact[]>;
  readonly decls: Map<string, RelationDecl>;
  /** Arity and first occurrence of every predicate mentioned. */
  readonly preds: Map<string, { arity: number; span: Span }>;
  /** Predicates that have at least one fact or rule. */
  readonly defined: Set<string>;
  /** First call site of every predicate called in a body. */
  readonly calls: Map<string, Span>;
  /** Predicates with an arity error (not reported again as undefined). */
  readonly arityErrors: Set<string>;
  readonly diagnostics: Diagnostic[];
}

const RESERVED = new Set(['error', 'not', ...TESTS]);

export function attrTypeText(t: AttrType): string {
  return t.kind === 'named' ? t.name : t.kind === 'list' ? `[${attrTypeText(t.element)}]` : `${attrTypeText(t.inner)}?`;
}

export function lower(store: TermStore, programs: readonly Program[]): Lowered {
  // The statements other than plain ground facts, in order: only these can have holes or
  // declare relations (a file of many facts passes over its facts once, here).
  const others: Statement[] = [];
  for (const p of programs) {
    const statements = p.statements;
    for (let i = 0; i < statements.length; i++) {
      const s = statements[i]!;
      if (!(s instanceof GroundFact)) others.push(s);
    }
  }
  const lowering = new Lowering(store, others);
  for (const p of programs) {
    const statements = p.statements;
    for (let i = 0; i < statements.length; i++) {
      const s = statements[i]!;
      if (s instanceof GroundFact && lowering.lowerGroundFact(s)) continue;
      if (s.kind === 'clause') lowering.lowerClause(s);
    }
  }
  return lowering.out;
}

/** The lowering of one program: what it has produced so far (`out`), and what its statements share. */
class Lowering {
  readonly out: Lowered = {
    rules: [],
    facts: new Map(),
    decls: new Map(),
    preds: new Map(),
    defined: new Set(),
    calls: new Map(),
    arityErrors: new Set(),
    diagnostics: [],
  };
  /** Named holes (`?a`), each a fresh hole numbered after those written with numbers. */
  private readonly namedHoles = new Map<string, TermId>();
  /** The attribute types of each declared relation. */
  private readonly attrTypes = new Map<string, AttrType[]>();
  /** Scratch arrays of lowerGroundFact: a fact's values, their kinds, their term ids. */
  private readonly values: (number | string)[] = [];
  private readonly kinds: ValueKind[] = [];
  private readonly ids: TermId[] = [];
  /** The predicate and arity of the last plain fact lowered, what was checked of it once, and where its facts go. */
  private last: { pred: string; arity: number; sym: number; list: GivenFact[] } | null = null;

  /** `others`: the program's statements but its plain ground facts (the only ones that can have holes or declare relations). */
  constructor(
    private readonly store: TermStore,
    others: readonly Statement[],
  ) {
    // Holes written with numbers keep their numbers; named holes get fresh ones after them.
    for (const s of others) visitHoles(s, (name) => /^\d+$/.test(name) && store.hole(Number(name)));
    // Declarations first, so uses before the declaration resolve.
    for (const s of others) if (s.kind === 'relation') this.declare(s);
    for (const s of others) {
      if (s.kind === 'relation' && !this.attrTypes.has(s.name))
        this.attrTypes.set(
          s.name,
          s.attrs.map((a) => a.type),
        );
    }
  }

  private err(code: string, message: string, span: Span | null, notes: string[] = []): void {
    this.out.diagnostics.push(diagnostic('error', code, message, span, notes));
  }

  /** Records the declaration of relation `s` (its attributes' types and defaults checked), unless it is a duplicate or reserved. */
  private declare(s: Extract<Statement, { kind: 'relation' }>): void {
    const prev = this.out.decls.get(s.name);
    if (prev) {
      this.err('duplicate', `relation ${s.name} is declared twice`, s.span, [`first declared at ${where(prev.span)}`]);
      return;
    }
    if (RESERVED.has(s.name)) {
      this.err('reserved', `'${s.name}' is a built-in and cannot be declared as a relation`, s.span);
      return;
    }
    const names = new Set<string>();
    for (const n of [...s.params.map((x) => x.name), ...s.attrs.map((a) => a.name)]) {
      if (names.has(n)) this.err('duplicate', `relation ${s.name} has two arguments named '${n}'`, s.span);
      names.add(n);
    }
    const attrs = s.attrs.map((a) => {
      const unknown = unknownTypeName(a.type);
      if (unknown !== null)
        this.err('attribute', `unknown attribute type '${unknown.name}'${didYouMean(unknown.name, TYPE_NAMES)}`, unknown.span, [
          `attribute types: ${TYPE_NAMES.join(', ')}, [T] and T?`,
        ]);
      let def: TermId | null = null;
      if (a.default !== null) {
        const t = this.constTerm(a.default);
        if (t === null) this.err('attribute', `the default of attribute '${a.name}' must be a constant`, a.default.span);
        else if (!hasType(this.store, t, a.type))
          this.err('attribute', `the default of attribute '${a.name}' is not of type ${attrTypeText(a.type)}`, a.default.span);
        else def = t;
      }
      return { name: a.name, type: attrTypeText(a.type), typeAst: a.type, default: def };
    });
    this.out.decls.set(s.name, { name: s.name, params: s.params.map((x) => x.name), attrs, span: s.span });
    this.notePred(s.name, s.params.length + s.attrs.length, s.span);
  }

  private notePred(name: string, arity: number, span: Span): boolean {
    const prev = this.out.preds.get(name);
    if (prev === undefined) {
      this.out.preds.set(name, { arity, span });
      return true;
    }
    if (prev.arity !== arity) {
      this.out.arityErrors.add(name);
      this.err('arity', `${name} is used with ${arity} argument${arity === 1 ? '' : 's'} here but with ${prev.arity} at ${where(prev.span)}`, span);
      return false;
    }
    return true;
  }

  private constTerm(t: AstTerm): TermId | null {
    const vars = { names: [] as string[], byName: new Map<string, number>() };
    const tm = this.lowerTerm(t, vars);
    if (tm === null || vars.names.length > 0) return null;
    return this.evalConst(tm);
  }

  /** Constant-fold a template without variables (e.g. `-1`, `2 * 3`). */
  private evalConst(t: Tmpl): TermId | null {
    switch (t.k) {
      case 'const':
        return t.id;
      case 'cons': {
        const h = this.evalConst(t.head);
        const tl = this.evalConst(t.tail);
        return h === null || tl === null ? null : this.store.cons(h, tl);
      }
      case 'struct': {
        const args: TermId[] = [];
        for (const a of t.args) {
          const x = this.evalConst(a);
          if (x === null) return null;
          args.push(x);
        }
        return this.store.compoundSym(t.sym, args);
      }
      case 'arith': {
        const a = this.evalConst(t.a);
        const b = this.evalConst(t.b);
        if (a === null || b === null) return null;
        try {
          const r = arith(this.store, t.op, a, b);
          return r === WAIT || r === FAIL ? null : r;
        } catch (e) {
          if (e instanceof ArithmeticError) this.err('arithmetic', e.message, t.span ?? null);
          return null;
        }
      }
      case 'neg': {
        const a = this.evalConst(t.a);
        if (a === null) return null;
        const r = arith(this.store, '-', this.store.int(0), a);
        return r === WAIT || r === FAIL ? null : r;
      }
      default:
        return null;
    }
  }

  lowerClause(s: Extract<Statement, { kind: 'clause' }>): void {
    const vars = { names: [] as string[], byName: new Map<string, number>() };
    const head = this.lowerHead(s.head, vars, s.body.length === 0);
    const body: Lit[] = [];
    for (const l of s.body) {
      const x = this.lowerLit(l, vars);
      if (x !== null) body.push(x);
    }
    if (head === null || body.length !== s.body.length) return;
    if (head.k === 'error') {
      // template placeholders refer to body variables
      const vs: number[] = [];
      for (const name of templateNames(head.template)) {
        const v = vars.byName.get(name);
        if (v === undefined) this.err('template', `error message refers to {${name}}, which is not a variable of this rule`, head.span);
        else vs.push(v);
      }
      (head as { vars: readonly number[] }).vars = vs;
    }
    if (head.k === 'atom') this.out.defined.add(head.pred);
    this.singletonWarnings(s);
    // A ground fact goes straight into the initial database.
    if (head.k === 'atom' && body.length === 0 && vars.names.length === 0) {
      const args: TermId[] = [];
      for (const a of head.args) {
        const c = this.evalConst(a);
        if (c === null) {
          this.pushRule(head, body, vars.names, s.span);
          return;
        }
        args.push(c);
      }
      let fact: TermId;
      try {
        fact = this.store.compound(head.pred, args);
      } catch (e) {
        if (e instanceof TermDepthError) {
          this.err('limit', e.message, s.span);
          return;
        }
        throw e;
      }
      this.checkAttrTypes(head.pred, args, s.span);
      let list = this.out.facts.get(head.pred);
      if (!list) this.out.facts.set(head.pred, (list = []));
      list.push({ fact, span: s.span });
      return;
    }
    this.pushRule(head, body, vars.names, s.span);
  }

  /**
   * A plain ground fact (integers, atoms and strings) lowered from its values, with no
   * tree and no span unless a diagnostic needs one: what `lowerClause` does for it, in
   * the cases where that is simple. False (nothing done) for a head that is a built-in or
   * a declared relation, left to `lowerClause`. A run of facts of one predicate and arity
   * checks the predicate once: what the checks read (the declarations, the arity first
   * noted) does not change while facts are lowered.
   */
  lowerGroundFact(s: GroundFact): boolean {
    const pred = s.values(this.values, this.kinds);
    const n = this.values.length;
    if (this.last === null || this.last.pred !== pred || this.last.arity !== n) {
      if (RESERVED.has(pred) || this.out.decls.has(pred) || (pred in FUNCTIONS && n === FUNCTIONS[pred])) return false;
      const prev = this.out.preds.get(pred);
      if ((prev === undefined || prev.arity !== n) && !this.notePred(pred, n, s.head.span)) return true;
      this.out.defined.add(pred);
      let list = this.out.facts.get(pred);
      if (!list) this.out.facts.set(pred, (list = []));
      this.last = { pred, arity: n, sym: -1, list };
    }
    this.ids.length = n;
    for (let i = 0; i < n; i++) {
      const v = this.values[i]!;
      const k = this.kinds[i];
      this.ids[i] = k === ValueKind.Int ? this.store.int(v as number) : k === ValueKind.Atom ? this.store.atom(v as string) : this.store.str(v as string);
    }
    // the functor's symbol is taken after the arguments' (as `store.compound` does), so symbols are numbered as by lowerClause
    const fact = this.last.sym < 0 ? this.store.compound(pred, this.ids) : this.store.compoundSym(this.last.sym, this.ids);
    this.last.sym = this.store.functorSym(fact);
    this.last.list.push(new StatedFact(fact, s));
    return true;
  }

  private pushRule(head: HeadIR, body: Lit[], varNames: string[], span: Span): void {
    const n = this.out.rules.length;
    this.out.rules.push({ id: ruleId(n), head, body, varNames, span, origin: n, role: 'rule' });
  }

  private checkAttrTypes(pred: string, args: TermId[], span: Span): void {
    const decl = this.out.decls.get(pred);
    const types = this.attrTypes.get(pred);
    if (!decl || !types) return;
    decl.attrs.forEach((a, i) => {
      const v = args[decl.params.length + i];
      if (v !== undefined && this.store.isGround(v) && !hasType(this.store, v, types[i]!))
        this.err('attribute', `attribute '${a.name}' of ${pred} must be of type ${a.type}`, span);
    });
  }

  private singletonWarnings(s: Extract<Statement, { kind: 'clause' }>): void {
    const counts = new Map<string, { n: number; span: Span }>();
    for (const top of clauseTerms(s))
      walkTerm(top, (t) => {
        if (t.kind !== 'var' || t.name.startsWith('_')) return;
        const c = counts.get(t.name);
        if (c) c.n++;
        else counts.set(t.name, { n: 1, span: t.span });
      });
    if (s.head.kind === 'call' && s.head.pred === 'error' && s.head.args[0]?.kind === 'string')
      for (const n of templateNames(s.head.args[0].value)) {
        const c = counts.get(n);
        if (c) c.n++;
      }
    for (const [name, c] of counts)
      if (c.n === 1)
        this.out.diagnostics.push(
          diagnostic('warning', 'singleton', `variable ${name} occurs only once in this clause; write _${name} or _ if that is intended`, c.span),
        );
  }

  private lowerHead(h: Head, vars: VarTable, isFact: boolean): HeadIR | null {
    if (h.kind === 'unify') {
      const a = this.lowerTerm(h.left, vars);
      const b = this.lowerTerm(h.right, vars);
      return a && b ? { k: 'unify', a, b, span: h.span } : null;
    }
    if (h.pred === 'error') {
      const t = h.args[0];
      if (h.args.length !== 1 || h.named.length > 0 || t === undefined || t.kind !== 'string') {
        this.err('error-head', 'an error head takes one string: error("message with {Var} placeholders")', h.span);
        return null;
      }
      return { k: 'error', template: t.value, vars: [], span: h.span };
    }
    if (RESERVED.has(h.pred)) {
      this.err('reserved', `'${h.pred}' is a built-in and cannot be defined by a rule`, h.span);
      return null;
    }
    if (h.pred in FUNCTIONS && h.args.length === FUNCTIONS[h.pred]) {
      this.err('reserved', `'${h.pred}/${h.args.length}' is a built-in function and cannot be defined by a rule`, h.span);
      return null;
    }
    // `_` in a relational head stands for any value: a variable the caller binds
    vars.headWildcards = true;
    const args = this.callArgs(h, vars, isFact ? 'fact' : 'head');
    vars.headWildcards = false;
    if (args === null) return null;
    return { k: 'atom', pred: h.pred, args, span: h.span };
  }

  private lowerLit(l: Literal, vars: VarTable): Lit | null {
    switch (l.kind) {
      case 'call': {
        if (TESTS.has(l.pred)) {
          if (l.args.length !== 1 || l.named.length > 0) {
            this.err('arity', `${l.pred} takes one argument`, l.span);
            return null;
          }
          const a = this.lowerTerm(l.args[0]!, vars);
          return a && { k: 'test', name: l.pred as TestName, a, span: l.span };
        }
        if (l.pred === 'error') {
          this.err('error-head', 'error(...) can only be a rule head', l.span);
          return null;
        }
        return this.lowerCall(l, vars, false);
      }
      case 'not':
        if (TESTS.has(l.call.pred) || l.call.pred === 'error') {
          this.err('negation', `cannot negate the built-in ${l.call.pred}; use its opposite test or a comparison`, l.span);
          return null;
        }
        return this.lowerCall(l.call, vars, true, l.span);
      case 'compare':
      case 'unify':
      case 'differ': {
        const a = this.lowerTerm(l.left, vars);
        const b = this.lowerTerm(l.right, vars);
        if (!a || !b) return null;
        return l.kind === 'compare' ? { k: 'compare', op: l.op, a, b, span: l.span } : { k: l.kind, a, b, span: l.span };
      }
    }
  }

  private lowerCall(c: Call, vars: VarTable, neg: boolean, span: Span = c.span): Lit | null {
    if (c.pred in FUNCTIONS && c.args.length === FUNCTIONS[c.pred]) {
      this.err('reserved', `'${c.pred}' is a built-in function, not a predicate; use it inside a comparison or X = ${c.pred}(...)`, c.span);
      return null;
    }
    const args = this.callArgs(c, vars, 'body');
    if (args === null) return null;
    if (!this.out.calls.has(c.pred)) this.out.calls.set(c.pred, c.span);
    return { k: 'atom', pred: c.pred, args, neg, span };
  }

  /** Positional arguments of a call, with named attributes of declared relations put in place. */
  private callArgs(c: Call, vars: VarTable, position: 'fact' | 'head' | 'body'): Tmpl[] | null {
    const decl = this.out.decls.get(c.pred);
    const positional: (Tmpl | null)[] = [];
    for (const a of c.args) positional.push(this.lowerTerm(a, vars));
    if (positional.some((x) => x === null)) return null;
    let args = positional as Tmpl[];
    if (decl) {
      const full = decl.params.length + decl.attrs.length;
      if (c.named.length > 0 || (args.length === decl.params.length && decl.attrs.length > 0)) {
        if (args.length !== decl.params.length) {
          this.err(
            'arity',
            `${c.pred} takes ${decl.params.length} argument${decl.params.length === 1 ? '' : 's'} (${decl.params.join(', ')}) before its attributes, got ${args.length}`,
            c.span,
          );
          return null;
        }
        const attrVals: (Tmpl | null)[] = decl.attrs.map(() => null);
        for (const n of c.named) {
          const i = decl.attrs.findIndex((a) => a.name === n.name);
          if (i < 0) {
            const known = decl.attrs.map((a) => a.name);
            this.err(
              'attribute',
              `${c.pred} has no attribute '${n.name}'${didYouMean(n.name, known)}`,
              n.span,
              known.length ? [`its attributes: ${known.join(', ')}`] : [],
            );
            return null;
          }
          if (attrVals[i] !== null) {
            this.err('attribute', `attribute '${n.name}' is given twice`, n.span);
            return null;
          }
          attrVals[i] = this.lowerTerm(n.value, vars);
          if (attrVals[i] === null) return null;
        }
        const filled: Tmpl[] = [];
        for (let i = 0; i < decl.attrs.length; i++) {
          const given = attrVals[i];
          if (given) filled.push(given);
          else if (position === 'body') filled.push(anonVar(vars, c.span));
          else {
            const d = decl.attrs[i]!.default;
            if (d === null) {
              this.err('attribute', `${c.pred} needs attribute '${decl.attrs[i]!.name}' (it has no default)`, c.span);
              return null;
            }
            filled.push({ k: 'const', id: d, span: c.span });
          }
        }
        args = [...args, ...filled];
      } else if (args.length !== full) {
        this.err('arity', `${c.pred} takes ${full} argument${full === 1 ? '' : 's'}, got ${args.length}`, c.span, [`declared at ${where(decl.span)}`]);
        return null;
      }
    } else if (c.named.length > 0) {
      this.err('attribute', `${c.pred} is not a declared relation, so it has no named attributes`, c.named[0]!.span);
      return null;
    }
    if (!this.notePred(c.pred, args.length, c.span)) return null;
    return args;
  }

  private lowerTerm(t: AstTerm, vars: VarTable): Tmpl | null {
    switch (t.kind) {
      case 'var':
        if (t.name === '_') return anonVar(vars, t.span);
        return { k: 'var', v: varIndex(vars, t.name), span: t.span };
      case 'int':
        return { k: 'const', id: this.store.int(t.value), span: t.span };
      case 'float':
        return { k: 'const', id: this.store.float(t.value), span: t.span };
      case 'atom':
        return { k: 'const', id: this.store.atom(t.name), span: t.span };
      case 'string':
        return { k: 'const', id: this.store.str(t.value), span: t.span };
      case 'hole': {
        if (/^\d+$/.test(t.name)) return { k: 'const', id: this.store.hole(Number(t.name)), span: t.span };
        let h = this.namedHoles.get(t.name);
        if (h === undefined) this.namedHoles.set(t.name, (h = this.store.freshHole()));
        return { k: 'const', id: h, span: t.span };
      }
      case 'compound': {
        const args: Tmpl[] = [];
        for (const a of t.args) {
          const x = this.lowerTerm(a, vars);
          if (x === null) return null;
          args.push(x);
        }
        if (t.functor in FUNCTIONS) {
          if (args.length !== FUNCTIONS[t.functor]) {
            this.err('arity', `the built-in function ${t.functor} takes ${FUNCTIONS[t.functor]} argument(s), got ${args.length}`, t.span);
            return null;
          }
          return { k: 'fn', name: t.functor as FunctionName, args, span: t.span };
        }
        return this.fold({ k: 'struct', sym: this.store.symbol(t.functor), args, span: t.span });
      }
      case 'list': {
        let tail: Tmpl | null = t.tail ? this.lowerTerm(t.tail, vars) : { k: 'const', id: this.store.nil, span: t.span };
        if (tail === null) return null;
        const items: Tmpl[] = [];
        for (const i of t.items) {
          const x = this.lowerTerm(i, vars);
          if (x === null) return null;
          items.push(x);
        }
        for (let i = items.length - 1; i >= 0; i--) tail = this.fold({ k: 'cons', head: items[i]!, tail, span: t.span });
        return tail;
      }
      case 'binop': {
        const a = this.lowerTerm(t.left, vars);
        const b = this.lowerTerm(t.right, vars);
        return a && b ? { k: 'arith', op: t.op, a, b, span: t.span } : null;
      }
      case 'neg': {
        const a = this.lowerTerm(t.arg, vars);
        return a && { k: 'neg', a, span: t.span };
      }
      case 'index': {
        const a = this.lowerTerm(t.target, vars);
        const i = this.lowerTerm(t.index, vars);
        return a && i ? { k: 'index', t: a, i, span: t.span } : null;
      }
      case 'slice': {
        const a = this.lowerTerm(t.target, vars);
        const from = t.from ? this.lowerTerm(t.from, vars) : null;
        const to = t.to ? this.lowerTerm(t.to, vars) : null;
        if (!a || (t.from && !from) || (t.to && !to)) return null;
        return { k: 'slice', t: a, from, to, span: t.span };
      }
    }
  }

  /** Structures whose parts are all constants become one interned constant. */
  private fold(t: Tmpl): Tmpl {
    try {
      if (t.k === 'struct' && t.args.every((a) => a.k === 'const'))
        return {
          k: 'const',
          id: this.store.compoundSym(
            t.sym,
            t.args.map((a) => (a as { id: TermId }).id),
          ),
          ...spanOf(t),
        };
      if (t.k === 'cons' && t.head.k === 'const' && t.tail.k === 'const') return { k: 'const', id: this.store.cons(t.head.id, t.tail.id), ...spanOf(t) };
    } catch (e) {
      if (!(e instanceof TermDepthError)) throw e;
      this.err('limit', e.message, t.span ?? null);
    }
    return t;
  }
}

/** A ground fact given in the source, and the span of its clause. */
export interface GivenFact {
  readonly fact: TermId;
  readonly span: Span;
}

/** A given fact whose span is read from its statement when asked for (most never are). */
class StatedFact implements GivenFact {
  constructor(
    readonly fact: TermId,
    private readonly statement: GroundFact,
  ) {}

  get span(): Span {
    return this.statement.span;
  }
}

interface VarTable {
  names: string[];
  byName: Map<string, number>;
  /** While lowering a relational head: `_` becomes a distinct named variable. */
  headWildcards?: boolean;
}

function varIndex(vars: VarTable, name: string): number {
  let v = vars.byName.get(name);
  if (v === undefined) {
    v = vars.names.length;
    vars.names.push(name);
    vars.byName.set(name, v);
  }
  return v;
}

function anonVar(vars: VarTable, span: Span): Tmpl {
  const v = vars.names.length;
  vars.names.push(vars.headWildcards ? `_${v}` : '_');
  return { k: 'var', v, span };
}

const TYPE_NAMES = ['int', 'float', 'bool', 'string', 'atom', 'term', 'dim'];

function unknownTypeName(t: AttrType): Extract<AttrType, { kind: 'named' }> | null {
  if (t.kind === 'named') return TYPE_NAMES.includes(t.name) ? null : t;
  return unknownTypeName(t.kind === 'list' ? t.element : t.inner);
}

export function templateNames(template: string): string[] {
  const names: string[] = [];
  for (const m of template.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) names.push(m[1]!);
  return names;
}

export function where(span: Span): string {
  return `${span.file}:${span.start.line}:${span.start.column}`;
}

function visitHoles(s: Statement, f: (name: string) => unknown): void {
  if (s.kind !== 'clause') return;
  for (const top of clauseTerms(s)) walkTerm(top, (t) => t.kind === 'hole' && f(t.name));
}

/** Does a ground term have an attribute type? `term` accepts anything. */
export function hasType(store: TermStore, t: TermId, type: AttrType): boolean {
  switch (type.kind) {
    case 'optional':
      return (store.kind(t) === 3 && store.text(t) === 'none') || hasType(store, t, type.inner);
    case 'list': {
      const items = store.listItems(t);
      return items?.every((x) => hasType(store, x, type.element)) ?? false;
    }
    case 'named':
      switch (type.name) {
        case 'int':
          return store.kind(t) === 1;
        case 'float':
          return store.kind(t) === 2 || store.kind(t) === 1;
        case 'bool':
          return store.kind(t) === 3 && (store.text(t) === 'true' || store.text(t) === 'false');
        case 'string':
          return store.kind(t) === 4;
        case 'atom':
          return store.kind(t) === 3 && t !== store.nil;
        case 'dim':
          return store.kind(t) === 1 || store.kind(t) === 8 || (store.kind(t) === 3 && t !== store.nil);
        default:
          return true;
      }
  }
}
