// Writing an ONNX model: the inverse of decode.ts for the parts a one-node test model
// needs (graph inputs and outputs with their types, initializers with their values,
// nodes with int, float, string, list, tensor and graph attributes), through the same wire
// schema. Used by the ONNX cross-check to hand one node to ONNX's own shape inference
// and to onnxruntime, and to write each disagreement as a ready-to-open .onnx file.
import { wireType } from './wire-schema.js';
import { dtypeNumber } from './dtypes.js';
import type { OnnxAttr, OnnxGraph, OnnxTensor, OnnxType } from './model.js';

/** What cannot be written (a graph-valued attribute, a tensor without values, ...). */
export class EncodeError extends Error {}

// AttributeProto.AttributeType numbers
const ATTR_TYPE = { float: 1, int: 2, string: 3, tensor: 4, graph: 5, floats: 6, ints: 7, strings: 8 } as const;

function typeProto(t: OnnxType | null): Record<string, unknown> | undefined {
  if (t === null) return undefined;
  if (t.kind === 'sequence') return { sequence_type: { elem_type: typeProto(t.elem) } };
  if (t.kind === 'optional') return { optional_type: { elem_type: typeProto(t.elem) } };
  if (t.kind !== 'tensor') throw new EncodeError(`a ${t.kind} value cannot be written`);
  const elem = t.dtype === null ? 0 : dtypeNumber(t.dtype);
  if (elem === null) throw new EncodeError(`unknown dtype ${t.dtype}`);
  const shape = t.shape === null ? {} : { shape: { dim: t.shape.map((d) => (d === null ? {} : typeof d === 'number' ? { dim_value: d } : { dim_param: d })) } };
  return { tensor_type: { elem_type: elem, ...shape } };
}

/** A tensor with its values in the field protobuf keeps for its dtype. */
function tensorProto(t: OnnxTensor): Record<string, unknown> {
  const data_type = dtypeNumber(t.dtype);
  if (data_type === null) throw new EncodeError(`unknown dtype ${t.dtype}`);
  const base = { name: t.name, dims: t.dims, data_type };
  const count = t.dims.reduce((a, b) => a * b, 1);
  const values = t.values ?? t.fractions?.map(([n, d]) => n / d) ?? null;
  if (values === null || values.length !== count) throw new EncodeError(`the values of tensor '${t.name}' are not known`);
  switch (t.dtype) {
    case 'float32':
      return { ...base, float_data: values };
    case 'float64':
      return { ...base, double_data: values };
    case 'int64':
      return { ...base, int64_data: values };
    case 'uint32':
    case 'uint64':
      return { ...base, uint64_data: values };
    case 'int32':
    case 'int16':
    case 'int8':
    case 'uint16':
    case 'uint8':
    case 'bool':
      return { ...base, int32_data: values };
    default:
      throw new EncodeError(`tensors of dtype ${t.dtype} cannot be written with values`);
  }
}

function attributeProto(name: string, a: OnnxAttr): Record<string, unknown> {
  switch (a.kind) {
    case 'int':
      return { name, type: ATTR_TYPE.int, i: a.value };
    case 'float':
      return { name, type: ATTR_TYPE.float, f: a.value };
    case 'string':
      return { name, type: ATTR_TYPE.string, s: Buffer.from(a.value, 'utf8') };
    case 'ints':
      return { name, type: ATTR_TYPE.ints, ints: a.value };
    case 'floats':
      return { name, type: ATTR_TYPE.floats, floats: a.value };
    case 'strings':
      return { name, type: ATTR_TYPE.strings, strings: a.value.map((s) => Buffer.from(s, 'utf8')) };
    case 'tensor':
      return { name, type: ATTR_TYPE.tensor, t: tensorProto(a.value) };
    case 'graph':
      return { name, type: ATTR_TYPE.graph, g: graphProto(a.value) };
    default:
      throw new EncodeError(`attribute '${name}' (${a.kind}) cannot be written`);
  }
}

/** A GraphProto: inputs, outputs and value_info with their types, initializers, nodes (subgraphs included). */
function graphProto(graph: OnnxGraph): Record<string, unknown> {
  const valueInfo = (v: OnnxGraph['inputs'][number]) => ({ name: v.name, type: typeProto(v.type) });
  return {
    name: graph.name,
    input: graph.inputs.map(valueInfo),
    output: graph.outputs.map(valueInfo),
    value_info: graph.valueInfo.map(valueInfo),
    initializer: graph.initializers.map(tensorProto),
    node: graph.nodes.map((n) => ({
      name: n.name,
      op_type: n.opType,
      domain: n.domain,
      input: n.inputs,
      output: n.outputs,
      attribute: [...n.attrs].map(([k, a]) => attributeProto(k, a)),
    })),
  };
}

/** The bytes of a model holding `graph`, importing `opsets` (domain '' = ai.onnx). */
export function encodeModel(graph: OnnxGraph, opsets: ReadonlyMap<string, number>, irVersion: number): Uint8Array {
  const Model = wireType('Model');
  const opset_import = [...opsets].map(([domain, version]) => ({ domain, version }));
  return Model.encode(Model.fromObject({ ir_version: irVersion, producer_name: 'shapelog', graph: [graphProto(graph)], opset_import })).finish();
}

/**
 * `model` with `names` added to its main graph's outputs, without a type (onnxruntime
 * infers it), so that a run hands back every intermediate value. As in
 * value-info-writer.ts, the original bytes are followed by a ModelProto holding only
 * the new graph.output entries, which protobuf appends to the original list.
 */
export function withGraphOutputs(model: Uint8Array, names: readonly string[]): Uint8Array {
  const Model = wireType('Model');
  const extra = Model.encode(Model.fromObject({ graph: [{ output: names.map((name) => ({ name })) }] })).finish();
  const out = new Uint8Array(model.length + extra.length);
  out.set(model, 0);
  out.set(extra, model.length);
  return out;
}
