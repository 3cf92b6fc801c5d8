// Bytes of an .onnx file → OnnxModel. protobufjs reads the wire format
// (wire-schema.ts); this file turns its messages into shapelog's model and refuses what
// cannot be typed: a truncated or malformed file, a missing graph, an unknown element
// type, an attribute without a name. Every refusal is a UserError naming the field
// (`graph.node[3].attribute[1]`), never a stack trace.
import { diagnostic, UserError } from '../../diagnostics/diagnostic.js';
import { checkedReader } from './checked-reader.js';
import { wireType } from './wire-schema.js';
import { dtypeName, isIntegral } from './dtypes.js';
import { exactFraction } from './fractions.js';
import {
  MAX_KEPT_VALUES,
  type OnnxAttr,
  type OnnxDim,
  type OnnxFunction,
  type OnnxGraph,
  type OnnxModel,
  type OnnxNode,
  type OnnxTensor,
  type OnnxType,
  type OnnxValueInfo,
} from './model.js';
import { inlineFunctions } from './functions.js';
import { checkGraph } from './graph-order.js';

// biome-ignore lint/suspicious/noExplicitAny: a decoded protobuf message, its fields checked where they are read
type Msg = Record<string, any>;

/**
 * A field of a decoded message, or undefined when the file does not set it. protobufjs
 * keeps each field's default on the message type's prototype and sets on the message
 * itself what it decodes (and, from the constructor, an empty array per repeated field):
 * what the message owns is what the file holds.
 */
// biome-ignore lint/suspicious/noExplicitAny: as Msg
const field = (m: Msg, name: string): any => (Object.hasOwn(m, name) ? m[name] : undefined);

export function fail(message: string): never {
  throw new UserError([diagnostic('error', 'onnx', message, null)]);
}

/** The model in `bytes` (named `file` in messages), checked and with local functions inlined. */
export function decodeModel(bytes: Uint8Array, file: string): OnnxModel {
  let raw: object;
  try {
    raw = wireType('Model').decode(checkedReader(bytes));
  } catch (e) {
    fail(`${file}: not a valid ONNX model (malformed protobuf: ${e instanceof Error ? e.message : String(e)})`);
  }
  // the messages are read as protobufjs decoded them (field() below), not converted to plain
  // objects first; bytes fields (raw_data, string attributes) stay Uint8Arrays over the file's buffer
  const m = raw as Msg;
  const graphMessage = mergeMessages(field(m, 'graph') ?? []);
  if (graphMessage === undefined) fail(`${file}: the model has no graph (field ModelProto.graph)${bytes.length === 0 ? ': the file is empty' : ''}`);
  const opsets = new Map<string, number>();
  for (const [i, o] of (field(m, 'opset_import') ?? []).entries()) {
    const domain = normDomain(field(o, 'domain') ?? '');
    const version = field(o, 'version');
    if (typeof version !== 'number' || version < 1) fail(`${file}: opset_import[${i}] (domain "${domain}") has no valid version`);
    opsets.set(domain, version);
  }
  if (opsets.size === 0) opsets.set('', 1);
  const functions = ((field(m, 'functions') ?? []) as Msg[]).map((f, i) => readFunction(f, `functions[${i}]`));
  const graph = readGraph(graphMessage, 'graph');
  return {
    irVersion: field(m, 'ir_version') ?? 0,
    producer: field(m, 'producer_name') ?? '',
    opsets,
    graph: checkGraph(inlineFunctions(graph, functions), opsets),
  };
}

/** Protobuf's merge of a message field that occurs several times: repeated fields appended, others the last one's. */
function mergeMessages(parts: readonly Msg[]): Msg | undefined {
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return parts[0];
  const out: Msg = {};
  for (const p of parts) for (const [k, v] of Object.entries(p)) out[k] = Array.isArray(v) && Array.isArray(out[k]) ? [...(out[k] as unknown[]), ...v] : v;
  return out;
}

/** 'ai.onnx' and '' name the same (default) domain. */
export function normDomain(d: string): string {
  return d === 'ai.onnx' ? '' : d;
}

function readGraph(g: Msg, where: string): OnnxGraph {
  return {
    name: field(g, 'name') ?? '',
    inputs: ((field(g, 'input') ?? []) as Msg[]).map((v, i) => readValueInfo(v, `${where}.input[${i}]`)),
    outputs: ((field(g, 'output') ?? []) as Msg[]).map((v, i) => readValueInfo(v, `${where}.output[${i}]`)),
    valueInfo: ((field(g, 'value_info') ?? []) as Msg[]).map((v, i) => readValueInfo(v, `${where}.value_info[${i}]`)),
    initializers: [
      ...((field(g, 'initializer') ?? []) as Msg[]).map((t, i) => readTensor(t, `${where}.initializer[${i}]`)),
      ...((field(g, 'sparse_initializer') ?? []) as Msg[]).map((s, i) => readSparse(s, `${where}.sparse_initializer[${i}]`)),
    ],
    nodes: ((field(g, 'node') ?? []) as Msg[]).map((n, i) => readNode(n, i, `${where}.node[${i}]`)),
  };
}

function readValueInfo(v: Msg, where: string): OnnxValueInfo {
  const name = field(v, 'name');
  if (!name) fail(`${where}: a value without a name`);
  const type = field(v, 'type');
  return { name, type: type === undefined ? null : readType(type, `${where}.type`) };
}

function readType(t: Msg, where: string): OnnxType | null {
  const tensor = field(t, 'tensor_type') ?? field(t, 'sparse_tensor_type');
  if (tensor !== undefined) {
    const n = field(tensor, 'elem_type') ?? 0;
    const dtype = n === 0 ? null : dtypeName(n);
    if (n !== 0 && dtype === null) fail(`${where}.elem_type: unknown element type ${n}`);
    const shape = field(tensor, 'shape');
    return { kind: 'tensor', dtype, shape: shape === undefined ? null : ((field(shape, 'dim') ?? []) as Msg[]).map(readDim) };
  }
  const sequence = field(t, 'sequence_type');
  if (sequence !== undefined) {
    const elem = field(sequence, 'elem_type');
    return { kind: 'sequence', elem: elem === undefined ? null : readType(elem, `${where}.sequence_type`) };
  }
  const optional = field(t, 'optional_type');
  if (optional !== undefined) {
    const elem = field(optional, 'elem_type');
    return { kind: 'optional', elem: elem === undefined ? null : readType(elem, `${where}.optional_type`) };
  }
  const map = field(t, 'map_type');
  if (map !== undefined) {
    const value = field(map, 'value_type');
    return { kind: 'map', key: dtypeName(field(map, 'key_type') ?? 0) ?? 'unknown', value: value === undefined ? null : readType(value, `${where}.map_type`) };
  }
  return null;
}

function readDim(d: Msg): OnnxDim {
  const value = field(d, 'dim_value');
  if (typeof value === 'number') return value;
  const param = field(d, 'dim_param');
  if (typeof param === 'string' && param !== '') return param;
  return null;
}

const ELEMENT_BYTES: Record<string, number> = { int8: 1, uint8: 1, bool: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8 };

export function readTensor(t: Msg, where: string): OnnxTensor {
  const name: string = field(t, 'name') ?? '';
  const dataType: number = field(t, 'data_type') ?? 0;
  const dtype = dtypeName(dataType);
  if (dtype === null) fail(`${where}: tensor ${name ? `"${name}" ` : ''}has ${dataType ? `unknown data_type ${dataType}` : 'no data_type'}`);
  const dims: number[] = field(t, 'dims') ?? [];
  if (dims.some((d) => !Number.isSafeInteger(d) || d < 0)) fail(`${where}: tensor dims [${dims.join(', ')}] are not sizes`);
  const external = field(t, 'data_location') === 1 || (field(t, 'external_data') ?? []).length > 0;
  const count = dims.reduce((a, b) => a * b, 1);
  let values: number[] | null = null;
  if (!external && isIntegral(dtype) && count <= MAX_KEPT_VALUES) {
    values = tensorValues(t, dtype);
    if (values.length !== count)
      fail(`${where}: tensor ${name ? `"${name}" ` : ''}has ${values.length} values for dims [${dims.join(', ')}] (${count} elements)`);
  }
  const fractions = !external && (dtype === 'float32' || dtype === 'float64') && count <= MAX_FLOAT_VALUES ? floatFractions(t, dtype, count) : null;
  return { name, dtype, dims, values, ...(fractions !== null ? { fractions } : {}), external };
}

/**
 * Float tensors up to this many elements keep their values as fractions: a shape's worth
 * (Resize scales, Range bounds, a ConstantOfShape value). Larger ones are weights, whose
 * values no rule reads; their fractions would only make the constants' terms larger.
 */
const MAX_FLOAT_VALUES = 8;

function floatFractions(t: Msg, dtype: string, count: number): (readonly [number, number])[] | null {
  const raw: Uint8Array | undefined = field(t, 'raw_data');
  const float32 = dtype === 'float32';
  const size = float32 ? 4 : 8;
  const listed: number[] = float32 ? (field(t, 'float_data') ?? []) : (field(t, 'double_data') ?? []);
  const fromRaw = raw !== undefined && raw.length > 0;
  if ((fromRaw ? Math.floor(raw.length / size) : listed.length) !== count) return null;
  const view = fromRaw ? new DataView(raw.buffer, raw.byteOffset, raw.byteLength) : null;
  // a weight's first few elements already need more digits than a fraction keeps: stop there
  const out: (readonly [number, number])[] = [];
  for (let i = 0; i < count; i++) {
    const x = view === null ? listed[i]! : float32 ? view.getFloat32(i * size, true) : view.getFloat64(i * size, true);
    const f = exactFraction(x, float32);
    if (f === null) return null;
    out.push(f);
  }
  return out;
}

function tensorValues(t: Msg, dtype: string): number[] {
  const raw: Uint8Array | undefined = field(t, 'raw_data');
  if (raw !== undefined && raw.length > 0) {
    const size = ELEMENT_BYTES[dtype]!;
    const bytes = Uint8Array.from(raw);
    const view = new DataView(bytes.buffer);
    const out: number[] = [];
    for (let off = 0; off + size <= bytes.length; off += size) {
      switch (dtype) {
        case 'int8':
          out.push(view.getInt8(off));
          break;
        case 'uint8':
        case 'bool':
          out.push(view.getUint8(off));
          break;
        case 'int16':
          out.push(view.getInt16(off, true));
          break;
        case 'uint16':
          out.push(view.getUint16(off, true));
          break;
        case 'int32':
          out.push(view.getInt32(off, true));
          break;
        case 'uint32':
          out.push(view.getUint32(off, true));
          break;
        case 'int64':
          out.push(Number(view.getBigInt64(off, true)));
          break;
        default:
          out.push(Number(view.getBigUint64(off, true)));
      }
    }
    return out;
  }
  if (dtype === 'int64') return field(t, 'int64_data') ?? [];
  if (dtype === 'uint32' || dtype === 'uint64') return field(t, 'uint64_data') ?? [];
  return field(t, 'int32_data') ?? [];
}

function readSparse(s: Msg, where: string): OnnxTensor {
  const values = field(s, 'values');
  if (values === undefined) fail(`${where}: a sparse tensor without values`);
  const v = readTensor(values, `${where}.values`);
  return { name: v.name, dtype: v.dtype, dims: field(s, 'dims') ?? [], values: null, external: false };
}

function readNode(n: Msg, index: number, where: string): OnnxNode {
  const name: string = field(n, 'name') ?? '';
  const opType: string | undefined = field(n, 'op_type');
  if (!opType) fail(`${where}${name ? ` "${name}"` : ''}: a node without op_type`);
  const attrs = new Map<string, OnnxAttr>();
  for (const [i, a] of ((field(n, 'attribute') ?? []) as Msg[]).entries()) {
    const w = `${where}.attribute[${i}]`;
    const attrName: string | undefined = field(a, 'name');
    if (!attrName) fail(`${w} of node ${index} (${opType}${name ? ` "${name}"` : ''}): an attribute without a name`);
    if (attrs.has(attrName)) fail(`${w}: node ${index} (${opType}) has attribute '${attrName}' twice`);
    attrs.set(attrName, readAttr(a, w));
  }
  return {
    name,
    opType,
    domain: normDomain(field(n, 'domain') ?? ''),
    inputs: field(n, 'input') ?? [],
    outputs: field(n, 'output') ?? [],
    attrs,
    index,
  };
}

const text = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');

export function readAttr(a: Msg, where: string): OnnxAttr {
  const ref: string | undefined = field(a, 'ref_attr_name');
  if (ref) return { kind: 'ref', name: ref };
  const type: number = field(a, 'type') ?? inferAttrType(a);
  switch (type) {
    case 1:
      return { kind: 'float', value: field(a, 'f') ?? 0 };
    case 2:
      return { kind: 'int', value: field(a, 'i') ?? 0 };
    case 3:
      return { kind: 'string', value: text(field(a, 's') ?? new Uint8Array()) };
    case 4: {
      const t = field(a, 't');
      if (t === undefined) fail(`${where}: a tensor attribute without a tensor`);
      return { kind: 'tensor', value: readTensor(t, `${where}.t`) };
    }
    case 5: {
      const g = field(a, 'g');
      if (g === undefined) fail(`${where}: a graph attribute without a graph`);
      return { kind: 'graph', value: readGraph(g, `${where}.g`) };
    }
    case 6:
      return { kind: 'floats', value: field(a, 'floats') ?? [] };
    case 7:
      return { kind: 'ints', value: field(a, 'ints') ?? [] };
    case 8:
      return { kind: 'strings', value: ((field(a, 'strings') ?? []) as Uint8Array[]).map(text) };
    case 9:
      return { kind: 'tensors', value: ((field(a, 'tensors') ?? []) as Msg[]).map((t, i) => readTensor(t, `${where}.tensors[${i}]`)) };
    case 10:
      return { kind: 'graphs', value: ((field(a, 'graphs') ?? []) as Msg[]).map((g, i) => readGraph(g, `${where}.graphs[${i}]`)) };
    case 13: {
      const tp = field(a, 'tp');
      return { kind: 'type', value: tp === undefined ? null : readType(tp, `${where}.tp`) };
    }
    default:
      return { kind: 'other', type };
  }
}

/** IR version 1 files have no type discriminator: the field that is set says it. */
function inferAttrType(a: Msg): number {
  if (field(a, 't') !== undefined) return 4;
  if (field(a, 'g') !== undefined) return 5;
  if ((field(a, 'ints') ?? []).length > 0) return 7;
  if ((field(a, 'floats') ?? []).length > 0) return 6;
  if ((field(a, 'strings') ?? []).length > 0) return 8;
  if (field(a, 's') !== undefined) return 3;
  if (field(a, 'f') !== undefined) return 1;
  return 2;
}

function readFunction(f: Msg, where: string): OnnxFunction {
  const name: string | undefined = field(f, 'name');
  if (!name) fail(`${where}: a function without a name`);
  const attrs = new Map<string, OnnxAttr | null>(((field(f, 'attribute') ?? []) as string[]).map((n) => [n, null]));
  for (const [i, a] of ((field(f, 'attribute_proto') ?? []) as Msg[]).entries()) attrs.set(field(a, 'name'), readAttr(a, `${where}.attribute_proto[${i}]`));
  return {
    name,
    domain: normDomain(field(f, 'domain') ?? ''),
    inputs: field(f, 'input') ?? [],
    outputs: field(f, 'output') ?? [],
    attrs,
    nodes: ((field(f, 'node') ?? []) as Msg[]).map((n, i) => readNode(n, i, `${where}.node[${i}]`)),
  };
}
