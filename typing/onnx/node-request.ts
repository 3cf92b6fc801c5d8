// One ONNX node call from JSON, in the record format of ONNX's node conformance cases
// (`{"op_type", "domain", "opset", "attributes": {name: {type, value}}, "inputs":
// [{"dtype", "shape", "values"?} | {"absent": true}], "outputs"?}`), typed as a
// one-node graph: inputs with values become initializers, the others graph inputs.
// The answer: `{"outputs": [{"dtype", "shape"} | {"absent": true} | {"kind", "elem"}]}`
// or `{"error": "..."}`. A malformed request is an error naming the field.
import { diagnostic, UserError } from '../../diagnostics/diagnostic.js';
import { normDomain } from '../../frontends/onnx/decode.js';
import { KNOWN_OPSETS } from '../../frontends/onnx/graph-order.js';
import { isIntegral } from '../../frontends/onnx/dtypes.js';
import { exactFraction } from '../../frontends/onnx/fractions.js';
import type { OnnxAttr, OnnxGraph, OnnxNode, OnnxTensor, OnnxType, OnnxValueInfo } from '../../frontends/onnx/model.js';
import { onnxLibrary, onnxOperatorAt } from '../../relations/onnx/library.js';
import { typeGraph } from './graph-types.js';
import type { ValueType } from './value-terms.js';

export type OutputAnswer =
  | { readonly dtype: string | null; readonly shape: readonly (number | string | null)[] | null }
  | { readonly absent: true }
  | { readonly kind: string; readonly elem: unknown };
export type NodeAnswer = { readonly outputs: readonly OutputAnswer[] } | { readonly error: string };

type Json = Record<string, unknown>;

function fail(message: string): never {
  throw new UserError([diagnostic('error', 'typeof', message, null)]);
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function numberOf(v: unknown, where: string): number {
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) fail(`${where}: ${JSON.stringify(v)} is not a number`);
  return n;
}

function shapeOf(v: unknown, where: string): (number | string | null)[] | null {
  if (v === null || v === undefined) return null;
  if (!Array.isArray(v)) fail(`${where}: a shape is a list of dims`);
  return v.map((d, i) => (d === null || typeof d === 'string' ? d : numberOf(d, `${where}[${i}]`)));
}

function typeOf(v: Json, where: string): OnnxType {
  const kind = v['kind'] ?? 'tensor';
  if (kind === 'sequence' || kind === 'optional')
    return {
      kind,
      elem: isObject(v['elem']) ? typeOf(v['elem'], `${where}.elem`) : isObject(v['elem_type']) ? typeOf(v['elem_type'], `${where}.elem_type`) : null,
    };
  if (kind !== 'tensor') fail(`${where}: unknown kind ${JSON.stringify(kind)}`);
  if (v['dtype'] !== undefined && typeof v['dtype'] !== 'string') fail(`${where}.dtype must be a string`);
  return { kind: 'tensor', dtype: (v['dtype'] as string | undefined) ?? null, shape: shapeOf(v['shape'], `${where}.shape`) };
}

function tensorOf(v: Json, where: string, name: string): OnnxTensor | null {
  const values = v['values'];
  const dtype = v['dtype'];
  const dims = shapeOf(v['shape'] ?? v['dims'], `${where}.shape`);
  if (!Array.isArray(values) || typeof dtype !== 'string' || dims === null || dims.some((d) => typeof d !== 'number')) return null;
  const raw = values.flat(Infinity) as unknown[];
  if (!isIntegral(dtype)) {
    // a float tensor's values as exact fractions (a OneHot depth, Range bounds, Resize scales)
    const fractions = raw.map((x) => (typeof x === 'number' ? exactFraction(x, dtype !== 'float64') : null));
    if (!fractions.every((f) => f !== null)) return null;
    return { name, dtype, dims: dims as number[], values: null, fractions: fractions as (readonly [number, number])[], external: false };
  }
  const flat = raw.map((x, i) => (typeof x === 'boolean' ? Number(x) : numberOf(x, `${where}.values[${i}]`)));
  return { name, dtype, dims: dims as number[], values: flat, external: false };
}

function attrOf(v: unknown, where: string): OnnxAttr | null {
  if (!isObject(v)) fail(`${where}: an attribute is {"type": ..., "value": ...}`);
  const value = v['value'];
  switch (v['type']) {
    case 'int':
      return { kind: 'int', value: numberOf(value, where) };
    case 'float':
      return { kind: 'float', value: numberOf(value, where) };
    case 'string':
      return { kind: 'string', value: String(value) };
    case 'ints':
    case 'floats':
      if (!Array.isArray(value)) fail(`${where}: ${v['type']} must be a list`);
      return { kind: v['type'], value: value.map((x, i) => numberOf(x, `${where}[${i}]`)) };
    case 'strings':
      if (!Array.isArray(value)) fail(`${where}: strings must be a list`);
      return { kind: 'strings', value: value.map(String) };
    case 'tensor': {
      if (!isObject(value)) fail(`${where}: a tensor attribute is {"dtype", "dims", "values"?}`);
      const t = tensorOf({ ...value, shape: value['dims'] }, where, '');
      const dims = shapeOf(value['dims'], `${where}.dims`) ?? [];
      return {
        kind: 'tensor',
        value: t ?? { name: '', dtype: String(value['dtype']), dims: dims.map((d) => (typeof d === 'number' ? d : 0)), values: null, external: false },
      };
    }
    case 'graph': {
      // a summary: the body's declared inputs and outputs (their types are what the rules use)
      if (!isObject(value)) fail(`${where}: a graph attribute is {"inputs": [...], "outputs": [...]}`);
      const values = (key: string): OnnxValueInfo[] =>
        (Array.isArray(value[key]) ? (value[key] as unknown[]) : []).map((v, i) => {
          const w = `${where}.${key}[${i}]`;
          if (!isObject(v)) fail(`${w}: expected {"name", "type"}`);
          return { name: String(v['name'] ?? ''), type: isObject(v['type']) ? typeOf(v['type'], `${w}.type`) : null };
        });
      return { kind: 'graph', value: { name: '', inputs: values('inputs'), outputs: values('outputs'), valueInfo: [], initializers: [], nodes: [] } };
    }
    default:
      return null;
  }
}

/** The one-node graph and opsets of a request. */
export function nodeGraph(req: unknown): { graph: OnnxGraph; opsets: Map<string, number>; outputs: number } {
  if (!isObject(req)) fail('expected {"op_type": ..., "opset": ..., "inputs": [...]}');
  if (typeof req['op_type'] !== 'string') fail('"op_type" must be a string');
  const domain = normDomain(typeof req['domain'] === 'string' ? req['domain'] : '');
  const opset = numberOf(req['opset'] ?? 0, '"opset"');
  const opsets = new Map<string, number>([[domain, opset]]);
  if (isObject(req['opset_imports'])) for (const [d, v] of Object.entries(req['opset_imports'])) opsets.set(normDomain(d), numberOf(v, `"opset_imports".${d}`));
  for (const [d, v] of opsets) {
    const known = KNOWN_OPSETS.get(d);
    if (!Number.isSafeInteger(v) || v < 1 || (known !== undefined && v > known))
      fail(`opset ${v} of domain "${d === '' ? 'ai.onnx' : d}" is unknown${known !== undefined ? ` (shapelog knows versions 1 to ${known})` : ''}`);
  }
  if (!Array.isArray(req['inputs'])) fail('"inputs" must be a list');
  const inputs: OnnxValueInfo[] = [];
  const initializers: OnnxTensor[] = [];
  const names = (req['inputs'] as unknown[]).map((v, i) => {
    const where = `inputs[${i}]`;
    if (!isObject(v)) fail(`${where}: an input is {"dtype", "shape", "values"?} or {"absent": true}`);
    if (v['absent'] === true) return '';
    const name = `input${i}`;
    const t = tensorOf(v, where, name);
    if (t !== null) initializers.push(t);
    else inputs.push({ name, type: typeOf(v, where) });
    return name;
  });
  const attrs = new Map<string, OnnxAttr>();
  if (req['attributes'] !== undefined) {
    if (!isObject(req['attributes'])) fail('"attributes" must be an object');
    for (const [k, v] of Object.entries(req['attributes'])) {
      const a = attrOf(v, `attributes.${k}`);
      if (a !== null) attrs.set(k, a);
    }
  }
  const declared = onnxOperatorAt(onnxLibrary(), domain, req['op_type'], opset);
  const given = Array.isArray(req['outputs']) ? req['outputs'].length : null;
  const outputs = given ?? (declared === null || declared.info.result.kind !== 'tuple' ? 1 : declared.info.result.size);
  const absentOut = Array.isArray(req['outputs']) ? (req['outputs'] as unknown[]).map((o) => isObject(o) && o['absent'] === true) : [];
  const node: OnnxNode = {
    name: '',
    opType: req['op_type'],
    domain,
    inputs: names,
    outputs: Array.from({ length: outputs }, (_, i) => (absentOut[i] ? '' : `output${i}`)),
    attrs,
    index: 0,
  };
  return { graph: { name: 'typeof', inputs, outputs: [], valueInfo: [], initializers, nodes: [node] }, opsets, outputs };
}

function answerOf(t: ValueType | null): OutputAnswer {
  if (t === null) return { dtype: null, shape: null };
  if (t.kind === 'absent') return { absent: true };
  if (t.kind === 'tensor') return { dtype: t.dtype, shape: t.shape };
  return { kind: t.kind, elem: t.elem === null ? null : answerOf(t.elem) };
}

export function typeNodeRequest(req: unknown): NodeAnswer {
  const { graph, opsets } = nodeGraph(req);
  const typed = typeGraph(graph, opsets);
  const error = typed.diagnostics.find((d) => d.severity === 'error');
  if (error !== undefined) return { error: error.message };
  const node = graph.nodes[0]!;
  const byName = new Map(typed.values.map((v) => [v.name, v.type]));
  return { outputs: node.outputs.map((o) => (o === '' ? { absent: true } : answerOf(byName.get(o) ?? null))) };
}
