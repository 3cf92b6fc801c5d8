// The field numbers of onnx-wire.proto (ONNX's onnx.proto) for the code that walks the wire
// format itself rather than through the generated coders: value-info-writer.ts (splicing
// value_info into a subgraph) and sparse-read.ts (stepping over large tensor data).
// test/onnx-wire.test.ts checks them against the schema.

/** Protobuf's wire type of a length-delimited field (a message, bytes, a string, a packed list). */
export const LENGTH_DELIMITED = 2;

export const FIELD = {
  model: { graph: 7, functions: 25 },
  graph: { node: 1, initializer: 5, sparseInitializer: 15 },
  node: { attribute: 5 },
  attribute: { name: 1, t: 5, g: 6, tensors: 10, graphs: 11, sparseTensor: 22 },
  function: { node: 7, attributeProto: 11 },
  sparseTensor: { values: 1, indices: 2 },
  tensor: { floatData: 4, int32Data: 5, int64Data: 7, rawData: 9, doubleData: 10, uint64Data: 11 },
} as const;
