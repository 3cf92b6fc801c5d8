// Surface syntax of the rule language, as produced by grammar/rules.peggy.
// Every node carries the span it was parsed from, so static checks and run-time
// diagnostics can point at the user's text.

export type { Position, Span } from '../../diagnostics/span.js';
import type { Span } from '../../diagnostics/span.js';

/** Binary arithmetic operators; `/` and `%` are floor division and floor modulo. */
export type ArithOp = '+' | '-' | '*' | '/' | '%';
export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** A term or an expression as written. Which compounds are expressions is decided by the compiler. */
export type AstTerm =
  | { readonly kind: 'var'; readonly name: string; readonly span: Span } // `X`, `_Foo`, `_` (each `_` is fresh)
  | { readonly kind: 'int'; readonly value: number; readonly span: Span } // exact: |value| <= 2^53 - 1
  | { readonly kind: 'float'; readonly value: number; readonly span: Span }
  | { readonly kind: 'atom'; readonly name: string; readonly span: Span } // `float32`, `'quoted atom'`
  | { readonly kind: 'string'; readonly value: string; readonly span: Span } // `"text"`
  | { readonly kind: 'hole'; readonly name: string; readonly span: Span } // `?1`, `?w`
  | { readonly kind: 'compound'; readonly functor: string; readonly args: readonly AstTerm[]; readonly span: Span }
  | { readonly kind: 'list'; readonly items: readonly AstTerm[]; readonly tail: AstTerm | null; readonly span: Span }
  | { readonly kind: 'binop'; readonly op: ArithOp; readonly left: AstTerm; readonly right: AstTerm; readonly span: Span }
  | { readonly kind: 'neg'; readonly arg: AstTerm; readonly span: Span }
  | { readonly kind: 'index'; readonly target: AstTerm; readonly index: AstTerm; readonly span: Span } // `S[i]`
  | { readonly kind: 'slice'; readonly target: AstTerm; readonly from: AstTerm | null; readonly to: AstTerm | null; readonly span: Span }; // `S[a:b]`, `S[1:]`, `S[:2]`

/** `name: value` inside a call, after `;`: `Conv2D(D, W, Out; strides: [2, 2])`. */
export interface NamedArg {
  readonly name: string;
  readonly value: AstTerm;
  readonly span: Span;
}

/** `p(a, b)`, `p` (arity 0), or `p(a; attr: v)`. Built-in tests (`ground`, `hole`, `integer`) and `error(...)` are calls too. */
export interface Call {
  readonly kind: 'call';
  readonly pred: string;
  readonly args: readonly AstTerm[];
  readonly named: readonly NamedArg[];
  readonly span: Span;
}

export type Literal =
  | Call
  | { readonly kind: 'not'; readonly call: Call; readonly span: Span }
  | { readonly kind: 'compare'; readonly op: CompareOp; readonly left: AstTerm; readonly right: AstTerm; readonly span: Span }
  | { readonly kind: 'unify'; readonly left: AstTerm; readonly right: AstTerm; readonly span: Span } // `X = E`
  | { readonly kind: 'differ'; readonly left: AstTerm; readonly right: AstTerm; readonly span: Span }; // `X \= Y`

/** A clause head: a relational call, a unification `X = Y`, or `error("...")` (a call with pred `error`). */
export type Head = Call | { readonly kind: 'unify'; readonly left: AstTerm; readonly right: AstTerm; readonly span: Span };

/** Attribute types: `int`, `float`, `bool`, `string`, `atom`, `term`, `[T]` (list of T), `T?` (T or `none`). */
export type AttrType =
  | { readonly kind: 'named'; readonly name: string; readonly span: Span }
  | { readonly kind: 'list'; readonly element: AttrType; readonly span: Span }
  | { readonly kind: 'optional'; readonly inner: AttrType; readonly span: Span };

export interface AttrDecl {
  readonly name: string;
  readonly type: AttrType;
  readonly default: AstTerm | null;
  readonly span: Span;
}

export type Statement =
  | { readonly kind: 'clause'; readonly head: Head; readonly body: readonly Literal[]; readonly span: Span } // a fact when body is empty
  | {
      readonly kind: 'relation';
      readonly name: string;
      readonly params: readonly { readonly name: string; readonly span: Span }[];
      readonly attrs: readonly AttrDecl[];
      readonly span: Span;
    }
  | { readonly kind: 'import'; readonly path: string; readonly span: Span }
  | OperatorDecl
  | { readonly kind: 'attrgroup'; readonly name: string; readonly items: readonly AttrItem[]; readonly span: Span }
  | { readonly kind: 'text'; readonly name: string; readonly value: string; readonly span: Span };

// ─── Operator declarations (read by relations/declarations.ts; the solver ignores them) ───

/** A string, or the name of a `text NAME = "...".` declaration. */
export type DeclText =
  | { readonly kind: 'string'; readonly value: string; readonly span: Span }
  | { readonly kind: 'ref'; readonly name: string; readonly span: Span };

/** `attr strides: ints|int = [1, 1], lengths [2], min 1, "stride"`; `default` null = required. */
export interface AttrItem {
  readonly kind: 'attr';
  readonly name: string;
  readonly type: { readonly name: string; readonly span: Span };
  readonly default: AstTerm | null;
  readonly constraints: readonly AttrConstraint[];
  readonly doc: DeclText;
  readonly span: Span;
}

export type AttrConstraint =
  | { readonly kind: 'lengths' | 'choices'; readonly value: AstTerm; readonly span: Span }
  | { readonly kind: 'min'; readonly value: AstTerm; readonly span: Span }
  | { readonly kind: 'max'; readonly value: AstTerm; readonly span: Span }
  | { readonly kind: 'format'; readonly value: { readonly name: string; readonly span: Span }; readonly span: Span };

export type OperatorItem =
  | AttrItem
  | { readonly kind: 'group'; readonly name: string; readonly span: Span } // `attrs NAME`
  | { readonly kind: 'doc' | 'formula' | 'backwards' | 'deviation'; readonly text: DeclText; readonly span: Span }
  | { readonly kind: 'example'; readonly args: readonly DeclText[]; readonly attrs: readonly NamedArg[]; readonly span: Span };

export type ResultSpec =
  | { readonly kind: 'tensor'; readonly span: Span }
  | { readonly kind: 'tuple'; readonly size: number; readonly span: Span }
  | { readonly kind: 'depends'; readonly attr: string; readonly rule: DeclText; readonly span: Span };

/** `operator "nn.conv2d"(data, weight) : Conv2D -> tensor { ... }` */
export interface OperatorDecl {
  readonly kind: 'operator';
  readonly name: { readonly value: string; readonly span: Span };
  /** `optional`: written `name?`, so a call may leave it out (trailing arguments only). */
  readonly args: readonly { readonly name: string; readonly optional: boolean; readonly span: Span }[];
  readonly relation: { readonly name: string; readonly span: Span };
  readonly result: ResultSpec;
  readonly items: readonly OperatorItem[];
  readonly span: Span;
}

export interface Program {
  readonly file: string;
  readonly statements: readonly Statement[];
}
