// Typing an ONNX model compiles only the part of the ONNX relation library that the
// model's operators use (typing/onnx/graph-types.ts compiledOnnx, typing/library-subset.ts).
// The whole library is the oracle: the part must give every value, subgraph value, output
// and diagnostic exactly as it does. A Constant's output takes its value's term when it is
// emitted: the types, the rule's checks and --explain stay those of the Constant's fact.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeModel } from '../frontends/onnx/decode.js';
import type { OnnxModel } from '../frontends/onnx/model.js';
import { bundledModels, readBundledModel } from '../typing/onnx/bundled-models.js';
import { typeModel } from '../typing/onnx/model-types.js';
import type { TypedGraph } from '../typing/onnx/graph-types.js';
import { encodeModel, type ModelSpec, type ValueSpec } from './onnx-builder.js';

const fixtures = join(import.meta.dirname, 'fixtures', 'onnx', 'models');

/** Everything a typed graph reports but the explain function. */
function answer(typed: TypedGraph): unknown {
  const { explain: _, ...rest } = typed;
  return JSON.parse(
    JSON.stringify({ ...rest, diagnostics: typed.diagnostics.map((d) => ({ severity: d.severity, node: d.node?.index ?? null, message: d.message })) }),
  );
}

const models: [string, OnnxModel][] = [
  ...readdirSync(fixtures).map((name): [string, OnnxModel] => [name, decodeModel(readFileSync(join(fixtures, name, 'model.onnx')), name)]),
  // the small bundled models (the PaddleOCR ones are checked against onnxruntime in onnx-models.test.ts)
  ...bundledModels()
    .filter((m) => m.name === 'silero-vad-v5' || m.name === 'openwakeword-hello-deepa')
    .map((m): [string, OnnxModel] => [m.name, decodeModel(readBundledModel(m)!, m.name)]),
];

for (const [name, model] of models) {
  test(`${name}: the part of the library its operators use types it as the whole library does`, (t) => {
    const whole = answer(typeModel(model, { library: 'whole' }));
    const part = answer(typeModel(model, { library: 'part' }));
    t.deepEqual(part, whole);
  });
}

const constantModel = (declared: ValueSpec[]): ModelSpec => ({
  inputs: [{ name: 'x', dtype: 'float32', shape: ['N', 3] }],
  outputs: [{ name: 'y', dtype: 'float32', shape: null }],
  valueInfo: declared,
  nodes: [
    { op: 'Constant', inputs: [], outputs: ['c'], name: 'k', attrs: { value: { tensor: { name: 'v', dtype: 'int64', dims: [2], int64: [-1, 3] } } } },
    { op: 'Reshape', inputs: ['x', 'c'], outputs: ['y'] },
  ],
});

test('a Constant output is its value from the start: the shapes it drives, and --explain of it, are as before', (t) => {
  const typed = typeModel(decodeModel(encodeModel(constantModel([])), 'c.onnx'));
  t.deepEqual(typed.diagnostics, []);
  t.deepEqual(
    typed.values.map((v) => [v.name, v.type]),
    [
      ['c', { kind: 'tensor', dtype: 'int64', shape: [2], values: [-1, 3] }],
      ['y', { kind: 'tensor', dtype: 'float32', shape: ['N', 3] }],
    ],
  );
  const why = typed.explain('c');
  t.not(why, null);
  t.regex(why!, /Constant/);
});

test('a Constant output with a declared type still meets the declaration through the rule: a different dim is a clash', (t) => {
  const typed = typeModel(decodeModel(encodeModel(constantModel([{ name: 'c', dtype: 'int64', shape: [3] }])), 'c.onnx'));
  t.is(typed.diagnostics.filter((d) => d.severity === 'error').length, 1);
});
