// `shapelog infer MODEL.onnx --gradual` (typing/onnx/gradual.ts): residual checks per
// node where a condition on symbolic dims cannot be decided, typing going on under them.
// The models are written by frontends/onnx/encode.ts; each expected check and type is
// worked out by hand (in the comments).
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeModel } from '../frontends/onnx/encode.js';
import type { OnnxGraph, OnnxNode, OnnxType } from '../frontends/onnx/model.js';
import { readModel } from '../typing/onnx/model-types.js';
import { typeModelGradually } from '../typing/onnx/gradual.js';
import { dimEvaluate } from '../solver/terms/dims.js';
import { runShapelog } from './helpers.js';

const f32 = (shape: (number | string)[]): OnnxType => ({ kind: 'tensor', dtype: 'float32', shape });
const node = (name: string, opType: string, inputs: string[], outputs: string[], index: number): OnnxNode => ({
  name,
  opType,
  domain: '',
  inputs,
  outputs,
  attrs: new Map(),
  index,
});

/** X [n, 4] + Y [3, 4] -> Z, Relu(Z) -> Z2; P [h, w] reshaped to [6, 4] -> R2 and to [-1, 4] -> R. */
const GRAPH: OnnxGraph = {
  name: 'g',
  inputs: [
    { name: 'X', type: f32(['n', 4]) },
    { name: 'Y', type: f32([3, 4]) },
    { name: 'P', type: f32(['h', 'w']) },
  ],
  outputs: [
    { name: 'Z2', type: null },
    { name: 'R2', type: null },
    { name: 'R', type: null },
  ],
  valueInfo: [],
  initializers: [
    { name: 'fixed', dtype: 'int64', dims: [2], values: [6, 4], external: false },
    { name: 'open', dtype: 'int64', dims: [2], values: [-1, 4], external: false },
  ],
  nodes: [
    node('add_xy', 'Add', ['X', 'Y'], ['Z'], 0),
    node('relu_z', 'Relu', ['Z'], ['Z2'], 1),
    node('to_6x4', 'Reshape', ['P', 'fixed'], ['R2'], 2),
    node('to_rows_of_4', 'Reshape', ['P', 'open'], ['R'], 3),
  ],
};

const dir = mkdtempSync(join(tmpdir(), 'shapelog-onnx-gradual-'));
const MODEL = join(dir, 'add-reshape.onnx');
writeFileSync(MODEL, encodeModel(GRAPH, new Map([['', 18]]), 8));

test('an Add of n against 3 is typed under n == 1 || n == 3, the node after it too; a Reshape of h x w to 6 x 4 needs h*w == 24', (t) => {
  const g = typeModelGradually(readModel(MODEL));
  // by hand: n broadcast against 3 types when n is 1 or 3, giving [3, 4] either way;
  // Reshape keeps the element count: h*w must be 24
  t.deepEqual(
    g.checks.map((c) => `${c.node} ${c.opType}: ${c.condition}`),
    ['add_xy Add: n == 1 || n == 3', 'to_6x4 Reshape: h*w == 24'],
  );
  const type = (name: string) =>
    JSON.stringify(
      g.typed.values.find((v) => v.name === name)?.type?.kind === 'tensor'
        ? (g.typed.values.find((v) => v.name === name)!.type as { shape: unknown }).shape
        : null,
    );
  t.is(type('Z'), '[3,4]');
  t.is(type('Z2'), '[3,4]', 'typing goes on under the assumption');
  t.is(type('R2'), '[6,4]');
  t.deepEqual(g.typed.diagnostics, []);
  // each check can fail (n = 2; h = w = 5) and holds where hand-worked (n = 1, n = 3; h = 4, w = 6)
  const holds = (i: number, sizes: Record<string, number>) => g.checks[i]!.anyOf.some((c) => dimEvaluate(c.left, sizes) === dimEvaluate(c.right, sizes));
  t.deepEqual([holds(0, { n: 1 }), holds(0, { n: 3 }), holds(0, { n: 2 })], [true, true, false]);
  t.deepEqual([holds(1, { h: 4, w: 6 }), holds(1, { h: 5, w: 5 })], [true, false]);
});

test('infer MODEL.onnx --gradual lists the checks per node; --checks-only just them; --json adds checks; without --gradual Z stays unknown', (t) => {
  const plain = runShapelog(['infer', MODEL]);
  t.is(plain.code, 0, plain.err);
  t.regex(plain.out, /Add "add_xy"\(X, Y\) -> Z: \?/);
  t.notRegex(plain.out, /checks:/);
  const listed = runShapelog(['infer', MODEL, '--gradual']);
  t.is(listed.code, 0, listed.err);
  t.regex(listed.out, /Add "add_xy"\(X, Y\) -> Z: float32\[3, 4\]/);
  t.regex(
    listed.out,
    /checks:\n {2}node "add_xy" \(Add\): n == 1 \|\| n == 3 \(assumed: Add gives float32\[3, 4\]\)\n {2}node "to_6x4" \(Reshape\): h\*w == 24\n/,
  );
  const only = runShapelog(['infer', MODEL, '--gradual', '--checks-only']);
  t.is(only.code, 0, only.err);
  t.deepEqual(only.out.trim().split('\n'), [
    `${MODEL}: node "add_xy" (Add): n == 1 || n == 3 (assumed: Add gives float32[3, 4])`,
    `${MODEL}: node "to_6x4" (Reshape): h*w == 24`,
  ]);
  const json = runShapelog(['infer', MODEL, '--gradual', '--json']);
  t.is(json.code, 0, json.err);
  const parsed = JSON.parse(json.out) as { checks: { node: string; op: string; condition: string }[]; values: { name: string; shape: unknown }[] };
  t.deepEqual(
    parsed.checks.map((c) => [c.node, c.op, c.condition]),
    [
      ['add_xy', 'Add', 'n == 1 || n == 3'],
      ['to_6x4', 'Reshape', 'h*w == 24'],
    ],
  );
  t.deepEqual(parsed.values.find((v) => v.name === 'Z2')?.shape, [3, 4]);
  const noGradual = runShapelog(['infer', MODEL, '--checks-only']);
  t.is(noGradual.code, 2);
});

test('a model whose shapes are all decided has no checks', (t) => {
  const known: OnnxGraph = {
    ...GRAPH,
    inputs: [
      { name: 'X', type: f32([3, 4]) },
      { name: 'Y', type: f32([3, 4]) },
      { name: 'P', type: f32([4, 6]) },
    ],
  };
  const file = join(dir, 'known.onnx');
  writeFileSync(file, encodeModel(known, new Map([['', 18]]), 8));
  const g = typeModelGradually(readModel(file));
  t.deepEqual(g.checks, []);
  t.deepEqual(g.typed.diagnostics, []);
});
