// The schema of the operator catalogue: what an entry says about an operator
// (`OpInfo`, read from the `operator` declarations of the rule files by
// relations/declarations.ts), attribute types and formats (`AttrSpec`), and the span
// given to default values.
import type { AttrValue } from './attr-value.js';
import type { Span } from '../diagnostics/span.js';
import type { AttrJs } from './imperative/solve-one.js';

// ─── Attribute types ─────────────────────────────────────────────────────────

/**
 * - `int`, `float` (an int is accepted too), `bool`, `string`;
 * - `int?`: an int or None; `float?`: a number or None;
 * - `ints`: a list of ints; `ints?`: a list of ints or None;
 * - `ints|int`: an int or a list of ints (padding-like; TVM's Python API expands
 *   the int); `ints|int?`: the same, or None;
 * - `pairs`: a list of [int, int] pairs (`nn.pad`'s pad_width); relations see it
 *   flattened to [a0, b0, a1, b1, ...] (a flat list is accepted as well);
 * - `dims`: a list of sizes, each an int or a symbolic size (TVM's
 *   `Array<IndexExpr>`: `size=[th, tw]`); a string item (`"th"`, as JSON writes a
 *   size variable) is read as a symbolic size, and relations see kind `dim`.
 */
export type AttrType = 'int' | 'float' | 'float?' | 'bool' | 'string' | 'int?' | 'ints' | 'ints?' | 'ints|int' | 'ints|int?' | 'pairs' | 'floats' | 'dims';

/** What a string attribute must look like. */
export type StringFormat =
  /** A dtype name such as `float32`. */
  | 'dtype'
  /** A dtype name, or `""` for "same as the input". */
  | 'dtype-or-empty'
  /** A layout such as `NCHW`, `NHWC`, `NCHW16c`. */
  | 'layout'
  /** A layout, or `""` for "same as the input layout". */
  | 'layout-or-empty';

export interface AttrSpec {
  readonly name: string;
  readonly type: AttrType;
  /** The Python default; `'required'` when the Python signature has none. */
  readonly default: AttrValue | 'required';
  /** Allowed lengths of a list value (a single int, where allowed, is always fine). */
  readonly lengths?: readonly number[];
  /** Lower bound for every int in the value. */
  readonly min?: number;
  /** Upper bound for every int in the value (where a large value would make a huge type). */
  readonly max?: number;
  /** Allowed values of a string attribute. */
  readonly choices?: readonly string[];
  readonly format?: StringFormat;
  readonly doc: string;
}

/** `tensor`: one tensor; `tuple`: a tuple of `size` tensors; `depends`: a tuple whose size depends on an attribute. */
export type ResultArity =
  | { readonly kind: 'tensor' }
  | { readonly kind: 'tuple'; readonly size: number }
  | { readonly kind: 'depends'; readonly attr: string; readonly rule: string };

export interface OpInfo {
  /** Relay name: `nn.conv2d`, `add`. */
  readonly name: string;
  /** The relation that types it: `Conv2D`, `Broadcast`. Several ops may share one. */
  readonly relation: string;
  /** Argument names in TVM's order. */
  readonly args: readonly string[];
  /**
   * How many leading arguments a call must give (the rest, declared `name?`, may be
   * left out: the relation then sees an unknown type for each); absent = all of them.
   */
  readonly requiredArgs?: number;
  readonly attrs: readonly AttrSpec[];
  readonly result: ResultArity;
  /** One line: what the operator computes. */
  readonly doc: string;
  /** The output shape in words (for docs/relations.md), e.g. `out[i] = floor((in[i] + pad - dilated kernel) / stride) + 1`. */
  readonly formula?: string;
  /** What the relation infers backwards (argument types from others and from attributes); absent = nothing. */
  readonly backwards?: string;
  /** Every deliberate deviation from TVM's relation, one sentence each. */
  readonly deviations?: readonly string[];
  /** A typical call (used by the docs, `bench:relations` and the reference executor's smoke test). */
  readonly example?: OpExample;
  /** Where the operator is declared (its name in the `operator` statement). */
  readonly span?: Span;
  /** Where its example is written. */
  readonly exampleSpan?: Span;
}

/** A call of the operator: attributes as plain values, argument types as Relay text (`_` = unknown). */
export interface OpExample {
  readonly attrs?: Readonly<Record<string, AttrJs>>;
  readonly args: readonly string[];
}

// ─── Default values ──────────────────────────────────────────────────────────

/** The span given to attribute values filled in from defaults. */
export const DEFAULT_SPAN: Span = Object.freeze({
  file: '<default>',
  start: Object.freeze({ offset: 0, line: 1, column: 1 }),
  end: Object.freeze({ offset: 0, line: 1, column: 1 }),
});
