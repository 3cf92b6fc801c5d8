// The ONNX models the fuzz harness mutates: the small node-test models copied into
// test/fixtures/onnx/models/ (Reshape, Split, MaxPool, LayerNormalization expanded, Scan,
// SequenceMap), and two written here for what those lack: the shape arithmetic of an
// exported model on a symbolic batch (Shape -> Gather -> Concat -> Reshape, Expand,
// ConstantOfShape, Range) and an If whose condition is a graph input, with branches of
// different shapes (typed by worlds, typing/onnx/if-worlds.ts). Each is a few hundred
// bytes, so that a saved regression stays readable.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeModel } from '../../frontends/onnx/encode.js';
import type { OnnxAttr, OnnxGraph, OnnxNode, OnnxTensor, OnnxType } from '../../frontends/onnx/model.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'onnx', 'models');

const tensorType = (dtype: string, shape: (number | string)[] | null): OnnxType => ({ kind: 'tensor', dtype, shape });

function node(index: number, opType: string, inputs: string[], outputs: string[], attrs: [string, OnnxAttr][] = []): OnnxNode {
  return { name: `${opType.toLowerCase()}_${index}`, opType, domain: '', inputs, outputs, attrs: new Map(attrs), index };
}

const ints64 = (name: string, values: number[], dims = [values.length]): OnnxTensor => ({ name, dtype: 'int64', dims, values, external: false });

/** x: [N, 3, 4, 5] reshaped to [N, 60] through its own shape, then expanded, filled and counted. */
function shapeArithmetic(): Uint8Array {
  const graph: OnnxGraph = {
    name: 'shape_arithmetic',
    inputs: [{ name: 'x', type: tensorType('float32', ['N', 3, 4, 5]) }],
    outputs: [
      { name: 'y', type: tensorType('float32', null) },
      { name: 'z', type: tensorType('float32', null) },
      { name: 'r', type: tensorType('int64', null) },
    ],
    valueInfo: [],
    initializers: [ints64('first', [0]), ints64('rest', [-1]), ints64('ones', [1, 1]), ints64('start', [0], []), ints64('step', [2], [])],
    nodes: [
      node(0, 'Shape', ['x'], ['s']),
      node(1, 'Gather', ['s', 'first'], ['batch'], [['axis', { kind: 'int', value: 0 }]]),
      node(2, 'Concat', ['batch', 'rest'], ['target'], [['axis', { kind: 'int', value: 0 }]]),
      node(3, 'Reshape', ['x', 'target'], ['y']),
      node(4, 'Concat', ['batch', 'ones'], ['wide'], [['axis', { kind: 'int', value: 0 }]]),
      node(5, 'ConstantOfShape', ['wide'], ['filled']),
      node(6, 'Expand', ['filled', 'wide'], ['z']),
      node(7, 'Squeeze', ['batch'], ['n']),
      node(8, 'Range', ['start', 'n', 'step'], ['r']),
    ],
  };
  return encodeModel(graph, new Map([['', 13]]), 8);
}

/** An If on a graph input: then keeps x ([N, 3, 4, 5]), else reshapes it to [N, 60]; a Relu follows. */
function ifOnInput(): Uint8Array {
  const branch = (name: string, nodes: OnnxNode[], out: string): OnnxGraph => ({
    name,
    inputs: [],
    outputs: [{ name: out, type: null }],
    valueInfo: [],
    initializers: [],
    nodes,
  });
  const graph: OnnxGraph = {
    name: 'if_on_input',
    inputs: [
      { name: 'cond', type: tensorType('bool', []) },
      { name: 'x', type: tensorType('float32', ['N', 3, 4, 5]) },
    ],
    outputs: [{ name: 'y', type: tensorType('float32', null) }],
    valueInfo: [],
    initializers: [ints64('target', [0, -1])],
    nodes: [
      node(
        0,
        'If',
        ['cond'],
        ['picked'],
        [
          ['then_branch', { kind: 'graph', value: branch('then', [node(0, 'Identity', ['x'], ['t'])], 't') }],
          ['else_branch', { kind: 'graph', value: branch('else', [node(0, 'Reshape', ['x', 'target'], ['e'])], 'e') }],
        ],
      ),
      node(1, 'Relu', ['picked'], ['y']),
    ],
  };
  return encodeModel(graph, new Map([['', 13]]), 8);
}

let seeds: Uint8Array[] | null = null;

/** Every seed model's bytes, fixtures first (sorted by folder), then the two written here. */
export function onnxSeeds(): readonly Uint8Array[] {
  if (seeds !== null) return seeds;
  const fixtures = readdirSync(FIXTURES, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
    .map((d) => new Uint8Array(readFileSync(join(FIXTURES, d, 'model.onnx'))));
  seeds = [...fixtures, shapeArithmetic(), ifOnInput()];
  return seeds;
}
