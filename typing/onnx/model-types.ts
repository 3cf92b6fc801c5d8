// Typing a whole .onnx model: read (frontends/onnx/sparse-read.ts, decode.ts), then type its main graph
// with the model's opset imports (graph-types.ts).
import { diagnostic, UserError } from '../../diagnostics/diagnostic.js';
import { failureReason } from '../../diagnostics/read-source.js';
import { decodeModel } from '../../frontends/onnx/decode.js';
import { readModelBytes } from '../../frontends/onnx/sparse-read.js';
import type { OnnxModel } from '../../frontends/onnx/model.js';
import { typeGraph, type GraphTypeOptions, type TypedGraph } from './graph-types.js';
import { timed } from '../../diagnostics/phase-times.js';

export function readModel(path: string): OnnxModel {
  let bytes: Uint8Array;
  try {
    // without the element data of large tensors, which typing never reads (frontends/onnx/sparse-read.ts)
    bytes = timed('read', () => readModelBytes(path));
  } catch (e) {
    throw new UserError([diagnostic('error', 'io', `cannot read ${path}: ${failureReason(e)}`, null)]);
  }
  return timed('parse', () => decodeModel(bytes, path));
}

export function typeModel(model: OnnxModel, options: GraphTypeOptions = {}): TypedGraph {
  return typeGraph(model.graph, model.opsets, options);
}
