// Real ONNX models from npm packages (examples/onnx/models.json): each typed by shapelog
// with concrete input shapes and run by onnxruntime on inputs of those shapes with every
// intermediate value made a graph output; every value's executed shape must agree with
// shapelog's (no contradiction) and at least 98% of them must be exact. Silero VAD keeps
// its work in If branches, whose values cannot be made outputs: its six top-level values
// are held to the same bar, and its branches taken must be typed.
import test from 'ava';
import { decodeModel } from '../frontends/onnx/decode.js';
import { withGraphOutputs } from '../frontends/onnx/encode.js';
import { bundledModels, readBundledModel, type BundledModel } from '../typing/onnx/bundled-models.js';
import { checkRealModel, type RealModelCheck } from '../proofs/onnx-cross-check/real-models.js';
import { loadRuntime, stopRuntime } from '../proofs/onnx-cross-check/runtime.js';

const models = bundledModels();
const byName = (name: string): BundledModel => models.find((m) => m.name === name)!;

test.after.always(() => stopRuntime());

async function check(t: { true: (v: boolean, m?: string) => void }, name: string): Promise<RealModelCheck> {
  const loaded = await loadRuntime();
  t.true(loaded.ok, 'onnxruntime-node is a development dependency');
  return checkRealModel(byName(name));
}

const wrongOnes = (r: RealModelCheck) => r.values.filter((v) => v.truth === 'wrong').map((v) => `${v.name} (${v.op}): shapelog ${JSON.stringify(v.shapelog)}, onnxruntime ${JSON.stringify(v.executed)}`);

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
  t.deepEqual(after.graph.outputs.map((o) => o.name), [...before.graph.outputs.map((o) => o.name), '/layer1/Gemm_output_0', '/layernorm1/Sub_output_0']);
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
