// The ONNX reader (frontends/onnx/): what it keeps of a model (types with dim_value,
// dim_param, unknown dims and unknown rank; initializers and their small integer
// values; attributes; nested graphs; opsets; model-local functions, inlined; external
// data) and what it refuses, each with a message naming the node or field.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeModel } from '../frontends/onnx/decode.js';
import { UserError } from '../diagnostics/diagnostic.js';
import { encodeModel, type ModelSpec } from './onnx-builder.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'onnx', 'models');
const fixture = (name: string) => readFileSync(join(FIXTURES, name, 'model.onnx'));

function refusal(bytes: Uint8Array): string {
  try {
    decodeModel(bytes, 'm.onnx');
  } catch (e) {
    if (e instanceof UserError) return e.message;
    throw e;
  }
  throw new Error('expected the model to be refused');
}

const RESHAPE: ModelSpec = {
  inputs: [
    { name: 'x', dtype: 'float32', shape: ['N', 3, null, 4] },
    { name: 'y', dtype: 'float32', shape: null },
  ],
  outputs: [{ name: 'out', dtype: 'float32', shape: null }],
  initializers: [{ name: 'shape', dtype: 'int64', dims: [2], int64: [0, -1] }],
  valueInfo: [{ name: 'out', dtype: 'float32', shape: ['N', null] }],
  nodes: [{ op: 'Reshape', inputs: ['x', 'shape'], outputs: ['out'], name: 'r' }],
};

test('a model ONNX wrote: its inputs, outputs and node', (t) => {
  const m = decodeModel(fixture('test_reshape_reordered_all_dims'), 'm.onnx');
  t.is(m.opsets.get(''), 25);
  t.deepEqual(
    m.graph.inputs.map((v) => [v.name, v.type]),
    [
      ['data', { kind: 'tensor', dtype: 'float32', shape: [2, 3, 4] }],
      ['shape', { kind: 'tensor', dtype: 'int64', shape: [3] }],
    ],
  );
  t.deepEqual(
    m.graph.nodes.map((n) => [n.opType, n.inputs, n.outputs]),
    [['Reshape', ['data', 'shape'], ['reshaped']]],
  );
});

test('dims: a value, a parameter, unknown; an unknown rank; value_info; int64 initializer values', (t) => {
  const m = decodeModel(encodeModel(RESHAPE), 'm.onnx');
  t.deepEqual(m.graph.inputs[0]!.type, { kind: 'tensor', dtype: 'float32', shape: ['N', 3, null, 4] });
  t.deepEqual(m.graph.inputs[1]!.type, { kind: 'tensor', dtype: 'float32', shape: null });
  t.deepEqual(m.graph.valueInfo[0]!.type, { kind: 'tensor', dtype: 'float32', shape: ['N', null] });
  t.deepEqual(m.graph.initializers[0], { name: 'shape', dtype: 'int64', dims: [2], values: [0, -1], external: false });
  t.is(m.graph.nodes[0]!.name, 'r');
});

test('64-bit fields are plain numbers: dims, int64 data, int attributes, beyond 32 bits and negative', (t) => {
  const m = decodeModel(
    encodeModel({
      opsets: { '': 18 },
      inputs: [{ name: 'x', dtype: 'float32', shape: [2 ** 35, 1] }],
      outputs: [{ name: 'y', dtype: 'float32', shape: null }],
      initializers: [{ name: 'k', dtype: 'int64', dims: [3], int64: [2 ** 40, -(2 ** 40), -1] }],
      nodes: [{ op: 'Custom', inputs: ['x', 'k'], outputs: ['y'], attrs: { i: -(2 ** 33), ints: [2 ** 33, -5] } }],
    }),
    'm.onnx',
  );
  t.deepEqual(m.graph.inputs[0]!.type, { kind: 'tensor', dtype: 'float32', shape: [2 ** 35, 1] });
  t.deepEqual(m.graph.initializers[0]!.values, [2 ** 40, -(2 ** 40), -1]);
  t.deepEqual(m.graph.nodes[0]!.attrs.get('i'), { kind: 'int', value: -(2 ** 33) });
  t.deepEqual(m.graph.nodes[0]!.attrs.get('ints'), { kind: 'ints', value: [2 ** 33, -5] });
});

test('raw_data values are read little-endian; external data keeps only dtype and dims', (t) => {
  const raw = new Uint8Array(new BigInt64Array([3n, -2n]).buffer);
  const m = decodeModel(
    encodeModel({
      inputs: [],
      outputs: [{ name: 'w', dtype: 'float32', shape: [64, 64] }],
      initializers: [
        { name: 'r', dtype: 'int64', dims: [2], raw },
        { name: 'w', dtype: 'float32', dims: [64, 64], external: true },
      ],
      nodes: [],
    }),
    'm.onnx',
  );
  t.deepEqual(
    m.graph.initializers.map((x) => [x.name, x.values, x.external]),
    [
      ['r', [3, -2], false],
      ['w', null, true],
    ],
  );
  t.deepEqual(m.graph.initializers[1]!.dims, [64, 64]);
});

test('attributes of every kind, and a Constant node', (t) => {
  const m = decodeModel(
    encodeModel({
      inputs: [{ name: 'x', dtype: 'float32', shape: [1, 3, 8, 8] }],
      outputs: [{ name: 'y', dtype: 'float32', shape: null }],
      nodes: [
        { op: 'Constant', inputs: [], outputs: ['c'], attrs: { value: { tensor: { name: '', dtype: 'int64', dims: [1], int64: [7] } } } },
        { op: 'MaxPool', inputs: ['x'], outputs: ['y'], attrs: { kernel_shape: [2, 2], auto_pad: 'VALID', ceil_mode: 1, p: 0.5 } },
      ],
    }),
    'm.onnx',
  );
  t.deepEqual(m.graph.nodes[0]!.attrs.get('value'), { kind: 'tensor', value: { name: '', dtype: 'int64', dims: [1], values: [7], external: false } });
  const pool = m.graph.nodes[1]!.attrs;
  t.deepEqual(pool.get('kernel_shape'), { kind: 'ints', value: [2, 2] });
  t.deepEqual(pool.get('auto_pad'), { kind: 'string', value: 'VALID' });
  t.deepEqual(pool.get('ceil_mode'), { kind: 'int', value: 1 });
  t.deepEqual(pool.get('p'), { kind: 'float', value: 0.5 });
});

test("the nested graphs of an If are read, and may use the outer graph's values", (t) => {
  const branch = (op: string) => ({
    inputs: [],
    outputs: [{ name: `${op}_out`, dtype: 'float32', shape: [2] }],
    nodes: [{ op, inputs: ['x'], outputs: [`${op}_out`] }],
  });
  const m = decodeModel(
    encodeModel({
      inputs: [
        { name: 'c', dtype: 'bool', shape: [] },
        { name: 'x', dtype: 'float32', shape: [2] },
      ],
      outputs: [{ name: 'y', dtype: 'float32', shape: [2] }],
      nodes: [{ op: 'If', inputs: ['c'], outputs: ['y'], attrs: { then_branch: { graph: branch('Relu') }, else_branch: { graph: branch('Neg') } } }],
    }),
    'm.onnx',
  );
  const then = m.graph.nodes[0]!.attrs.get('then_branch');
  t.is(then?.kind, 'graph');
  t.deepEqual(then?.kind === 'graph' ? then.value.nodes.map((n) => n.opType) : [], ['Relu']);
  const scan = decodeModel(fixture('test_scan9_sum'), 'm.onnx');
  t.is(scan.graph.nodes[0]!.opType, 'Scan');
  t.is(scan.graph.nodes[0]!.attrs.get('body')?.kind, 'graph');
});

test('a model-local function is inlined: its values renamed, its attribute references bound', (t) => {
  const m = decodeModel(
    encodeModel({
      opsets: { '': 18, 'my.fns': 1 },
      inputs: [{ name: 'x', dtype: 'float32', shape: [4] }],
      outputs: [{ name: 'y', dtype: 'float32', shape: [4] }],
      nodes: [{ op: 'Twice', domain: 'my.fns', inputs: ['x'], outputs: ['y'], name: 'call', attrs: { slope: 0.2 } }],
      functions: [
        {
          name: 'Twice',
          domain: 'my.fns',
          inputs: ['a'],
          outputs: ['b'],
          attrs: ['slope'],
          nodes: [
            { op: 'LeakyRelu', inputs: ['a'], outputs: ['t'], attrs: { alpha: { ref: 'slope' } } },
            { op: 'Relu', inputs: ['t'], outputs: ['b'] },
          ],
        },
      ],
    }),
    'm.onnx',
  );
  t.deepEqual(
    m.graph.nodes.map((n) => [n.opType, n.inputs, n.outputs]),
    [
      ['LeakyRelu', ['x'], ['call/Twice/t']],
      ['Relu', ['call/Twice/t'], ['y']],
    ],
  );
  const alpha = m.graph.nodes[0]!.attrs.get('alpha');
  t.is(alpha?.kind, 'float');
  t.true(alpha?.kind === 'float' && Math.abs(alpha.value - 0.2) < 1e-6);
});

test('nodes written out of order are sorted; the written order is kept when it is valid', (t) => {
  const spec: ModelSpec = {
    inputs: [{ name: 'x', dtype: 'float32', shape: [2] }],
    outputs: [{ name: 'z', dtype: 'float32', shape: [2] }],
    nodes: [
      { op: 'Relu', inputs: ['y'], outputs: ['z'] },
      { op: 'Neg', inputs: ['x'], outputs: ['y'] },
    ],
  };
  t.deepEqual(
    decodeModel(encodeModel(spec), 'm.onnx').graph.nodes.map((n) => n.opType),
    ['Neg', 'Relu'],
  );
  t.deepEqual(
    decodeModel(encodeModel({ ...spec, nodes: [...spec.nodes].reverse() }), 'm.onnx').graph.nodes.map((n) => n.opType),
    ['Neg', 'Relu'],
  );
});

test('refused: truncated or malformed bytes, and an empty file', (t) => {
  const bytes = fixture('test_layer_normalization_2d_axis_negative_2_expanded_ver18');
  t.regex(refusal(bytes.subarray(0, bytes.length - 7)), /m\.onnx: not a valid ONNX model \(malformed protobuf/);
  t.regex(refusal(Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 1, 2])), /not a valid ONNX model/);
  t.regex(refusal(new Uint8Array()), /the model has no graph .*the file is empty/);
});

test('a field written with another wire type than its own is stepped over as unknown, as protobuf (ONNX too) reads it', (t) => {
  const bytes = Buffer.from(encodeModel(RESHAPE));
  // first producer_name (field 2, a string) as the varint 5, which read as a string's length would swallow the
  // 5 bytes after it; last ir_version (field 1, a varint) as a length-delimited field of one byte
  const odd = Buffer.concat([Buffer.from([0x10, 0x05]), bytes, Buffer.from([0x0a, 0x01, 0x05])]);
  const plain = decodeModel(bytes, 'm.onnx');
  const read = decodeModel(odd, 'm.onnx');
  t.deepEqual(read.graph, plain.graph);
  t.deepEqual([...read.opsets], [...plain.opsets]);
});

test('refused: a string that runs past the end of the file, in a Buffer as a file is read', (t) => {
  // producer_name (field 2) said to be 13 bytes long, with none after it: protobufjs alone would read it as cut short
  const bytes = Buffer.concat([Buffer.from(encodeModel(RESHAPE)), Buffer.from([0x12, 0x0d])]);
  t.regex(refusal(bytes), /m\.onnx: not a valid ONNX model \(malformed protobuf: index out of range/);
});

test('refused: an unknown opset, a domain not imported, a missing input, a cycle, a value produced twice', (t) => {
  t.regex(refusal(encodeModel({ ...RESHAPE, opsets: { '': 99 } })), /opset_import: version 99 of domain "ai\.onnx" is unknown/);
  t.regex(
    refusal(encodeModel({ ...RESHAPE, nodes: [{ ...RESHAPE.nodes[0]!, domain: 'com.acme' }] })),
    /node 0 \(com\.acme\.Reshape "r"\): its domain "com\.acme" is not imported/,
  );
  t.regex(
    refusal(encodeModel({ ...RESHAPE, nodes: [{ op: 'Reshape', inputs: ['x', 'nope'], outputs: ['out'], name: 'r' }] })),
    /node 0 \(Reshape "r"\): input 'nope' is not a graph input, an initializer or any node's output/,
  );
  const cycle: ModelSpec = {
    inputs: [{ name: 'x', dtype: 'float32', shape: [2] }],
    outputs: [{ name: 'b', dtype: 'float32', shape: [2] }],
    nodes: [
      { op: 'Add', inputs: ['x', 'b'], outputs: ['a'], name: 'first' },
      { op: 'Relu', inputs: ['a'], outputs: ['b'] },
    ],
  };
  t.regex(refusal(encodeModel(cycle)), /not topologically sortable: node 0 \(Add "first"\) waits for 'b' \(from node 1 \(Relu\)\)/);
  t.regex(
    refusal(
      encodeModel({
        ...cycle,
        nodes: [
          { op: 'Relu', inputs: ['x'], outputs: ['b'] },
          { op: 'Neg', inputs: ['x'], outputs: ['b'] },
        ],
      }),
    ),
    /node 1 \(Neg\): output 'b' is already produced by node 0 \(Relu\)/,
  );
});
