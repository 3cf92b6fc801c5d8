// The attribute values of an operator call, as every frontend hands them to the relation
// library: ints, floats, bools, strings, lists, None and symbolic sizes (`th`, `2*n`:
// TVM's IndexExpr attributes such as image.resize2d's size), each with the span it
// was written at (for located attribute errors).
import type { Span } from '../diagnostics/span.js';

/** An attribute value of an operator call: every kind Relay prints. */
export type AttrValue =
  | { readonly kind: 'int'; readonly value: number; readonly span: Span }
  | { readonly kind: 'float'; readonly value: number; readonly span: Span }
  | { readonly kind: 'bool'; readonly value: boolean; readonly span: Span }
  | { readonly kind: 'string'; readonly value: string; readonly span: Span }
  | { readonly kind: 'list'; readonly items: readonly AttrValue[]; readonly span: Span }
  | { readonly kind: 'none'; readonly span: Span }
  /** A symbolic size as written (`th`, `2*n + 1`); relations/imperative/type-text.ts parses it (`parseDimText`). */
  | { readonly kind: 'dim'; readonly text: string; readonly span: Span };

export interface Attr {
  readonly name: string;
  readonly value: AttrValue;
  readonly span: Span;
}
