# One process of ONNX's own shape inference, for `npm run bench:onnx`: load the model,
# run infer_shapes (strict, type checks, data propagation, as check --onnx does) and
# print how many value_info entries it produced (so the work cannot be skipped).
import sys

import onnx
import onnx.shape_inference

model = onnx.load(sys.argv[1])
inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)
print(len(inferred.graph.value_info))
