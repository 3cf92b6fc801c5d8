// Types an iterator-IR program with the rule engine and relations/itir/itir.rules.
//
// Constraint generation walks the program once and gives the engine facts: `Eq(Site,
// A, B)` for every place two types must agree (a call: the callee's type against
// `fn(args, result)`), `Builtin(Site, Name, T, Aux)` for every use of a builtin (the
// rules give T its overloaded type). Unknown types are holes. The engine unifies and
// solves the pending constraints of variadic tuples to fixpoint; types are read back
// from its union-find. Definitions are typed before their users, level by level
// (typing/itir/scope.ts), each level one incremental solve of the same solver; a
// reference to a definition gets a fresh copy of its solved type and of the pending
// constraints on it (let-polymorphism). Every clash is traced to its Site: the
// expression that causes it.
import { compileProgram } from '../../solver/compile/program.js';
import { DEFAULT_LIMITS, type Limits } from '../../solver/engine/limits.js';
import { Solver } from '../../solver/engine/solve.js';
import { Database } from '../../solver/store/database.js';
import { holesOf, resolve } from '../../solver/store/union-find.js';
import { Kind, type TermId, TermStore } from '../../solver/terms/term-store.js';
import { diagnostic, formatDiagnostic, UserError, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { itirRuleSources } from '../../relations/itir/library.js';
import type { Closure, Define, Expr, Fencil, Program, Span } from '../../frontends/itir/ast.js';
import { isBuiltin } from '../../frontends/itir/ast.js';
import { CALL_ONLY, callOnlyError, definitionLevels, tupleGetIndex } from './scope.js';
import { showType, type Shown } from './display.js';
import type { ItirItem, ItirOutcome } from './outcome.js';

interface Shared {
  readonly store: TermStore;
  readonly base: Solver;
}

let shared: Shared | null = null;

/** The rules compiled once per process and solved on their own facts; every inference forks that. */
function sharedSolver(): Shared {
  if (shared !== null) return shared;
  const sources = itirRuleSources();
  const store = new TermStore();
  const compiled = compileProgram(store, sources.programs, 'seminaive', null, new Set());
  if (!compiled.ok) throw new Error(`relations/itir/itir.rules: ${compiled.diagnostics.map((d) => formatDiagnostic(d, sources.texts)).join('\n')}`);
  const base = new Solver(store, compiled.program.plans, 'seminaive', DEFAULT_LIMITS, Database.empty());
  base.addFacts(compiled.program.facts);
  base.solve();
  return (shared = { store, base });
}

/** Where a constraint comes from: the expression, and what it is, for messages. */
interface Site {
  readonly span: Span;
  readonly what: 'call' | 'tuple_get' | 'make_tuple' | 'domain' | 'output' | 'stencil' | 'builtin' | 'instance';
  readonly name: string;
  readonly args: number;
  /** For a call: the `fn(args, result)` it needs its callee to be. */
  term?: TermId;
}

type Entry = { readonly k: 'mono'; readonly t: TermId } | { readonly k: 'def'; readonly name: string };

/** A lexical scope: a chain of small maps (lookups walk at most the nesting depth). */
class Scope {
  private readonly vars = new Map<string, Entry>();
  constructor(readonly parent: Scope | null) {}
  set(name: string, e: Entry): void {
    this.vars.set(name, e);
  }
  get(name: string): Entry | undefined {
    for (let s: Scope | null = this; s !== null; s = s.parent) {
      const e = s.vars.get(name);
      if (e !== undefined) return e;
    }
    return undefined;
  }
}

/** A solved definition: its type and the pending constraints on its holes. */
interface Scheme {
  readonly type: TermId;
  readonly constraints: readonly TermId[];
}

class StageError extends Error {}

class RulesTyper {
  readonly store: TermStore;
  readonly solver: Solver;
  readonly sites: Site[] = [];
  readonly fillers = new Set<TermId>();
  readonly schemes = new Map<string, Scheme>();
  private facts = new Map<string, TermId[]>();
  private free = new Map<string, TermId>();
  readonly diagnostics: Diagnostic[] = [];
  /** The site of a builtin or definition reference → the site of the call it is the callee of. */
  private readonly callOf = new Map<number, number>();
  private readonly a: Record<string, TermId>;

  constructor(limits: Partial<Limits>) {
    const sh = sharedSolver();
    this.store = sh.store.clone();
    // rounds add up over the solves of all definition levels (each solve is short): no cap on their sum by default
    this.solver = sh.base.fork(this.store, { ...DEFAULT_LIMITS, maxRounds: 1_000_000_000, ...limits });
    const s = this.store;
    this.a = Object.fromEntries(['it', 'value', 'col', 'scal', 'int', 'float', 'bool', 'axis', 'domain', 'named_range'].map((n) => [n, s.atom(n)]));
  }

  private fresh(): TermId {
    return this.store.freshHole();
  }
  private val(kind: TermId, dtype: TermId, size: TermId): TermId {
    return this.store.compound('val', [kind, dtype, size]);
  }
  private fn(args: readonly TermId[], ret: TermId): TermId {
    return this.store.compound('fn', [this.store.list(args), ret]);
  }
  private site(span: Span, what: Site['what'], name = '', args = 0): TermId {
    this.sites.push({ span, what, name, args });
    return this.store.int(this.sites.length - 1);
  }
  private add(rel: string, fact: TermId): void {
    const list = this.facts.get(rel);
    if (list === undefined) this.facts.set(rel, [fact]);
    else list.push(fact);
  }
  private eq(site: TermId, a: TermId, b: TermId): void {
    this.add('Eq', this.store.compound('Eq', [site, a, b]));
  }

  /** A new top-level item: its own free symbols. */
  beginItem(): void {
    this.free = new Map();
  }

  expr(e: Expr, scope: Scope): TermId {
    const s = this.store;
    switch (e.k) {
      case 'lit':
        return this.val(this.a.value!, this.a[e.type]!, this.fresh());
      case 'axis':
        return this.val(this.a.value!, this.a.axis!, this.a.scal!);
      case 'offset':
        return this.fresh();
      case 'sym': {
        const entry = scope.get(e.name);
        if (entry?.k === 'mono') return entry.t;
        if (entry?.k === 'def') return this.instantiate(this.schemes.get(entry.name)!, e.span);
        if (isBuiltin(e.name)) {
          if (CALL_ONLY.has(e.name)) throw callOnlyError(e.name, e.span);
          const t = this.fresh();
          this.add('Builtin', s.compound('Builtin', [this.site(e.span, 'builtin', e.name), s.atom(e.name), t, this.fresh()]));
          return t;
        }
        let t = this.free.get(e.name);
        if (t === undefined) this.free.set(e.name, (t = this.fresh()));
        return t;
      }
      case 'lambda': {
        const inner = new Scope(scope);
        const params = e.params.map((p) => {
          const t = this.fresh();
          inner.set(p.name, { k: 'mono', t });
          return t;
        });
        return this.fn(params, this.expr(e.body, inner));
      }
      case 'let': {
        const inner = new Scope(scope);
        const values = e.bindings.map((b) => this.expr(b.value, scope));
        e.bindings.forEach((b, i) => {
          inner.set(b.param.name, { k: 'mono', t: values[i]! });
        });
        return this.expr(e.body, inner);
      }
      case 'call':
        return this.call(e, scope);
    }
  }

  private call(e: Expr & { k: 'call' }, scope: Scope): TermId {
    const head = e.fn.k === 'sym' && scope.get(e.fn.name) === undefined && CALL_ONLY.has(e.fn.name) ? e.fn.name : null;
    if (head === 'make_tuple') {
      const kind = this.fresh();
      const size = this.fresh();
      const dtypes = e.args.map((a) => {
        const d = this.fresh();
        this.eq(this.site(a.span, 'make_tuple'), this.expr(a, scope), this.val(kind, d, size));
        return d;
      });
      return this.val(kind, this.store.list(dtypes), size);
    }
    if (head === 'tuple_get') {
      const index = tupleGetIndex(e);
      const kind = this.fresh();
      const size = this.fresh();
      const elem = this.fresh();
      const before: TermId[] = [];
      for (let i = 0; i < index; i++) {
        const f = this.fresh();
        this.fillers.add(f);
        before.push(f);
      }
      const tuple = this.expr(e.args[1]!, scope);
      this.eq(this.site(e.span, 'tuple_get', '', index), tuple, this.val(kind, this.store.list([...before, elem], this.fresh()), size));
      return this.val(kind, elem, size);
    }
    if (head === 'shift') {
      for (const a of e.args) this.expr(a, scope);
      const it = this.val(this.a.it!, this.fresh(), this.fresh());
      return this.fn([it], it);
    }
    const before = this.sites.length;
    const f = this.expr(e.fn, scope);
    const callee = this.sites.length === before + 1 && (this.sites[before]!.what === 'builtin' || this.sites[before]!.what === 'instance') ? before : -1;
    const args = e.args.map((a) => this.expr(a, scope));
    const ret = this.fresh();
    const site = this.site(e.span, 'call', e.fn.k === 'sym' ? e.fn.name : '', e.args.length);
    // a clash between a builtin's (or a definition's) type and its call is the call's error
    if (callee >= 0) this.callOf.set(callee, this.sites.length - 1);
    const needed = this.fn(args, ret);
    this.sites[this.sites.length - 1]!.term = needed;
    this.eq(site, f, needed);
    return ret;
  }

  define(d: Define, scope: Scope): TermId {
    this.beginItem();
    return this.expr({ k: 'lambda', params: d.params, body: d.body, span: d.span }, scope);
  }

  closure(c: Closure, scope: Scope): { output: TermId; inputs: TermId[] } {
    const domain = this.expr(c.domain, scope);
    const stencil = this.expr(c.stencil, scope);
    const output = this.expr(c.output, scope);
    const inputs = c.inputs.map((i) => this.expr(i, scope));
    const dtype = this.fresh();
    this.eq(this.site(c.domain.span, 'domain'), domain, this.val(this.a.value!, this.a.domain!, this.a.scal!));
    this.eq(this.site(c.output.span, 'output'), output, this.val(this.a.it!, dtype, this.a.col!));
    this.eq(this.site(c.stencil.span, 'stencil', '', inputs.length), stencil, this.fn(inputs, this.val(this.a.value!, dtype, this.a.col!)));
    return { output, inputs };
  }

  /** Solve what was generated so far; throws StageError after reporting clashes. */
  solve(): void {
    this.solver.addFacts(this.facts);
    this.facts = new Map();
    this.solver.solve();
    const s = this.solver;
    if (s.limitHit) {
      this.diagnostics.push(diagnostic('error', 'limit', `type inference stopped: ${s.limitHit.message}`, null));
      throw new StageError();
    }
    if (s.clashes.length > 0) {
      const seen = new Set<number>();
      for (const c of s.clashes) {
        const at = this.siteOf(c.premises);
        const siteNo = at !== null && this.callOf.has(at) ? this.callOf.get(at)! : at;
        if (siteNo !== null && seen.has(siteNo)) continue;
        if (siteNo !== null) seen.add(siteNo);
        this.diagnostics.push(this.clashDiagnostic(c, siteNo));
      }
      throw new StageError();
    }
  }

  private siteOf(premises: readonly number[]): number | null {
    for (const p of premises) {
      const f = p as TermId;
      if (this.store.kind(f) === Kind.Compound && this.store.arity(f) > 0 && this.store.kind(this.store.arg(f, 0)) === Kind.Int)
        return this.store.intValue(this.store.arg(f, 0));
    }
    return null;
  }

  private clashDiagnostic(c: Solver['clashes'][number], siteNo: number | null): Diagnostic {
    const uf = this.solver.db.uf;
    const st = this.store;
    const r = (t: TermId) => resolve(st, uf, t);
    const site = siteNo === null ? null : this.sites[siteNo]!;
    const [outerA, outerB] = [r(c.outer[0]), r(c.outer[1])];
    const both = this.showMany([outerA, outerB, r(c.left), r(c.right)]);
    const occurs = /contain itself/.test(c.reason);
    const mismatch = `${both[0]} vs ${both[1]}${both[2] !== both[0] || both[3] !== both[1] ? ` (${both[2]} vs ${both[3]})` : ''}`;
    if (site === null) return diagnostic('error', 'type', `cannot unify ${mismatch}`, null);
    const name = site.name ? site.name : site.what === 'call' ? 'this expression' : 'this function';
    let message: string;
    const notes: string[] = [];
    if (occurs) message = `infinite type: ${both[2]} would have to contain itself in ${both[3]}`;
    else if (site.what === 'call') {
      // outer: the callee's type against the fn(args, result) the call needs
      const needed = site.term === undefined ? outerB : r(site.term);
      const [callee, call] = needed === outerA ? [outerA === outerB ? outerA : outerB, outerA] : [outerA, outerB];
      const [calleeText, callText] = this.showMany([callee, call]);
      const fnArity = (t: TermId): number | null => {
        if (st.kind(t) !== Kind.Compound || st.functor(t) !== 'fn') return null;
        let n = 0;
        let l = r(st.arg(t, 0));
        while (st.kind(l) === Kind.Cons) {
          n++;
          l = r(st.tail(l));
        }
        return l === st.nil ? n : null;
      };
      const takes = fnArity(callee);
      const lengthClash = st.kind(c.left) === Kind.Cons || st.kind(c.right) === Kind.Cons || c.left === st.nil || c.right === st.nil;
      if (st.kind(callee) === Kind.Compound && st.functor(callee) === 'val') message = `cannot call ${name}: its type ${calleeText} is not a function`;
      else if (takes !== null && takes !== site.args && lengthClash) {
        message = `${name} takes ${takes} argument${takes === 1 ? '' : 's'}, but is given ${site.args}`;
        notes.push(`its type: ${calleeText}`);
      } else {
        const [l, rr] = this.showMany([r(c.left), r(c.right)]);
        message = `${name} has type ${calleeText}, but this call needs ${callText} (${l} vs ${rr})`;
      }
    } else if (site.what === 'tuple_get' && (c.left === st.nil || c.right === st.nil)) {
      message = `tuple_get ${site.args}: the index is beyond the tuple ${both[0]}`;
    } else if (site.what === 'domain') message = `the domain of a closure must be a domain: ${mismatch}`;
    else if (site.what === 'output') message = `the output of a closure must be a column iterator: ${mismatch}`;
    else if (site.what === 'stencil') message = `the stencil does not fit the closure's inputs and output: ${mismatch}`;
    else if (site.what === 'make_tuple') message = `the elements of make_tuple must all be values or all iterators of one size: ${mismatch}`;
    else message = `type mismatch: ${mismatch}`;
    return diagnostic('error', 'type', message, site.span, notes);
  }

  /** The scheme of a definition typed in the last solve. */
  generalize(t: TermId): Scheme {
    const st = this.store;
    const uf = this.solver.db.uf;
    const type = resolve(st, uf, t);
    const constraints: TermId[] = [];
    const seen = new Set<TermId>();
    for (const h of holesOf(st, type)) {
      for (const f of this.solver.db.holeUses.get(h) ?? []) {
        if (seen.has(f) || !this.solver.db.has(f)) continue;
        seen.add(f);
        const rel = st.functor(f);
        if ((rel === 'Vals' || rel === 'Uniform') && st.kind(resolve(st, uf, st.arg(f, 1))) === Kind.Hole) constraints.push(resolve(st, uf, f));
      }
    }
    return { type, constraints };
  }

  /** A fresh copy of a scheme for one reference (its holes renamed apart, its constraints copied). */
  private instantiate(sc: Scheme, span: Span): TermId {
    const st = this.store;
    const uf = this.solver.db.uf;
    const map = new Map<TermId, TermId>();
    const site = this.site(span, 'instance');
    const copy = (t: TermId): TermId => {
      switch (st.kind(t)) {
        case Kind.Hole: {
          const root = resolve(st, uf, t);
          if (root !== t) return copy(root);
          let h = map.get(t);
          if (h === undefined) {
            map.set(t, (h = this.fresh()));
            if (this.fillers.has(t)) this.fillers.add(h);
          }
          return h;
        }
        case Kind.Cons:
          return st.cons(copy(st.head(t)), copy(st.tail(t)));
        case Kind.Compound: {
          const args: TermId[] = [];
          for (let i = 0; i < st.arity(t); i++) args.push(copy(st.arg(t, i)));
          return st.compound(st.functor(t), args);
        }
        default:
          return t;
      }
    };
    if (holesOf(st, sc.type).size === 0) return sc.type;
    const type = copy(sc.type);
    for (const f of sc.constraints) {
      const args: TermId[] = [site];
      for (let i = 1; i < st.arity(f); i++) args.push(copy(st.arg(f, i)));
      this.add(st.functor(f), st.compound(st.functor(f), args));
    }
    return type;
  }

  // ---- reading types back ----

  private pending: Map<TermId, TermId> | null = null;
  private realRoots: Set<TermId> | null = null;

  /** Types as the original shows them, with holes renamed consistently across `ts`. */
  toShown(t: TermId, pos: 'type' | 'args' | 'dtype'): Shown {
    const st = this.store;
    const uf = this.solver.db.uf;
    if (this.pending === null) {
      // pending variadic constraints by the hole of their (unknown) list
      this.pending = new Map();
      for (const rel of ['Vals', 'Uniform']) {
        const r = this.solver.db.relation(rel);
        if (!r) continue;
        for (let i = 0; i < r.log.length; i++) {
          const f = r.log.get(i);
          if (!this.solver.db.has(f)) continue;
          const l = resolve(st, uf, st.arg(f, 1));
          if (st.kind(l) === Kind.Hole && !this.pending.has(l)) this.pending.set(l, f);
        }
      }
      this.realRoots = new Set();
      const max = st.holeNumber(st.freshHole());
      for (let n = 1; n < max; n++) {
        const h = st.hole(n);
        if (!this.fillers.has(h)) this.realRoots.add(resolve(st, uf, h));
      }
    }
    const go = (t0: TermId, pos: 'type' | 'args' | 'dtype' | 'kind' | 'size'): Shown => {
      const t = resolve(st, uf, t0);
      switch (st.kind(t)) {
        case Kind.Hole: {
          const id = st.holeNumber(t);
          if (pos === 'type' || pos === 'args' || pos === 'dtype') {
            const p = this.pending!.get(t);
            if (p !== undefined && st.functor(p) === 'Vals')
              return { k: 'valtuple', kind: go(st.arg(p, 3), 'kind'), dtypes: go(st.arg(p, 2), 'kind'), size: go(st.arg(p, 4), 'size') };
            if (p !== undefined) return { k: 'uniform', id, elem: go(st.arg(p, 2), 'type') };
          }
          return { k: 'var', id };
        }
        case Kind.Atom: {
          const name = st.text(t);
          if (pos === 'kind' && (name === 'it' || name === 'value')) return { k: name };
          if (pos === 'size' && (name === 'col' || name === 'scal')) return { k: name };
          if (name === '[]') return { k: 'tuple', elems: [] };
          return { k: 'prim', name };
        }
        case Kind.Cons: {
          const elems: TermId[] = [];
          let l = t;
          while (st.kind(l) === Kind.Cons) {
            elems.push(st.head(l));
            l = resolve(st, uf, st.tail(l));
          }
          const elemPos = pos === 'dtype' ? 'dtype' : 'type';
          if (l === st.nil) return { k: 'tuple', elems: elems.map((e) => go(e, elemPos)) };
          if (pos === 'dtype') {
            const shown = elems.map((e) => {
              const r = resolve(st, uf, e);
              return st.kind(r) === Kind.Hole && !this.realRoots!.has(r) ? null : go(r, 'dtype');
            });
            return { k: 'partial', id: st.holeNumber(l), elems: shown };
          }
          let out = go(l, 'args');
          for (let i = elems.length - 1; i >= 0; i--) out = { k: 'prefix', prefix: go(elems[i]!, 'type'), others: out };
          return out;
        }
        case Kind.Compound: {
          const f = st.functor(t);
          if (f === 'val' && st.arity(t) === 3)
            return { k: 'val', kind: go(st.arg(t, 0), 'kind'), dtype: go(st.arg(t, 1), 'dtype'), size: go(st.arg(t, 2), 'size') };
          if (f === 'fn' && st.arity(t) === 2) return { k: 'fun', args: go(st.arg(t, 0), 'args'), ret: go(st.arg(t, 1), 'type') };
          return { k: 'prim', name: `${f}(…)` };
        }
        default:
          return { k: 'prim', name: st.text(t) };
      }
    };
    return go(t, pos);
  }

  /** Several terms printed with one numbering of their variables. */
  showMany(ts: readonly TermId[]): string[] {
    const shown = ts.map((t) => this.toShown(t, 'type'));
    this.pending = null; // terms of a failed solve: recompute next time
    const joint = showType({ k: 'fencil', name: '', fundefs: [], params: shown });
    // split the joint rendering back into its parts
    return splitTop(joint.slice(2, -2));
  }
}

/** Split `a, b, c` at top-level commas (outside brackets). */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(s.slice(start).trim());
  return out;
}

/** Type a program with the rules. User errors are diagnostics, never exceptions. */
export function inferItirRules(program: Program, limits: Partial<Limits> = {}): ItirOutcome {
  const started = Date.now();
  const typer = new RulesTyper(limits);
  const items: ItirItem[] = [];
  try {
    const top = new Scope(null);
    const only = program.items[0]!;
    if (only.k === 'fencil') items.push(fencil(typer, only, top));
    else if (only.k !== 'define' && only.k !== 'closure') {
      typer.beginItem();
      const t = typer.expr(only, top);
      typer.solve();
      items.push({ span: only.span, type: typer.toShown(t, 'type') });
    } else {
      const defines = program.items.filter((i): i is Define => i.k === 'define');
      const defTypes = definitions(typer, defines, top);
      const closures = new Map<Closure, { output: TermId; inputs: TermId[] }>();
      for (const c of program.items)
        if (c.k === 'closure') {
          typer.beginItem();
          closures.set(c, typer.closure(c, top));
        }
      typer.solve();
      for (const i of program.items) {
        if (i.k === 'define') items.push({ span: i.span, type: { k: 'fundef', name: i.name, fun: typer.toShown(defTypes.get(i.name)!, 'type') } });
        else if (i.k === 'closure') {
          const c = closures.get(i)!;
          items.push({
            span: i.span,
            type: { k: 'closure', output: typer.toShown(c.output, 'type'), inputs: { k: 'tuple', elems: c.inputs.map((x) => typer.toShown(x, 'type')) } },
          });
        }
      }
    }
  } catch (e) {
    if (e instanceof UserError) return { items: [], diagnostics: [...e.diagnostics], millis: Date.now() - started };
    if (e instanceof StageError) return { items: [], diagnostics: typer.diagnostics, millis: Date.now() - started };
    throw e;
  }
  return { items, diagnostics: typer.diagnostics, millis: Date.now() - started };
}

/** Type the definitions level by level; each level is one solve. Returns each one's solved type. */
function definitions(typer: RulesTyper, defines: readonly Define[], scope: Scope): Map<string, TermId> {
  const types = new Map<string, TermId>();
  for (const d of defines) scope.set(d.name, { k: 'def', name: d.name });
  for (const level of definitionLevels(defines)) {
    const ts = level.map((d) => typer.define(d, scope));
    typer.solve();
    level.forEach((d, i) => {
      const sc = typer.generalize(ts[i]!);
      typer.schemes.set(d.name, sc);
      types.set(d.name, sc.type);
    });
  }
  return types;
}

function fencil(typer: RulesTyper, f: Fencil, top: Scope): ItirItem {
  const defScope = new Scope(top);
  const defTypes = definitions(typer, f.defines, defScope);
  const scope = new Scope(defScope);
  const params = f.params.map((p) => {
    const t = typer.store.freshHole();
    scope.set(p.name, { k: 'mono', t });
    return t;
  });
  for (const c of f.closures) {
    typer.beginItem();
    typer.closure(c, scope);
  }
  typer.solve();
  return {
    span: f.span,
    type: {
      k: 'fencil',
      name: f.name,
      fundefs: f.defines.map((d) => ({ k: 'fundef', name: d.name, fun: typer.toShown(defTypes.get(d.name)!, 'type') })),
      params: params.map((p) => typer.toShown(p, 'type')),
    },
  };
}
