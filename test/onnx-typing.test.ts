// Typing ONNX with the rule library (relations/onnx/): single-node cases against the
// outputs ONNX's own reference implementation recorded (test/fixtures/onnx/), whole
// graphs with data propagation (the shape arithmetic of a model exported with a
// dynamic batch), and the `shapelog infer MODEL.onnx` / `typeof --onnx` commands.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { typeNodeRequest } from '../typing/onnx/node-request.js';
import { typeModel } from '../typing/onnx/model-types.js';
import { decodeModel } from '../frontends/onnx/decode.js';
import { onnxLibrary, onnxOperators } from '../relations/onnx/library.js';
import { loadText } from '../solver/load.js';
import { compileProgram } from '../solver/compile/program.js';
import { TermStore } from '../solver/terms/term-store.js';
import { encodeModel, type ModelSpec } from './onnx-builder.js';
import { runShapelog, scratchFolder } from './helpers.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'onnx');

interface Record_ {
  name: string;
  outputs: { absent?: boolean; dtype?: string; shape?: number[] }[];
}

test('the ONNX rule files compile without warnings', (t) => {
  const lib = onnxLibrary();
  const c = compileProgram(new TermStore(), lib.sources.programs, 'seminaive', null, new Set());
  t.true(c.ok);
  t.deepEqual(c.ok ? c.program.warnings.map((d) => d.message) : ['not compiled'], []);
});

test('single-node cases: the dtype and shape of every output is what ONNX recorded', (t) => {
  const lines = readFileSync(join(FIXTURES, 'node-cases.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  t.true(lines.length > 100);
  const wrong: string[] = [];
  for (const line of lines) {
    const rec = JSON.parse(line) as Record_;
    const answer = typeNodeRequest(rec);
    const want = rec.outputs.map((o) => (o.absent ? { absent: true } : { dtype: o.dtype, shape: o.shape }));
    if (JSON.stringify('outputs' in answer ? answer.outputs : answer) !== JSON.stringify(want)) wrong.push(`${rec.name}: ${JSON.stringify(answer)}`);
  }
  t.deepEqual(wrong, []);
});

// x: [N, 3, 4, 4] reshaped to [x.shape[0], -1] the way exporters write it
const FLATTEN_BATCH: ModelSpec = {
  inputs: [{ name: 'x', dtype: 'float32', shape: ['N', 3, 4, 4] }],
  outputs: [{ name: 'y', dtype: 'float32', shape: null }],
  initializers: [
    { name: 'zero', dtype: 'int64', dims: [], int64: [0] },
    { name: 'axes', dtype: 'int64', dims: [1], int64: [0] },
    { name: 'minus_one', dtype: 'int64', dims: [1], int64: [-1] },
  ],
  nodes: [
    { op: 'Shape', inputs: ['x'], outputs: ['s'] },
    { op: 'Gather', inputs: ['s', 'zero'], outputs: ['n'], attrs: { axis: 0 } },
    { op: 'Unsqueeze', inputs: ['n', 'axes'], outputs: ['n1'] },
    { op: 'Concat', inputs: ['n1', 'minus_one'], outputs: ['target'], attrs: { axis: 0 } },
    { op: 'Reshape', inputs: ['x', 'target'], outputs: ['y'] },
  ],
};

test('data propagation: Shape -> Gather -> Unsqueeze -> Concat -> Reshape keeps a symbolic batch', (t) => {
  const typed = typeModel(decodeModel(encodeModel(FLATTEN_BATCH), 'm.onnx'));
  t.deepEqual(typed.diagnostics, []);
  const byName = new Map(typed.values.map((v) => [v.name, v.type]));
  t.deepEqual(byName.get('s'), { kind: 'tensor', dtype: 'int64', shape: [4], values: ['N', 3, 4, 4] });
  t.deepEqual(byName.get('n'), { kind: 'tensor', dtype: 'int64', shape: [], values: ['N'] });
  t.deepEqual(byName.get('target'), { kind: 'tensor', dtype: 'int64', shape: [2], values: ['N', -1] });
  t.deepEqual(typed.outputs[0]!.type, { kind: 'tensor', dtype: 'float32', shape: ['N', 48] });
});

test('data propagation: --dim fixes the symbolic dim everywhere', (t) => {
  const typed = typeModel(decodeModel(encodeModel(FLATTEN_BATCH), 'm.onnx'), { dims: new Map([['N', 5]]) });
  t.deepEqual(typed.outputs[0]!.type, { kind: 'tensor', dtype: 'float32', shape: [5, 48] });
});

test('a dim_param declared on a computed value is a label: it neither clashes with the inferred dim nor replaces it', (t) => {
  // as paddle2onnx writes them: every declared dim a dim_param of its own
  const spec: ModelSpec = {
    inputs: [{ name: 'x', dtype: 'float32', shape: ['d0', 3] }],
    outputs: [{ name: 'y', dtype: 'float32', shape: ['d1', 3] }],
    valueInfo: [{ name: 'h', dtype: 'float32', shape: ['d2', 'd3'] }],
    nodes: [
      { op: 'Relu', inputs: ['x'], outputs: ['h'] },
      { op: 'Softmax', inputs: ['h'], outputs: ['y'] },
    ],
  };
  const typed = typeModel(decodeModel(encodeModel(spec), 'm.onnx'));
  t.deepEqual(typed.diagnostics, []);
  t.deepEqual(
    typed.values.map((v) => v.type),
    [
      { kind: 'tensor', dtype: 'float32', shape: ['d0', 3] },
      { kind: 'tensor', dtype: 'float32', shape: ['d0', 3] },
    ],
  );
});

test('a Reshape target entry below -1 is one error naming it, and the output gets no shape', (t) => {
  const spec: ModelSpec = {
    inputs: [{ name: 'x', dtype: 'float32', shape: [2, 60] }],
    outputs: [{ name: 'y', dtype: 'float32', shape: null }],
    initializers: [{ name: 'target', dtype: 'int64', dims: [2], int64: [0, -5] }],
    nodes: [{ op: 'Reshape', inputs: ['x', 'target'], outputs: ['y'] }],
  };
  const typed = typeModel(decodeModel(encodeModel(spec), 'm.onnx'));
  t.deepEqual(
    typed.diagnostics.map((d) => d.message),
    ["node 0 (Reshape): Reshape: shape [0, -5] holds -5: an entry is 0 (the input's dim), -1 (inferred) or a size"],
  );
  t.deepEqual(
    typed.values.map((v) => v.type),
    [{ kind: 'tensor', dtype: 'float32', shape: null }],
  );
});

test('an int64 beyond ±2^53 meeting a symbolic dim is an overflow error at its node, not a crash', (t) => {
  // Shape(x) is [N]; adding 2^60 to it has no exact dim
  const spec: ModelSpec = {
    inputs: [{ name: 'x', dtype: 'float32', shape: ['N'] }],
    outputs: [{ name: 'y', dtype: 'int64', shape: null }],
    initializers: [{ name: 'big', dtype: 'int64', dims: [1], int64: [2 ** 60] }],
    nodes: [
      { op: 'Shape', inputs: ['x'], outputs: ['s'] },
      { op: 'Add', inputs: ['s', 'big'], outputs: ['y'] },
    ],
  };
  const typed = typeModel(decodeModel(encodeModel(spec), 'm.onnx'));
  t.deepEqual(
    typed.diagnostics.map((d) => d.message.replace(/ when .*/, '')),
    ['node 1 (Add): integer overflow: 1152921504606847000 is beyond ±2^53'],
  );
  t.deepEqual(typed.values.find((v) => v.name === 'y')?.type, { kind: 'tensor', dtype: 'int64', shape: [1] });
});

test('a dim_value declared on a computed value still clashes with a different inferred one', (t) => {
  const spec: ModelSpec = {
    inputs: [{ name: 'x', dtype: 'float32', shape: [2, 3] }],
    outputs: [{ name: 'y', dtype: 'float32', shape: [2, 4] }],
    nodes: [{ op: 'Relu', inputs: ['x'], outputs: ['y'] }],
  };
  const typed = typeModel(decodeModel(encodeModel(spec), 'm.onnx'));
  t.is(typed.diagnostics.filter((d) => d.severity === 'error').length, 1);
});

test('data propagation: Mul and Div on a symbolic shape value, and a Cast of it, stay exact', (t) => {
  // x: [N, 3, 8, 8] reshaped to [N * 2, x.shape[1] * 64 / 2]
  const model: ModelSpec = {
    inputs: [{ name: 'x', dtype: 'float32', shape: ['N', 3, 8, 8] }],
    outputs: [{ name: 'y', dtype: 'float32', shape: null }],
    initializers: [
      { name: 'i0', dtype: 'int64', dims: [1], int64: [0] },
      { name: 'i1', dtype: 'int64', dims: [1], int64: [1] },
      { name: 'two', dtype: 'int64', dims: [], int64: [2] },
      { name: 'k', dtype: 'int64', dims: [1], int64: [64] },
    ],
    nodes: [
      { op: 'Shape', inputs: ['x'], outputs: ['s'] },
      { op: 'Gather', inputs: ['s', 'i0'], outputs: ['n'] },
      { op: 'Mul', inputs: ['n', 'two'], outputs: ['n2'] },
      { op: 'Gather', inputs: ['s', 'i1'], outputs: ['c'] },
      { op: 'Mul', inputs: ['c', 'k'], outputs: ['ck'] },
      { op: 'Div', inputs: ['ck', 'two'], outputs: ['rest'] },
      { op: 'Concat', inputs: ['n2', 'rest'], outputs: ['target64'], attrs: { axis: 0 } },
      { op: 'Cast', inputs: ['target64'], outputs: ['target32'], attrs: { to: 6 } },
      { op: 'Cast', inputs: ['target32'], outputs: ['target'], attrs: { to: 7 } },
      { op: 'Reshape', inputs: ['x', 'target'], outputs: ['y'] },
    ],
  };
  const typed = typeModel(decodeModel(encodeModel(model), 'm.onnx'));
  t.deepEqual(typed.diagnostics, []);
  const byName = new Map(typed.values.map((v) => [v.name, v.type]));
  t.deepEqual(byName.get('n2'), { kind: 'tensor', dtype: 'int64', shape: [1], values: ['2*N'] });
  t.deepEqual(byName.get('target32'), { kind: 'tensor', dtype: 'int32', shape: [2], values: ['2*N', 96] });
  t.deepEqual(typed.outputs[0]!.type, { kind: 'tensor', dtype: 'float32', shape: ['2*N', 96] });
});

test('an ONNX operator declaration whose name is not domain::OpType@since is refused at its location', (t) => {
  const sources = loadText('relation R(x, y).\noperator "Relu"(X) : R -> tensor { doc "no domain, no version" }\n', 'bad.rules');
  const { diagnostics } = onnxOperators(sources);
  t.deepEqual(
    diagnostics.map((d) => `${d.span?.file}:${d.span?.start.line}: ${d.message}`),
    ['bad.rules:2: ONNX operator name "Relu" is not of the form "ai.onnx::OpType@since" (domain, op_type, first opset version)'],
  );
  t.deepEqual(onnxOperators(loadText('relation R(x, y).\noperator "ai.onnx.ml::Binarizer@1"(X) : R -> tensor { doc "fine" }\n', 'ok.rules')).diagnostics, []);
});

test('a size only the values decide is a size variable named after the node, never a failure', (t) => {
  t.deepEqual(
    typeNodeRequest({
      op_type: 'NonMaxSuppression',
      opset: 11,
      inputs: [
        { dtype: 'float32', shape: [1, 6, 4] },
        { dtype: 'float32', shape: [1, 1, 6] },
      ],
    }),
    {
      outputs: [{ dtype: 'int64', shape: ['NonMaxSuppression_0_0', 3] }],
    },
  );
  t.deepEqual(typeNodeRequest({ op_type: 'ImageDecoder', opset: 20, inputs: [{ dtype: 'uint8', shape: [100] }] }), {
    outputs: [{ dtype: 'uint8', shape: ['ImageDecoder_0_0', 'ImageDecoder_0_1', 3] }],
  });
  // known values decide it
  t.deepEqual(typeNodeRequest({ op_type: 'NonZero', opset: 13, inputs: [{ dtype: 'int64', shape: [2, 3], values: [0, 4, 0, 1, 1, 0] }] }), {
    outputs: [{ dtype: 'int64', shape: [2, 3] }],
  });
});

test("a rule's error and an unknown operator name the node", (t) => {
  const model: ModelSpec = {
    inputs: [
      { name: 'a', dtype: 'float32', shape: [2, 3] },
      { name: 'b', dtype: 'float32', shape: [4, 3] },
    ],
    outputs: [
      { name: 'c', dtype: 'float32', shape: null },
      { name: 'd', dtype: 'float32', shape: null },
    ],
    nodes: [
      { op: 'Add', inputs: ['a', 'b'], outputs: ['c'], name: 'add' },
      { op: 'NoSuchOp', inputs: ['a'], outputs: ['d'] },
    ],
  };
  const typed = typeModel(decodeModel(encodeModel(model), 'm.onnx'));
  t.deepEqual(typed.diagnostics.map((d) => d.message).sort(), [
    'node 0 (Add "add"): shapes [2, 3] and [4, 3] do not broadcast',
    'node 1 (NoSuchOp): no relation for ai.onnx.NoSuchOp at opset 18',
  ]);
});

test("a model's function body (an _expanded conformance model) types to the outputs ONNX recorded", (t) => {
  const model = decodeModel(readFileSync(join(FIXTURES, 'models', 'test_layer_normalization_2d_axis_negative_2_expanded_ver18', 'model.onnx')), 'm.onnx');
  const typed = typeModel(model);
  t.deepEqual(
    typed.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  t.deepEqual(
    typed.outputs.map((v) => v.type),
    [
      { kind: 'tensor', dtype: 'float32', shape: [3, 4] },
      { kind: 'tensor', dtype: 'float32', shape: [1, 1] },
      { kind: 'tensor', dtype: 'float32', shape: [1, 1] },
    ],
  );
});

test('shapelog infer MODEL.onnx: a listing, --json, --explain, --shape and --dim', (t) => {
  const dir = scratchFolder('onnx-infer');
  const file = join(dir.dir, 'flatten.onnx');
  writeFileSync(file, encodeModel(FLATTEN_BATCH));
  const listing = runShapelog(['infer', file]);
  t.is(listing.code, 0, listing.err);
  t.regex(listing.out, /4 Reshape\(x, target\) -> y: float32\[N, 48\]/);
  const json = runShapelog(['infer', file, '--json', '--dim', 'N=2']);
  t.is(json.code, 0, json.err);
  const parsed = JSON.parse(json.out) as { outputs: unknown[]; values: { name: string }[]; diagnostics: unknown[] };
  t.deepEqual(parsed.outputs, [{ name: 'y', op: 'output', dtype: 'float32', shape: [2, 48] }]);
  t.is(parsed.values.length, 5);
  const why = runShapelog(['infer', file, '--explain', 'y']);
  t.is(why.code, 0, why.err);
  // (a size variable that starts with a capital prints quoted, as atoms do)
  t.regex(why.out, /^OnnxReshape\(tensor\(\['N', 3, 4, 4\], float32, [^)]*\), tensor\(\[2\], int64, \['N', -1\]\), tensor\(\['N', 48\]/);
  t.regex(why.out, /OnnxShape\(tensor\(\['N', 3, 4, 4\]/);
  const unknown = runShapelog(['infer', file, '--explain', 'nope']);
  t.is(unknown.code, 2);
  t.regex(unknown.err, /--explain nope: no node of the model produces a value of that name \(for example s, n, n1, target, y\)/);
  // --write-value-info: the original bytes, then the inferred types, which a reader merges in
  const typedFile = join(dir.dir, 'typed.onnx');
  t.is(runShapelog(['infer', file, '--write-value-info', typedFile]).code, 0);
  const written = readFileSync(typedFile);
  t.deepEqual(written.subarray(0, encodeModel(FLATTEN_BATCH).length), Buffer.from(encodeModel(FLATTEN_BATCH)));
  const reread = decodeModel(written, 'typed.onnx');
  t.is(reread.graph.nodes.length, 5);
  t.deepEqual(
    reread.graph.valueInfo.map((v) => [v.name, v.type]),
    [
      ['s', { kind: 'tensor', dtype: 'int64', shape: [4] }],
      ['n', { kind: 'tensor', dtype: 'int64', shape: [] }],
      ['n1', { kind: 'tensor', dtype: 'int64', shape: [1] }],
      ['target', { kind: 'tensor', dtype: 'int64', shape: [2] }],
    ],
  );
  const shaped = runShapelog(['infer', file, '--json', '--shape', 'x=7,3,2,8']);
  t.deepEqual((JSON.parse(shaped.out) as { outputs: unknown[] }).outputs, [{ name: 'y', op: 'output', dtype: 'float32', shape: [7, 48] }]);
});

test('shapelog infer MODEL.onnx: bad input is a clear error, no stack trace', (t) => {
  const dir = scratchFolder('onnx-bad');
  const garbage = dir.file('garbage.onnx', 'this is not protobuf at all, just text\n');
  const r = runShapelog(['infer', garbage]);
  t.is(r.code, 1);
  t.regex(r.err, /garbage\.onnx: not a valid ONNX model|the model has no graph/);
  t.notRegex(r.err, /\n\s+at /);
  const missing = runShapelog(['infer', join(dir.dir, 'none.onnx')]);
  t.is(missing.code, 1);
  t.regex(missing.err, /cannot read .*none\.onnx: no such file\n/);
  const file = join(dir.dir, 'm.onnx');
  writeFileSync(file, encodeModel(FLATTEN_BATCH));
  const usage = runShapelog(['infer', file, '--shape', 'nope=1,2']);
  t.is(usage.code, 2);
  t.regex(usage.err, /--shape nope: the model has no graph input 'nope' \(its inputs: x\)/);
  t.is(runShapelog(['infer', file, '--dim', 'N=two']).code, 2);
});

test('shapelog typeof --onnx answers every line', (t) => {
  const r = runShapelog(['typeof', '--onnx'], {
    input: `${[
      '{"op_type": "Conv", "opset": 11, "attributes": {"strides": {"type": "ints", "value": [2, 2]}}, "inputs": [{"dtype": "float32", "shape": [1, 3, 9, 9]}, {"dtype": "float32", "shape": [8, 3, 3, 3]}]}',
      '{"op_type": "Split", "opset": 18, "attributes": {"num_outputs": {"type": "int", "value": 3}}, "inputs": [{"dtype": "float32", "shape": [7]}], "outputs": [{}, {}, {}]}',
      'not json',
      '{"op_type": "Relu", "opset": 99, "inputs": [{"dtype": "float32", "shape": [2]}]}',
      '{"op_type": "Relu", "opset": 14, "inputs": [{"dtype": "float32", "shape": "2x3"}]}',
    ].join('\n')}\n`,
  });
  t.is(r.code, 1);
  const lines = r.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
  t.deepEqual(lines[3], { error: 'line 4: opset 99 of domain "ai.onnx" is unknown (shapelog knows versions 1 to 28)' });
  t.deepEqual(lines[4], { error: 'line 5: inputs[0].shape: a shape is a list of dims' });
  t.deepEqual(lines[0], { outputs: [{ dtype: 'float32', shape: [1, 8, 4, 4] }] });
  t.deepEqual(lines[1], {
    outputs: [
      { dtype: 'float32', shape: [3] },
      { dtype: 'float32', shape: [3] },
      { dtype: 'float32', shape: [1] },
    ],
  });
  t.regex(JSON.stringify(lines[2]), /line 3: not JSON/);
});
