// Real ONNX models from npm packages (examples/onnx/models.json): each typed by shapelog
// with concrete input shapes and run by onnxruntime on inputs of those shapes with every
// intermediate value made a graph output; every value's executed shape must agree with
// shapelog's (no contradiction) and at least 98% of them must be exact. Silero VAD keeps
// its work in If branches, whose values cannot be made outputs: its six top-level values
// are held to the same bar, and its branches taken must be typed.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { decodeModel } from '../frontends/onnx/decode.js';
import { withGraphOutputs } from '../frontends/onnx/encode.js';
import { bundledModelPath, bundledModels, readBundledModel, runShapes, runValues, type BundledModel } from '../typing/onnx/bundled-models.js';
import { checkRealModel, type RealModelCheck } from '../proofs/onnx-cross-check/real-models.js';
import { loadRuntime, stopRuntime } from '../proofs/onnx-cross-check/runtime.js';
import { typeModel } from '../typing/onnx/model-types.js';

const models = bundledModels();
const byName = (name: string): BundledModel => models.find((m) => m.name === name)!;

test.after.always(() => stopRuntime());

async function check(t: { true: (v: boolean, m?: string) => void }, name: string): Promise<RealModelCheck> {
  const loaded = await loadRuntime();
  t.true(loaded.ok, 'onnxruntime-node is a development dependency');
  return checkRealModel(byName(name));
}

const wrongOnes = (r: RealModelCheck) =>
  r.values
    .filter((v) => v.truth === 'wrong')
    .map((v) => `${v.name} (${v.op}): shapelog ${JSON.stringify(v.shapelog)}, onnxruntime ${JSON.stringify(v.executed)}`);

test('the manifest lists at least four models with package, version, license and a file whose sha256 matches', (t) => {
  t.true(models.length >= 4);
  for (const m of models) {
    for (const field of ['package', 'version', 'license', 'file', 'sha256'] as const) t.true(m[field].length > 0, `${m.name}: ${field}`);
    t.not(readBundledModel(m), null, `${m.name}: ${m.package} is installed or the file is committed`);
  }
  t.deepEqual(new Set(models.map((m) => m.name)).size, models.length);
});

test('withGraphOutputs: the model reads back with the extra outputs after its own, nothing else changed', (t) => {
  const bytes = readBundledModel(byName('openwakeword-hello-deepa'))!;
  const before = decodeModel(bytes, 'a.onnx');
  const after = decodeModel(withGraphOutputs(bytes, ['/layer1/Gemm_output_0', '/layernorm1/Sub_output_0']), 'b.onnx');
  t.deepEqual(
    after.graph.outputs.map((o) => o.name),
    [...before.graph.outputs.map((o) => o.name), '/layer1/Gemm_output_0', '/layernorm1/Sub_output_0'],
  );
  t.deepEqual(after.graph.outputs.slice(-1)[0]!.type, null);
  t.is(after.graph.nodes.length, before.graph.nodes.length);
  t.is(after.graph.initializers.length, before.graph.initializers.length);
});

for (const name of ['ppocr-det', 'ppocr-rec', 'ppocr-cls', 'openwakeword-hello-deepa']) {
  test.serial(`${name}: every value's shape agrees with onnxruntime's execution, at least 98% exact`, async (t) => {
    const r = await check(t, name);
    t.deepEqual(r.errors, []);
    t.deepEqual(wrongOnes(r), []);
    t.is(r.notExecuted, 0, 'onnxruntime hands back every value');
    t.true(r.values.length >= 20, `${r.values.length} values`);
    t.true(r.exact >= 0.98 * r.values.length, `${r.exact} of ${r.values.length} exact`);
  });
}

test.serial('silero-vad-v5 (sr = 16000): every value agrees with onnxruntime, at least 98% exact; the branches taken are typed', async (t) => {
  const r = await check(t, 'silero-vad-v5');
  t.deepEqual(r.errors, []);
  t.deepEqual(wrongOnes(r), []);
  t.is(r.notExecuted, 0);
  t.is(r.values.length, 6);
  t.true(r.exact >= 0.98 * r.values.length, `${r.exact} of ${r.values.length} exact`);
  // hundreds of values inside the branches, which onnxruntime cannot expose; the sample rate
  // decides the top-level If and shapes decide the nested ones, so only the branches taken
  // are typed: the 16 kHz branch's 113 nodes and the nested branches it takes, each value with a type
  t.true(r.subgraphValues > 500, `${r.subgraphValues} values in subgraphs`);
  t.true(r.subgraphValuesTyped >= 200, `${r.subgraphValuesTyped} of them typed`);
});

// ONNX's own inference (python3-onnx) on a model whose graph inputs get the run's shapes:
// every value's shape, subgraphs included, as JSON {name: dims | null}
const INFER_FIXED = `
import json, sys
import onnx, onnx.shape_inference
m = onnx.load(sys.argv[1])
shapes = json.loads(sys.argv[2])
for i in m.graph.input:
    if i.name in shapes:
        for d, v in zip(i.type.tensor_type.shape.dim, shapes[i.name]):
            d.ClearField('dim_param')
            d.dim_value = v
m = onnx.shape_inference.infer_shapes(m, check_type=True, data_prop=True)
out = {}
def walk(g):
    for v in list(g.value_info) + list(g.output):
        t = v.type.tensor_type
        out[v.name] = [d.dim_value if d.HasField('dim_value') else None for d in t.shape.dim] if t.HasField('shape') else None
    for n in g.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                walk(a.g)
walk(m.graph)
print(json.dumps(out))
`;

test("silero-vad-v5 (sr = 16000): the values inside the branches taken agree with ONNX's own inference on the same shapes, which knows no dim shapelog does not", (t) => {
  const m = byName('silero-vad-v5');
  const typed = typeModel(decodeModel(readBundledModel(m)!, m.name), { shapes: runShapes(m), values: runValues(m) });
  t.true(typed.subgraphValues.length >= 200, `${typed.subgraphValues.length} values in the branches taken`);
  const r = spawnSync('/usr/bin/python3', ['-c', INFER_FIXED, bundledModelPath(m)!, JSON.stringify(Object.fromEntries(runShapes(m)))], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0) {
    // python3-onnx is not installed: onnxruntime's check of the top level above still holds
    t.deepEqual(
      typed.outputs.map((o) => (o.type?.kind === 'tensor' ? o.type.shape : null)),
      [
        [1, 1],
        [2, 1, 128],
      ],
    );
    return;
  }
  const theirs = JSON.parse(r.stdout) as Record<string, (number | null)[] | null>;
  let compared = 0;
  for (const v of [...typed.values, ...typed.subgraphValues]) {
    const dims = theirs[v.name];
    if (dims === undefined || dims === null) continue;
    compared++;
    const mine = v.type?.kind === 'tensor' ? v.type.shape : null;
    t.true(
      mine !== null && mine.length === dims.length && dims.every((d, j) => d === null || mine[j] === d),
      `${v.name}: ONNX ${JSON.stringify(dims)}, shapelog ${JSON.stringify(mine)}`,
    );
  }
  // (ONNX leaves some without a shape: the outputs of the nested Ifs, whose branches differ in rank, and what follows them)
  t.true(compared >= 150, `${compared} values compared`);
});
