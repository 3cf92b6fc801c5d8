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
  // bytes fields (raw_data, string attributes) stay Uint8Arrays over the file's buffer: made
  // arrays of numbers, every weight byte would be copied into a JS array (seconds on a 10 MB model)
  const m = wireType('Model').toObject(raw, { longs: Number, defaults: false, arrays: true }) as Msg;
  m['graph'] = mergeMessages(m['graph'] ?? []);
  if (m['graph'] === undefined) fail(`${file}: the model has no graph (field ModelProto.graph)${bytes.length === 0 ? ': the file is empty' : ''}`);
  const opsets = new Map<string, number>();
  for (const [i, o] of (m['opset_import'] ?? []).entries()) {
    const domain = normDomain(o['domain'] ?? '');
    if (typeof o['version'] !== 'number' || o['version'] < 1) fail(`${file}: opset_import[${i}] (domain "${domain}") has no valid version`);
    opsets.set(domain, o['version']);
  }
  if (opsets.size === 0) opsets.set('', 1);
  const functions = ((m['functions'] ?? []) as Msg[]).map((f, i) => readFunction(f, `functions[${i}]`));
  const graph = readGraph(m['graph'], 'graph');
  return { irVersion: m['ir_version'] ?? 0, producer: m['producer_name'] ?? '', opsets, graph: checkGraph(inlineFunctions(graph, functions), opsets) };
}

/** Protobuf's merge of a message field that occurs several times: repeated fields appended, others the last one's. */
function mergeMessages(parts: readonly Msg[]): Msg | undefined {
  if (parts.length === 0) return undefined;
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
    name: g['name'] ?? '',
    inputs: ((g['input'] ?? []) as Msg[]).map((v, i) => readValueInfo(v, `${where}.input[${i}]`)),
    outputs: ((g['output'] ?? []) as Msg[]).map((v, i) => readValueInfo(v, `${where}.output[${i}]`)),
    valueInfo: ((g['value_info'] ?? []) as Msg[]).map((v, i) => readValueInfo(v, `${where}.value_info[${i}]`)),
    initializers: [
      ...((g['initializer'] ?? []) as Msg[]).map((t, i) => readTensor(t, `${where}.initializer[${i}]`)),
      ...((g['sparse_initializer'] ?? []) as Msg[]).map((s, i) => readSparse(s, `${where}.sparse_initializer[${i}]`)),
    ],
    nodes: ((g['node'] ?? []) as Msg[]).map((n, i) => readNode(n, i, `${where}.node[${i}]`)),
  };
}

function readValueInfo(v: Msg, where: string): OnnxValueInfo {
  if (!v['name']) fail(`${where}: a value without a name`);
  return { name: v['name'], type: v['type'] === undefined ? null : readType(v['type'], `${where}.type`) };
}

function readType(t: Msg, where: string): OnnxType | null {
  const tensor = t['tensor_type'] ?? t['sparse_tensor_type'];
  if (tensor !== undefined) {
    const n = tensor['elem_type'] ?? 0;
    const dtype = n === 0 ? null : dtypeName(n);
    if (n !== 0 && dtype === null) fail(`${where}.elem_type: unknown element type ${n}`);
    const shape = tensor['shape'] === undefined ? null : ((tensor['shape']['dim'] ?? []) as Msg[]).map(readDim);
    return { kind: 'tensor', dtype, shape };
  }
  if (t['sequence_type'] !== undefined)
    return {
      kind: 'sequence',
      elem: t['sequence_type']['elem_type'] === undefined ? null : readType(t['sequence_type']['elem_type'], `${where}.sequence_type`),
    };
  if (t['optional_type'] !== undefined)
    return {
      kind: 'optional',
      elem: t['optional_type']['elem_type'] === undefined ? null : readType(t['optional_type']['elem_type'], `${where}.optional_type`),
    };
  if (t['map_type'] !== undefined) {
    const v = t['map_type']['value_type'];
    return { kind: 'map', key: dtypeName(t['map_type']['key_type'] ?? 0) ?? 'unknown', value: v === undefined ? null : readType(v, `${where}.map_type`) };
  }
  return null;
}

function readDim(d: Msg): OnnxDim {
  if (typeof d['dim_value'] === 'number') return d['dim_value'];
  if (typeof d['dim_param'] === 'string' && d['dim_param'] !== '') return d['dim_param'];
  return null;
}

const ELEMENT_BYTES: Record<string, number> = { int8: 1, uint8: 1, bool: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8 };

export function readTensor(t: Msg, where: string): OnnxTensor {
  const dtype = dtypeName(t['data_type'] ?? 0);
  if (dtype === null)
    fail(`${where}: tensor ${t['name'] ? `"${t['name']}" ` : ''}has ${t['data_type'] ? `unknown data_type ${t['data_type']}` : 'no data_type'}`);
  const dims: number[] = t['dims'] ?? [];
  if (dims.some((d) => !Number.isSafeInteger(d) || d < 0)) fail(`${where}: tensor dims [${dims.join(', ')}] are not sizes`);
  const external = t['data_location'] === 1 || (t['external_data'] ?? []).length > 0;
  const count = dims.reduce((a, b) => a * b, 1);
  let values: number[] | null = null;
  if (!external && isIntegral(dtype) && count <= MAX_KEPT_VALUES) {
    values = tensorValues(t, dtype);
    if (values.length !== count)
      fail(`${where}: tensor ${t['name'] ? `"${t['name']}" ` : ''}has ${values.length} values for dims [${dims.join(', ')}] (${count} elements)`);
  }
  const fractions = !external && (dtype === 'float32' || dtype === 'float64') && count <= MAX_FLOAT_VALUES ? floatFractions(t, dtype, count) : null;
  return { name: t['name'] ?? '', dtype, dims, values, ...(fractions !== null ? { fractions } : {}), external };
}

/**
 * Float tensors up to this many elements keep their values as fractions: a shape's worth
 * (Resize scales, Range bounds, a ConstantOfShape value). Larger ones are weights, whose
 * values no rule reads; their fractions would only make the constants' terms larger.
 */
const MAX_FLOAT_VALUES = 8;

function floatFractions(t: Msg, dtype: string, count: number): (readonly [number, number])[] | null {
  const raw: Uint8Array | undefined = t['raw_data'];
  const float32 = dtype === 'float32';
  const size = float32 ? 4 : 8;
  const listed: number[] = float32 ? (t['float_data'] ?? []) : (t['double_data'] ?? []);
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
  const raw: Uint8Array | undefined = t['raw_data'];
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
  if (dtype === 'int64') return t['int64_data'] ?? [];
  if (dtype === 'uint32' || dtype === 'uint64') return t['uint64_data'] ?? [];
  return t['int32_data'] ?? [];
}

function readSparse(s: Msg, where: string): OnnxTensor {
  if (s['values'] === undefined) fail(`${where}: a sparse tensor without values`);
  const v = readTensor(s['values'], `${where}.values`);
  return { name: v.name, dtype: v.dtype, dims: s['dims'] ?? [], values: null, external: false };
}

function readNode(n: Msg, index: number, where: string): OnnxNode {
  if (!n['op_type']) fail(`${where}${n['name'] ? ` "${n['name']}"` : ''}: a node without op_type`);
  const attrs = new Map<string, OnnxAttr>();
  for (const [i, a] of ((n['attribute'] ?? []) as Msg[]).entries()) {
    const w = `${where}.attribute[${i}]`;
    if (!a['name']) fail(`${w} of node ${index} (${n['op_type']}${n['name'] ? ` "${n['name']}"` : ''}): an attribute without a name`);
    if (attrs.has(a['name'])) fail(`${w}: node ${index} (${n['op_type']}) has attribute '${a['name']}' twice`);
    attrs.set(a['name'], readAttr(a, w));
  }
  return {
    name: n['name'] ?? '',
    opType: n['op_type'],
    domain: normDomain(n['domain'] ?? ''),
    inputs: n['input'] ?? [],
    outputs: n['output'] ?? [],
    attrs,
    index,
  };
}

const text = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');

export function readAttr(a: Msg, where: string): OnnxAttr {
  if (a['ref_attr_name']) return { kind: 'ref', name: a['ref_attr_name'] };
  const type: number = a['type'] ?? inferAttrType(a);
  switch (type) {
    case 1:
      return { kind: 'float', value: a['f'] ?? 0 };
    case 2:
      return { kind: 'int', value: a['i'] ?? 0 };
    case 3:
      return { kind: 'string', value: text(a['s'] ?? new Uint8Array()) };
    case 4:
      if (a['t'] === undefined) fail(`${where}: a tensor attribute without a tensor`);
      return { kind: 'tensor', value: readTensor(a['t'], `${where}.t`) };
    case 5:
      if (a['g'] === undefined) fail(`${where}: a graph attribute without a graph`);
      return { kind: 'graph', value: readGraph(a['g'], `${where}.g`) };
    case 6:
      return { kind: 'floats', value: a['floats'] ?? [] };
    case 7:
      return { kind: 'ints', value: a['ints'] ?? [] };
    case 8:
      return { kind: 'strings', value: ((a['strings'] ?? []) as Uint8Array[]).map(text) };
    case 9:
      return { kind: 'tensors', value: ((a['tensors'] ?? []) as Msg[]).map((t, i) => readTensor(t, `${where}.tensors[${i}]`)) };
    case 10:
      return { kind: 'graphs', value: ((a['graphs'] ?? []) as Msg[]).map((g, i) => readGraph(g, `${where}.graphs[${i}]`)) };
    case 13:
      return { kind: 'type', value: a['tp'] === undefined ? null : readType(a['tp'], `${where}.tp`) };
    default:
      return { kind: 'other', type };
  }
}

/** IR version 1 files have no type discriminator: the field that is set says it. */
function inferAttrType(a: Msg): number {
  if (a['t'] !== undefined) return 4;
  if (a['g'] !== undefined) return 5;
  if ((a['ints'] ?? []).length > 0) return 7;
  if ((a['floats'] ?? []).length > 0) return 6;
  if ((a['strings'] ?? []).length > 0) return 8;
  if (a['s'] !== undefined) return 3;
  if (a['f'] !== undefined) return 1;
  return 2;
}

function readFunction(f: Msg, where: string): OnnxFunction {
  if (!f['name']) fail(`${where}: a function without a name`);
  const attrs = new Map<string, OnnxAttr | null>(((f['attribute'] ?? []) as string[]).map((n) => [n, null]));
  for (const [i, a] of ((f['attribute_proto'] ?? []) as Msg[]).entries()) attrs.set(a['name'], readAttr(a, `${where}.attribute_proto[${i}]`));
  return {
    name: f['name'],
    domain: normDomain(f['domain'] ?? ''),
    inputs: f['input'] ?? [],
    outputs: f['output'] ?? [],
    attrs,
    nodes: ((f['node'] ?? []) as Msg[]).map((n, i) => readNode(n, i, `${where}.node[${i}]`)),
  };
}
