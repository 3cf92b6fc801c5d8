# One sample of `shapelog bench MODEL.onnx --strategies onnx`: ONNX's own shape inference
# (its C++ relations, through the `onnx` Python package, e.g. Debian's python3-onnx),
# timed as cli/bench-worker.ts times shapelog's (cli/bench-protocol.ts):
#   python3 proofs/onnx-cross-check/onnx_bench_worker.py '<WorkerRequest as JSON>'
# A run reads the model file and infers its shapes (strict, with type checks and data
# propagation, as the ONNX cross-check runs it). The first run is the cold one; then
# warm-up runs for warmupMs, then timed runs for timedBudgetMs (at least one, at most
# maxTimedRuns). Prints one JSON line, a WorkerReport: the times, and each node output's
# shape in node order (a dim: an int, a dim_param, or null), with a digest for comparing
# samples. A model that does not load or infer: the reason on stderr, exit 1.
import hashlib
import json
import sys
import time

import onnx
import onnx.shape_inference


def dims(t):
    if not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    out = []
    for d in t.tensor_type.shape.dim:
        which = d.WhichOneof("value")
        out.append(d.dim_value if which == "dim_value" else d.dim_param if which == "dim_param" else None)
    return out


def run(path):
    model = onnx.load(path)
    inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)
    return model, inferred


def shapes_of(model, inferred):
    known = {}
    for vi in list(inferred.graph.value_info) + list(inferred.graph.output):
        if vi.HasField("type"):
            known[vi.name] = dims(vi.type)
    return [known.get(o) for n in model.graph.node for o in n.output if o != ""]


def main():
    req = json.loads(sys.argv[1])
    path = req["file"]
    start = time.perf_counter()
    try:
        model, inferred = run(path)
    except Exception as e:  # the model's problem, reported as the worker's failure
        sys.stderr.write(f"error: ONNX's shape inference on {path}: {e}\n")
        sys.exit(1)
    cold_ms = (time.perf_counter() - start) * 1000
    shapes = shapes_of(model, inferred)
    params = sorted({d for i in model.graph.input for d in (dims(i.type) or []) if isinstance(d, str)})
    known = sum(1 for s in shapes if s is not None and all(isinstance(d, int) or d in params for d in s))

    warmup_runs = 0
    warm_start = time.perf_counter()
    while (time.perf_counter() - warm_start) * 1000 < req["warmupMs"]:
        run(path)
        warmup_runs += 1
    timed = []
    timed_start = time.perf_counter()
    while not timed or ((time.perf_counter() - timed_start) * 1000 < req["timedBudgetMs"] and len(timed) < req["maxTimedRuns"]):
        t = time.perf_counter()
        run(path)
        timed.append((time.perf_counter() - t) * 1000)

    digest = hashlib.sha256(json.dumps(shapes).encode("utf8")).hexdigest()
    report = {
        "coldMs": cold_ms,
        "warmupRuns": warmup_runs,
        "timedMs": timed,
        "answer": {"what": "shapes", "count": known, "digest": digest, "errors": 0},
        "shapes": shapes,
        "inputDims": params,
    }
    print(json.dumps(report))


main()
