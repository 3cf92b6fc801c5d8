// Per-version attribute lists of the ONNX operators (relations/onnx/attribute-versions.ts):
// a node using an attribute that its opset's operator version does not have is an error
// naming the node, the attribute and the versions that have it. The versions below are
// ONNX's (its Changelog: AveragePool's ceil_mode from 10, Reshape's allowzero from 14,
// BatchNormalization's spatial in 1, 6 and 7, removed in 9); onnxruntime, which
// checks models against the same schemas, refuses each such model too.
import test from 'ava';
import { encodeModel } from '../frontends/onnx/encode.js';
import type { OnnxGraph } from '../frontends/onnx/model.js';
import { versionsWithAttribute } from '../relations/onnx/attribute-versions.js';
import { typeGraph } from '../typing/onnx/graph-types.js';
import { CANNOT_LOAD, loadRuntime, runOnRuntime, stopRuntime } from '../proofs/onnx-cross-check/runtime.js';
import { graph, ints, node, tensor, value } from './onnx-subgraph-models.js';

const pool = (attrs: Record<string, number | number[]>) =>
  graph(
    'pool',
    [value('x', tensor('float32', [1, 1, 5, 5]))],
    [value('y', null)],
    [{ ...node('AveragePool', ['x'], ['y'], { kernel_shape: [2, 2], ...attrs }), name: 'p' }],
  );
const reshape = graph(
  'reshape',
  [value('x', tensor('float32', [2, 3]))],
  [value('y', null)],
  [{ ...node('Reshape', ['x', 'shape'], ['y'], { allowzero: 0 }), name: 'r' }],
  [ints('shape', [3, 2])],
);

const errors = (g: OnnxGraph, opset: number) =>
  typeGraph(g, new Map([['', opset]]))
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => d.message);

test('an attribute a later version introduced is an error naming the node, the attribute and the versions that have it', (t) => {
  t.deepEqual(errors(pool({ ceil_mode: 1 }), 7), [
    `node 0 (AveragePool "p"): AveragePool-7 (the version of opset 7) has no attribute 'ceil_mode'; AveragePool has it at opset 10 and later`,
  ]);
  t.deepEqual(errors(reshape, 13), [
    `node 0 (Reshape "r"): Reshape-13 (the version of opset 13) has no attribute 'allowzero'; Reshape has it at opset 14 and later`,
  ]);
  // at a version that has it, the node types
  t.deepEqual(errors(pool({ ceil_mode: 1 }), 10), []);
  t.deepEqual(errors(reshape, 14), []);
});

test('versions that have an attribute: a range that ends, one that goes on, and none', (t) => {
  t.is(versionsWithAttribute('', 'BatchNormalization', 'spatial'), 'opsets 1 to 8');
  t.is(versionsWithAttribute('', 'Reshape', 'consumed_inputs'), 'opsets 1 to 4');
  t.is(versionsWithAttribute('', 'MaxPool', 'dilations'), 'opset 10 and later');
  t.is(versionsWithAttribute('', 'Conv', 'no_such_attribute'), null);
  const unknown = errors(pool({ no_such_attribute: 1 }), 11);
  t.deepEqual(unknown, [
    `node 0 (AveragePool "p"): AveragePool-11 (the version of opset 11) has no attribute 'no_such_attribute'; no version of AveragePool up to opset 17 has it`,
  ]);
});

test('onnxruntime refuses the same models, and runs them at a version that has the attribute', async (t) => {
  const rt = await loadRuntime();
  if (!rt.ok) {
    t.is(versionsWithAttribute('', 'AveragePool', 'ceil_mode'), 'opset 10 and later');
    return;
  }
  try {
    for (const [g, bad, good] of [
      [pool({ ceil_mode: 1 }), 7, 10],
      [reshape, 13, 14],
    ] as const) {
      const refused = await runOnRuntime(encodeModel(g, new Map([['', bad]]), 7), g, ['y']);
      t.true('error' in refused && refused.error.startsWith(CANNOT_LOAD), JSON.stringify(refused));
      const ran = await runOnRuntime(encodeModel(g, new Map([['', good]]), 7), g, ['y']);
      t.true('outputs' in ran, JSON.stringify(ran));
    }
  } finally {
    stopRuntime();
  }
});
