// The functional iterator IR of GT4Py (2022), as read from its s-expression text format:
// expressions (symbols, literals, lambdas, calls, lets), function definitions, stencil
// closures and fencils. Every node keeps the span of its text, so type errors can point
// at the expression that causes them. Nodes are plain immutable records.
import type { Span } from '../../diagnostics/span.js';

export type { Span };

export type Expr = SymRef | Literal | OffsetLit | AxisLit | Lambda | Call | Let;

/** `x`: a reference to a parameter, a let binding, a definition, a builtin, or a free symbol. */
export interface SymRef {
  readonly k: 'sym';
  readonly name: string;
  readonly span: Span;
}
/** `1`, `1.0`, `true`, `false`. */
export interface Literal {
  readonly k: 'lit';
  readonly type: 'int' | 'float' | 'bool';
  readonly text: string;
  readonly span: Span;
}
/** `'V2E`: an offset (connectivity or axis offset) given to `shift`. */
export interface OffsetLit {
  readonly k: 'offset';
  readonly name: string;
  readonly span: Span;
}
/** `@IDim`: an axis, given to `named_range`. */
export interface AxisLit {
  readonly k: 'axis';
  readonly name: string;
  readonly span: Span;
}
export interface Param {
  readonly name: string;
  readonly span: Span;
}
/** `(lambda (x y) BODY)`. */
export interface Lambda {
  readonly k: 'lambda';
  readonly params: readonly Param[];
  readonly body: Expr;
  readonly span: Span;
}
/** `(F A B)`: the callee may be any expression. */
export interface Call {
  readonly k: 'call';
  readonly fn: Expr;
  readonly args: readonly Expr[];
  readonly span: Span;
}
/** `(let ((x E) ...) BODY)`: `((lambda (x ...) BODY) E ...)`, as the IR's pretty printer writes it. */
export interface Let {
  readonly k: 'let';
  readonly bindings: readonly { readonly param: Param; readonly value: Expr }[];
  readonly body: Expr;
  readonly span: Span;
}

/** `(define (f x y) BODY)`. */
export interface Define {
  readonly k: 'define';
  readonly name: string;
  readonly nameSpan: Span;
  readonly params: readonly Param[];
  readonly body: Expr;
  readonly span: Span;
}
/** `(closure DOMAIN STENCIL OUTPUT (INPUT ...))`. */
export interface Closure {
  readonly k: 'closure';
  readonly domain: Expr;
  readonly stencil: Expr;
  readonly output: Expr;
  readonly inputs: readonly Expr[];
  readonly span: Span;
}
/** `(fencil NAME (PARAM ...) DEFINE-OR-CLOSURE ...)`. */
export interface Fencil {
  readonly k: 'fencil';
  readonly name: string;
  readonly params: readonly Param[];
  readonly defines: readonly Define[];
  readonly closures: readonly Closure[];
  readonly span: Span;
}

export type TopLevel = Define | Closure | Fencil | Expr;

/** A file: definitions and closures, one fencil, or one bare expression. */
export interface Program {
  readonly items: readonly TopLevel[];
}

/** The builtins of that IR version; `make_tuple`, `tuple_get` and `shift` are typed at their call. */
export const BUILTINS = [
  'deref',
  'can_deref',
  'shift',
  'lift',
  'reduce',
  'scan',
  'if_',
  'not_',
  'and_',
  'or_',
  'plus',
  'minus',
  'multiplies',
  'divides',
  'eq',
  'less',
  'greater',
  'make_tuple',
  'tuple_get',
  'domain',
  'named_range',
] as const;
export type Builtin = (typeof BUILTINS)[number];
export const isBuiltin = (name: string): name is Builtin => (BUILTINS as readonly string[]).includes(name);
