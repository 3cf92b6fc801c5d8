// What both typings of the iterator IR (rules and the imperative twin) share before
// any type is known: which definition each symbol refers to, the order in which
// definitions are typed (every definition after those it uses, whatever their order in
// the file), recursion (rejected, located at the reference that closes the cycle),
// duplicate definitions, and the static shape of `tuple_get` and `shift` calls.
// Everything here is iterative or bounded by the parser's nesting limit.
import { diagnostic, UserError } from '../../diagnostics/diagnostic.js';
import type { Define, Expr, Span } from '../../frontends/itir/ast.js';

/** Definitions grouped in levels: each uses only definitions of earlier levels. */
export function definitionLevels(defines: readonly Define[], shadowed: ReadonlySet<string> = new Set()): Define[][] {
  const byName = new Map<string, Define>();
  for (const d of defines) {
    const first = byName.get(d.name);
    if (first)
      throw new UserError([
        diagnostic('error', 'definition', `${d.name} is defined twice`, d.nameSpan, [`first defined at line ${first.nameSpan.start.line}`]),
      ]);
    byName.set(d.name, d);
  }
  // each definition's references to other definitions, with the span of the first one
  const uses = new Map<Define, { def: Define; span: Span }[]>();
  for (const d of defines) {
    const found = new Map<string, Span>();
    freeSymbols(d.body, new Set(d.params.map((p) => p.name)), (name, span) => {
      if (byName.has(name) && !shadowed.has(name) && !found.has(name)) found.set(name, span);
    });
    uses.set(
      d,
      [...found].map(([n, span]) => ({ def: byName.get(n)!, span })),
    );
  }
  // iterative depth-first search: a reference to a definition on the stack is recursion
  const level = new Map<Define, number>();
  const onStack = new Set<Define>();
  for (const root of defines) {
    if (level.has(root)) continue;
    const stack: { def: Define; next: number }[] = [{ def: root, next: 0 }];
    onStack.add(root);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const us = uses.get(top.def)!;
      if (top.next < us.length) {
        const u = us[top.next++]!;
        if (onStack.has(u.def)) {
          const cycle = [...stack.slice(stack.findIndex((s) => s.def === u.def)).map((s) => s.def.name), u.def.name];
          const message =
            cycle.length === 2 ? `recursion is not supported: ${u.def.name} refers to itself` : `recursion is not supported: ${cycle.join(' → ')}`;
          throw new UserError([
            diagnostic('error', 'recursion', message, u.span, ['a definition may use only definitions that do not use it (the IR has no recursive types)']),
          ]);
        }
        if (!level.has(u.def)) {
          onStack.add(u.def);
          stack.push({ def: u.def, next: 0 });
        }
        continue;
      }
      level.set(
        top.def,
        us.reduce((m, u) => Math.max(m, level.get(u.def)! + 1), 0),
      );
      onStack.delete(top.def);
      stack.pop();
    }
  }
  const levels: Define[][] = [];
  for (const d of defines) (levels[level.get(d)!] ??= []).push(d);
  return levels.filter((l) => l !== undefined);
}

/** Calls `found` for every symbol of `e` not bound by `bound` or a lambda or let inside `e`. */
export function freeSymbols(e: Expr, bound: ReadonlySet<string>, found: (name: string, span: Span) => void): void {
  switch (e.k) {
    case 'sym':
      if (!bound.has(e.name)) found(e.name, e.span);
      return;
    case 'lit':
    case 'offset':
    case 'axis':
      return;
    case 'lambda': {
      const inner = new Set(bound);
      for (const p of e.params) inner.add(p.name);
      freeSymbols(e.body, inner, found);
      return;
    }
    case 'call':
      freeSymbols(e.fn, bound, found);
      for (const a of e.args) freeSymbols(a, bound, found);
      return;
    case 'let': {
      for (const b of e.bindings) freeSymbols(b.value, bound, found);
      const inner = new Set(bound);
      for (const b of e.bindings) inner.add(b.param.name);
      freeSymbols(e.body, inner, found);
      return;
    }
  }
}

/** A builtin that is typed only where it is called: `make_tuple`, `tuple_get`, `shift`. */
export const CALL_ONLY = new Set(['make_tuple', 'tuple_get', 'shift']);

/** The error for a call-only builtin used as a value. */
export function callOnlyError(name: string, span: Span): UserError {
  return new UserError([diagnostic('error', 'builtin', `${name} must be called directly, as (${name} ...)`, span)]);
}

/** The index of a `(tuple_get I TUPLE)` call, or a located error. */
export function tupleGetIndex(call: Expr & { k: 'call' }): number {
  const fail = (m: string, span: Span): never => {
    throw new UserError([diagnostic('error', 'builtin', m, span)]);
  };
  if (call.args.length !== 2) fail(`tuple_get takes 2 arguments (an index and a tuple), given ${call.args.length}`, call.span);
  const i = call.args[0]!;
  if (i.k !== 'lit' || i.type !== 'int') fail('the first argument of tuple_get must be an integer literal', i.span);
  const n = Number((i as Expr & { k: 'lit' }).text);
  if (!Number.isSafeInteger(n) || n < 0) fail('the index of tuple_get must be 0 or more', i.span);
  if (n > 10_000) fail('the index of tuple_get is too large (at most 10000)', i.span);
  return n;
}
