// Constraint generation for Relay programs (Hindley-Milner style): every expression
// gets a type with variables where it is unknown; annotations, calls, `if`, tuples and
// `match` give unification constraints; every operator call gives a relation instance.
// Global functions with type parameters are instantiated fresh at each call; functions
// without them are monomorphic (so recursion through them is typed by the body).
import { Map as IMap } from 'immutable';
import type { Attr, AttrValue, DimExpr, FunctionDef, Module, Param, Pattern, RDim, RExpr, RType, Span, TypeDef } from '../frontends/relay/ast.js';
import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic.js';
import { didYouMean } from '../diagnostics/suggest.js';
import { type Dim, DimError, dimAdd, dimAsInteger, dimConst, dimFloorDiv, dimMod, dimMul, dimSub, dimVar } from '../solver/terms/dims.js';
import type { CDim, CType, Constraint, TVar } from './ctypes.js';
import { tensorOf } from './ctypes.js';
import { argCountError } from '../relations/op-arity.js';
import { SCALAR_DTYPES } from '../relations/dtypes.js';

/** What constraint generation needs to know about operators. */
export interface OpInfo {
  readonly name: string;
  /** Argument names in order; a call must give these, except trailing optional ones. */
  readonly args: readonly string[];
  /** How many leading arguments a call must give; absent = all of them. */
  readonly requiredArgs?: number;
}

export interface OpCatalogue {
  find(name: string): OpInfo | { readonly error: string };
  checkAttrs(
    op: OpInfo,
    attrs: readonly Attr[],
  ): { readonly values: ReadonlyMap<string, AttrValue>; readonly errors: readonly { readonly message: string; readonly span: Span }[] };
}

/** A binding whose type is reported: a parameter, a `let`/graph binding, or a function's result. */
export interface TypedBinding {
  readonly fn: string;
  /** `%x`, `%0`. */
  readonly name: string;
  readonly type: CType;
  readonly span: Span;
  readonly kind: 'param' | 'let' | 'binding';
  /** The bound value (lets and bindings) or the parameter. */
  readonly node: RExpr | Param;
}

export interface Generated {
  readonly constraints: Constraint[];
  readonly varCount: number;
  readonly bindings: TypedBinding[];
  /** Each global function's type (monomorphic or as seen from inside its body). */
  readonly functions: Map<string, CType>;
  readonly diagnostics: Diagnostic[];
  /** Operator calls by site number. */
  readonly sites: { readonly op: string; readonly span: Span }[];
  /** The result expression of every function body, with its type. */
  readonly results: Map<RExpr, CType>;
  /** Types of the last expressions of inner blocks (if branches, match clauses, fn bodies), printed as TVM prints them. */
  readonly blockResults: Map<RExpr, CType>;
}

interface Scheme {
  readonly def: FunctionDef;
  /** Monomorphic type, shared by every use, or null when instantiated per use. */
  readonly mono: CType | null;
}

/** How constraint generation may depart from the program as written (gradual typing, typing/gradual.ts). */
export interface GenerateOptions {
  /**
   * Operator calls whose result type is assumed (under a residual check) rather than
   * derived: the call gives a unification with this type instead of a relation instance.
   */
  readonly assumedResults?: ReadonlyMap<RExpr, RType>;
  /**
   * `if` expressions whose branches are not unified with each other: the `if` has this
   * type (the join of its branches, fresh size variables where they differ).
   */
  readonly joinedIfs?: ReadonlyMap<RExpr, RType>;
  /** Every `if` types its branches apart and has its `then` branch's type (to read each branch's own type). */
  readonly branchesApart?: boolean;
}

/** The constraints of a module (declarations first, then each function body in order), with its bindings' types and diagnostics. */
export function generate(module: Module, ops: OpCatalogue, options: GenerateOptions = {}): Generated {
  const g = new Generation(ops, options);
  g.declareTypes(module.typeDefs);
  g.declareFunctions(module.functions);
  for (const f of module.functions) g.functionBody(f);
  return g.output();
}

// persistent, so that a 100,000-binding chain does not copy its scope 100,000 times
type Env = IMap<string, CType>;

/** The constraint generation of one module: what it has produced so far, the declarations it has read, and where it is. */
class Generation {
  private varCount = 0;
  private readonly constraints: Constraint[] = [];
  private readonly bindings: TypedBinding[] = [];
  private readonly diagnostics: Diagnostic[] = [];
  private readonly sites: { op: string; span: Span }[] = [];
  private readonly functions = new Map<string, CType>();
  private readonly results = new Map<RExpr, CType>();
  private readonly blockResults = new Map<RExpr, CType>();
  /** The module's ADTs by name, and its constructors by name (with their ADT and their index in it). */
  private readonly adts = new Map<string, TypeDef>();
  private readonly constructors = new Map<string, { def: TypeDef; index: number }>();
  /** The global functions by name. */
  private readonly schemes = new Map<string, Scheme>();
  /** The global function whose body is being typed, and the type parameters in scope. */
  private currentFn = '';
  private typeParams: ReadonlyMap<string, CType> = new Map();

  /** `ops`: the operators calls may name; `options`: how typing may depart from the program as written. */
  constructor(
    private readonly ops: OpCatalogue,
    private readonly options: GenerateOptions,
  ) {}

  /** What was generated, once every declaration and body has been read. */
  output(): Generated {
    const { constraints, varCount, bindings, functions, diagnostics, sites, results, blockResults } = this;
    return { constraints, varCount, bindings, functions, diagnostics, sites, results, blockResults };
  }

  /** A fresh type variable. */
  private fresh(): CType {
    return { k: 'var', v: this.varCount++ };
  }

  /** A fresh variable number (for a dim). */
  private freshVar(): TVar {
    return this.varCount++;
  }

  /** Reports a type error. */
  private err(message: string, span: Span | null, notes: string[] = []): void {
    this.diagnostics.push(diagnostic('error', 'type', message, span, notes));
  }

  /** Requires `a` and `b` to be the same type. */
  private unify(a: CType, b: CType, span: Span, reason: string): void {
    this.constraints.push({ k: 'unify', a, b, span, reason });
  }

  /** Types the block and records the type of its last expression (after its bindings). */
  private block(body: RExpr, env: Env): CType {
    const t = this.expr(body, env);
    let last = body;
    while (last.kind === 'let') last = last.body;
    this.blockResults.set(last, t);
    return t;
  }

  // ---- ADTs

  /** Records the module's ADTs and their constructors, reporting duplicates. */
  declareTypes(typeDefs: readonly TypeDef[]): void {
    for (const t of typeDefs) {
      if (this.adts.has(t.name)) this.err(`type ${t.name} is defined twice`, t.span);
      this.adts.set(t.name, t);
      t.constructors.forEach((c, index) => {
        if (this.constructors.has(c.name)) this.err(`constructor ${c.name} is defined twice`, c.span);
        this.constructors.set(c.name, { def: t, index });
      });
    }
  }

  // ---- types as written → constraint types

  /** A dim as written as a constraint dim (a field, so that `map` can take it as it is). */
  private readonly dimOf = (d: RDim): CDim => {
    switch (d.kind) {
      case 'int':
        return { k: 'int', value: d.value };
      case 'any':
        return { k: 'any' };
      case 'unknown':
        return { k: 'var', v: this.freshVar() };
      case 'sym': {
        try {
          const dim = dimExpr(d.expr);
          const n = dimAsInteger(dim);
          return n !== null ? { k: 'int', value: n } : { k: 'sym', dim };
        } catch (e) {
          if (e instanceof DimError) {
            this.err(`invalid dimension: ${e.message}`, d.span);
            return { k: 'any' };
          }
          throw e;
        }
      }
    }
  };

  /** A type as written as a constraint type, with `params` the type parameters in scope. */
  private typeOf(t: RType, params: ReadonlyMap<string, CType>): CType {
    switch (t.kind) {
      case 'tensor':
        if (!SCALAR_DTYPES.has(t.dtype)) this.err(`unknown dtype '${t.dtype}'${didYouMean(t.dtype, SCALAR_DTYPES)}`, t.span);
        return tensorOf(t.shape.map(this.dimOf), t.dtype);
      case 'tuple':
        return { k: 'tuple', fields: t.fields.map((f) => this.typeOf(f, params)) };
      case 'func': {
        const inner = new Map(params);
        for (const p of t.typeParams) inner.set(p.name, this.fresh());
        return { k: 'func', params: t.params.map((p) => this.typeOf(p, inner)), ret: this.typeOf(t.ret, inner) };
      }
      case 'var': {
        const v = params.get(t.name);
        if (v === undefined) {
          this.err(`unknown type parameter ${t.name}`, t.span);
          return this.fresh();
        }
        return v;
      }
      case 'call': {
        const def = this.adts.get(t.name);
        if (def === undefined) {
          this.err(`unknown type ${t.name}${didYouMean(t.name, this.adts.keys())}`, t.span);
          return this.fresh();
        }
        if (def.params.length !== t.args.length) this.err(`${t.name} takes ${def.params.length} type argument(s), got ${t.args.length}`, t.span);
        return { k: 'adt', name: t.name, args: def.params.map((_, i) => (t.args[i] ? this.typeOf(t.args[i]!, params) : this.fresh())) };
      }
      case 'incomplete':
        return this.fresh();
    }
  }

  // ---- global functions

  /** Records the global functions, each monomorphic (its type made now) or polymorphic (which must be annotated). */
  declareFunctions(defs: readonly FunctionDef[]): void {
    for (const f of defs) {
      if (this.schemes.has(f.name)) this.err(`function @${f.name} is defined twice`, f.span);
      const annotated = f.ret !== null && f.params.every((p) => p.type !== null);
      if (f.typeParams.length > 0 && !annotated)
        this.err(`the polymorphic function @${f.name} needs a type on every parameter and on its result`, f.span, [
          'polymorphic (and polymorphically recursive) functions are typed from their annotated signature',
        ]);
      let mono: CType | null = null;
      if (f.typeParams.length === 0) {
        const none = new Map<string, CType>();
        mono = {
          k: 'func',
          params: f.params.map((p) => (p.type ? this.typeOf(p.type, none) : this.fresh())),
          ret: f.ret ? this.typeOf(f.ret, none) : this.fresh(),
        };
      }
      this.schemes.set(f.name, { def: f, mono });
    }
  }

  /** A fresh instance of a global's type at a use site. */
  private instantiate(s: Scheme): CType {
    if (s.mono !== null) return s.mono;
    const params = new Map<string, CType>();
    for (const p of s.def.typeParams) params.set(p.name, this.fresh());
    return {
      k: 'func',
      params: s.def.params.map((p) => (p.type ? this.typeOf(p.type, params) : this.fresh())),
      ret: s.def.ret ? this.typeOf(s.def.ret, params) : this.fresh(),
    };
  }

  /** A fresh instance of a constructor's field types and result type, or null (reported) if there is no such constructor. */
  private constructorType(name: string, span: Span): { fields: CType[]; result: CType } | null {
    const c = this.constructors.get(name);
    if (c === undefined) {
      this.err(`unknown constructor ${name}${didYouMean(name, this.constructors.keys())}`, span);
      return null;
    }
    const params = new Map<string, CType>();
    for (const p of c.def.params) params.set(p.name, this.fresh());
    const ctor = c.def.constructors[c.index]!;
    return {
      fields: ctor.fields.map((f) => this.typeOf(f, params)),
      result: { k: 'adt', name: c.def.name, args: c.def.params.map((p) => params.get(p.name)!) },
    };
  }

  // ---- expressions

  /** The type of an expression in scope `env0`, with the constraints it gives. */
  private expr(e0: RExpr, env0: Env): CType {
    // let chains (graph bindings) can be 100,000 long: walk them in a loop
    let e = e0;
    let env = env0;
    while (e.kind === 'let') {
      const v = this.expr(e.value, env);
      if (e.type !== null) this.unify(this.typeOf(e.type, this.typeParams), v, e.span, `the annotation of %${e.name}`);
      this.bindings.push({ fn: this.currentFn, name: `%${e.name}`, type: v, span: e.span, kind: e.style, node: e.value });
      env = env.set(e.name, v);
      e = e.body;
    }
    switch (e.kind) {
      case 'local': {
        const t = env.get(e.name);
        if (t === undefined) {
          this.err(`unknown variable %${e.name}${didYouMean(e.name, env.keys())}`, e.span);
          return this.fresh();
        }
        return t;
      }
      case 'global': {
        const s = this.schemes.get(e.name);
        if (s === undefined) {
          this.err(`unknown function @${e.name}${didYouMean(e.name, this.schemes.keys())}`, e.span);
          return this.fresh();
        }
        return this.instantiate(s);
      }
      case 'constructor': {
        const c = this.constructorType(e.name, e.span);
        if (c === null) return this.fresh();
        return c.fields.length === 0 ? c.result : { k: 'func', params: c.fields, ret: c.result };
      }
      case 'op':
        this.err(`the operator ${e.name} must be called`, e.span);
        return this.fresh();
      case 'constant':
        return tensorOf([], e.dtype);
      case 'call':
        return this.call(e, env);
      case 'tuple':
        return { k: 'tuple', fields: e.fields.map((f) => this.expr(f, env)) };
      case 'proj':
        return this.proj(e, env);
      case 'if':
        return this.ifExpr(e, env);
      case 'fn':
        return this.fn(e, env);
      case 'match':
        return this.match(e, env);
    }
  }

  /** A tuple projection `%t.i`: the field's type, or (the tuple's type not yet known) a projection constraint. */
  private proj(e: Extract<RExpr, { kind: 'proj' }>, env: Env): CType {
    const t = this.expr(e.tuple, env);
    if (t.k === 'tuple') {
      const f = t.fields[e.index];
      if (f === undefined) {
        this.err(`tuple index ${e.index} is out of range for a tuple of ${t.fields.length}`, e.span);
        return this.fresh();
      }
      return f;
    }
    const out = this.fresh();
    this.constraints.push({ k: 'proj', tuple: t, index: e.index, out, span: e.span });
    return out;
  }

  /** An `if`: a bool scalar condition, and branches of one type (unless the options type them apart). */
  private ifExpr(e: Extract<RExpr, { kind: 'if' }>, env: Env): CType {
    this.unify(tensorOf([], 'bool'), this.expr(e.cond, env), e.cond.span, 'the condition of if must be a bool scalar');
    const a = this.block(e.then, env);
    const b = this.block(e.else, env);
    const joined = this.options.joinedIfs?.get(e);
    if (joined !== undefined) return this.typeOf(joined, this.typeParams);
    if (this.options.branchesApart !== true) this.unify(a, b, e.span, 'both branches of if must have the same type');
    return a;
  }

  /** A function literal, its own type parameters rigid inside it. */
  private fn(e: Extract<RExpr, { kind: 'fn' }>, env: Env): CType {
    const inner = new Map(this.typeParams);
    for (const p of e.typeParams) inner.set(p.name, { k: 'rigid', name: p.name });
    const saved = this.typeParams;
    this.typeParams = inner;
    let fnEnv = env;
    const params = e.params.map((p) => {
      const t = p.type ? this.typeOf(p.type, this.typeParams) : this.fresh();
      fnEnv = fnEnv.set(p.name, t);
      return t;
    });
    const body = this.block(e.body, fnEnv);
    if (e.ret !== null) this.unify(this.typeOf(e.ret, this.typeParams), body, e.span, 'the declared result type');
    this.typeParams = saved;
    return { k: 'func', params, ret: body };
  }

  /** A `match`: each clause's pattern against the scrutinee, and clause bodies of one type. */
  private match(e: Extract<RExpr, { kind: 'match' }>, env: Env): CType {
    const s = this.expr(e.scrutinee, env);
    let result: CType | null = null;
    for (const c of e.clauses) {
      const scope = new Map<string, CType>();
      this.pattern(c.pattern, s, scope);
      const t = this.block(c.body, env.merge(scope));
      if (result === null) result = t;
      else this.unify(result, t, c.span, 'every clause of match must have the same type');
    }
    return result ?? this.fresh();
  }

  /** Matches pattern `p` against type `t`, adding the variables it binds to `env`. */
  private pattern(p: Pattern, t: CType, env: Map<string, CType>): void {
    switch (p.kind) {
      case 'wildcard':
        return;
      case 'var':
        if (p.type !== null) this.unify(this.typeOf(p.type, this.typeParams), t, p.span, `the annotation of %${p.name}`);
        env.set(p.name, t);
        return;
      case 'tuple': {
        const fields = p.fields.map(() => this.fresh());
        this.unify({ k: 'tuple', fields }, t, p.span, 'a tuple pattern');
        p.fields.forEach((f, i) => {
          this.pattern(f, fields[i]!, env);
        });
        return;
      }
      case 'constructor': {
        const c = this.constructorType(p.name, p.span);
        if (c === null) return;
        this.unify(c.result, t, p.span, `the pattern ${p.name}`);
        if (c.fields.length !== p.args.length) this.err(`${p.name} has ${c.fields.length} field(s), the pattern gives ${p.args.length}`, p.span);
        p.args.forEach((a, i) => {
          this.pattern(a, c.fields[i] ?? this.fresh(), env);
        });
        return;
      }
    }
  }

  /** A call: of an operator (a relation instance), or of a function value (a unification). */
  private call(e: Extract<RExpr, { kind: 'call' }>, env: Env): CType {
    const args = e.args.map((a) => this.expr(a, env));
    if (e.callee.kind === 'op') return this.opCall(e, e.callee, args);
    if (e.attrs.length > 0) this.err('only operator calls take attributes', e.attrs[0]!.span);
    const callee = this.expr(e.callee, env);
    const ret = this.fresh();
    this.unify(callee, { k: 'func', params: args, ret }, e.span, 'the arguments of this call');
    return ret;
  }

  /** An operator call with its arguments' types: a relation instance at a new site (or a unification with the assumed result). */
  private opCall(e: Extract<RExpr, { kind: 'call' }>, callee: Extract<RExpr, { kind: 'op' }>, args: CType[]): CType {
    const op = this.ops.find(callee.name);
    if ('error' in op) {
      this.err(op.error, callee.span);
      return this.fresh();
    }
    const arity = argCountError(op, args.length);
    if (arity !== null) this.err(arity, e.span);
    // a left-out optional argument reaches the relation as an unknown type
    while (args.length < op.args.length) args.push(this.fresh());
    const checked = this.ops.checkAttrs(op, e.attrs);
    for (const x of checked.errors) this.err(x.message, x.span);
    const out = this.fresh();
    const assumed = this.options.assumedResults?.get(e);
    if (assumed !== undefined) {
      this.unify(this.typeOf(assumed, new Map()), out, e.span, `the result of ${op.name} assumed under its check`);
      return out;
    }
    const site = this.sites.length;
    this.sites.push({ op: op.name, span: e.span });
    this.constraints.push({ k: 'op', site, op: op.name, args, out, attrs: checked.values, span: e.span });
    return out;
  }

  // ---- function bodies

  /** Types the body of global function `f` against its own type (a polymorphic one's type parameters rigid inside it). */
  functionBody(f: FunctionDef): void {
    const s = this.schemes.get(f.name)!;
    this.currentFn = f.name;
    // inside its own body a polymorphic function's type parameters are rigid
    const params = new Map<string, CType>();
    for (const p of f.typeParams) params.set(p.name, { k: 'rigid', name: p.name });
    this.typeParams = params;
    const own: CType = s.mono ?? {
      k: 'func',
      params: f.params.map((p) => (p.type ? this.typeOf(p.type, params) : this.fresh())),
      ret: f.ret ? this.typeOf(f.ret, params) : this.fresh(),
    };
    this.functions.set(f.name, own);
    if (own.k !== 'func') return;
    let env: Env = IMap();
    f.params.forEach((p, i) => {
      env = env.set(p.name, own.params[i]!);
      this.bindings.push({ fn: f.name, name: `%${p.name}`, type: own.params[i]!, span: p.span, kind: 'param', node: p });
    });
    const body = this.expr(f.body, env);
    let last = f.body;
    while (last.kind === 'let') last = last.body;
    this.results.set(last, body);
    this.unify(own.ret, body, f.span, `the result of @${f.name}`);
  }
}

/** A Relay dim expression (`2*n + 1`) as a canonical dim. */
export function dimExpr(e: DimExpr): Dim {
  switch (e.kind) {
    case 'int':
      return dimConst(e.value);
    case 'var':
      return dimVar(e.name);
    case 'binop': {
      const a = dimExpr(e.left);
      const b = dimExpr(e.right);
      switch (e.op) {
        case '+':
          return dimAdd(a, b);
        case '-':
          return dimSub(a, b);
        case '*':
          return dimMul(a, b);
        case '/':
          return dimFloorDiv(a, b);
        case '%':
          return dimMod(a, b);
      }
    }
  }
}
