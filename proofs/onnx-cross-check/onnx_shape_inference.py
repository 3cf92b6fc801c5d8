# ONNX's own shape inference (its C++ relations, through the `onnx` Python package) as a
# line-oriented service for `shapelog check --onnx`: one JSON request per line on stdin,
# {"id": k, "model": base64 ModelProto, "names": [value names]} (and optionally "inputs":
# {input name: [dim, ...]}, shapes written into the graph inputs first, a dim an int, a
# dim_param or null); one answer per line on
# stdout, {"id": k, "types": [{"elem": n, "shape": [...] | null} | null, ...]} or
# {"id": k, "error": "..."}. Inference runs strict, with type checks and data
# propagation. The first line out says what it is: {"ready": true, "onnx": version,
# "max_opset": n, "max_ir": n}.
import base64
import json
import sys

import onnx
import onnx.shape_inference


def type_of(t):
    if not t.HasField("tensor_type"):
        return None
    tt = t.tensor_type
    shape = None
    if tt.HasField("shape"):
        shape = []
        for d in tt.shape.dim:
            which = d.WhichOneof("value")
            shape.append(d.dim_value if which == "dim_value" else d.dim_param if which == "dim_param" else None)
    return {"elem": tt.elem_type, "shape": shape}


def set_input_shapes(model, shapes):
    for vi in model.graph.input:
        if vi.name not in shapes or not vi.type.HasField("tensor_type"):
            continue
        shape = vi.type.tensor_type.shape
        shape.ClearField("dim")
        for d in shapes[vi.name]:
            dim = shape.dim.add()
            if isinstance(d, int):
                dim.dim_value = d
            elif isinstance(d, str):
                dim.dim_param = d


def answer(req):
    model = onnx.ModelProto()
    model.ParseFromString(base64.b64decode(req["model"]))
    set_input_shapes(model, req.get("inputs", {}))
    inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)
    known = {}
    for vi in list(inferred.graph.value_info) + list(inferred.graph.output):
        if vi.HasField("type"):
            known[vi.name] = type_of(vi.type)
    return {"types": [known.get(n) for n in req["names"]]}


def main():
    print(json.dumps({"ready": True, "onnx": onnx.__version__, "max_opset": onnx.defs.onnx_opset_version(), "max_ir": onnx.IR_VERSION}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            out = answer(req)
        except Exception as e:  # an inference error is an answer, not a crash
            out = {"error": " ".join(str(e).split())[:400]}
        out["id"] = req["id"]
        print(json.dumps(out), flush=True)


main()
