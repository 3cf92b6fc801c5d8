// frontends/onnx/sparse-read.ts: a model file read without the element data of its large
// tensors decodes to the same model as the whole file (decode.ts on readFileSync's bytes:
// the oracle), wherever the tensors are (initializers, Constant nodes, a subgraph's node,
// int64_data and float_data as well as raw_data), with far fewer bytes; a file the walk
// cannot follow is read whole, so its error is the decoder's.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { decodeModel } from '../frontends/onnx/decode.js';
import { MAX_READ_TENSOR_BYTES, readModelBytes } from '../frontends/onnx/sparse-read.js';
import { encodeModel } from './onnx-builder.js';
import { scratchFolder } from './helpers.js';

const root = join(import.meta.dirname, '..');
const { file } = scratchFolder('shapelog-sparse-read-');

const decodedAlike = (path: string) => isDeepStrictEqual(decodeModel(readModelBytes(path), path), decodeModel(readFileSync(path), path));

// a 2 MB model: weights in an initializer, in a Constant node, in an If branch's Constant,
// as int64_data and float_data; small integer tensors whose values typing reads
const big = (n: number) => new Uint8Array(n).map((_, i) => i % 251);
const WEIGHTS = 1 << 20;
const model = encodeModel({
  inputs: [
    { name: 'x', dtype: 'float32', shape: ['N', 16] },
    { name: 'c', dtype: 'bool', shape: [] },
  ],
  outputs: [{ name: 'y', dtype: 'float32', shape: null }],
  initializers: [
    { name: 'w', dtype: 'float32', dims: [WEIGHTS / 4], raw: big(WEIGHTS) },
    { name: 'ids', dtype: 'int64', dims: [5000], int64: Array.from({ length: 5000 }, (_, i) => i) },
    { name: 'shape', dtype: 'int64', dims: [2], int64: [-1, 16] },
    { name: 'axes', dtype: 'int64', dims: [1], raw: new Uint8Array(new BigInt64Array([1n]).buffer) },
  ],
  nodes: [
    { op: 'Constant', inputs: [], outputs: ['k'], attrs: { value: { tensor: { name: 'k', dtype: 'float32', dims: [65536], raw: big(262144) } } } },
    { op: 'Reshape', inputs: ['x', 'shape'], outputs: ['r'] },
    {
      op: 'If',
      inputs: ['c'],
      outputs: ['y'],
      attrs: {
        then_branch: {
          graph: {
            inputs: [],
            outputs: [{ name: 't', dtype: 'float32', shape: null }],
            nodes: [
              { op: 'Constant', inputs: [], outputs: ['t'], attrs: { value: { tensor: { name: 't', dtype: 'float32', dims: [40000], raw: big(160000) } } } },
            ],
          },
        },
        else_branch: {
          graph: { inputs: [], outputs: [{ name: 'e', dtype: 'float32', shape: null }], nodes: [{ op: 'Identity', inputs: ['r'], outputs: ['e'] }] },
        },
      },
    },
  ],
});

test('a model with large tensors everywhere: the same decoded model from a twentieth of the bytes', (t) => {
  const path = join(file('big.onnx', ''), '..', 'big.onnx');
  writeFileSync(path, model);
  t.true(model.length > WEIGHTS + 400_000, `${model.length} bytes`);
  const sparse = readModelBytes(path);
  t.true(sparse.length < model.length / 20, `${sparse.length} of ${model.length} bytes`);
  t.true(decodedAlike(path));
  // what typing reads is there: the small integer tensors' values
  const m = decodeModel(sparse, path);
  t.deepEqual(m.graph.initializers.find((x) => x.name === 'shape')?.values, [-1, 16]);
  t.deepEqual(m.graph.initializers.find((x) => x.name === 'axes')?.values, [1]);
  t.deepEqual(m.graph.initializers.find((x) => x.name === 'w')?.dims, [WEIGHTS / 4]);
});

test('the bundled models decode alike; a small file is read as it is', (t) => {
  for (const f of ['silero_vad_v5.onnx', 'openwakeword_hello_deepa.onnx']) t.true(decodedAlike(join(root, 'examples', 'onnx', 'models', f)), f);
  for (const f of ['ch_PP-OCRv4_det_infer.onnx', 'ch_PP-OCRv4_rec_infer.onnx']) {
    const path = join(root, 'node_modules', '@gutenye', 'ocr-models', 'assets', f);
    t.true(decodedAlike(path), f);
    t.true(readModelBytes(path).length < readFileSync(path).length / 10, f);
  }
  const small = join(root, 'examples', 'onnx', 'models', 'openwakeword_hello_deepa.onnx');
  t.true(Buffer.from(readModelBytes(small)).equals(readFileSync(small)));
});

test('a truncated or malformed large file is read whole: the decoder reports it as for the whole file', (t) => {
  const error = (bytes: Uint8Array, path: string) => {
    try {
      decodeModel(bytes, path);
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  };
  for (const [name, bytes] of [
    ['truncated.onnx', model.subarray(0, model.length - 1000)],
    ['cut-in-the-weights.onnx', model.subarray(0, 500_000)],
    ['trailing-garbage.onnx', Buffer.concat([model, Buffer.alloc(3, 0xff)])],
  ] as const) {
    const path = file(name, '');
    writeFileSync(path, bytes);
    const whole = error(readFileSync(path), path);
    t.truthy(whole, `${name} is refused`);
    t.is(error(readModelBytes(path), path), whole, name);
  }
  t.is(MAX_READ_TENSOR_BYTES, 4096 * 8);
});
