// The imperative twin of the iterator IR's typing rules: unification over a union-find,
// as the original implementation does, with its own representation of the special
// types: a tuple of unknown length that `tuple_get` knows some elements of (a partial
// tuple: a variable with a map of known elements) and argument lists written as
// `prefix:rest`. The variadic argument tuples of lift, reduce and scan and domain's
// named ranges are constraints attached to list variables, discharged element by
// element once a list's length is known (lazily, as the rules do). Definitions are typed
// in the same levels as the rules (typing/itir/scope.ts) and copied fresh at each use.
// It stops at the first error. Cross-checked against the rules (test/itir-crosscheck.test.ts).
import { diagnostic, UserError } from '../../diagnostics/diagnostic.js';
import type { Closure, Define, Expr, Fencil, Program, Span } from '../../frontends/itir/ast.js';
import { isBuiltin } from '../../frontends/itir/ast.js';
import { CALL_ONLY, callOnlyError, definitionLevels, tupleGetIndex } from './scope.js';
import type { Shown } from './display.js';
import type { ItirItem, ItirOutcome } from './outcome.js';

type Ty =
  | { readonly t: 'var'; readonly id: number }
  | { readonly t: 'con'; readonly name: string }
  | { readonly t: 'val'; readonly kind: Ty; readonly dtype: Ty; readonly size: Ty }
  | { readonly t: 'fun'; readonly args: Ty; readonly ret: Ty }
  | { readonly t: 'tuple'; readonly elems: readonly Ty[] }
  | { readonly t: 'partial'; readonly id: number; readonly elems: ReadonlyMap<number, Ty> }
  | { readonly t: 'prefix'; readonly head: Ty; readonly rest: Ty };

/** `list` is [val(kind, d, size) for d in dtypes]. */
interface ValsC {
  readonly k: 'vals';
  readonly list: Ty;
  readonly dtypes: Ty;
  readonly kind: Ty;
  readonly size: Ty;
}
/** Every element of `list` is `elem`. */
interface UniformC {
  readonly k: 'uniform';
  readonly list: Ty;
  readonly elem: Ty;
}
type Constraint = ValsC | UniformC;

class TypeError_ extends Error {
  constructor(readonly text: string) {
    super(text);
  }
}

const con = (name: string): Ty => ({ t: 'con', name });
const IT = con('it');
const VALUE = con('value');
const COL = con('col');
const SCAL = con('scal');

class Twin {
  private next = 0;
  /** var or partial id → what it is bound to */
  private readonly bound = new Map<number, Ty>();
  /** unbound var id → the constraints waiting on it */
  private readonly waiting = new Map<number, Constraint[]>();
  free = new Map<string, Ty>();
  readonly schemes = new Map<string, Ty>();

  fresh(): Ty {
    return { t: 'var', id: this.next++ };
  }
  val(kind: Ty, dtype: Ty, size: Ty): Ty {
    return { t: 'val', kind, dtype, size };
  }
  fun(args: readonly Ty[], ret: Ty): Ty {
    return { t: 'fun', args: { t: 'tuple', elems: args }, ret };
  }

  /** Follow bindings at the top; a prefix whose rest is a known tuple becomes a tuple. */
  find(x: Ty): Ty {
    for (;;) {
      if ((x.t === 'var' || x.t === 'partial') && this.bound.has(x.id)) x = this.bound.get(x.id)!;
      else if (x.t === 'prefix') {
        const r = this.find(x.rest);
        return r.t === 'tuple' ? { t: 'tuple', elems: [x.head, ...r.elems] } : r === x.rest ? x : { t: 'prefix', head: x.head, rest: r };
      } else return x;
    }
  }

  private occurs(id: number, x0: Ty): boolean {
    const stack = [x0];
    while (stack.length > 0) {
      const x = this.find(stack.pop()!);
      switch (x.t) {
        case 'var':
          if (x.id === id) return true;
          break;
        case 'partial':
          if (x.id === id) return true;
          stack.push(...x.elems.values());
          break;
        case 'val':
          stack.push(x.kind, x.dtype, x.size);
          break;
        case 'fun':
          stack.push(x.args, x.ret);
          break;
        case 'tuple':
          stack.push(...x.elems);
          break;
        case 'prefix':
          stack.push(x.head, x.rest);
          break;
      }
    }
    return false;
  }

  private bind(id: number, to: Ty): void {
    if (this.occurs(id, to)) throw new TypeError_('infinite type');
    this.bound.set(id, to);
    const cs = this.waiting.get(id);
    if (cs === undefined) return;
    this.waiting.delete(id);
    const target = this.find(to);
    if (target.t === 'var') {
      // merged with another variable: its constraints wait there too (both kept, lazily)
      for (const c of cs) this.wait(target.id, c);
      return;
    }
    for (const c of cs) this.discharge(c);
  }

  private wait(id: number, c: Constraint): void {
    const list = this.waiting.get(id);
    if (list === undefined) this.waiting.set(id, [c]);
    else if (!list.includes(c)) list.push(c);
  }

  /** Make progress on a constraint, or attach it to the variables it waits on. */
  discharge(c: Constraint): void {
    const l = this.find(c.list);
    if (c.k === 'uniform') {
      if (l.t === 'tuple') for (const e of l.elems) this.unify(e, c.elem);
      else if (l.t === 'prefix') {
        this.unify(l.head, c.elem);
        this.discharge({ k: 'uniform', list: l.rest, elem: c.elem });
      } else if (l.t === 'var') this.wait(l.id, c);
      else throw new TypeError_('not an argument list');
      return;
    }
    const d = this.find(c.dtypes);
    if (l.t === 'tuple') {
      const ds = l.elems.map(() => this.fresh());
      this.unify(d, { t: 'tuple', elems: ds });
      l.elems.forEach((e, i) => {
        this.unify(e, this.val(c.kind, ds[i]!, c.size));
      });
    } else if (d.t === 'tuple') {
      this.unify(l, { t: 'tuple', elems: d.elems.map((x) => this.val(c.kind, x, c.size)) });
    } else if (l.t === 'prefix') {
      const dh = this.fresh();
      const dr = this.fresh();
      this.unify(d, { t: 'prefix', head: dh, rest: dr });
      this.unify(l.head, this.val(c.kind, dh, c.size));
      this.discharge({ k: 'vals', list: l.rest, dtypes: dr, kind: c.kind, size: c.size });
    } else if (d.t === 'prefix') {
      const lr = this.fresh();
      this.unify(l, { t: 'prefix', head: this.val(c.kind, d.head, c.size), rest: lr });
      this.discharge({ k: 'vals', list: lr, dtypes: d.rest, kind: c.kind, size: c.size });
    } else if (l.t === 'var' && d.t === 'var') {
      this.wait(l.id, c);
      this.wait(d.id, c);
    } else throw new TypeError_('not an argument list');
  }

  unify(a0: Ty, b0: Ty): void {
    const work: Ty[] = [a0, b0];
    while (work.length > 0) {
      const b = this.find(work.pop()!);
      const a = this.find(work.pop()!);
      if (a === b) continue;
      if (a.t === 'var' && b.t === 'var' && a.id === b.id) continue;
      if (a.t === 'var') {
        this.bind(a.id, b);
        continue;
      }
      if (b.t === 'var') {
        this.bind(b.id, a);
        continue;
      }
      if (a.t === 'partial' || b.t === 'partial') {
        const [p, o] = a.t === 'partial' ? [a, b] : [b as Ty & { t: 'partial' }, a];
        if (o.t === 'tuple') {
          for (const [i, e] of p.elems) {
            if (i >= o.elems.length) throw new TypeError_(`tuple_get ${i} is beyond a tuple of ${o.elems.length}`);
            work.push(e, o.elems[i]!);
          }
          this.bind(p.id, o);
        } else if (o.t === 'partial') {
          if (p.id === o.id) continue;
          const elems = new Map(o.elems);
          for (const [i, e] of p.elems) {
            const other = elems.get(i);
            if (other !== undefined) work.push(e, other);
            else elems.set(i, e);
          }
          const merged: Ty = { t: 'partial', id: this.next++, elems };
          this.bind(p.id, merged);
          this.bind(o.id, merged);
        } else throw new TypeError_('a tuple against a non-tuple');
        continue;
      }
      if (a.t === 'con' && b.t === 'con') {
        if (a.name !== b.name) throw new TypeError_(`${a.name} vs ${b.name}`);
        continue;
      }
      if (a.t === 'val' && b.t === 'val') {
        work.push(a.kind, b.kind, a.dtype, b.dtype, a.size, b.size);
        continue;
      }
      if (a.t === 'fun' && b.t === 'fun') {
        work.push(a.args, b.args, a.ret, b.ret);
        continue;
      }
      if (a.t === 'tuple' && b.t === 'tuple') {
        if (a.elems.length !== b.elems.length) throw new TypeError_(`tuples of ${a.elems.length} and ${b.elems.length}`);
        a.elems.forEach((e, i) => {
          work.push(e, b.elems[i]!);
        });
        continue;
      }
      if (a.t === 'prefix' || b.t === 'prefix') {
        const [p, o] = a.t === 'prefix' ? [a, b] : [b as Ty & { t: 'prefix' }, a];
        if (o.t === 'tuple') {
          if (o.elems.length === 0) throw new TypeError_('an empty tuple against a non-empty one');
          work.push(p.head, o.elems[0]!, p.rest, { t: 'tuple', elems: o.elems.slice(1) });
        } else if (o.t === 'prefix') work.push(p.head, o.head, p.rest, o.rest);
        else throw new TypeError_('an argument list against a non-list');
        continue;
      }
      throw new TypeError_(`${a.t} vs ${b.t}`);
    }
  }

  builtin(name: string): Ty {
    const v = () => this.fresh();
    switch (name) {
      case 'deref':
      case 'can_deref': {
        const d = v();
        const s = v();
        return this.fun([this.val(IT, d, s)], this.val(VALUE, name === 'deref' ? d : con('bool'), s));
      }
      case 'plus':
      case 'minus':
      case 'multiplies':
      case 'divides': {
        const x = this.val(VALUE, v(), v());
        return this.fun([x, x], x);
      }
      case 'eq':
      case 'less':
      case 'greater': {
        const s = v();
        const x = this.val(VALUE, v(), s);
        return this.fun([x, x], this.val(VALUE, con('bool'), s));
      }
      case 'not_':
      case 'and_':
      case 'or_': {
        const b = this.val(VALUE, con('bool'), v());
        return this.fun(name === 'not_' ? [b] : [b, b], b);
      }
      case 'if_': {
        const s = v();
        const x = this.val(VALUE, v(), s);
        return this.fun([this.val(VALUE, con('bool'), s), x, x], x);
      }
      case 'lift': {
        const s = v();
        const d = v();
        const args = v();
        this.discharge({ k: 'vals', list: args, dtypes: v(), kind: IT, size: s });
        return this.fun([{ t: 'fun', args, ret: this.val(VALUE, d, s) }], { t: 'fun', args, ret: this.val(IT, d, s) });
      }
      case 'reduce': {
        const s = v();
        const acc = this.val(VALUE, v(), s);
        const ds = v();
        const rest = v();
        const args = v();
        this.discharge({ k: 'vals', list: rest, dtypes: ds, kind: VALUE, size: s });
        this.discharge({ k: 'vals', list: args, dtypes: ds, kind: IT, size: s });
        return this.fun([{ t: 'fun', args: { t: 'prefix', head: acc, rest }, ret: acc }, acc], { t: 'fun', args, ret: acc });
      }
      case 'scan': {
        const d = v();
        const acc = this.val(VALUE, d, SCAL);
        const ds = v();
        const rest = v();
        const args = v();
        this.discharge({ k: 'vals', list: rest, dtypes: ds, kind: IT, size: SCAL });
        this.discharge({ k: 'vals', list: args, dtypes: ds, kind: IT, size: COL });
        return this.fun([{ t: 'fun', args: { t: 'prefix', head: acc, rest }, ret: acc }, this.val(VALUE, con('bool'), SCAL), acc], {
          t: 'fun',
          args,
          ret: this.val(VALUE, d, COL),
        });
      }
      case 'domain': {
        const args = v();
        this.discharge({ k: 'uniform', list: args, elem: this.val(VALUE, con('named_range'), SCAL) });
        return { t: 'fun', args, ret: this.val(VALUE, con('domain'), SCAL) };
      }
      case 'named_range':
        return this.fun(
          [this.val(VALUE, con('axis'), SCAL), this.val(VALUE, con('int'), SCAL), this.val(VALUE, con('int'), SCAL)],
          this.val(VALUE, con('named_range'), SCAL),
        );
    }
    throw new Error(`no type for builtin ${name}`);
  }

  /** A fresh copy of a definition's type: its variables, partial tuples and waiting constraints renamed apart. */
  instantiate(t: Ty): Ty {
    const map = new Map<number, Ty>();
    const copied = new Set<Constraint>();
    const pending: Constraint[] = [];
    const go = (x0: Ty): Ty => {
      const x = this.find(x0);
      switch (x.t) {
        case 'var': {
          let y = map.get(x.id);
          if (y === undefined) {
            map.set(x.id, (y = this.fresh()));
            for (const c of this.waiting.get(x.id) ?? [])
              if (!copied.has(c)) {
                copied.add(c);
                pending.push(c);
              }
          }
          return y;
        }
        case 'con':
          return x;
        case 'val':
          return this.val(go(x.kind), go(x.dtype), go(x.size));
        case 'fun':
          return { t: 'fun', args: go(x.args), ret: go(x.ret) };
        case 'tuple':
          return { t: 'tuple', elems: x.elems.map(go) };
        case 'prefix':
          return { t: 'prefix', head: go(x.head), rest: go(x.rest) };
        case 'partial': {
          let y = map.get(x.id);
          if (y === undefined) {
            const elems = new Map<number, Ty>();
            map.set(x.id, (y = { t: 'partial', id: this.next++, elems }));
            for (const [i, e] of x.elems) elems.set(i, go(e));
          }
          return y;
        }
      }
    };
    const out = go(t);
    // copy the constraints on the copied variables (after the type, so every variable they share is mapped)
    for (let i = 0; i < pending.length; i++) {
      const c = pending[i]!;
      if (c.k === 'vals') this.discharge({ k: 'vals', list: go(c.list), dtypes: go(c.dtypes), kind: go(c.kind), size: go(c.size) });
      else this.discharge({ k: 'uniform', list: go(c.list), elem: go(c.elem) });
    }
    return out;
  }

  // ---- the program ----

  expr(e: Expr, env: Env): Ty {
    switch (e.k) {
      case 'lit':
        return this.val(VALUE, con(e.type), this.fresh());
      case 'axis':
        return this.val(VALUE, con('axis'), SCAL);
      case 'offset':
        return this.fresh();
      case 'sym': {
        const local = env.get(e.name);
        if (local !== undefined) return local;
        const sc = this.schemes.get(e.name);
        if (sc !== undefined && !env.shadows(e.name)) return this.at(e.span, () => this.instantiate(sc));
        if (isBuiltin(e.name)) {
          if (CALL_ONLY.has(e.name)) throw callOnlyError(e.name, e.span);
          return this.builtin(e.name);
        }
        let t = this.free.get(e.name);
        if (t === undefined) this.free.set(e.name, (t = this.fresh()));
        return t;
      }
      case 'lambda': {
        const params = e.params.map(() => this.fresh());
        const inner = env.extend(e.params.map((p, i) => [p.name, params[i]!]));
        return this.fun(params, this.expr(e.body, inner));
      }
      case 'let': {
        const values = e.bindings.map((b) => this.expr(b.value, env));
        return this.expr(e.body, env.extend(e.bindings.map((b, i) => [b.param.name, values[i]!])));
      }
      case 'call': {
        const head = e.fn.k === 'sym' && env.get(e.fn.name) === undefined && !this.schemes.has(e.fn.name) && CALL_ONLY.has(e.fn.name) ? e.fn.name : null;
        if (head === 'make_tuple') {
          const kind = this.fresh();
          const size = this.fresh();
          const ds = e.args.map((a) => {
            const d = this.fresh();
            const t = this.expr(a, env);
            this.at(a.span, () => this.unify(t, this.val(kind, d, size)));
            return d;
          });
          return this.val(kind, { t: 'tuple', elems: ds }, size);
        }
        if (head === 'tuple_get') {
          const index = tupleGetIndex(e);
          const kind = this.fresh();
          const size = this.fresh();
          const elem = this.fresh();
          const tuple = this.expr(e.args[1]!, env);
          this.at(e.span, () => this.unify(tuple, this.val(kind, { t: 'partial', id: this.next++, elems: new Map([[index, elem]]) }, size)));
          return this.val(kind, elem, size);
        }
        if (head === 'shift') {
          for (const a of e.args) this.expr(a, env);
          const it = this.val(IT, this.fresh(), this.fresh());
          return this.fun([it], it);
        }
        const f = this.expr(e.fn, env);
        const args = e.args.map((a) => this.expr(a, env));
        const ret = this.fresh();
        this.at(e.span, () => this.unify(f, this.fun(args, ret)));
        return ret;
      }
    }
  }

  closure(c: Closure, env: Env): { output: Ty; inputs: Ty[] } {
    const domain = this.expr(c.domain, env);
    const stencil = this.expr(c.stencil, env);
    const output = this.expr(c.output, env);
    const inputs = c.inputs.map((i) => this.expr(i, env));
    const dtype = this.fresh();
    this.at(c.domain.span, () => this.unify(domain, this.val(VALUE, con('domain'), SCAL)));
    this.at(c.output.span, () => this.unify(output, this.val(IT, dtype, COL)));
    this.at(c.stencil.span, () => this.unify(stencil, this.fun(inputs, this.val(VALUE, dtype, COL))));
    return { output, inputs };
  }

  /** Run a unification; a failure becomes a located user error. */
  at<T>(span: Span, f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof TypeError_) throw new UserError([diagnostic('error', 'type', `type error: ${e.text}`, span)]);
      throw e;
    }
  }

  // ---- reading types back ----

  show(x0: Ty): Shown {
    const x = this.find(x0);
    switch (x.t) {
      case 'var': {
        const c =
          (this.waiting.get(x.id) ?? []).find((c) => c.k === 'vals' && this.find(c.list) === x) ??
          (this.waiting.get(x.id) ?? []).find((c) => c.k === 'uniform');
        if (c?.k === 'vals') return { k: 'valtuple', kind: this.showKind(c.kind), dtypes: this.show(c.dtypes), size: this.showKind(c.size) };
        if (c?.k === 'uniform') return { k: 'uniform', id: x.id, elem: this.show(c.elem) };
        return { k: 'var', id: x.id };
      }
      case 'con':
        return { k: 'prim', name: x.name };
      case 'val':
        return { k: 'val', kind: this.showKind(x.kind), dtype: this.show(x.dtype), size: this.showKind(x.size) };
      case 'fun':
        return { k: 'fun', args: this.show(x.args), ret: this.show(x.ret) };
      case 'tuple':
        return { k: 'tuple', elems: x.elems.map((e) => this.show(e)) };
      case 'prefix':
        return { k: 'prefix', prefix: this.show(x.head), others: this.show(x.rest) };
      case 'partial': {
        const n = Math.max(...x.elems.keys()) + 1;
        return { k: 'partial', id: x.id, elems: Array.from({ length: n }, (_, i) => (x.elems.has(i) ? this.show(x.elems.get(i)!) : null)) };
      }
    }
  }

  private showKind(x0: Ty): Shown {
    const x = this.find(x0);
    if (x.t === 'con' && (x.name === 'it' || x.name === 'value' || x.name === 'col' || x.name === 'scal')) return { k: x.name };
    return this.show(x);
  }
}

/** Parameters and let bindings in scope; `shadows` also covers fencil parameters hiding definitions. */
class Env {
  constructor(
    private readonly vars: ReadonlyMap<string, Ty>,
    private readonly parent: Env | null,
  ) {}
  static empty = new Env(new Map(), null);
  get(name: string): Ty | undefined {
    for (let e: Env | null = this; e !== null; e = e.parent) {
      const t = e.vars.get(name);
      if (t !== undefined) return t;
    }
    return undefined;
  }
  shadows(name: string): boolean {
    return this.get(name) !== undefined;
  }
  extend(bindings: readonly (readonly [string, Ty])[]): Env {
    return new Env(new Map(bindings), this);
  }
}

function definitions(tw: Twin, defines: readonly Define[]): Map<string, Ty> {
  const types = new Map<string, Ty>();
  for (const level of definitionLevels(defines)) {
    for (const d of level) {
      tw.free = new Map();
      const t = tw.expr({ k: 'lambda', params: d.params, body: d.body, span: d.span }, Env.empty);
      types.set(d.name, t);
    }
    for (const d of level) tw.schemes.set(d.name, types.get(d.name)!);
  }
  return types;
}

function fencil(tw: Twin, f: Fencil): ItirItem {
  const defs = definitions(tw, f.defines);
  const params = f.params.map(() => tw.fresh());
  const env = Env.empty.extend(f.params.map((p, i) => [p.name, params[i]!]));
  for (const c of f.closures) {
    tw.free = new Map();
    tw.closure(c, env);
  }
  return {
    span: f.span,
    type: {
      k: 'fencil',
      name: f.name,
      fundefs: f.defines.map((d) => ({ k: 'fundef', name: d.name, fun: tw.show(defs.get(d.name)!) })),
      params: params.map((p) => tw.show(p)),
    },
  };
}

/** Type a program with the twin. User errors are diagnostics, never exceptions. */
export function inferItirTwin(program: Program): ItirOutcome {
  const started = Date.now();
  const tw = new Twin();
  const items: ItirItem[] = [];
  try {
    const only = program.items[0]!;
    if (only.k === 'fencil') items.push(fencil(tw, only));
    else if (only.k !== 'define' && only.k !== 'closure') items.push({ span: only.span, type: tw.show(tw.expr(only, Env.empty)) });
    else {
      const defs = definitions(
        tw,
        program.items.filter((i): i is Define => i.k === 'define'),
      );
      const closures = new Map<Closure, { output: Ty; inputs: Ty[] }>();
      for (const c of program.items)
        if (c.k === 'closure') {
          tw.free = new Map();
          closures.set(c, tw.closure(c, Env.empty));
        }
      for (const i of program.items) {
        if (i.k === 'define') items.push({ span: i.span, type: { k: 'fundef', name: i.name, fun: tw.show(defs.get(i.name)!) } });
        else if (i.k === 'closure') {
          const c = closures.get(i)!;
          items.push({ span: i.span, type: { k: 'closure', output: tw.show(c.output), inputs: { k: 'tuple', elems: c.inputs.map((x) => tw.show(x)) } } });
        }
      }
    }
  } catch (e) {
    if (e instanceof UserError) return { items: [], diagnostics: [...e.diagnostics], millis: Date.now() - started };
    throw e;
  }
  return { items, diagnostics: [], millis: Date.now() - started };
}
