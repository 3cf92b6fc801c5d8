// Writing inferred types back into a model. The main graph's entries: the original
// bytes, then a ModelProto that holds only graph.value_info entries; protobuf merges a
// message field that occurs twice and appends repeated fields, so every reader sees the
// original model with the extra value_info, and nothing of the original is lost (not
// even fields shapelog does not read). A subgraph's entries (an If branch, a Loop body)
// cannot be merged that way (a node list is appended, not merged), so they are spliced
// into the subgraph's GraphProto on the wire: the fields on the way there are found with
// protobufjs's Reader, the GraphProto gets the value_info fields appended, and each
// enclosing length prefix is rewritten. Every other byte stays as it was.
import protobuf from 'protobufjs/minimal.js';
import { wireType } from './wire-schema.js';
import { dtypeNumber } from './dtypes.js';
import { FIELD, LENGTH_DELIMITED } from './wire-fields.js';

export interface ValueInfoEntry {
  readonly name: string;
  readonly dtype: string;
  /** null: unknown rank; a dim: an int, a symbolic dim's text (written as dim_param), or null (unknown) */
  readonly shape: readonly (number | string | null)[] | null;
}

/** A subgraph: from the main graph, the node (index in its graph's node list as written) and graph attribute, outermost first. */
export type SubgraphPath = readonly { readonly node: number; readonly attr: string }[];

function typeProto(v: ValueInfoEntry): Record<string, unknown> {
  const shape = v.shape === null ? {} : { shape: { dim: v.shape.map((d) => (d === null ? {} : typeof d === 'number' ? { dim_value: d } : { dim_param: d })) } };
  return { tensor_type: { elem_type: dtypeNumber(v.dtype), ...shape } };
}

const writable = (entries: readonly ValueInfoEntry[]) =>
  entries.filter((e) => dtypeNumber(e.dtype) !== null).map((e) => ({ name: e.name, type: typeProto(e) }));

/** `model` with `entries` added to its main graph's value_info. */
export function withValueInfo(model: Uint8Array, entries: readonly ValueInfoEntry[]): Uint8Array {
  const Model = wireType('Model');
  const extra = Model.encode(Model.fromObject({ graph: [{ value_info: writable(entries) }] })).finish();
  return concat([model, extra]);
}

interface WireField {
  readonly field: number;
  /** Where the field starts (its tag), where its data starts and ends. */
  readonly start: number;
  readonly dataStart: number;
  readonly end: number;
}

/** The fields of a message, in order. */
function wireFields(msg: Uint8Array): WireField[] {
  const r = protobuf.Reader.create(msg);
  const out: WireField[] = [];
  while (r.pos < r.len) {
    const start = r.pos;
    const tag = r.uint32();
    const wire = tag & 7;
    if (wire === LENGTH_DELIMITED) {
      const len = r.uint32();
      const dataStart = r.pos;
      r.skip(len);
      out.push({ field: tag >>> 3, start, dataStart, end: r.pos });
    } else {
      r.skipType(wire);
      out.push({ field: tag >>> 3, start, dataStart: r.pos, end: r.pos });
    }
  }
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** `msg` with field `f`'s data replaced by `data` (its length prefix rewritten). */
function replaceData(msg: Uint8Array, f: WireField, data: Uint8Array): Uint8Array {
  const head = protobuf.Writer.create()
    .uint32((f.field << 3) | LENGTH_DELIMITED)
    .uint32(data.length)
    .finish();
  return concat([msg.subarray(0, f.start), head, data, msg.subarray(f.end)]);
}

/** In a Graph message: node `index`'s attribute `attr`'s graph, as the chain of fields down to it; null if there is none. */
function subgraphField(graph: Uint8Array, node: number, attr: string): [WireField, WireField, WireField] | null {
  const n = wireFields(graph).filter((f) => f.field === FIELD.graph.node)[node];
  if (n === undefined) return null;
  const nodeBytes = graph.subarray(n.dataStart, n.end);
  for (const a of wireFields(nodeBytes).filter((f) => f.field === FIELD.node.attribute)) {
    const attrBytes = nodeBytes.subarray(a.dataStart, a.end);
    const fields = wireFields(attrBytes);
    const name = fields.find((f) => f.field === FIELD.attribute.name);
    const g = fields.find((f) => f.field === FIELD.attribute.g);
    if (name !== undefined && g !== undefined && Buffer.from(attrBytes.subarray(name.dataStart, name.end)).toString('utf8') === attr) return [n, a, g];
  }
  return null;
}

/** Graph message `graph` with `extra` appended to the subgraph at `path` (the graph itself when empty); null if the path leads nowhere. */
function appendToGraph(graph: Uint8Array, path: SubgraphPath, extra: Uint8Array): Uint8Array | null {
  if (path.length === 0) return concat([graph, extra]);
  const [step, ...rest] = path;
  const chain = subgraphField(graph, step!.node, step!.attr);
  if (chain === null) return null;
  const [n, a, g] = chain;
  const nodeBytes = graph.subarray(n.dataStart, n.end);
  const attrBytes = nodeBytes.subarray(a.dataStart, a.end);
  const inner = appendToGraph(attrBytes.subarray(g.dataStart, g.end), rest, extra);
  if (inner === null) return null;
  return replaceData(graph, n, replaceData(nodeBytes, a, replaceData(attrBytes, g, inner)));
}

/**
 * `model` with `entries` added to the value_info of the subgraph at `path`; the model
 * unchanged when the path leads nowhere (a node inlined from a function has no written place).
 */
export function withSubgraphValueInfo(model: Uint8Array, path: SubgraphPath, entries: readonly ValueInfoEntry[]): Uint8Array {
  const Graph = wireType('Graph');
  const extra = Graph.encode(Graph.fromObject({ value_info: writable(entries) })).finish();
  // the first graph field holds the nodes (later ones: value_info appended by withValueInfo)
  const g = wireFields(model).find((f) => f.field === FIELD.model.graph);
  if (g === undefined || extra.length === 0) return model;
  const inner = appendToGraph(model.subarray(g.dataStart, g.end), path, extra);
  return inner === null ? model : replaceData(model, g, inner);
}
