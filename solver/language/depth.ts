// The nesting depth of parsed terms, measured without recursion. The compiler's passes
// (lowering, static checks, printing) recurse over terms, so a term nested deeper than
// the parser's bracket limit (a flat chain `1+1+…+1`, `---…1`, `S[0:][0:]…`) is
// rejected here with a located error instead of overflowing the stack later.
import type { AstTerm, Literal, Statement } from './ast.js';
import { clauseTerms, literalTerms } from './ast-walk.js';
import { diagnostic, UserError } from '../../diagnostics/diagnostic.js';
import { GroundFact } from './ground-facts.js';

/** The subterms of t one level down (a list's tail counts as one level, like its items). */
function children(t: AstTerm): readonly AstTerm[] {
  switch (t.kind) {
    case 'compound':
      return t.args;
    case 'list':
      return t.tail ? [...t.items, t.tail] : t.items;
    case 'binop':
      return [t.left, t.right];
    case 'neg':
      return [t.arg];
    case 'index':
      return [t.target, t.index];
    case 'slice':
      return [t.target, ...(t.from ? [t.from] : []), ...(t.to ? [t.to] : [])];
    default:
      return [];
  }
}

/** The first subterm of `roots` at depth `limit + 1` (a root has depth 1), or null. */
export function tooDeep(roots: readonly AstTerm[], limit: number): AstTerm | null {
  const stack: [AstTerm, number][] = roots.map((t) => [t, 1]);
  while (stack.length > 0) {
    const [t, depth] = stack.pop()!;
    if (depth > limit) return t;
    for (const c of children(t)) stack.push([c, depth + 1]);
  }
  return null;
}

function reject(t: AstTerm, limit: number): never {
  const message = `expression nested deeper than ${limit} levels (operators, subscripts and brackets all count); split it into steps with intermediate variables`;
  throw new UserError([diagnostic('error', 'limit', message, t.span)]);
}

/** Throws a UserError at the first term of the statements nested deeper than `limit`. */
export function checkStatementDepth(statements: readonly Statement[], limit: number): void {
  for (let i = 0; i < statements.length; i++) {
    const s = statements[i]!;
    if (s instanceof GroundFact) continue; // flat: a call of plain values
    if (s.kind === 'relation') {
      const bad = tooDeep(
        s.attrs.flatMap((a) => (a.default ? [a.default] : [])),
        limit,
      );
      if (bad) reject(bad, limit);
    } else if (s.kind === 'clause') {
      const bad = tooDeep(clauseTerms(s), limit);
      if (bad) reject(bad, limit);
    }
  }
}

/** Throws a UserError at the first term of the literals nested deeper than `limit`. */
export function checkLiteralDepth(literals: readonly Literal[], limit: number): void {
  const bad = tooDeep(literals.flatMap(literalTerms), limit);
  if (bad) reject(bad, limit);
}

/** Throws a UserError when the term is nested deeper than `limit`. */
export function checkTermDepth(t: AstTerm, limit: number): void {
  const bad = tooDeep([t], limit);
  if (bad) reject(bad, limit);
}
