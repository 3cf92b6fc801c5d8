// Terms as text (rule-language syntax) and as JSON (the CLI's --json answers).
import { dimToString } from './dims.js';
import { Kind, type TermId, type TermStore } from './term-store.js';

export type JsonValue = number | string | boolean | null | JsonValue[] | { [key: string]: JsonValue };

const PLAIN_ATOM = /^[a-z][A-Za-z0-9_]*$/;

export function atomText(name: string): string {
  return PLAIN_ATOM.test(name) || name === '[]' ? name : `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function stringText(value: string): string {
  return JSON.stringify(value);
}

/** A term in rule syntax: `tensor([2, 3, n], float32)`, `?4`, `2*n + 1`. Display-only names may be given for functors. */
const FUNCTOR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A functor or predicate name: any identifier may stand before `(`. */
export function functorText(name: string): string {
  return FUNCTOR_NAME.test(name) ? name : atomText(name);
}

export function termText(store: TermStore, id: TermId, functorName: (sym: number) => string = (s) => store.symbolName(s)): string {
  switch (store.kind(id)) {
    case Kind.Int:
      return String(store.intValue(id));
    case Kind.Float: {
      const v = store.floatValue(id);
      return Number.isInteger(v) ? v.toFixed(1) : String(v);
    }
    case Kind.Atom:
      return atomText(store.text(id));
    case Kind.Str:
      return stringText(store.text(id));
    case Kind.Hole:
      return `?${store.holeNumber(id)}`;
    case Kind.Dim:
      return dimToString(store.dimOf(id));
    case Kind.Cons: {
      const parts: string[] = [];
      let t = id;
      while (store.kind(t) === Kind.Cons) {
        parts.push(termText(store, store.head(t), functorName));
        t = store.tail(t);
      }
      return t === store.nil ? `[${parts.join(', ')}]` : `[${parts.join(', ')} | ${termText(store, t, functorName)}]`;
    }
    case Kind.Compound: {
      const name = functorText(functorName(store.functorSym(id)));
      const n = store.arity(id);
      if (n === 0) return `${name}()`;
      const parts: string[] = [];
      for (let i = 0; i < n; i++) parts.push(termText(store, store.arg(id, i), functorName));
      return `${name}(${parts.join(', ')})`;
    }
  }
}

/** A fact `pred(args)` printed with its predicate's display name. */
export function factText(store: TermStore, fact: TermId, predName: string): string {
  const n = store.arity(fact);
  if (n === 0) return predName;
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(termText(store, store.arg(fact, i)));
  return `${functorText(predName)}(${parts.join(', ')})`;
}

export function termJson(store: TermStore, id: TermId): JsonValue {
  switch (store.kind(id)) {
    case Kind.Int:
    case Kind.Float:
      return store.intValue(id);
    case Kind.Atom:
      return id === store.nil ? [] : store.text(id);
    case Kind.Str:
      return store.text(id);
    case Kind.Hole:
      return `?${store.holeNumber(id)}`;
    case Kind.Dim:
      return dimToString(store.dimOf(id));
    case Kind.Cons: {
      const items = store.listItems(id);
      if (items !== null) return items.map((x) => termJson(store, x));
      // a partial list: [a | ?3]
      return { functor: '[|]', args: [termJson(store, store.head(id)), termJson(store, store.tail(id))] };
    }
    case Kind.Compound: {
      const args: JsonValue[] = [];
      for (let i = 0; i < store.arity(id); i++) args.push(termJson(store, store.arg(id, i)));
      return { functor: store.functor(id), args };
    }
  }
}
