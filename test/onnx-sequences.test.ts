// Sequences built by SequenceInsert (relations/onnx/recent.rules): into SequenceEmpty's
// empty sequence the elements take the inserted tensor's shape, not only its dtype; into
// a sequence of elements of another shape only the dtype stays known. Checked against
// onnxruntime's execution of the same model (SequenceAt hands an element back).
import test from 'ava';
import { decodeModel } from '../frontends/onnx/decode.js';
import { encodeModel } from '../frontends/onnx/encode.js';
import { typeGraph } from '../typing/onnx/graph-types.js';
import { loadRuntime, runOnRuntime, stopRuntime } from '../proofs/onnx-cross-check/runtime.js';
import { graph, node, scalar, tensor, value } from './onnx-subgraph-models.js';

const OPSETS = new Map([['', 17]]);

/** x [2, 3] inserted into an empty sequence, then x again (same shape) or z [4, 3]; the first element of each. */
const inserts = graph(
  'inserts',
  [value('x', tensor('float32', [2, 3])), value('z', tensor('float32', [4, 3]))],
  [value('same', null), value('mixed', null)],
  [
    node('SequenceEmpty', [], ['empty']),
    node('SequenceInsert', ['empty', 'x'], ['one']),
    node('SequenceInsert', ['one', 'x'], ['two_same']),
    node('SequenceInsert', ['one', 'z'], ['two_mixed']),
    node('SequenceAt', ['two_same', 'first'], ['same']),
    node('SequenceAt', ['two_mixed', 'first'], ['mixed']),
  ],
  [scalar('first', 'int64', 0)],
);

test("SequenceInsert into an empty sequence keeps the tensor's shape; a different shape leaves only the dtype", (t) => {
  const model = decodeModel(encodeModel(inserts, OPSETS, 8), 'inserts.onnx');
  const typed = typeGraph(model.graph, model.opsets);
  t.deepEqual(typed.diagnostics, []);
  const byName = new Map(typed.values.map((v) => [v.name, v.type]));
  t.deepEqual(byName.get('empty'), { kind: 'sequence', elem: { kind: 'tensor', dtype: 'float32', shape: null } });
  t.deepEqual(byName.get('one'), { kind: 'sequence', elem: { kind: 'tensor', dtype: 'float32', shape: [2, 3] } });
  t.deepEqual(byName.get('two_same'), { kind: 'sequence', elem: { kind: 'tensor', dtype: 'float32', shape: [2, 3] } });
  t.deepEqual(byName.get('two_mixed'), { kind: 'sequence', elem: { kind: 'tensor', dtype: 'float32', shape: null } });
  t.deepEqual(
    typed.outputs.map((o) => o.type),
    [
      { kind: 'tensor', dtype: 'float32', shape: [2, 3] },
      { kind: 'tensor', dtype: 'float32', shape: null },
    ],
  );
});

test.serial('onnxruntime runs the model: the first element is [2, 3] in both sequences (the typed [2, 3] and unknown rank agree)', async (t) => {
  t.true((await loadRuntime()).ok, 'onnxruntime-node is a development dependency');
  try {
    const ran = await runOnRuntime(encodeModel(inserts, OPSETS, 8), inserts, ['same', 'mixed']);
    t.deepEqual(ran, {
      outputs: [
        { dtype: 'float32', shape: [2, 3] },
        { dtype: 'float32', shape: [2, 3] },
      ],
    });
  } finally {
    stopRuntime();
  }
});
