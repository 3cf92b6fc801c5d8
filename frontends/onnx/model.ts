// An ONNX model as shapelog reads it: the graph's values, nodes and initializers with
// their types, independent of protobuf. A dim is an int (dim_value), a name (dim_param)
// or null (unknown); a shape is null when the rank is unknown. Small integer tensors
// keep their values (they drive shapes); big or external ones keep only dtype and dims.

export type OnnxDim = number | string | null;

export type OnnxType =
  | { readonly kind: 'tensor'; readonly dtype: string | null; readonly shape: readonly OnnxDim[] | null }
  | { readonly kind: 'sequence'; readonly elem: OnnxType | null }
  | { readonly kind: 'optional'; readonly elem: OnnxType | null }
  | { readonly kind: 'map'; readonly key: string; readonly value: OnnxType | null };

export interface OnnxTensor {
  readonly name: string;
  readonly dtype: string;
  readonly dims: readonly number[];
  /** Row-major values of an integer or bool tensor of at most MAX_KEPT_VALUES elements; else null. */
  readonly values: readonly number[] | null;
  /** Row-major values of a small float tensor as exact fractions [numerator, denominator] (frontends/onnx/fractions.ts); else absent. */
  readonly fractions?: readonly (readonly [number, number])[];
  /** The data lives in another file (only dtype and dims are known). */
  readonly external: boolean;
}

export type OnnxAttr =
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'ints'; readonly value: readonly number[] }
  | { readonly kind: 'floats'; readonly value: readonly number[] }
  | { readonly kind: 'strings'; readonly value: readonly string[] }
  | { readonly kind: 'tensor'; readonly value: OnnxTensor }
  | { readonly kind: 'tensors'; readonly value: readonly OnnxTensor[] }
  | { readonly kind: 'graph'; readonly value: OnnxGraph }
  | { readonly kind: 'graphs'; readonly value: readonly OnnxGraph[] }
  | { readonly kind: 'type'; readonly value: OnnxType | null }
  /** Inside a function body: the value of the calling node's attribute of this name. */
  | { readonly kind: 'ref'; readonly name: string }
  | { readonly kind: 'other'; readonly type: number };

export interface OnnxNode {
  readonly name: string;
  readonly opType: string;
  /** '' for the default domain (ai.onnx). */
  readonly domain: string;
  /** Value names; '' for an omitted optional input. */
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly attrs: ReadonlyMap<string, OnnxAttr>;
  /** Position in the graph's node list as written (after function inlining, the calling node's). */
  readonly index: number;
}

export interface OnnxValueInfo {
  readonly name: string;
  readonly type: OnnxType | null;
}

export interface OnnxGraph {
  readonly name: string;
  readonly inputs: readonly OnnxValueInfo[];
  readonly outputs: readonly OnnxValueInfo[];
  readonly valueInfo: readonly OnnxValueInfo[];
  readonly initializers: readonly OnnxTensor[];
  /** In topological order (checked by the reader). */
  readonly nodes: readonly OnnxNode[];
}

export interface OnnxFunction {
  readonly name: string;
  readonly domain: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  /** Attribute names the body may refer to, with their defaults where given. */
  readonly attrs: ReadonlyMap<string, OnnxAttr | null>;
  readonly nodes: readonly OnnxNode[];
}

export interface OnnxModel {
  readonly irVersion: number;
  readonly producer: string;
  /** Imported opset version per domain ('' is the default domain). */
  readonly opsets: ReadonlyMap<string, number>;
  readonly graph: OnnxGraph;
}

/** The name a node is known by in messages: `node 3 (Reshape "reshape_1")`. */
export function nodeLabel(n: OnnxNode): string {
  return `node ${n.index} (${n.domain === '' ? '' : `${n.domain}.`}${n.opType}${n.name !== '' ? ` "${n.name}"` : ''})`;
}

/** Integer tensors up to this many elements keep their values. */
export const MAX_KEPT_VALUES = 4096;
