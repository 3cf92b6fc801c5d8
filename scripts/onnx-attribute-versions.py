#!/usr/bin/python3
# Writes relations/onnx/attribute-versions.json: for every operator version ONNX's own
# schema registry knows (python3-onnx, onnx.defs.get_all_schemas_with_history()), the
# names of its attributes. Run with the system interpreter:
#   /usr/bin/python3 scripts/onnx-attribute-versions.py > relations/onnx/attribute-versions.json
# The file records which onnx release it came from and the newest opset per domain it
# covers; relations/onnx/attribute-versions.ts reads it.
import json
import onnx
import onnx.defs

ops = {}
newest = {}
for s in onnx.defs.get_all_schemas_with_history():
    domain = s.domain if s.domain != 'ai.onnx' else ''
    ops.setdefault(f'{domain}::{s.name}', []).append([s.since_version, sorted(s.attributes.keys())])
    newest[domain] = max(newest.get(domain, 0), s.since_version)
for versions in ops.values():
    versions.sort()
print(json.dumps({'onnx': onnx.__version__, 'newest': dict(sorted(newest.items())), 'ops': dict(sorted(ops.items()))}, separators=(',', ':')))
