// The Relay program IR: what grammar/relay.peggy produces and what type inference
// consumes. Close to TVM's Relay text format (v0.0.5), plus named symbolic dims
// (`Tensor[(n, 3), float32]`) as a shapelog extension. Every node carries its span.
import type { Span } from '../../diagnostics/span.js';
import type { Attr, AttrValue } from '../../relations/attr-value.js';

export type { Attr, AttrValue, Span };

// ---------------------------------------------------------------- types

/**
 * A dimension as written: an integer, `?` (Any: unknown, never resolved), `_` (not
 * given: to be inferred, a shapelog extension), or a symbolic expression over size variables.
 */
export type RDim =
  | { readonly kind: 'int'; readonly value: number; readonly span: Span }
  | { readonly kind: 'any'; readonly span: Span }
  | { readonly kind: 'unknown'; readonly span: Span }
  | { readonly kind: 'sym'; readonly expr: DimExpr; readonly span: Span };

/** `n`, `2*n + 1`, `(h + 2) / 2`: integers, size variables and `+ - * / %` (floor division and modulo). */
export type DimExpr =
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'var'; readonly name: string }
  | { readonly kind: 'binop'; readonly op: '+' | '-' | '*' | '/' | '%'; readonly left: DimExpr; readonly right: DimExpr };

export type TypeParamKind = 'Type' | 'Shape' | 'BaseType';

export interface TypeParam {
  readonly name: string;
  /** `def @f[A, B: Shape]`; `Type` when not written. */
  readonly kind: TypeParamKind;
  readonly span: Span;
}

export type RType =
  /** `Tensor[(1, 3, n), float32]`; a scalar is written `float32` and has shape `[]`. */
  | { readonly kind: 'tensor'; readonly shape: readonly RDim[]; readonly dtype: string; readonly span: Span }
  /** `(T1, T2)`; `()` is the unit type. */
  | { readonly kind: 'tuple'; readonly fields: readonly RType[]; readonly span: Span }
  /** `fn (T1, T2) -> T3`, or `fn [A](A) -> A` with type parameters. */
  | { readonly kind: 'func'; readonly typeParams: readonly TypeParam[]; readonly params: readonly RType[]; readonly ret: RType; readonly span: Span }
  /** A type parameter in scope (`A`). */
  | { readonly kind: 'var'; readonly name: string; readonly span: Span }
  /** An ADT applied to arguments: `List[A]`, `Option[Tensor[(3), float32]]`; `List` alone has no arguments. */
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly RType[]; readonly span: Span }
  /** `_`: a type left for inference. */
  | { readonly kind: 'incomplete'; readonly span: Span };

// ---------------------------------------------------------------- expressions

export interface Param {
  /** Without the `%`. */
  readonly name: string;
  readonly type: RType | null;
  readonly span: Span;
}

export type Pattern =
  | { readonly kind: 'wildcard'; readonly span: Span }
  | { readonly kind: 'var'; readonly name: string; readonly type: RType | null; readonly span: Span }
  | { readonly kind: 'constructor'; readonly name: string; readonly args: readonly Pattern[]; readonly span: Span }
  | { readonly kind: 'tuple'; readonly fields: readonly Pattern[]; readonly span: Span };

export interface MatchClause {
  readonly pattern: Pattern;
  readonly body: RExpr;
  readonly span: Span;
}

export type RExpr =
  /** `%x`, `%0` (name without `%`). */
  | { readonly kind: 'local'; readonly name: string; readonly span: Span }
  /** `@f` (name without `@`). */
  | { readonly kind: 'global'; readonly name: string; readonly span: Span }
  /** A constructor of an ADT used as a value or callee: `Cons`, `Nil`. */
  | { readonly kind: 'constructor'; readonly name: string; readonly span: Span }
  /** An operator used as a callee: `nn.conv2d`, `add`. */
  | { readonly kind: 'op'; readonly name: string; readonly span: Span }
  /** Scalar constants: `1f` (float32), `2.5f16`, `3` (int32), `3i64`, `True` (bool). */
  | { readonly kind: 'constant'; readonly value: number | boolean; readonly dtype: string; readonly span: Span }
  /** `callee(args, attr=value, ...)`: attributes only for operator calls. */
  | { readonly kind: 'call'; readonly callee: RExpr; readonly args: readonly RExpr[]; readonly attrs: readonly Attr[]; readonly span: Span }
  | { readonly kind: 'tuple'; readonly fields: readonly RExpr[]; readonly span: Span }
  /** `%t.0` */
  | { readonly kind: 'proj'; readonly tuple: RExpr; readonly index: number; readonly span: Span }
  /**
   * `let %x: T = value; body`, and also a graph binding `%0 = value; body` (style
   * 'binding'), so that printing gives back the form that was read.
   */
  | {
      readonly kind: 'let';
      readonly name: string;
      readonly type: RType | null;
      readonly value: RExpr;
      readonly body: RExpr;
      readonly style: 'let' | 'binding';
      readonly span: Span;
    }
  | { readonly kind: 'if'; readonly cond: RExpr; readonly then: RExpr; readonly else: RExpr; readonly span: Span }
  /** `fn [A](%x: A) -> A { body }` */
  | {
      readonly kind: 'fn';
      readonly typeParams: readonly TypeParam[];
      readonly params: readonly Param[];
      readonly ret: RType | null;
      readonly body: RExpr;
      readonly span: Span;
    }
  | { readonly kind: 'match'; readonly scrutinee: RExpr; readonly clauses: readonly MatchClause[]; readonly complete: boolean; readonly span: Span };

// ---------------------------------------------------------------- module

export interface Constructor {
  readonly name: string;
  readonly fields: readonly RType[];
  readonly span: Span;
}

/** `type List[A] { Cons(A, List[A]), Nil }` */
export interface TypeDef {
  readonly name: string;
  readonly params: readonly TypeParam[];
  readonly constructors: readonly Constructor[];
  readonly span: Span;
}

/** `def @main[A](%x: Tensor[(1, 3), float32], %y) -> Tensor[(1, 3), float32] { body }` */
export interface FunctionDef {
  readonly name: string;
  readonly typeParams: readonly TypeParam[];
  readonly params: readonly Param[];
  readonly ret: RType | null;
  readonly body: RExpr;
  readonly span: Span;
}

export interface Module {
  readonly file: string;
  /** From `#[version = "0.0.5"]`, if present. */
  readonly version: string | null;
  readonly typeDefs: readonly TypeDef[];
  readonly functions: readonly FunctionDef[];
}
