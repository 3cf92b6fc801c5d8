// Walking the terms of the surface syntax.
import type { AstTerm, Literal, Statement } from './ast.js';

/** Every subterm of t, t first. */
export function walkTerm(t: AstTerm, visit: (t: AstTerm) => void): void {
  const stack: AstTerm[] = [t];
  while (stack.length > 0) {
    const x = stack.pop()!;
    visit(x);
    switch (x.kind) {
      case 'compound':
        for (let i = x.args.length - 1; i >= 0; i--) stack.push(x.args[i]!);
        break;
      case 'list':
        if (x.tail) stack.push(x.tail);
        for (let i = x.items.length - 1; i >= 0; i--) stack.push(x.items[i]!);
        break;
      case 'binop':
        stack.push(x.right, x.left);
        break;
      case 'neg':
        stack.push(x.arg);
        break;
      case 'index':
        stack.push(x.index, x.target);
        break;
      case 'slice':
        if (x.to) stack.push(x.to);
        if (x.from) stack.push(x.from);
        stack.push(x.target);
        break;
      default:
        break;
    }
  }
}

/** The top-level terms of a literal (arguments and named attribute values, or both sides). */
export function literalTerms(l: Literal): AstTerm[] {
  if (l.kind === 'call') return [...l.args, ...l.named.map((n) => n.value)];
  if (l.kind === 'not') return [...l.call.args, ...l.call.named.map((n) => n.value)];
  return [l.left, l.right];
}

/** The top-level terms of a clause, head first, in source order. */
export function clauseTerms(s: Extract<Statement, { kind: 'clause' }>): AstTerm[] {
  const head = s.head.kind === 'call' ? [...s.head.args, ...s.head.named.map((n) => n.value)] : [s.head.left, s.head.right];
  return [...head, ...s.body.flatMap(literalTerms)];
}
