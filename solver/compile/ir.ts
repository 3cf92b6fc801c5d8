// The compiler's intermediate form: clauses with numbered variables, interned
// constants and recognised built-ins. Lowered from the AST by lower.ts; rewritten for
// demand by demand.ts; turned into executable join plans by plan.ts.
import type { ArithOp, CompareOp, Span } from '../language/ast.js';
import type { TermId } from '../terms/term-store.js';
import type { RuleId } from '../store/ids.js';

/** Built-in functions usable inside expressions, with their arities. */
export const FUNCTIONS: Readonly<Record<string, number>> = {
  min: 2,
  max: 2,
  len: 1,
  prod: 1,
  sum: 1,
  reverse: 1,
  append: 2,
};
export type FunctionName = 'min' | 'max' | 'len' | 'prod' | 'sum' | 'reverse' | 'append';

/** Built-in type tests usable as body literals. */
export const TESTS = new Set(['ground', 'hole', 'integer', 'atom', 'string', 'is_list']);
export type TestName = 'ground' | 'hole' | 'integer' | 'atom' | 'string' | 'is_list';

/** A term template: a pattern when matched against data, an expression when built. */
export type Tmpl =
  | { readonly k: 'const'; readonly id: TermId; readonly span?: Span }
  | { readonly k: 'var'; readonly v: number; readonly span?: Span }
  | { readonly k: 'cons'; readonly head: Tmpl; readonly tail: Tmpl; readonly span?: Span }
  | { readonly k: 'struct'; readonly sym: number; readonly args: readonly Tmpl[]; readonly span?: Span }
  | { readonly k: 'arith'; readonly op: ArithOp; readonly a: Tmpl; readonly b: Tmpl; readonly span?: Span }
  | { readonly k: 'neg'; readonly a: Tmpl; readonly span?: Span }
  | { readonly k: 'fn'; readonly name: FunctionName; readonly args: readonly Tmpl[]; readonly span?: Span }
  | { readonly k: 'index'; readonly t: Tmpl; readonly i: Tmpl; readonly span?: Span }
  | { readonly k: 'slice'; readonly t: Tmpl; readonly from: Tmpl | null; readonly to: Tmpl | null; readonly span?: Span };

export interface AtomLit {
  readonly k: 'atom';
  readonly pred: string;
  readonly args: readonly Tmpl[];
  readonly neg: boolean;
  readonly span: Span;
}

export type Lit =
  | AtomLit
  | { readonly k: 'compare'; readonly op: CompareOp; readonly a: Tmpl; readonly b: Tmpl; readonly span: Span }
  | { readonly k: 'unify'; readonly a: Tmpl; readonly b: Tmpl; readonly span: Span }
  | { readonly k: 'differ'; readonly a: Tmpl; readonly b: Tmpl; readonly span: Span }
  | { readonly k: 'test'; readonly name: TestName; readonly a: Tmpl; readonly span: Span };

export type HeadIR =
  | { readonly k: 'atom'; readonly pred: string; readonly args: readonly Tmpl[]; readonly span: Span }
  | { readonly k: 'unify'; readonly a: Tmpl; readonly b: Tmpl; readonly span: Span }
  | { readonly k: 'error'; readonly template: string; readonly vars: readonly number[]; readonly span: Span };

export interface Rule {
  /** Index into the program's rule table; provenance refers to it. */
  readonly id: RuleId;
  readonly head: HeadIR;
  /** Body literals in execution order once scheduled. */
  readonly body: readonly Lit[];
  readonly varNames: readonly string[];
  readonly span: Span;
  /** The user's rule this one was derived from (itself for user rules). */
  readonly origin: number;
  /** What the rule is, for explanations: `rule`, `demand`, `goal`, `projection` (see compile/projection.ts). */
  readonly role: 'rule' | 'demand' | 'goal' | 'projection';
}

export interface RelationDecl {
  readonly name: string;
  readonly params: readonly string[];
  readonly attrs: readonly { readonly name: string; readonly type: string; readonly default: TermId | null }[];
  readonly span: Span;
}

export function isExpression(t: Tmpl): boolean {
  switch (t.k) {
    case 'const':
    case 'var':
      return false;
    case 'cons':
      return isExpression(t.head) || isExpression(t.tail);
    case 'struct':
      return t.args.some(isExpression);
    default:
      return true;
  }
}

export function varsOf(t: Tmpl, out: Set<number> = new Set()): Set<number> {
  switch (t.k) {
    case 'const':
      break;
    case 'var':
      out.add(t.v);
      break;
    case 'cons':
      varsOf(t.head, out);
      varsOf(t.tail, out);
      break;
    case 'struct':
    case 'fn':
      for (const a of t.args) varsOf(a, out);
      break;
    case 'arith':
      varsOf(t.a, out);
      varsOf(t.b, out);
      break;
    case 'neg':
      varsOf(t.a, out);
      break;
    case 'index':
      varsOf(t.t, out);
      varsOf(t.i, out);
      break;
    case 'slice':
      varsOf(t.t, out);
      if (t.from) varsOf(t.from, out);
      if (t.to) varsOf(t.to, out);
      break;
  }
  return out;
}

export function litVars(l: Lit): Set<number> {
  const out = new Set<number>();
  if (l.k === 'atom') for (const a of l.args) varsOf(a, out);
  else if (l.k === 'test') varsOf(l.a, out);
  else {
    varsOf(l.a, out);
    varsOf(l.b, out);
  }
  return out;
}

export function headVars(h: HeadIR): Set<number> {
  const out = new Set<number>();
  if (h.k === 'atom') for (const a of h.args) varsOf(a, out);
  else if (h.k === 'unify') {
    varsOf(h.a, out);
    varsOf(h.b, out);
  } else for (const v of h.vars) out.add(v);
  return out;
}

export function allBound(t: Tmpl, bound: ReadonlySet<number>): boolean {
  for (const v of varsOf(t)) if (!bound.has(v)) return false;
  return true;
}

/** A template's span as a property to spread (templates built from source text have one; compiled ones do not: template-spans.ts). */
export function spanOf(t: Tmpl): { span?: Span } {
  return t.span === undefined ? {} : { span: t.span };
}
