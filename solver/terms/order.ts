// A total standard order on terms, for sorted, reproducible output:
// numbers < symbolic dims < holes < atoms < strings < lists < compounds.
import { dimToString } from './dims.js';
import { Kind, type TermId, type TermStore } from './term-store.js';

function rank(k: Kind): number {
  switch (k) {
    case Kind.Int:
    case Kind.Float:
      return 0;
    case Kind.Dim:
      return 1;
    case Kind.Hole:
      return 2;
    case Kind.Atom:
      return 3;
    case Kind.Str:
      return 4;
    case Kind.Cons:
      return 5;
    case Kind.Compound:
      return 6;
  }
}

export function compareTerms(store: TermStore, a: TermId, b: TermId): number {
  if (a === b) return 0;
  const ka = store.kind(a);
  const kb = store.kind(b);
  // the empty list sorts with lists
  const ra = a === store.nil ? 5 : rank(ka);
  const rb = b === store.nil ? 5 : rank(kb);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 0:
      return store.intValue(a) - store.intValue(b) || ka - kb;
    case 1:
      return cmpStr(dimToString(store.dimOf(a)), dimToString(store.dimOf(b)));
    case 2:
      return store.holeNumber(a) - store.holeNumber(b);
    case 3:
    case 4:
      return cmpStr(store.text(a), store.text(b));
    case 5: {
      let x = a;
      let y = b;
      for (;;) {
        if (x === store.nil || y === store.nil) return x === y ? 0 : x === store.nil ? -1 : 1;
        if (store.kind(x) !== Kind.Cons || store.kind(y) !== Kind.Cons) return compareTerms(store, x, y);
        const c = compareTerms(store, store.head(x), store.head(y));
        if (c !== 0) return c;
        x = store.tail(x);
        y = store.tail(y);
      }
    }
    default: {
      const na = store.arity(a);
      const nb = store.arity(b);
      if (na !== nb) return na - nb;
      const c = cmpStr(store.functor(a), store.functor(b));
      if (c !== 0) return c;
      for (let i = 0; i < na; i++) {
        const d = compareTerms(store, store.arg(a, i), store.arg(b, i));
        if (d !== 0) return d;
      }
      return 0;
    }
  }
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
