// Building terms from templates (heads, keys, expressions) and matching patterns
// against facts. Building is three-valued: a term id, WAIT (needs a hole's value) or
// FAIL (undefined, e.g. an index out of range or arithmetic on a non-number).
import type { Tmpl } from '../compile/ir.js';
import type { Pat } from '../compile/plan.js';
import { arith, FAIL, WAIT } from '../terms/arith.js';
import { Kind, type TermId, type TermStore } from '../terms/term-store.js';

export { FAIL, WAIT };

export class Builder {
  /** When set, an unbound variable builds as a fresh hole (unification heads: `_`). */
  freshHoles = false;

  constructor(readonly store: TermStore) {}

  build(t: Tmpl, vals: Int32Array): TermId {
    const s = this.store;
    switch (t.k) {
      case 'const':
        return t.id;
      case 'var': {
        const v = vals[t.v]!;
        if (v > 0) return v;
        if (this.freshHoles) return (vals[t.v] = s.freshHole());
        return FAIL;
      }
      case 'cons': {
        const h = this.build(t.head, vals);
        if (h < 0) return h;
        const tl = this.build(t.tail, vals);
        if (tl < 0) return tl;
        return s.cons(h, tl);
      }
      case 'struct': {
        const n = t.args.length;
        const args = new Array<number>(n);
        for (let i = 0; i < n; i++) {
          const a = this.build(t.args[i]!, vals);
          if (a < 0) return a;
          args[i] = a;
        }
        return s.compoundSym(t.sym, args);
      }
      case 'arith': {
        const a = this.build(t.a, vals);
        if (a < 0) return a;
        const b = this.build(t.b, vals);
        if (b < 0) return b;
        return arith(s, t.op, a, b);
      }
      case 'neg': {
        const a = this.build(t.a, vals);
        if (a < 0) return a;
        return arith(s, '-', s.int(0), a);
      }
      case 'fn':
        return this.callFunction(t, vals);
      case 'index': {
        const list = this.build(t.t, vals);
        if (list < 0) return list;
        const i = this.build(t.i, vals);
        if (i < 0) return i;
        if (s.kind(i) === Kind.Hole) return WAIT;
        if (s.kind(i) !== Kind.Int) return s.kind(i) === Kind.Atom || s.kind(i) === Kind.Dim ? WAIT : FAIL;
        let k = s.intValue(i);
        if (k < 0) {
          const items = this.items(list);
          if (items === WAIT || items === FAIL) return items;
          k += items.length;
          return k >= 0 ? items[k]! : FAIL;
        }
        let cell = list;
        for (; k > 0 && s.kind(cell) === Kind.Cons; k--) cell = s.tail(cell);
        if (s.kind(cell) === Kind.Cons) return s.head(cell);
        return s.kind(cell) === Kind.Hole ? WAIT : FAIL;
      }
      case 'slice': {
        const list = this.build(t.t, vals);
        if (list < 0) return list;
        const items = this.items(list);
        if (items === WAIT || items === FAIL) return items;
        const n = items.length;
        const bound = (x: Tmpl | null, dflt: number): number => {
          if (x === null) return dflt;
          const b = this.build(x, vals);
          if (b < 0) return b;
          if (s.kind(b) !== Kind.Int) return s.kind(b) === Kind.Hole || s.kind(b) === Kind.Atom || s.kind(b) === Kind.Dim ? WAIT : FAIL;
          let v = s.intValue(b);
          if (v < 0) v += n;
          return Math.min(Math.max(v, 0), n);
        };
        // Python semantics: negative indices count from the end, bounds are clamped
        const from = bound(t.from, 0);
        if (from < 0 && (from === WAIT || from === FAIL)) return from;
        const to = bound(t.to, n);
        if (to < 0 && (to === WAIT || to === FAIL)) return to;
        return s.list(from < to ? items.slice(from, to) : []);
      }
    }
  }

  /** Items of a proper list; WAIT if it ends in a hole; FAIL if it is not a list. */
  items(list: TermId): TermId[] | typeof WAIT | typeof FAIL {
    const s = this.store;
    const out: TermId[] = [];
    let t = list;
    while (s.kind(t) === Kind.Cons) {
      out.push(s.head(t));
      t = s.tail(t);
    }
    if (t === s.nil) return out;
    return s.kind(t) === Kind.Hole ? WAIT : FAIL;
  }

  private callFunction(t: Extract<Tmpl, { k: 'fn' }>, vals: Int32Array): TermId {
    const s = this.store;
    const args: TermId[] = [];
    for (const a of t.args) {
      const x = this.build(a, vals);
      if (x < 0) return x;
      args.push(x);
    }
    switch (t.name) {
      case 'min':
      case 'max':
        return arith(s, t.name, args[0]!, args[1]!);
      case 'len': {
        const items = this.items(args[0]!);
        return typeof items === 'number' ? items : s.int(items.length);
      }
      case 'prod':
      case 'sum': {
        const items = this.items(args[0]!);
        if (typeof items === 'number') return items;
        let acc = s.int(t.name === 'prod' ? 1 : 0);
        for (const x of items) {
          acc = arith(s, t.name === 'prod' ? '*' : '+', acc, x);
          if (acc < 0) return acc;
        }
        return acc;
      }
      case 'reverse': {
        const items = this.items(args[0]!);
        return typeof items === 'number' ? items : s.list(items.reverse());
      }
      case 'append': {
        const items = this.items(args[0]!);
        if (typeof items === 'number') return items;
        const second = args[1]!;
        if (s.kind(second) !== Kind.Cons && second !== s.nil && s.kind(second) !== Kind.Hole) return FAIL;
        return s.list(items, second);
      }
    }
  }

  /** One-way match: binds `bind` variables, compares `check` ones; a pattern never binds a hole. */
  match(p: Pat, term: TermId, vals: Int32Array): boolean {
    const s = this.store;
    switch (p.k) {
      case 'const':
        return p.id === term;
      case 'bind':
        vals[p.v] = term;
        return true;
      case 'check':
        return vals[p.v] === term;
      case 'any':
        return true;
      case 'cons':
        if (s.kind(term) !== Kind.Cons) return false;
        return this.match(p.head, s.head(term), vals) && this.match(p.tail, s.tail(term), vals);
      case 'struct': {
        if (s.kind(term) !== Kind.Compound || s.functorSym(term) !== p.sym || s.arity(term) !== p.args.length) return false;
        for (let i = 0; i < p.args.length; i++) if (!this.match(p.args[i]!, s.arg(term, i), vals)) return false;
        return true;
      }
      case 'value': {
        const v = this.build(p.t, vals);
        return v === term;
      }
    }
  }
}
