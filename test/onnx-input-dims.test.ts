// The anonymous dims of a graph's inputs (neither dim_value nor dim_param) are size
// variables of their own, `INPUT#AXIS` (typing/onnx/input-dims.ts): the values derived
// from them get fully known symbolic shapes, equal dims are seen as equal, the name
// never stands for a declared dim_param, and the CLI prints, fixes (--dim) and writes
// (--write-value-info) it like a dim_param.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeModel } from '../frontends/onnx/decode.js';
import { typeModel } from '../typing/onnx/model-types.js';
import { graphInputDims } from '../typing/onnx/input-dims.js';
import { encodeModel, type ModelSpec } from './onnx-builder.js';
import { runShapelog, scratchFolder } from './helpers.js';

// x: [?, 3]; y = x @ x^T: [x#0, x#0] (both dims the same anonymous dim); z = Concat(x, x) on axis 1
const GRAM: ModelSpec = {
  inputs: [{ name: 'x', dtype: 'float32', shape: [null, 3] }],
  outputs: [
    { name: 'y', dtype: 'float32', shape: null },
    { name: 'z', dtype: 'float32', shape: null },
  ],
  nodes: [
    { op: 'Transpose', inputs: ['x'], outputs: ['xt'], attrs: { perm: [1, 0] } },
    { op: 'MatMul', inputs: ['x', 'xt'], outputs: ['y'] },
    { op: 'Concat', inputs: ['x', 'x'], outputs: ['z'], attrs: { axis: 1 } },
  ],
};

const tensor = (shape: (number | string | null)[]) => ({ kind: 'tensor', dtype: 'float32', shape });

test('an anonymous input dim is a size variable INPUT#AXIS: derived shapes are fully known and equal dims equal', (t) => {
  const typed = typeModel(decodeModel(encodeModel(GRAM), 'm.onnx'));
  t.deepEqual(typed.diagnostics, []);
  t.deepEqual(
    typed.inputs.map((v) => v.type),
    [tensor(['x#0', 3])],
  );
  t.deepEqual(
    typed.values.map((v) => [v.name, v.type]),
    [
      ['xt', tensor([3, 'x#0'])],
      ['y', tensor(['x#0', 'x#0'])],
      ['z', tensor(['x#0', 6])],
    ],
  );
});

test('two inputs get different names; the name of an anonymous dim never is a dim_param of an input', (t) => {
  const spec: ModelSpec = {
    // b's first dim is declared with the name a's anonymous dim would get
    inputs: [
      { name: 'a', dtype: 'float32', shape: [null, 4] },
      { name: 'b', dtype: 'float32', shape: ['a#0', null] },
    ],
    outputs: [{ name: 'c', dtype: 'float32', shape: null }],
    nodes: [{ op: 'Concat', inputs: ['a', 'b'], outputs: ['c'], attrs: { axis: 0 } }],
  };
  const typed = typeModel(decodeModel(encodeModel(spec), 'm.onnx'));
  t.deepEqual(
    typed.inputs.map((v) => v.type),
    [tensor(['a#0#', 4]), tensor(['a#0', 'b#1'])],
  );
  // Concat on axis 0 makes the other axis equal: b#1 is 4, the first dim the sum
  t.deepEqual(
    typed.values.map((v) => v.type),
    [tensor(['"a#0" + "a#0#"', 4])],
  );
  // the bench counts a dim as known when it is made of these names
  t.deepEqual([...graphInputDims(decodeModel(encodeModel(spec), 'm.onnx').graph)].sort(), ['a#0', 'a#0#', 'b#1']);
});

test('an input whose shape --shape gives with ? gets the same kind of name; a dim given by --shape is kept', (t) => {
  const typed = typeModel(decodeModel(encodeModel(GRAM), 'm.onnx'), { shapes: new Map([['x', [null, 3]]]) });
  t.deepEqual(typed.values.find((v) => v.name === 'y')!.type, tensor(['x#0', 'x#0']));
  const fixed = typeModel(decodeModel(encodeModel(GRAM), 'm.onnx'), { shapes: new Map([['x', [5, 3]]]) });
  t.deepEqual(fixed.values.find((v) => v.name === 'y')!.type, tensor([5, 5]));
});

test('shapelog infer: the listing and --json show the name, --dim fixes it, --write-value-info writes it as a dim_param', (t) => {
  const dir = scratchFolder('onnx-input-dims');
  const file = join(dir.dir, 'gram.onnx');
  writeFileSync(file, encodeModel(GRAM));
  const listing = runShapelog(['infer', file]);
  t.is(listing.code, 0, listing.err);
  t.regex(listing.out, /x: float32\[x#0, 3\]/);
  t.regex(listing.out, /MatMul\(x, xt\) -> y: float32\[x#0, x#0\]/);
  const json = runShapelog(['infer', file, '--json']);
  t.is(json.code, 0, json.err);
  t.deepEqual((JSON.parse(json.out) as { outputs: unknown[] }).outputs, [
    { name: 'y', op: 'output', dtype: 'float32', shape: ['x#0', 'x#0'] },
    { name: 'z', op: 'output', dtype: 'float32', shape: ['x#0', 6] },
  ]);
  const fixed = runShapelog(['infer', file, '--json', '--dim', 'x#0=7']);
  t.is(fixed.code, 0, fixed.err);
  t.deepEqual(
    (JSON.parse(fixed.out) as { outputs: { shape: unknown }[] }).outputs.map((o) => o.shape),
    [
      [7, 7],
      [7, 6],
    ],
  );
  const typedFile = join(dir.dir, 'typed.onnx');
  t.is(runShapelog(['infer', file, '--write-value-info', typedFile]).code, 0);
  const reread = decodeModel(readFileSync(typedFile), 'typed.onnx');
  // (the graph outputs keep their declarations: value_info is for the values in between)
  t.deepEqual(
    reread.graph.valueInfo.map((v) => [v.name, v.type]),
    [['xt', tensor([3, 'x#0'])]],
  );
  // read back, the written dim_param is the same size variable as the input's anonymous dim
  const again = runShapelog(['infer', typedFile, '--json', '--dim', 'x#0=2']);
  t.is(again.code, 0, again.err);
  const back = JSON.parse(again.out) as { values: { name: string; shape: unknown }[]; diagnostics: unknown[] };
  t.deepEqual(back.diagnostics, []);
  t.deepEqual(
    back.values.map((v) => [v.name, v.shape]),
    [
      ['xt', [3, 2]],
      ['y', [2, 2]],
      ['z', [2, 6]],
    ],
  );
});
