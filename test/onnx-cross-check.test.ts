// The ONNX cross-check's parts that need neither Python nor the network: the model
// writer (read back by the reader, and run by onnxruntime against the outputs ONNX's
// own test data recorded), the comparison of answers, and the sweep. ONNX's shape
// inference (python3-onnx) is exercised by `.ci/run`, which installs it.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeModel } from '../frontends/onnx/decode.js';
import { againstExecution, compareSides } from '../proofs/onnx-cross-check/compare.js';
import { allSeeds, concrete, opKey, sweepOf, type NodeRecord } from '../proofs/onnx-cross-check/cases.js';
import { recordModel } from '../proofs/onnx-cross-check/harness.js';
import { loadRuntime, runOnRuntime, stopRuntime } from '../proofs/onnx-cross-check/runtime.js';

const seed = (name: string): NodeRecord => allSeeds().find((s) => s.name === name)!;

test('a written one-node model reads back with its node, attributes, inputs and initializers', (t) => {
  const r = seed('test_reshape_extended_dims');
  const m = recordModel(r);
  const back = decodeModel(m.bytes, 'written.onnx');
  t.is(back.graph.nodes.length, 1);
  const node = back.graph.nodes[0]!;
  t.is(node.opType, 'Reshape');
  t.deepEqual(back.opsets.get(''), r.opset);
  // the data is a graph input with the record's shape; the shape operand, with values, an initializer
  t.deepEqual(
    back.graph.inputs.map((i) => i.type),
    [{ kind: 'tensor', dtype: 'float32', shape: [2, 3, 4] }],
  );
  t.deepEqual(
    back.graph.initializers.map((i) => [i.dtype, i.dims, i.values]),
    [['int64', [4], [2, 3, 2, 2]]],
  );
  t.deepEqual(
    back.graph.outputs.map((o) => o.name),
    node.outputs,
  );
});

test('attributes of every kind the writer knows read back as given', (t) => {
  const r: NodeRecord = {
    op_type: 'Conv',
    domain: 'ai.onnx',
    opset: 11,
    attributes: {
      strides: { type: 'ints', value: [2, 1] },
      group: { type: 'int', value: 1 },
      auto_pad: { type: 'string', value: 'NOTSET' },
      alpha: { type: 'float', value: 0.5 },
    },
    inputs: [
      { dtype: 'float32', shape: [1, 3, 'H', 9] },
      { dtype: 'float32', shape: [8, 3, 3, 3] },
    ],
  };
  const node = decodeModel(recordModel(r).bytes, 'written.onnx').graph.nodes[0]!;
  t.deepEqual(node.attrs.get('strides'), { kind: 'ints', value: [2, 1] });
  t.deepEqual(node.attrs.get('group'), { kind: 'int', value: 1 });
  t.deepEqual(node.attrs.get('auto_pad'), { kind: 'string', value: 'NOTSET' });
  t.deepEqual(node.attrs.get('alpha'), { kind: 'float', value: 0.5 });
  t.deepEqual(decodeModel(recordModel(r).bytes, 'w.onnx').graph.inputs[0]!.type, { kind: 'tensor', dtype: 'float32', shape: [1, 3, 'H', 9] });
});

test.serial('onnxruntime runs written models to the output shapes ONNX recorded for them', async (t) => {
  const loaded = await loadRuntime();
  t.true(loaded.ok, 'onnxruntime-node is a development dependency');
  try {
    const names = ['test_reshape_extended_dims', 'test_gather_0', 'test_gather_1', 'test_concat_3d_axis_1', 'test_averagepool_2d_pads'];
    let ran = 0;
    for (const name of names) {
      const r = allSeeds().find((s) => s.name === name);
      if (r === undefined) continue;
      const m = recordModel(r);
      const out = await runOnRuntime(m.bytes, m.graph, m.names);
      t.false('error' in out, `${name}: ${JSON.stringify(out)}`);
      if ('error' in out) continue;
      const recorded = (r.outputs as { dtype: string; shape: number[] }[]).map((o) => ({ dtype: o.dtype, shape: o.shape }));
      t.deepEqual(out.outputs, recorded, name);
      ran++;
    }
    t.true(ran >= 3, `${ran} of the named seeds exist`);
  } finally {
    stopRuntime();
  }
});

test('rules vs ONNX: the more precise side, contradictions and rejections', (t) => {
  const T = (shape: (number | string | null)[] | null, dtype: string | null = 'float32') => ({ outputs: [{ dtype, shape }] });
  t.is(compareSides(T([2, 3]), T([2, 3])), 'agree');
  t.is(compareSides({ error: 'x' }, { error: 'y' }), 'agree');
  t.is(compareSides(T([2, 3]), T([2, null])), 'rules-more-precise');
  t.is(compareSides(T([2, 'N']), T([2, 3])), 'onnx-more-precise');
  t.is(compareSides(T([2, null]), T([null, 3])), 'each-more-precise');
  t.is(compareSides(T([2, 3]), T([2, 4])), 'contradict');
  t.is(compareSides(T([2, 3]), T([2, 3, 1])), 'contradict');
  t.is(compareSides(T([2], 'int64'), T([2], 'float32')), 'contradict');
  t.is(compareSides(T([2]), T(null)), 'rules-more-precise');
  t.is(compareSides({ error: 'x' }, T([2])), 'rules-reject');
  t.is(compareSides(T([2]), { error: 'x' }), 'onnx-rejects');
  // two symbolic dims of different names: neither is more precise
  t.is(compareSides(T(['N*4']), T(['unk__0'])), 'agree');
});

test('a side against the execution: exact, consistent, wrong, rejects', (t) => {
  const ran = [{ dtype: 'float32', shape: [2, 3] }];
  t.is(againstExecution({ outputs: [{ dtype: 'float32', shape: [2, 3] }] }, ran), 'exact');
  t.is(againstExecution({ outputs: [{ dtype: 'float32', shape: [2, null] }] }, ran), 'consistent');
  t.is(againstExecution({ outputs: [{ dtype: null, shape: null }] }, ran), 'consistent');
  t.is(againstExecution({ outputs: [{ dtype: 'float32', shape: [2, 4] }] }, ran), 'wrong');
  t.is(againstExecution({ outputs: [{ dtype: 'float32', shape: [2, 3, 1] }] }, ran), 'wrong');
  t.is(againstExecution({ outputs: [{ dtype: 'int64', shape: [2, 3] }] }, ran), 'wrong');
  t.is(againstExecution({ error: 'no' }, ran), 'rejects');
  t.is(againstExecution({ outputs: [{ dtype: 'float32', shape: [2, 3] }] }, null), 'no-execution');
});

test('the sweep of a seed: opset versions, unit and empty dims, size variables with a concrete instance', (t) => {
  const r = seed('test_reshape_extended_dims');
  const cases = sweepOf(r);
  t.true(
    cases.some((c) => c.record.opset === 5 || c.record.opset === 7),
    'an older version of Reshape',
  );
  t.true(cases.some((c) => Object.hasOwn(c.record.inputs[0]!, 'shape') && JSON.stringify((c.record.inputs[0] as { shape: unknown }).shape) === '[1,3,4]'));
  t.true(cases.some((c) => JSON.stringify((c.record.inputs[0] as { shape: unknown }).shape) === '[0,3,4]'));
  const symbolic = cases.find((c) => c.sizes.size > 0)!;
  t.truthy(symbolic);
  t.true((symbolic.record.inputs[0] as { shape: readonly unknown[] }).shape.some((d) => typeof d === 'string'));
  // the concrete instance is the seed's shape again
  t.deepEqual((concrete(symbolic).inputs[0] as { shape: unknown }).shape, [2, 3, 4]);
  // inputs with values (the shape operand) are never edited
  for (const c of cases) t.deepEqual(c.record.inputs[1], r.inputs[1]);
  t.is(opKey(r), 'Reshape');
  t.is(opKey({ domain: 'ai.onnx.ml', op_type: 'Binarizer' }), 'ai.onnx.ml::Binarizer');
});

test('the seeds are the single-node conformance cases, with their recorded outputs', (t) => {
  const seeds = allSeeds();
  t.true(seeds.length >= 700, `${seeds.length} seeds`);
  t.true(new Set(seeds.map(opKey)).size >= 160);
  for (const s of seeds) t.true(Array.isArray(s.inputs) && Array.isArray(s.outputs), s.name);
  // the file is the repository's own copy: npm test does not read ../shared
  t.true(readFileSync(new URL('../proofs/onnx-cross-check/seeds.jsonl', import.meta.url), 'utf8').length > 100_000);
});

test('check --onnx: bad usage is a one-line error, exit 2, before anything runs', (t) => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [fileURLToPath(new URL('../bin/shapelog.js', import.meta.url)), 'check', '--onnx', ...args], {
      encoding: 'utf8',
      timeout: 60_000,
    });
  const huge = run('--ops', 'Compress', '--random', '2000000');
  t.is(huge.status, 2);
  t.regex(huge.stderr, /--random is at most 100,000 cases per operator/);
  const file = join(mkdtempSync(join(tmpdir(), 'onnx-out-')), 'a-file');
  writeFileSync(file, '');
  const out = run('--ops', 'Compress', '--out', join(file, 'sub'));
  t.is(out.status, 2);
  t.regex(out.stderr, /--out .*a-file is not a folder/);
  const unknown = run('--ops', 'NoSuchOp');
  t.is(unknown.status, 2);
  t.regex(unknown.stderr, /no cases for 'NoSuchOp'/);
  for (const r of [huge, out, unknown]) t.notRegex(r.stderr, /\n\s+at /);
});
