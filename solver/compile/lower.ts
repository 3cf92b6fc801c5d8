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
import { FUNCTIONS, type FunctionName, type HeadIR, type Lit, type RelationDecl, type Rule, TESTS, type TestName, type Tmpl } from './ir.js';

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
  const out: Lowered = {
    rules: [],
    facts: new Map(),
    decls: new Map(),
    preds: new Map(),
    defined: new Set(),
    calls: new Map(),
    arityErrors: new Set(),
    diagnostics: [],
  };
  const err = (code: string, message: string, span: Span | null, notes: string[] = []) => out.diagnostics.push(diagnostic('error', code, message, span, notes));

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

  // Holes written with numbers keep their numbers; named holes get fresh ones after them.
  const namedHoles = new Map<string, TermId>();
  for (const s of others) visitHoles(s, (name) => /^\d+$/.test(name) && store.hole(Number(name)));

  // Declarations first, so uses before the declaration resolve.
  for (const s of others) {
    if (s.kind !== 'relation') continue;
    const prev = out.decls.get(s.name);
    if (prev) {
      err('duplicate', `relation ${s.name} is declared twice`, s.span, [`first declared at ${where(prev.span)}`]);
      continue;
    }
    if (RESERVED.has(s.name)) {
      err('reserved', `'${s.name}' is a built-in and cannot be declared as a relation`, s.span);
      continue;
    }
    const names = new Set<string>();
    for (const n of [...s.params.map((x) => x.name), ...s.attrs.map((a) => a.name)]) {
      if (names.has(n)) err('duplicate', `relation ${s.name} has two arguments named '${n}'`, s.span);
      names.add(n);
    }
    const attrs = s.attrs.map((a) => {
      const unknown = unknownTypeName(a.type);
      if (unknown !== null)
        err('attribute', `unknown attribute type '${unknown.name}'${didYouMean(unknown.name, TYPE_NAMES)}`, unknown.span, [
          `attribute types: ${TYPE_NAMES.join(', ')}, [T] and T?`,
        ]);
      let def: TermId | null = null;
      if (a.default !== null) {
        const t = constTerm(a.default);
        if (t === null) err('attribute', `the default of attribute '${a.name}' must be a constant`, a.default.span);
        else if (!hasType(store, t, a.type)) err('attribute', `the default of attribute '${a.name}' is not of type ${attrTypeText(a.type)}`, a.default.span);
        else def = t;
      }
      return { name: a.name, type: attrTypeText(a.type), typeAst: a.type, default: def };
    });
    out.decls.set(s.name, { name: s.name, params: s.params.map((x) => x.name), attrs, span: s.span });
    notePred(s.name, s.params.length + s.attrs.length, s.span);
  }
  const attrTypes = new Map<string, AttrType[]>();
  for (const s of others)
    if (s.kind === 'relation' && !attrTypes.has(s.name))
      attrTypes.set(
        s.name,
        s.attrs.map((a) => a.type),
      );

  const values: (number | string)[] = [];
  const kinds: ValueKind[] = [];
  const ids: TermId[] = [];
  /** The predicate and arity of the last plain fact lowered, what was checked of it once, and where its facts go. */
  let last: { pred: string; arity: number; sym: number; list: GivenFact[] } | null = null;
  for (const p of programs) {
    const statements = p.statements;
    for (let i = 0; i < statements.length; i++) {
      const s = statements[i]!;
      if (s instanceof GroundFact && lowerGroundFact(s)) continue;
      if (s.kind === 'clause') lowerClause(s);
    }
  }
  return out;

  // ---- helpers --------------------------------------------------------------

  function notePred(name: string, arity: number, span: Span): boolean {
    const prev = out.preds.get(name);
    if (prev === undefined) {
      out.preds.set(name, { arity, span });
      return true;
    }
    if (prev.arity !== arity) {
      out.arityErrors.add(name);
      err('arity', `${name} is used with ${arity} argument${arity === 1 ? '' : 's'} here but with ${prev.arity} at ${where(prev.span)}`, span);
      return false;
    }
    return true;
  }

  function constTerm(t: AstTerm): TermId | null {
    const vars = { names: [] as string[], byName: new Map<string, number>() };
    const tm = lowerTerm(t, vars);
    if (tm === null || vars.names.length > 0) return null;
    return evalConst(tm);
  }

  /** Constant-fold a template without variables (e.g. `-1`, `2 * 3`). */
  function evalConst(t: Tmpl): TermId | null {
    switch (t.k) {
      case 'const':
        return t.id;
      case 'cons': {
        const h = evalConst(t.head);
        const tl = evalConst(t.tail);
        return h === null || tl === null ? null : store.cons(h, tl);
      }
      case 'struct': {
        const args: TermId[] = [];
        for (const a of t.args) {
          const x = evalConst(a);
          if (x === null) return null;
          args.push(x);
        }
        return store.compoundSym(t.sym, args);
      }
      case 'arith': {
        const a = evalConst(t.a);
        const b = evalConst(t.b);
        if (a === null || b === null) return null;
        try {
          const r = arith(store, t.op, a, b);
          return r === WAIT || r === FAIL ? null : r;
        } catch (e) {
          if (e instanceof ArithmeticError) err('arithmetic', e.message, t.span);
          return null;
        }
      }
      case 'neg': {
        const a = evalConst(t.a);
        if (a === null) return null;
        const r = arith(store, '-', store.int(0), a);
        return r === WAIT || r === FAIL ? null : r;
      }
      default:
        return null;
    }
  }

  function lowerClause(s: Extract<Statement, { kind: 'clause' }>): void {
    const vars = { names: [] as string[], byName: new Map<string, number>() };
    const head = lowerHead(s.head, vars, s.body.length === 0);
    const body: Lit[] = [];
    for (const l of s.body) {
      const x = lowerLit(l, vars);
      if (x !== null) body.push(x);
    }
    if (head === null || body.length !== s.body.length) return;
    if (head.k === 'error') {
      // template placeholders refer to body variables
      const vs: number[] = [];
      for (const name of templateNames(head.template)) {
        const v = vars.byName.get(name);
        if (v === undefined) err('template', `error message refers to {${name}}, which is not a variable of this rule`, head.span);
        else vs.push(v);
      }
      (head as { vars: readonly number[] }).vars = vs;
    }
    if (head.k === 'atom') out.defined.add(head.pred);
    singletonWarnings(s);
    // A ground fact goes straight into the initial database.
    if (head.k === 'atom' && body.length === 0 && vars.names.length === 0) {
      const args: TermId[] = [];
      for (const a of head.args) {
        const c = evalConst(a);
        if (c === null) {
          pushRule(head, body, vars.names, s.span);
          return;
        }
        args.push(c);
      }
      let fact: TermId;
      try {
        fact = store.compound(head.pred, args);
      } catch (e) {
        if (e instanceof TermDepthError) {
          err('limit', e.message, s.span);
          return;
        }
        throw e;
      }
      checkAttrTypes(head.pred, args, s.span);
      let list = out.facts.get(head.pred);
      if (!list) out.facts.set(head.pred, (list = []));
      list.push({ fact, span: s.span });
      return;
    }
    pushRule(head, body, vars.names, s.span);
  }

  /**
   * A plain ground fact (integers, atoms and strings) lowered from its values, with no
   * tree and no span unless a diagnostic needs one: what `lowerClause` does for it, in
   * the cases where that is simple. False (nothing done) for a head that is a built-in or
   * a declared relation, left to `lowerClause`. A run of facts of one predicate and arity
   * checks the predicate once: what the checks read (the declarations, the arity first
   * noted) does not change while facts are lowered.
   */
  function lowerGroundFact(s: GroundFact): boolean {
    const pred = s.values(values, kinds);
    const n = values.length;
    if (last === null || last.pred !== pred || last.arity !== n) {
      if (RESERVED.has(pred) || out.decls.has(pred) || (pred in FUNCTIONS && n === FUNCTIONS[pred])) return false;
      const prev = out.preds.get(pred);
      if ((prev === undefined || prev.arity !== n) && !notePred(pred, n, s.head.span)) return true;
      out.defined.add(pred);
      let list = out.facts.get(pred);
      if (!list) out.facts.set(pred, (list = []));
      last = { pred, arity: n, sym: -1, list };
    }
    ids.length = n;
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      const k = kinds[i];
      ids[i] = k === ValueKind.Int ? store.int(v as number) : k === ValueKind.Atom ? store.atom(v as string) : store.str(v as string);
    }
    // the functor's symbol is taken after the arguments' (as `store.compound` does), so symbols are numbered as by lowerClause
    const fact = last.sym < 0 ? store.compound(pred, ids) : store.compoundSym(last.sym, ids);
    last.sym = store.functorSym(fact);
    last.list.push(new StatedFact(fact, s));
    return true;
  }

  function pushRule(head: HeadIR, body: Lit[], varNames: string[], span: Span): void {
    const n = out.rules.length;
    out.rules.push({ id: ruleId(n), head, body, varNames, span, origin: n, role: 'rule' });
  }

  function checkAttrTypes(pred: string, args: TermId[], span: Span): void {
    const decl = out.decls.get(pred);
    const types = attrTypes.get(pred);
    if (!decl || !types) return;
    decl.attrs.forEach((a, i) => {
      const v = args[decl.params.length + i];
      if (v !== undefined && store.isGround(v) && !hasType(store, v, types[i]!))
        err('attribute', `attribute '${a.name}' of ${pred} must be of type ${a.type}`, span);
    });
  }

  function singletonWarnings(s: Extract<Statement, { kind: 'clause' }>): void {
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
        out.diagnostics.push(
          diagnostic('warning', 'singleton', `variable ${name} occurs only once in this clause; write _${name} or _ if that is intended`, c.span),
        );
  }

  function lowerHead(h: Head, vars: VarTable, isFact: boolean): HeadIR | null {
    if (h.kind === 'unify') {
      const a = lowerTerm(h.left, vars);
      const b = lowerTerm(h.right, vars);
      return a && b ? { k: 'unify', a, b, span: h.span } : null;
    }
    if (h.pred === 'error') {
      const t = h.args[0];
      if (h.args.length !== 1 || h.named.length > 0 || t === undefined || t.kind !== 'string') {
        err('error-head', 'an error head takes one string: error("message with {Var} placeholders")', h.span);
        return null;
      }
      return { k: 'error', template: t.value, vars: [], span: h.span };
    }
    if (RESERVED.has(h.pred)) {
      err('reserved', `'${h.pred}' is a built-in and cannot be defined by a rule`, h.span);
      return null;
    }
    if (h.pred in FUNCTIONS && h.args.length === FUNCTIONS[h.pred]) {
      err('reserved', `'${h.pred}/${h.args.length}' is a built-in function and cannot be defined by a rule`, h.span);
      return null;
    }
    // `_` in a relational head stands for any value: a variable the caller binds
    vars.headWildcards = true;
    const args = callArgs(h, vars, isFact ? 'fact' : 'head');
    vars.headWildcards = false;
    if (args === null) return null;
    return { k: 'atom', pred: h.pred, args, span: h.span };
  }

  function lowerLit(l: Literal, vars: VarTable): Lit | null {
    switch (l.kind) {
      case 'call': {
        if (TESTS.has(l.pred)) {
          if (l.args.length !== 1 || l.named.length > 0) {
            err('arity', `${l.pred} takes one argument`, l.span);
            return null;
          }
          const a = lowerTerm(l.args[0]!, vars);
          return a && { k: 'test', name: l.pred as TestName, a, span: l.span };
        }
        if (l.pred === 'error') {
          err('error-head', 'error(...) can only be a rule head', l.span);
          return null;
        }
        return lowerCall(l, vars, false);
      }
      case 'not':
        if (TESTS.has(l.call.pred) || l.call.pred === 'error') {
          err('negation', `cannot negate the built-in ${l.call.pred}; use its opposite test or a comparison`, l.span);
          return null;
        }
        return lowerCall(l.call, vars, true, l.span);
      case 'compare':
      case 'unify':
      case 'differ': {
        const a = lowerTerm(l.left, vars);
        const b = lowerTerm(l.right, vars);
        if (!a || !b) return null;
        return l.kind === 'compare' ? { k: 'compare', op: l.op, a, b, span: l.span } : { k: l.kind, a, b, span: l.span };
      }
    }
  }

  function lowerCall(c: Call, vars: VarTable, neg: boolean, span: Span = c.span): Lit | null {
    if (c.pred in FUNCTIONS && c.args.length === FUNCTIONS[c.pred]) {
      err('reserved', `'${c.pred}' is a built-in function, not a predicate; use it inside a comparison or X = ${c.pred}(...)`, c.span);
      return null;
    }
    const args = callArgs(c, vars, 'body');
    if (args === null) return null;
    if (!out.calls.has(c.pred)) out.calls.set(c.pred, c.span);
    return { k: 'atom', pred: c.pred, args, neg, span };
  }

  /** Positional arguments of a call, with named attributes of declared relations put in place. */
  function callArgs(c: Call, vars: VarTable, position: 'fact' | 'head' | 'body'): Tmpl[] | null {
    const decl = out.decls.get(c.pred);
    const positional: (Tmpl | null)[] = [];
    for (const a of c.args) positional.push(lowerTerm(a, vars));
    if (positional.some((x) => x === null)) return null;
    let args = positional as Tmpl[];
    if (decl) {
      const full = decl.params.length + decl.attrs.length;
      if (c.named.length > 0 || (args.length === decl.params.length && decl.attrs.length > 0)) {
        if (args.length !== decl.params.length) {
          err(
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
            err(
              'attribute',
              `${c.pred} has no attribute '${n.name}'${didYouMean(n.name, known)}`,
              n.span,
              known.length ? [`its attributes: ${known.join(', ')}`] : [],
            );
            return null;
          }
          if (attrVals[i] !== null) {
            err('attribute', `attribute '${n.name}' is given twice`, n.span);
            return null;
          }
          attrVals[i] = lowerTerm(n.value, vars);
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
              err('attribute', `${c.pred} needs attribute '${decl.attrs[i]!.name}' (it has no default)`, c.span);
              return null;
            }
            filled.push({ k: 'const', id: d, span: c.span });
          }
        }
        args = [...args, ...filled];
      } else if (args.length !== full) {
        err('arity', `${c.pred} takes ${full} argument${full === 1 ? '' : 's'}, got ${args.length}`, c.span, [`declared at ${where(decl.span)}`]);
        return null;
      }
    } else if (c.named.length > 0) {
      err('attribute', `${c.pred} is not a declared relation, so it has no named attributes`, c.named[0]!.span);
      return null;
    }
    if (!notePred(c.pred, args.length, c.span)) return null;
    return args;
  }

  function lowerTerm(t: AstTerm, vars: VarTable): Tmpl | null {
    switch (t.kind) {
      case 'var':
        if (t.name === '_') return anonVar(vars, t.span);
        return { k: 'var', v: varIndex(vars, t.name), span: t.span };
      case 'int':
        return { k: 'const', id: store.int(t.value), span: t.span };
      case 'float':
        return { k: 'const', id: store.float(t.value), span: t.span };
      case 'atom':
        return { k: 'const', id: store.atom(t.name), span: t.span };
      case 'string':
        return { k: 'const', id: store.str(t.value), span: t.span };
      case 'hole': {
        if (/^\d+$/.test(t.name)) return { k: 'const', id: store.hole(Number(t.name)), span: t.span };
        let h = namedHoles.get(t.name);
        if (h === undefined) namedHoles.set(t.name, (h = store.freshHole()));
        return { k: 'const', id: h, span: t.span };
      }
      case 'compound': {
        const args: Tmpl[] = [];
        for (const a of t.args) {
          const x = lowerTerm(a, vars);
          if (x === null) return null;
          args.push(x);
        }
        if (t.functor in FUNCTIONS) {
          if (args.length !== FUNCTIONS[t.functor]) {
            err('arity', `the built-in function ${t.functor} takes ${FUNCTIONS[t.functor]} argument(s), got ${args.length}`, t.span);
            return null;
          }
          return { k: 'fn', name: t.functor as FunctionName, args, span: t.span };
        }
        return fold({ k: 'struct', sym: store.symbol(t.functor), args, span: t.span });
      }
      case 'list': {
        let tail: Tmpl | null = t.tail ? lowerTerm(t.tail, vars) : { k: 'const', id: store.nil, span: t.span };
        if (tail === null) return null;
        const items: Tmpl[] = [];
        for (const i of t.items) {
          const x = lowerTerm(i, vars);
          if (x === null) return null;
          items.push(x);
        }
        for (let i = items.length - 1; i >= 0; i--) tail = fold({ k: 'cons', head: items[i]!, tail, span: t.span });
        return tail;
      }
      case 'binop': {
        const a = lowerTerm(t.left, vars);
        const b = lowerTerm(t.right, vars);
        return a && b ? { k: 'arith', op: t.op, a, b, span: t.span } : null;
      }
      case 'neg': {
        const a = lowerTerm(t.arg, vars);
        return a && { k: 'neg', a, span: t.span };
      }
      case 'index': {
        const a = lowerTerm(t.target, vars);
        const i = lowerTerm(t.index, vars);
        return a && i ? { k: 'index', t: a, i, span: t.span } : null;
      }
      case 'slice': {
        const a = lowerTerm(t.target, vars);
        const from = t.from ? lowerTerm(t.from, vars) : null;
        const to = t.to ? lowerTerm(t.to, vars) : null;
        if (!a || (t.from && !from) || (t.to && !to)) return null;
        return { k: 'slice', t: a, from, to, span: t.span };
      }
    }
  }

  /** Structures whose parts are all constants become one interned constant. */
  function fold(t: Tmpl): Tmpl {
    try {
      if (t.k === 'struct' && t.args.every((a) => a.k === 'const'))
        return {
          k: 'const',
          id: store.compoundSym(
            t.sym,
            t.args.map((a) => (a as { id: TermId }).id),
          ),
          span: t.span,
        };
      if (t.k === 'cons' && t.head.k === 'const' && t.tail.k === 'const') return { k: 'const', id: store.cons(t.head.id, t.tail.id), span: t.span };
    } catch (e) {
      if (!(e instanceof TermDepthError)) throw e;
      err('limit', e.message, t.span);
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
