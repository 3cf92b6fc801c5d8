// `shapelog check MODEL.onnx`: a whole model, value by value, by shapelog's rules, ONNX's
// own shape inference (when a Python with onnx is here) and onnxruntime's execution (the
// ground truth, when every input's shape is concrete); and its bad usage.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPython } from '../proofs/onnx-cross-check/onnx-inference.js';
import { encodeModel } from './onnx-builder.js';
import { runShapelog, scratchFolder } from './helpers.js';

const root = join(import.meta.dirname, '..');
// 29 node outputs, every shape static
const WAKEWORD = join(root, 'examples', 'onnx', 'models', 'openwakeword_hello_deepa.onnx');
// 471 node outputs; its input x has four symbolic dims ([p2o.DynamicDimension.0, 3, ...])
const CLS = join(root, 'node_modules', '@gutenye', 'ocr-models', 'assets', 'ch_ppocr_mobile_v2.0_cls_infer.onnx');
const { dir, file } = scratchFolder('shapelog-check-model-');
const hasPython = findPython() !== null;

const shapelog = (...args: string[]) => runShapelog(args, { timeoutMs: 110_000 });

interface ValueJson {
  name: string;
  shapelog_vs_executed: string;
  onnx_vs_executed?: string;
  rules_vs_onnx?: string;
  executed: { dtype: string; shape: number[] } | null;
}

test('a model with static shapes: every value run on onnxruntime, shapelog exact on each; ONNX agrees where it runs', (t) => {
  const r = shapelog('check', WAKEWORD, '--json');
  t.is(r.code, 0, r.err);
  const report = JSON.parse(r.out) as { values: ValueJson[]; onnxruntime: string | null; onnx: string | null; notes: string[] };
  t.is(report.values.length, 29);
  t.truthy(report.onnxruntime);
  for (const v of report.values) {
    t.truthy(v.executed, v.name);
    t.is(v.shapelog_vs_executed, 'exact', v.name);
  }
  if (hasPython) {
    t.truthy(report.onnx);
    // onnxruntime's execution decides: ONNX's inference is exact on this model too, so the two agree
    for (const v of report.values) {
      t.is(v.onnx_vs_executed, 'exact', v.name);
      t.is(v.rules_vs_onnx, 'agree', v.name);
    }
  } else {
    t.is(report.onnx, null);
    t.regex(report.notes.join('\n'), /ONNX's shape inference not run: no Python that can import onnx/);
  }
});

test('symbolic input dims: no run without concrete shapes (a note says which input); with --shape, shapelog exact on every value', (t) => {
  const symbolic = shapelog('check', CLS);
  t.is(symbolic.code, 0, symbolic.err);
  t.regex(symbolic.err, /note: not run on onnxruntime: graph input 'x' has dims that are not concrete .*--shape x=/);
  t.notRegex(symbolic.out, /executed/);
  const fixed = shapelog('check', CLS, '--shape', 'x=2,3,48,192');
  t.is(fixed.code, 0, fixed.err);
  t.regex(fixed.out, /^ {2}shapelog: exact 471, right but incomplete 0, wrong 0$/m);
  t.regex(fixed.out, /onnxruntime [\d.]+ on x float32\[2, 3, 48, 192\]/);
  if (hasPython) {
    // ONNX's inference is given the same input shape: right where it states a dim, and it never contradicts the run
    const onnx = /^ {2}ONNX's inference: exact (\d+), right but incomplete (\d+), wrong 0$/m.exec(fixed.out);
    t.truthy(onnx, fixed.out);
    t.is(Number(onnx?.[1]) + Number(onnx?.[2]), 471);
  }
});

test('a model shapelog finds a type error in: the error, exit 1; onnxruntime does not run it either', (t) => {
  const bad = join(dir, 'bad-add.onnx');
  writeFileSync(
    bad,
    encodeModel({
      inputs: [
        { name: 'a', dtype: 'float32', shape: [2, 3] },
        { name: 'b', dtype: 'float32', shape: [4, 5] },
      ],
      outputs: [{ name: 'c', dtype: 'float32', shape: null }],
      nodes: [{ op: 'Add', inputs: ['a', 'b'], outputs: ['c'], name: 'add' }],
    }),
  );
  const r = shapelog('check', bad);
  t.is(r.code, 1, r.err);
  t.regex(r.err, /bad-add\.onnx: error: .*Add/);
  t.regex(r.err, /note: onnxruntime did not run the model/);
  t.notRegex(r.err, /\n\s+at /);
});

test('bad usage: exit 2 with the reason; an unreadable model: exit 1', (t) => {
  const cases: [string[], RegExp][] = [
    [['check', WAKEWORD, '--ops', 'Conv'], /--ops is for the operator sweep, not for a model/],
    [['check', WAKEWORD, '--random', '3', '--seed', '1'], /--random, --seed are for the operator sweep/],
    [['check', file('notes.txt', 'x')], /a model to check is an ONNX model \(\.onnx\)/],
    [['check', '--shape', 'x=1'], /--shape, --dim and --value go with a model/],
    [['check', WAKEWORD, '--shape', 'nope=1,2'], /--shape nope: the model has no graph input 'nope'/],
    [['check', WAKEWORD, '--shape', 'x=1,a-b'], /'a-b' is not a dim/],
  ];
  for (const [args, message] of cases) {
    const r = shapelog(...args);
    t.is(r.code, 2, args.join(' '));
    t.regex(r.err, message, args.join(' '));
    t.is(r.out, '');
  }
  const missing = shapelog('check', join(dir, 'missing.onnx'));
  t.is(missing.code, 1);
  t.regex(missing.err, /cannot read .*missing\.onnx/);
  const corrupt = shapelog('check', file('corrupt.onnx', 'not a protobuf at all'));
  t.is(corrupt.code, 1);
  t.notRegex(corrupt.err, /\n\s+at /);
});
