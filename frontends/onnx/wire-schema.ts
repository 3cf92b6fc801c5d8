// The wire layout of an .onnx file (a ModelProto), as protobufjs reads it: only the
// messages and fields shapelog reads, with ONNX's field numbers (onnx/onnx.proto, IR
// version 13). Fields not listed here are skipped by the decoder, as protobuf allows,
// so a newer file still reads. The text is ours; the numbers are ONNX's wire format.
// ModelProto.graph is read as repeated: protobuf merges a message field that occurs more
// than once (a model with value_info appended, value-info-writer.ts), and protobufjs would
// keep only the last occurrence; decode.ts merges them.
import protobuf from 'protobufjs';

const SCHEMA = `
syntax = "proto2";
package shapelog.onnx;

message Model {
  optional int64 ir_version = 1;
  optional string producer_name = 2;
  repeated Graph graph = 7;
  repeated OpsetId opset_import = 8;
  repeated Function functions = 25;
}
message OpsetId {
  optional string domain = 1;
  optional int64 version = 2;
}
message StringPair {
  optional string key = 1;
  optional string value = 2;
}
message Graph {
  repeated Node node = 1;
  optional string name = 2;
  repeated Tensor initializer = 5;
  repeated ValueInfo input = 11;
  repeated ValueInfo output = 12;
  repeated ValueInfo value_info = 13;
  repeated SparseTensor sparse_initializer = 15;
}
message Node {
  repeated string input = 1;
  repeated string output = 2;
  optional string name = 3;
  optional string op_type = 4;
  repeated Attribute attribute = 5;
  optional string domain = 7;
  optional string overload = 8;
}
message Attribute {
  optional string name = 1;
  optional float f = 2;
  optional int64 i = 3;
  optional bytes s = 4;
  optional Tensor t = 5;
  optional Graph g = 6;
  repeated float floats = 7;
  repeated int64 ints = 8;
  repeated bytes strings = 9;
  repeated Tensor tensors = 10;
  repeated Graph graphs = 11;
  optional int32 type = 20;
  optional string ref_attr_name = 21;
  optional SparseTensor sparse_tensor = 22;
  optional Type tp = 14;
}
message ValueInfo {
  optional string name = 1;
  optional Type type = 2;
}
message Tensor {
  repeated int64 dims = 1;
  optional int32 data_type = 2;
  repeated float float_data = 4 [packed = true];
  repeated int32 int32_data = 5 [packed = true];
  repeated bytes string_data = 6;
  repeated int64 int64_data = 7 [packed = true];
  optional string name = 8;
  optional bytes raw_data = 9;
  repeated double double_data = 10 [packed = true];
  repeated uint64 uint64_data = 11 [packed = true];
  repeated StringPair external_data = 13;
  optional int32 data_location = 14;
}
message SparseTensor {
  optional Tensor values = 1;
  optional Tensor indices = 2;
  repeated int64 dims = 3;
}
message Shape {
  message Dim {
    oneof value {
      int64 dim_value = 1;
      string dim_param = 2;
    }
  }
  repeated Dim dim = 1;
}
message Type {
  message TensorType {
    optional int32 elem_type = 1;
    optional Shape shape = 2;
  }
  message Sequence {
    optional Type elem_type = 1;
  }
  message Map {
    optional int32 key_type = 1;
    optional Type value_type = 2;
  }
  message Optional {
    optional Type elem_type = 1;
  }
  oneof value {
    TensorType tensor_type = 1;
    Sequence sequence_type = 4;
    Map map_type = 5;
    TensorType sparse_tensor_type = 8;
    Optional optional_type = 9;
  }
}
message Function {
  optional string name = 1;
  repeated string input = 4;
  repeated string output = 5;
  repeated string attribute = 6;
  repeated Node node = 7;
  repeated OpsetId opset_import = 9;
  optional string domain = 10;
  repeated Attribute attribute_proto = 11;
  optional string overload = 13;
}
`;

let root: protobuf.Root | null = null;

/** The message type `name` (Model, Tensor, ...) of the schema, parsed once. */
export function wireType(name: string): protobuf.Type {
  root ??= protobuf.parse(SCHEMA, { keepCase: true }).root;
  return root.lookupType(`shapelog.onnx.${name}`);
}
