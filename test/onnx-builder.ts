// Small ONNX models for tests, encoded with protobufjs: a graph described in a few
// lines (inputs with dims, initializers, nodes with attributes) becomes the bytes of a
// ModelProto.
import { wireType } from '../frontends/onnx/wire-schema.js';
import { dtypeNumber } from '../frontends/onnx/dtypes.js';

export type Dim = number | string | null;
export interface ValueSpec {
  name: string;
  dtype: string;
  shape: Dim[] | null;
}
export interface NodeSpec {
  op: string;
  inputs: string[];
  outputs: string[];
  name?: string;
  domain?: string;
  attrs?: Record<string, unknown>;
}
export interface TensorSpec {
  name: string;
  dtype: string;
  dims: number[];
  int64?: number[];
  raw?: Uint8Array;
  external?: boolean;
}
export interface GraphSpec {
  inputs: ValueSpec[];
  outputs: ValueSpec[];
  nodes: NodeSpec[];
  initializers?: TensorSpec[];
  valueInfo?: ValueSpec[];
  name?: string;
}
export interface ModelSpec extends GraphSpec {
  opsets?: Record<string, number>;
  functions?: { name: string; domain: string; inputs: string[]; outputs: string[]; attrs?: string[]; nodes: NodeSpec[] }[];
}

const typeOf = (v: ValueSpec) => ({
  tensor_type: {
    elem_type: dtypeNumber(v.dtype),
    ...(v.shape === null ? {} : { shape: { dim: v.shape.map((d) => (d === null ? {} : typeof d === 'number' ? { dim_value: d } : { dim_param: d })) } }),
  },
});
const valueInfo = (v: ValueSpec) => ({ name: v.name, type: typeOf(v) });

function tensor(t: TensorSpec): Record<string, unknown> {
  return {
    name: t.name,
    data_type: dtypeNumber(t.dtype),
    dims: t.dims,
    ...(t.int64 !== undefined ? { int64_data: t.int64 } : {}),
    ...(t.raw !== undefined ? { raw_data: t.raw } : {}),
    ...(t.external === true ? { data_location: 1, external_data: [{ key: 'location', value: 'weights.bin' }] } : {}),
  };
}

function attr(name: string, v: unknown): Record<string, unknown> {
  if (typeof v === 'number' && Number.isInteger(v)) return { name, type: 2, i: v };
  if (typeof v === 'number') return { name, type: 1, f: v };
  if (typeof v === 'string') return { name, type: 3, s: Buffer.from(v) };
  if (Array.isArray(v)) return { name, type: 7, ints: v };
  const o = v as { graph?: GraphSpec; tensor?: TensorSpec; ref?: string };
  if (o.ref !== undefined) return { name, ref_attr_name: o.ref };
  if (o.graph !== undefined) return { name, type: 5, g: graph(o.graph) };
  return { name, type: 4, t: tensor(o.tensor!) };
}

function node(n: NodeSpec): Record<string, unknown> {
  return {
    op_type: n.op,
    input: n.inputs,
    output: n.outputs,
    name: n.name ?? '',
    domain: n.domain ?? '',
    attribute: Object.entries(n.attrs ?? {}).map(([k, v]) => attr(k, v)),
  };
}

function graph(g: GraphSpec): Record<string, unknown> {
  return {
    name: g.name ?? 'g',
    node: g.nodes.map(node),
    input: g.inputs.map(valueInfo),
    output: g.outputs.map(valueInfo),
    value_info: (g.valueInfo ?? []).map(valueInfo),
    initializer: (g.initializers ?? []).map(tensor),
  };
}

export function encodeModel(m: ModelSpec): Uint8Array {
  const Model = wireType('Model');
  const msg = Model.fromObject({
    ir_version: 10,
    opset_import: Object.entries(m.opsets ?? { '': 18 }).map(([domain, version]) => ({ domain, version })),
    graph: [graph(m)],
    functions: (m.functions ?? []).map((f) => ({
      name: f.name,
      domain: f.domain,
      input: f.inputs,
      output: f.outputs,
      attribute: f.attrs ?? [],
      node: f.nodes.map(node),
    })),
  });
  return Model.encode(msg).finish();
}
