// The constraint language between a Relay program and a solving strategy: types with
// numbered variables, unification constraints, and operator relation instances. Both
// strategies (the rule engine and Relay's imperative queue) solve the same constraints,
// each with its own representation of types and holes.
import type { AttrValue, Span } from '../frontends/relay/ast.js';
import type { Dim } from '../solver/terms/dims.js';

export type TVar = number;

export type CDim =
  | { readonly k: 'int'; readonly value: number }
  | { readonly k: 'any' }
  /** A non-constant canonical symbolic dim. */
  | { readonly k: 'sym'; readonly dim: Dim }
  | { readonly k: 'var'; readonly v: TVar };

export type CDType = { readonly k: 'dtype'; readonly name: string } | { readonly k: 'var'; readonly v: TVar };

export type CType =
  | { readonly k: 'var'; readonly v: TVar }
  | { readonly k: 'tensor'; readonly shape: readonly CDim[]; readonly dtype: CDType }
  | { readonly k: 'tuple'; readonly fields: readonly CType[] }
  | { readonly k: 'func'; readonly params: readonly CType[]; readonly ret: CType }
  | { readonly k: 'adt'; readonly name: string; readonly args: readonly CType[] }
  /** A type parameter inside the body of a polymorphic function: equal only to itself. */
  | { readonly k: 'rigid'; readonly name: string };

export type Constraint =
  | { readonly k: 'unify'; readonly a: CType; readonly b: CType; readonly span: Span; readonly reason: string }
  | {
      readonly k: 'op';
      /** Index of this call among the program's operator calls. */
      readonly site: number;
      readonly op: string;
      readonly args: readonly CType[];
      readonly out: CType;
      readonly attrs: ReadonlyMap<string, AttrValue>;
      readonly span: Span;
    }
  /** `%t.i` when the tuple's type is not known yet. */
  | { readonly k: 'proj'; readonly tuple: CType; readonly index: number; readonly out: CType; readonly span: Span };

export function tensorOf(shape: readonly CDim[], dtype: string): CType {
  return { k: 'tensor', shape, dtype: { k: 'dtype', name: dtype } };
}
