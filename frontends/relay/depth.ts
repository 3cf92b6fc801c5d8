// The nesting depth of a parsed Relay module, measured without recursion. Type
// inference and printing recurse over expressions and types, so a module nested deeper
// than the parser's bracket limit (a projection chain `%0.0.0…`, a dim `n+n+…+n`, a
// long `fn () -> fn () -> …`) is rejected here with a located error instead of
// overflowing the stack later. A sequence of bindings (`%0 = …; %1 = …;`) does not
// nest: a `let`'s body stays at the `let`'s own depth.
import type { DimExpr, Module, Pattern, RDim, RExpr, RType, Span } from './ast.js';
import { diagnostic, UserError } from '../../diagnostics/diagnostic.js';

type Node =
  | { readonly tag: 'expr'; readonly node: RExpr }
  | { readonly tag: 'type'; readonly node: RType }
  | { readonly tag: 'dim'; readonly node: RDim }
  | { readonly tag: 'dimexpr'; readonly node: DimExpr }
  | { readonly tag: 'pattern'; readonly node: Pattern };

const ex = (node: RExpr): Node => ({ tag: 'expr', node });
const ty = (node: RType | null): Node[] => (node ? [{ tag: 'type', node }] : []);
const pat = (node: Pattern): Node => ({ tag: 'pattern', node });

/** The nodes one level below `n`, and those at its own level (a let's body). */
function children(n: Node): { readonly deeper: readonly Node[]; readonly same: readonly Node[] } {
  const none: readonly Node[] = [];
  switch (n.tag) {
    case 'expr': {
      const e = n.node;
      switch (e.kind) {
        case 'call':
          return { deeper: [ex(e.callee), ...e.args.map(ex)], same: none };
        case 'tuple':
          return { deeper: e.fields.map(ex), same: none };
        case 'proj':
          return { deeper: [ex(e.tuple)], same: none };
        case 'let':
          return { deeper: [ex(e.value), ...ty(e.type)], same: [ex(e.body)] };
        case 'if':
          return { deeper: [ex(e.cond), ex(e.then), ex(e.else)], same: none };
        case 'fn':
          return { deeper: [ex(e.body), ...ty(e.ret), ...e.params.flatMap((p) => ty(p.type))], same: none };
        case 'match':
          return { deeper: [ex(e.scrutinee), ...e.clauses.flatMap((c) => [pat(c.pattern), ex(c.body)])], same: none };
        default:
          return { deeper: none, same: none };
      }
    }
    case 'type': {
      const t = n.node;
      switch (t.kind) {
        case 'tensor':
          return { deeper: t.shape.map((d): Node => ({ tag: 'dim', node: d })), same: none };
        case 'tuple':
          return { deeper: t.fields.flatMap(ty), same: none };
        case 'func':
          return { deeper: [...t.params.flatMap(ty), ...ty(t.ret)], same: none };
        case 'call':
          return { deeper: t.args.flatMap(ty), same: none };
        default:
          return { deeper: none, same: none };
      }
    }
    case 'dim':
      return { deeper: n.node.kind === 'sym' ? [{ tag: 'dimexpr', node: n.node.expr }] : none, same: none };
    case 'dimexpr': {
      const d = n.node;
      return {
        deeper:
          d.kind === 'binop'
            ? [
                { tag: 'dimexpr', node: d.left },
                { tag: 'dimexpr', node: d.right },
              ]
            : none,
        same: none,
      };
    }
    case 'pattern': {
      const p = n.node;
      switch (p.kind) {
        case 'var':
          return { deeper: ty(p.type), same: none };
        case 'constructor':
          return { deeper: p.args.map(pat), same: none };
        case 'tuple':
          return { deeper: p.fields.map(pat), same: none };
        default:
          return { deeper: none, same: none };
      }
    }
  }
}

/** Throws a UserError at the first node of the module nested deeper than `limit`. */
export function checkModuleDepth(module: Module, limit: number): void {
  const roots: [Node, number, Span][] = [];
  for (const f of module.functions) {
    roots.push([ex(f.body), 1, f.span]);
    for (const n of [...ty(f.ret), ...f.params.flatMap((p) => ty(p.type))]) roots.push([n, 1, f.span]);
  }
  for (const d of module.typeDefs) for (const c of d.constructors) for (const n of c.fields.flatMap(ty)) roots.push([n, 1, c.span]);
  checkNodes(roots, limit);
}

/** Throws a UserError when the type is nested deeper than `limit`. */
export function checkTypeDepth(t: RType, limit: number): void {
  checkNodes([[{ tag: 'type', node: t }, 1, t.span]], limit);
}

function checkNodes(stack: [Node, number, Span][], limit: number): void {
  while (stack.length > 0) {
    const [n, depth, outer] = stack.pop()!;
    // a dim expression has no span of its own: it is reported at its dimension's
    const span = 'span' in n.node ? n.node.span : outer;
    if (depth > limit) {
      const message = `expression nested deeper than ${limit} levels (calls, projections, tuples and dim arithmetic all count)`;
      throw new UserError([
        diagnostic('error', 'limit', message, span, ['a long computation can be written flat, as a sequence of bindings `%0 = ...; %1 = ...;`']),
      ]);
    }
    const { deeper, same } = children(n);
    for (const c of same) stack.push([c, depth, span]);
    for (const c of deeper) stack.push([c, depth + 1, span]);
  }
}
