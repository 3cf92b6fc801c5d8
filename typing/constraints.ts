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

export const DTYPES = new Set(['bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float16', 'float32', 'float64', 'bfloat16']);

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

export function generate(module: Module, ops: OpCatalogue, options: GenerateOptions = {}): Generated {
  let varCount = 0;
  const fresh = (): CType => ({ k: 'var', v: varCount++ });
  const freshVar = (): TVar => varCount++;
  const constraints: Constraint[] = [];
  const bindings: TypedBinding[] = [];
  const diagnostics: Diagnostic[] = [];
  const sites: { op: string; span: Span }[] = [];
  const functions = new Map<string, CType>();
  const results = new Map<RExpr, CType>();
  const blockResults = new Map<RExpr, CType>();
  /** Types the block and records the type of its last expression (after its bindings). */
  const block = (body: RExpr, env: Env): CType => {
    const t = expr(body, env);
    let last = body;
    while (last.kind === 'let') last = last.body;
    blockResults.set(last, t);
    return t;
  };
  const err = (message: string, span: Span | null, notes: string[] = []) => diagnostics.push(diagnostic('error', 'type', message, span, notes));
  const unify = (a: CType, b: CType, span: Span, reason: string) => constraints.push({ k: 'unify', a, b, span, reason });

  // ---- ADTs
  const adts = new Map<string, TypeDef>();
  const constructors = new Map<string, { def: TypeDef; index: number }>();
  for (const t of module.typeDefs) {
    if (adts.has(t.name)) err(`type ${t.name} is defined twice`, t.span);
    adts.set(t.name, t);
    t.constructors.forEach((c, index) => {
      if (constructors.has(c.name)) err(`constructor ${c.name} is defined twice`, c.span);
      constructors.set(c.name, { def: t, index });
    });
  }

  // ---- types as written → constraint types
  const dimOf = (d: RDim): CDim => {
    switch (d.kind) {
      case 'int':
        return { k: 'int', value: d.value };
      case 'any':
        return { k: 'any' };
      case 'unknown':
        return { k: 'var', v: freshVar() };
      case 'sym': {
        try {
          const dim = dimExpr(d.expr);
          const n = dimAsInteger(dim);
          return n !== null ? { k: 'int', value: n } : { k: 'sym', dim };
        } catch (e) {
          if (e instanceof DimError) {
            err(`invalid dimension: ${e.message}`, d.span);
            return { k: 'any' };
          }
          throw e;
        }
      }
    }
  };
  const typeOf = (t: RType, params: ReadonlyMap<string, CType>): CType => {
    switch (t.kind) {
      case 'tensor':
        if (!DTYPES.has(t.dtype)) err(`unknown dtype '${t.dtype}'${didYouMean(t.dtype, DTYPES)}`, t.span);
        return tensorOf(t.shape.map(dimOf), t.dtype);
      case 'tuple':
        return { k: 'tuple', fields: t.fields.map((f) => typeOf(f, params)) };
      case 'func': {
        const inner = new Map(params);
        for (const p of t.typeParams) inner.set(p.name, fresh());
        return { k: 'func', params: t.params.map((p) => typeOf(p, inner)), ret: typeOf(t.ret, inner) };
      }
      case 'var': {
        const v = params.get(t.name);
        if (v === undefined) {
          err(`unknown type parameter ${t.name}`, t.span);
          return fresh();
        }
        return v;
      }
      case 'call': {
        const def = adts.get(t.name);
        if (def === undefined) {
          err(`unknown type ${t.name}${didYouMean(t.name, adts.keys())}`, t.span);
          return fresh();
        }
        if (def.params.length !== t.args.length) err(`${t.name} takes ${def.params.length} type argument(s), got ${t.args.length}`, t.span);
        return { k: 'adt', name: t.name, args: def.params.map((_, i) => (t.args[i] ? typeOf(t.args[i]!, params) : fresh())) };
      }
      case 'incomplete':
        return fresh();
    }
  };

  // ---- global functions
  const schemes = new Map<string, Scheme>();
  for (const f of module.functions) {
    if (schemes.has(f.name)) err(`function @${f.name} is defined twice`, f.span);
    const annotated = f.ret !== null && f.params.every((p) => p.type !== null);
    if (f.typeParams.length > 0 && !annotated)
      err(`the polymorphic function @${f.name} needs a type on every parameter and on its result`, f.span, [
        'polymorphic (and polymorphically recursive) functions are typed from their annotated signature',
      ]);
    let mono: CType | null = null;
    if (f.typeParams.length === 0) {
      const none = new Map<string, CType>();
      mono = { k: 'func', params: f.params.map((p) => (p.type ? typeOf(p.type, none) : fresh())), ret: f.ret ? typeOf(f.ret, none) : fresh() };
    }
    schemes.set(f.name, { def: f, mono });
  }
  /** A fresh instance of a global's type at a use site. */
  const instantiate = (s: Scheme): CType => {
    if (s.mono !== null) return s.mono;
    const params = new Map<string, CType>();
    for (const p of s.def.typeParams) params.set(p.name, fresh());
    return { k: 'func', params: s.def.params.map((p) => (p.type ? typeOf(p.type, params) : fresh())), ret: s.def.ret ? typeOf(s.def.ret, params) : fresh() };
  };
  const constructorType = (name: string, span: Span): { fields: CType[]; result: CType } | null => {
    const c = constructors.get(name);
    if (c === undefined) {
      err(`unknown constructor ${name}${didYouMean(name, constructors.keys())}`, span);
      return null;
    }
    const params = new Map<string, CType>();
    for (const p of c.def.params) params.set(p.name, fresh());
    const ctor = c.def.constructors[c.index]!;
    return { fields: ctor.fields.map((f) => typeOf(f, params)), result: { k: 'adt', name: c.def.name, args: c.def.params.map((p) => params.get(p.name)!) } };
  };

  // ---- expressions
  // persistent, so that a 100,000-binding chain does not copy its scope 100,000 times
  type Env = IMap<string, CType>;
  let currentFn = '';
  let typeParams: ReadonlyMap<string, CType> = new Map();

  const expr = (e0: RExpr, env0: Env): CType => {
    // let chains (graph bindings) can be 100,000 long: walk them in a loop
    let e = e0;
    let env = env0;
    while (e.kind === 'let') {
      const v = expr(e.value, env);
      if (e.type !== null) unify(typeOf(e.type, typeParams), v, e.span, `the annotation of %${e.name}`);
      bindings.push({ fn: currentFn, name: `%${e.name}`, type: v, span: e.span, kind: e.style, node: e.value });
      env = env.set(e.name, v);
      e = e.body;
    }
    switch (e.kind) {
      case 'local': {
        const t = env.get(e.name);
        if (t === undefined) {
          err(`unknown variable %${e.name}${didYouMean(e.name, env.keys())}`, e.span);
          return fresh();
        }
        return t;
      }
      case 'global': {
        const s = schemes.get(e.name);
        if (s === undefined) {
          err(`unknown function @${e.name}${didYouMean(e.name, schemes.keys())}`, e.span);
          return fresh();
        }
        return instantiate(s);
      }
      case 'constructor': {
        const c = constructorType(e.name, e.span);
        if (c === null) return fresh();
        return c.fields.length === 0 ? c.result : { k: 'func', params: c.fields, ret: c.result };
      }
      case 'op':
        err(`the operator ${e.name} must be called`, e.span);
        return fresh();
      case 'constant':
        return tensorOf([], e.dtype);
      case 'call':
        return call(e, env);
      case 'tuple':
        return { k: 'tuple', fields: e.fields.map((f) => expr(f, env)) };
      case 'proj': {
        const t = expr(e.tuple, env);
        if (t.k === 'tuple') {
          const f = t.fields[e.index];
          if (f === undefined) {
            err(`tuple index ${e.index} is out of range for a tuple of ${t.fields.length}`, e.span);
            return fresh();
          }
          return f;
        }
        const out = fresh();
        constraints.push({ k: 'proj', tuple: t, index: e.index, out, span: e.span });
        return out;
      }
      case 'if': {
        unify(tensorOf([], 'bool'), expr(e.cond, env), e.cond.span, 'the condition of if must be a bool scalar');
        const a = block(e.then, env);
        const b = block(e.else, env);
        const joined = options.joinedIfs?.get(e);
        if (joined !== undefined) return typeOf(joined, typeParams);
        if (options.branchesApart !== true) unify(a, b, e.span, 'both branches of if must have the same type');
        return a;
      }
      case 'fn': {
        const inner = new Map(typeParams);
        for (const p of e.typeParams) inner.set(p.name, { k: 'rigid', name: p.name });
        const saved = typeParams;
        typeParams = inner;
        let fnEnv = env;
        const params = e.params.map((p) => {
          const t = p.type ? typeOf(p.type, typeParams) : fresh();
          fnEnv = fnEnv.set(p.name, t);
          return t;
        });
        const body = block(e.body, fnEnv);
        if (e.ret !== null) unify(typeOf(e.ret, typeParams), body, e.span, 'the declared result type');
        typeParams = saved;
        return { k: 'func', params, ret: body };
      }
      case 'match': {
        const s = expr(e.scrutinee, env);
        let result: CType | null = null;
        for (const c of e.clauses) {
          const scope = new Map<string, CType>();
          pattern(c.pattern, s, scope);
          const t = block(c.body, env.merge(scope));
          if (result === null) result = t;
          else unify(result, t, c.span, 'every clause of match must have the same type');
        }
        return result ?? fresh();
      }
    }
  };

  const pattern = (p: Pattern, t: CType, env: Map<string, CType>): void => {
    switch (p.kind) {
      case 'wildcard':
        return;
      case 'var':
        if (p.type !== null) unify(typeOf(p.type, typeParams), t, p.span, `the annotation of %${p.name}`);
        env.set(p.name, t);
        return;
      case 'tuple': {
        const fields = p.fields.map(() => fresh());
        unify({ k: 'tuple', fields }, t, p.span, 'a tuple pattern');
        p.fields.forEach((f, i) => {
          pattern(f, fields[i]!, env);
        });
        return;
      }
      case 'constructor': {
        const c = constructorType(p.name, p.span);
        if (c === null) return;
        unify(c.result, t, p.span, `the pattern ${p.name}`);
        if (c.fields.length !== p.args.length) err(`${p.name} has ${c.fields.length} field(s), the pattern gives ${p.args.length}`, p.span);
        p.args.forEach((a, i) => {
          pattern(a, c.fields[i] ?? fresh(), env);
        });
        return;
      }
    }
  };

  const call = (e: Extract<RExpr, { kind: 'call' }>, env: Env): CType => {
    const args = e.args.map((a) => expr(a, env));
    if (e.callee.kind === 'op') {
      const op = ops.find(e.callee.name);
      if ('error' in op) {
        err(op.error, e.callee.span);
        return fresh();
      }
      const arity = argCountError(op, args.length);
      if (arity !== null) err(arity, e.span);
      // a left-out optional argument reaches the relation as an unknown type
      while (args.length < op.args.length) args.push(fresh());
      const checked = ops.checkAttrs(op, e.attrs);
      for (const x of checked.errors) err(x.message, x.span);
      const out = fresh();
      const assumed = options.assumedResults?.get(e);
      if (assumed !== undefined) {
        unify(typeOf(assumed, new Map()), out, e.span, `the result of ${op.name} assumed under its check`);
        return out;
      }
      const site = sites.length;
      sites.push({ op: op.name, span: e.span });
      constraints.push({ k: 'op', site, op: op.name, args, out, attrs: checked.values, span: e.span });
      return out;
    }
    if (e.attrs.length > 0) err('only operator calls take attributes', e.attrs[0]!.span);
    const callee = expr(e.callee, env);
    const ret = fresh();
    unify(callee, { k: 'func', params: args, ret }, e.span, 'the arguments of this call');
    return ret;
  };

  // ---- function bodies
  for (const f of module.functions) {
    const s = schemes.get(f.name)!;
    currentFn = f.name;
    // inside its own body a polymorphic function's type parameters are rigid
    const params = new Map<string, CType>();
    for (const p of f.typeParams) params.set(p.name, { k: 'rigid', name: p.name });
    typeParams = params;
    const own: CType = s.mono ?? {
      k: 'func',
      params: f.params.map((p) => (p.type ? typeOf(p.type, params) : fresh())),
      ret: f.ret ? typeOf(f.ret, params) : fresh(),
    };
    functions.set(f.name, own);
    if (own.k !== 'func') continue;
    let env: Env = IMap();
    f.params.forEach((p, i) => {
      env = env.set(p.name, own.params[i]!);
      bindings.push({ fn: f.name, name: `%${p.name}`, type: own.params[i]!, span: p.span, kind: 'param', node: p });
    });
    const body = expr(f.body, env);
    let last = f.body;
    while (last.kind === 'let') last = last.body;
    results.set(last, body);
    unify(own.ret, body, f.span, `the result of @${f.name}`);
  }
  return { constraints, varCount, bindings, functions, diagnostics, sites, results, blockResults };
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
