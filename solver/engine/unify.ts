// Unification of two resolved terms into the union-find: binds holes, decomposes
// constructors, and reports clashes. Numbers are compared as numbers: `2*n` and `n*2`
// agree; `n` against `3` cannot be decided and becomes a residual condition rather
// than a silent pass or a failure. Distinct atoms clash (dtypes are atoms).
import { compare } from '../terms/arith.js';
import { Kind, type TermId, type TermStore } from '../terms/term-store.js';
import { mentionsHole, resolve, type UnionFind } from '../store/union-find.js';

export type UnifyOutcome =
  | { readonly k: 'ok'; readonly uf: UnionFind; readonly linked: TermId[]; readonly residuals: [TermId, TermId][] }
  | { readonly k: 'clash'; readonly left: TermId; readonly right: TermId; readonly reason: string };

function numberLike(store: TermStore, t: TermId): boolean {
  const k = store.kind(t);
  return k === Kind.Int || k === Kind.Dim || (k === Kind.Atom && t !== store.nil);
}

export function unify(store: TermStore, uf0: UnionFind, a: TermId, b: TermId): UnifyOutcome {
  let uf = uf0;
  const linked: TermId[] = [];
  const residuals: [TermId, TermId][] = [];
  const stack: TermId[] = [a, b];
  while (stack.length > 0) {
    const y0 = stack.pop()!;
    const x0 = stack.pop()!;
    const x = store.kind(x0) === Kind.Hole ? uf.find(store, x0) : x0;
    const y = store.kind(y0) === Kind.Hole ? uf.find(store, y0) : y0;
    if (x === y) continue;
    const kx = store.kind(x);
    const ky = store.kind(y);
    if (kx === Kind.Hole && ky === Kind.Hole) {
      // link the newer hole to the older one, so fresh holes never rename existing ones
      const [from, to] = store.holeNumber(x) > store.holeNumber(y) ? [x, y] : [y, x];
      uf = uf.link(from, to);
      linked.push(from);
      continue;
    }
    if (kx === Kind.Hole || ky === Kind.Hole) {
      const [hole, value] = kx === Kind.Hole ? [x, y] : [y, x];
      const full = resolve(store, uf, value);
      if (mentionsHole(store, full, hole)) return { k: 'clash', left: x, right: y, reason: `?${store.holeNumber(hole)} would have to contain itself` };
      uf = uf.link(hole, full);
      linked.push(hole);
      continue;
    }
    // Any (`'?'`) unifies with every dim and binds nothing
    if ((kx === Kind.Atom && store.text(x) === '?' && numberLike(store, y)) || (ky === Kind.Atom && store.text(y) === '?' && numberLike(store, x))) continue;
    if (numberLike(store, x) && numberLike(store, y) && !(kx === Kind.Atom && ky === Kind.Atom)) {
      const eq = compare(store, '==', x, y);
      if (eq === false) return { k: 'clash', left: x, right: y, reason: 'different sizes' };
      if (eq === undefined) residuals.push([x, y]);
      continue;
    }
    if (kx !== ky) return { k: 'clash', left: x, right: y, reason: 'different kinds of term' };
    if (kx === Kind.Cons) {
      stack.push(store.head(x), store.head(y), store.tail(x), store.tail(y));
      continue;
    }
    if (kx === Kind.Compound) {
      if (store.functorSym(x) !== store.functorSym(y)) return { k: 'clash', left: x, right: y, reason: `${store.functor(x)} is not ${store.functor(y)}` };
      if (store.arity(x) !== store.arity(y)) return { k: 'clash', left: x, right: y, reason: 'different numbers of arguments' };
      for (let i = 0; i < store.arity(x); i++) stack.push(store.arg(x, i), store.arg(y, i));
      continue;
    }
    return { k: 'clash', left: x, right: y, reason: 'different constants' };
  }
  return { k: 'ok', uf, linked, residuals };
}
