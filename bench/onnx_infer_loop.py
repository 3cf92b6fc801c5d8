# ONNX's own shape inference in one process, for `npm run bench:onnx`: loads a model,
# runs infer_shapes (strict, type checks, data propagation) N times and prints one JSON
# line: the milliseconds of each run, and the shape ONNX gives every node output of the
# main graph (a dim: an int, a dim_param's name, or null), plus the graph inputs'
# dim_params (what a symbolic dim may be named after).
import json
import sys
import time

import onnx
import onnx.shape_inference


def dims(t):
    tt = t.tensor_type
    if not t.HasField("tensor_type") or not tt.HasField("shape"):
        return None
    out = []
    for d in tt.shape.dim:
        which = d.WhichOneof("value")
        out.append(d.dim_value if which == "dim_value" else d.dim_param if which == "dim_param" else None)
    return out


def main():
    model = onnx.load(sys.argv[1])
    runs = int(sys.argv[2])
    times = []
    inferred = None
    for _ in range(runs):
        start = time.perf_counter()
        inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)
        times.append((time.perf_counter() - start) * 1000)
    known = {}
    for vi in list(inferred.graph.value_info) + list(inferred.graph.output):
        if vi.HasField("type"):
            known[vi.name] = dims(vi.type)
    shapes = [known.get(o) for n in model.graph.node for o in n.output if o != ""]
    params = sorted({d for i in model.graph.input for d in (dims(i.type) or []) if isinstance(d, str)})
    print(json.dumps({"ms": times, "shapes": shapes, "input_params": params, "onnx": onnx.__version__}))


main()
