// Typing the subgraphs of If, Loop, Scan and SequenceMap (typing/onnx/control-flow.ts),
// on small models written with frontends/onnx/encode.ts (test/onnx-subgraph-models.ts).
// Each model's expected output types are written out by hand from ONNX's operator
// specification; two oracles check them too: onnxruntime runs the model (a concrete
// shape every int dim must equal, a size variable standing for whatever it ran), and
// ONNX's own shape inference (python3-onnx; where it knows a dim, shapelog must know the
// same). Without onnxruntime or python3-onnx the hand-written expectations still hold.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runShapelog, scratchFolder } from './helpers.js';
import { encodeModel } from '../frontends/onnx/encode.js';
import { decodeModel } from '../frontends/onnx/decode.js';
import type { OnnxGraph } from '../frontends/onnx/model.js';
import { typeGraph, type TypedGraph } from '../typing/onnx/graph-types.js';
import type { ValueType } from '../typing/onnx/value-terms.js';
import { loadRuntime, runOnRuntime, stopRuntime } from '../proofs/onnx-cross-check/runtime.js';
import * as M from './onnx-subgraph-models.js';

const OPSETS = new Map([['', 17]]);
const IR_VERSION = 8;

/** The model as written and read back, typed. */
function typed(g: OnnxGraph): TypedGraph {
  const model = decodeModel(encodeModel(g, OPSETS, IR_VERSION), `${g.name}.onnx`);
  return typeGraph(model.graph, model.opsets);
}

type Dim = number | string | null;
const shapeOf = (t: ValueType | null): readonly Dim[] | null | undefined => (t !== null && t.kind === 'tensor' ? t.shape : undefined);
const outputShapes = (g: OnnxGraph) => typed(g).outputs.map((o) => shapeOf(o.type));
const SIZE_VAR = 'a size variable';
/** Shapes with every symbolic dim written SIZE_VAR (their names are the implementation's). */
const general = (shapes: readonly (readonly Dim[] | null | undefined)[]) => shapes.map((s) => s?.map((d) => (typeof d === 'string' ? SIZE_VAR : d)) ?? s);

test('If: the join of the branches, equal dims kept, a differing dim a size variable, a differing rank unknown', (t) => {
  t.deepEqual(general(outputShapes(M.ifDiffering)), [[SIZE_VAR, 3]]);
  t.deepEqual(outputShapes(M.ifRanks), [null]);
  const g = typed(M.ifDiffering);
  t.is(g.outputs[0]!.type?.kind === 'tensor' ? g.outputs[0]!.type.dtype : null, 'float32');
  t.deepEqual(g.diagnostics, []);
});

test('every value inside a subgraph has a type, named with its enclosing node and graph attribute', (t) => {
  const g = typed(M.ifDiffering);
  t.deepEqual(
    g.subgraphValues.map((v) => [v.graph.replace(/^.*\./, ''), v.name, shapeOf(v.type)]),
    [
      ['then_branch', 't', [2, 3]],
      ['else_branch', 'e', [4, 3]],
    ],
  );
  t.true(g.subgraphValues.every((v) => v.graph.startsWith(`${M.ifDiffering.nodes[0]!.name}.`)));
  const loop = typed(M.loopFor);
  // the body's inputs (iteration number, cond, carried value) and every node output
  t.deepEqual(
    loop.subgraphValues.map((v) => [v.name, v.op, shapeOf(v.type)]),
    [
      ['i', 'input', []],
      ['c', 'input', []],
      ['a', 'input', [2]],
      ['c_out', 'Identity', []],
      ['a_out', 'Add', [2]],
      ['sq', 'Mul', [2]],
    ],
  );
});

test('Loop: carried values at their fixpoint, scan outputs stacked over the trip count', (t) => {
  // M = 3 and no cond: exactly 3 iterations
  t.deepEqual(outputShapes(M.loopFor), [[2], [3, 2]]);
  // a carried value whose first dim doubles each iteration: that dim is a size variable; the cond stays true: 3 rows
  t.deepEqual(general(outputShapes(M.loopGrowing)), [
    [SIZE_VAR, 2],
    [3, 2],
  ]);
  // a computed cond: the loop may stop before M, the trip count is a size variable
  t.deepEqual(general(outputShapes(M.loopWhile)), [[2], [SIZE_VAR, 2]]);
  const grow = typed(M.loopGrowing);
  const a = grow.subgraphValues.find((v) => v.name === 'a')!;
  const aOut = grow.subgraphValues.find((v) => v.name === 'a_out')!;
  const n = shapeOf(a.type)![0];
  t.is(typeof n, 'string');
  // inside the body the doubling is exact: twice the carried value's size variable
  t.deepEqual(shapeOf(aOut.type), [`2*${String(n)}`, 2]);
});

test('Scan: slices without the scan axis, outputs stacked at scan_output_axes', (t) => {
  t.deepEqual(outputShapes(M.scanRows), [[2], [3, 2]]);
  // axis 1 of [2, 5] scanned: slices [2]; outputs stacked at axis 1 ([2, 5]) and at axis -1 of rank 3 ([1, 2, 5])
  t.deepEqual(outputShapes(M.scanAxes), [[2], [2, 5], [1, 2, 5]]);
  t.deepEqual(
    typed(M.scanAxes)
      .subgraphValues.filter((v) => v.op === 'input')
      .map((v) => shapeOf(v.type)),
    [[2], [2]],
  );
});

const OPSET_8 = new Map([['', 8]]);

test('Scan 8: the body sees one batch entry; states get the batch dim back, scan outputs [batch, sequence | body output]', (t) => {
  const model = decodeModel(encodeModel(M.scanBatched, OPSET_8, 4), 'scan_batched.onnx');
  const g = typeGraph(model.graph, model.opsets);
  t.deepEqual(g.diagnostics, []);
  t.deepEqual(
    g.outputs.map((o) => shapeOf(o.type)),
    [
      [2, 4],
      [2, 3, 8],
    ],
  );
  t.deepEqual(
    g.subgraphValues.map((v) => [v.name, shapeOf(v.type)]),
    [
      ['s', [4]],
      ['xi', [4]],
      ['s_out', [4]],
      ['y', [8]],
    ],
  );
});

test.serial('onnxruntime runs the Scan 8 model to the shapes typed', async (t) => {
  t.true((await loadRuntime()).ok, 'onnxruntime-node is a development dependency');
  try {
    const ran = await runOnRuntime(encodeModel(M.scanBatched, OPSET_8, 4), M.scanBatched, ['final', 'ys']);
    t.deepEqual(ran, {
      outputs: [
        { dtype: 'float32', shape: [2, 4] },
        { dtype: 'float32', shape: [2, 3, 8] },
      ],
    });
  } finally {
    stopRuntime();
  }
});

test('SequenceMap: the body sees one element of each sequence, its outputs become sequences', (t) => {
  const g = typed(M.sequenceMap);
  t.deepEqual(
    g.outputs.map((o) => o.type),
    [{ kind: 'sequence', elem: { kind: 'tensor', dtype: 'float32', shape: ['N'] } }],
  );
  t.deepEqual(
    g.subgraphValues.map((v) => [v.name, shapeOf(v.type)]),
    [
      ['a', ['N']],
      ['b', ['N']],
      ['z', ['N']],
    ],
  );
});

test("If with a condition known from shapes: only the branch taken is typed, its outputs are the node's", (t) => {
  const g = typed(M.ifShapeCondition);
  t.deepEqual(g.diagnostics, []);
  t.deepEqual(
    g.outputs.map((o) => shapeOf(o.type)),
    [
      [2, 3],
      [2, 3, 1],
    ],
  );
  // the values of the branches not taken (Identity, Unsqueeze) are not typed, so not listed
  t.deepEqual(
    g.subgraphValues.map((v) => [v.name, shapeOf(v.type)]),
    [
      ['sq', [2, 3]],
      ['id2', [2, 3, 1]],
    ],
  );
});

/** The model as written and read back, typed with x fixed to [2]. */
function typedWithX2(g: OnnxGraph): TypedGraph {
  const model = decodeModel(encodeModel(g, OPSETS, IR_VERSION), `${g.name}.onnx`);
  return typeGraph(model.graph, model.opsets, { shapes: new Map([['x', [2]]]) });
}

test('If: an error in the branch not taken is not an error; with the condition unknown it is', (t) => {
  const g = typedWithX2(M.ifUntakenError);
  t.deepEqual(g.diagnostics, []);
  t.deepEqual(
    g.outputs.map((o) => shapeOf(o.type)),
    [[2]],
  );
  // the same model with the condition a graph input: both branches are typed, the Add's error is reported
  const unknown = { ...M.ifUntakenError, inputs: [...M.ifUntakenError.inputs, M.value('no', M.tensor('bool', []))], nodes: M.ifUntakenError.nodes.slice(1) };
  t.true(
    typedWithX2(unknown).diagnostics.some((d) => d.message.includes('bad_add')),
    'the Add of [2] and [3] is reported',
  );
});

test.serial("shapelog infer --value: a graph input's value decides the If; the listing says which branch was not taken", (t) => {
  const dir = scratchFolder('onnx-if-value-');
  const file = join(dir.dir, 'if.onnx');
  // the condition a graph input `no`: its value chooses the branch
  const g = { ...M.ifUntakenError, inputs: [...M.ifUntakenError.inputs, M.value('no', M.tensor('bool', []))], nodes: M.ifUntakenError.nodes.slice(1) };
  writeFileSync(file, encodeModel(g, OPSETS, IR_VERSION));
  const elseTaken = runShapelog(['infer', file, '--shape', 'x=2', '--value', 'no=0']);
  t.is(elseTaken.code, 0, elseTaken.err);
  t.regex(elseTaken.out, /then_branch: not taken, not typed \(1 node\)/);
  t.regex(elseTaken.out, /-> y: float32\[2\]/);
  const thenTaken = runShapelog(['infer', file, '--shape', 'x=2', '--value', 'no=1']);
  t.is(thenTaken.code, 1);
  t.regex(thenTaken.out + thenTaken.err, /bad_add/);
  const usage = runShapelog(['infer', file, '--value', 'nope=1']);
  t.is(usage.code, 2);
  t.regex(usage.err, /--value nope: the model has no graph input 'nope'/);
  // a scalar condition takes one value; an integer beyond 2^53 is not one
  const tooMany = runShapelog(['infer', file, '--shape', 'x=2', '--value', 'no=1,0']);
  t.is(tooMany.code, 2);
  t.regex(tooMany.err, /--value no: 2 values for a graph input of shape \[\] \(1 element\)/);
  const huge = runShapelog(['infer', file, '--shape', 'x=2', '--value', 'no=99999999999999999999']);
  t.is(huge.code, 2);
  t.regex(huge.err, /--value no: 99999999999999999999 is not an integer between/);
  for (const r of [tooMany, huge]) t.notRegex(r.err, /\n\s+at /);
});

test.serial('onnxruntime runs the If whose branch not taken would fail, to the shape of the branch taken', async (t) => {
  t.true((await loadRuntime()).ok, 'onnxruntime-node is a development dependency');
  try {
    const concrete = { ...M.ifUntakenError, inputs: [M.value('x', M.tensor('float32', [2])), M.ifUntakenError.inputs[1]!] };
    const ran = await runOnRuntime(encodeModel(M.ifUntakenError, OPSETS, IR_VERSION), concrete, ['y']);
    t.deepEqual(ran, { outputs: [{ dtype: 'float32', shape: [2] }] });
  } finally {
    stopRuntime();
  }
});

const RUNNABLE: readonly [string, OnnxGraph][] = [
  ['ifDiffering', M.ifDiffering],
  ['ifShapeCondition', M.ifShapeCondition],
  ['ifLoop', M.ifLoop],
  ['ifRanks', M.ifRanks],
  ['loopFor', M.loopFor],
  ['loopGrowing', M.loopGrowing],
  ['loopWhile', M.loopWhile],
  ['scanRows', M.scanRows],
  ['scanAxes', M.scanAxes],
];

/** Whether shapelog's shape is consistent with a concrete one: same rank when known, each int dim equal. */
function consistent(ours: readonly Dim[] | null | undefined, ran: readonly number[]): boolean {
  if (ours === null || ours === undefined) return true;
  return ours.length === ran.length && ours.every((d, i) => typeof d !== 'number' || d === ran[i]);
}

test.serial('onnxruntime runs each model to output shapes that the types describe', async (t) => {
  const rt = await loadRuntime();
  if (!rt.ok) {
    // onnxruntime-node is not installed: the types still are those written above
    t.deepEqual(outputShapes(M.loopFor), [[2], [3, 2]]);
    return;
  }
  try {
    for (const [name, g] of RUNNABLE) {
      const bytes = encodeModel(g, OPSETS, IR_VERSION);
      const ran = await runOnRuntime(
        bytes,
        g,
        g.outputs.map((o) => o.name),
      );
      if ('error' in ran) return t.fail(`${name}: ${ran.error}`);
      const ours = outputShapes(g);
      for (const [k, o] of ran.outputs.entries()) {
        t.true(o !== null && consistent(ours[k], o.shape), `${name} output ${k}: ran ${JSON.stringify(o?.shape)}, typed ${JSON.stringify(ours[k])}`);
      }
    }
  } finally {
    stopRuntime();
  }
});

// ONNX's shape inference on each model, its graph outputs' types as JSON lines ("null" for a non-tensor or no type)
const INFER = `
import base64, json, sys
import onnx, onnx.shape_inference
for line in sys.stdin:
    m = onnx.shape_inference.infer_shapes(onnx.load_from_string(base64.b64decode(line)), check_type=True, strict_mode=True)
    out = []
    for o in m.graph.output:
        t = o.type
        if t.HasField('sequence_type'):
            t = t.sequence_type.elem_type
        if not t.HasField('tensor_type') or not t.tensor_type.HasField('shape'):
            out.append(None)
            continue
        out.append([d.dim_value if d.HasField('dim_value') else None for d in t.tensor_type.shape.dim])
    print(json.dumps(out))
`;

test("ONNX's own shape inference knows no dim of the outputs that shapelog does not know the same", (t) => {
  const models = [...RUNNABLE, ['sequenceMap', M.sequenceMap] as [string, OnnxGraph]];
  const input = `${models.map(([, g]) => Buffer.from(encodeModel(g, OPSETS, IR_VERSION)).toString('base64')).join('\n')}\n`;
  const r = spawnSync('/usr/bin/python3', ['-c', INFER], { input, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) {
    // python3-onnx is not installed: the hand-written expectations above still hold
    t.deepEqual(outputShapes(M.scanRows), [[2], [3, 2]]);
    return;
  }
  const answers = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ((number | null)[] | null)[]);
  // ONNX's inference knows these itself (so the comparison below compares something)
  t.deepEqual(answers[RUNNABLE.findIndex(([n]) => n === 'scanRows')], [[2], [3, 2]]);
  models.forEach(([name, g], i) => {
    const ours = typed(g).outputs.map((o) => (o.type?.kind === 'sequence' ? shapeOf(o.type.elem) : shapeOf(o.type)));
    answers[i]!.forEach((theirs, k) => {
      if (theirs === null) return;
      const mine = ours[k];
      t.true(
        mine !== null && mine !== undefined && mine.length === theirs.length && theirs.every((d, j) => d === null || mine[j] === d),
        `${name} output ${k}: ONNX ${JSON.stringify(theirs)}, shapelog ${JSON.stringify(mine)}`,
      );
    });
  });
});

test.serial('shapelog infer: --json lists the subgraph values with their graph; --write-value-info writes them into the subgraphs', async (t) => {
  const dir = scratchFolder('onnx-subgraphs-');
  const file = join(dir.dir, 'loop.onnx');
  const original = encodeModel(M.loopGrowing, OPSETS, IR_VERSION);
  writeFileSync(file, original);
  const json = runShapelog(['infer', file, '--json']);
  t.is(json.code, 0, json.err);
  const values = (JSON.parse(json.out) as { values: { name: string; graph?: string; shape: Dim[] | null }[] }).values;
  const loopName = M.loopGrowing.nodes[0]!.name;
  t.deepEqual(
    values.filter((v) => v.graph !== undefined).map((v) => [v.graph, v.name]),
    [
      [`${loopName}.body`, 'i'],
      [`${loopName}.body`, 'c'],
      [`${loopName}.body`, 'a'],
      [`${loopName}.body`, 'c_out'],
      [`${loopName}.body`, 'a_out'],
      [`${loopName}.body`, 'r'],
    ],
  );
  t.deepEqual(values.find((v) => v.name === 'r')!.shape, [2]);
  const listing = runShapelog(['infer', file]);
  t.regex(listing.out, /\n {6}body\(i: int64\[\], c: bool\[\] = \[1\], a: float32\[\w+, 2\]\):\n {8}0 Identity/);
  const typedFile = join(dir.dir, 'typed.onnx');
  const w = runShapelog(['infer', file, '--write-value-info', typedFile]);
  t.is(w.code, 0, w.err);
  const reread = decodeModel(readFileSync(typedFile), 'typed.onnx');
  const body = reread.graph.nodes[0]!.attrs.get('body');
  if (body?.kind !== 'graph') return t.fail('the Loop lost its body');
  // the body's node outputs it did not declare (its outputs are declared, untyped)
  t.deepEqual(
    body.value.valueInfo.map((v) => v.name),
    [],
  );
  t.deepEqual(
    body.value.nodes.map((n) => n.opType),
    ['Identity', 'Concat', 'Shape'],
  );
  // everything else as it was: the main graph's value_info (the Loop's outputs are graph outputs) and the nodes
  t.deepEqual(
    reread.graph.outputs.map((o) => o.name),
    ['w', 'rows'],
  );
  // two deep: the Loop body inside the If's then branch gets its one undeclared value, the sum
  const nestedFile = join(dir.dir, 'nested.onnx');
  writeFileSync(nestedFile, encodeModel(M.ifLoop, OPSETS, IR_VERSION));
  t.is(runShapelog(['infer', nestedFile, '--write-value-info', typedFile]).code, 0);
  const nested = decodeModel(readFileSync(typedFile), 'typed.onnx');
  const thenG = nested.graph.nodes[0]!.attrs.get('then_branch');
  const loopBody = thenG?.kind === 'graph' ? thenG.value.nodes[0]!.attrs.get('body') : undefined;
  t.deepEqual(loopBody?.kind === 'graph' ? loopBody.value.valueInfo : null, [{ name: 'sum', type: { kind: 'tensor', dtype: 'float32', shape: [2] } }]);
  t.deepEqual(thenG?.kind === 'graph' ? thenG.value.valueInfo : null, []);
  // onnxruntime loads and runs the written model
  const rt = await loadRuntime();
  if (rt.ok) {
    try {
      const ran = await runOnRuntime(readFileSync(typedFile), M.ifLoop, ['y']);
      t.deepEqual('outputs' in ran ? ran.outputs : ran, [{ dtype: 'float32', shape: [2] }]);
    } finally {
      stopRuntime();
    }
  }
});

test("an _expanded conformance model (SequenceMap's function body: a Loop over SequenceAt/SequenceInsert) types its body and its output as ONNX recorded", (t) => {
  const file = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'onnx', 'models', 'test_sequence_map_add_2_sequences_expanded', 'model.onnx');
  const model = decodeModel(readFileSync(file), 'model.onnx');
  const g = typeGraph(model.graph, model.opsets);
  t.deepEqual(g.diagnostics, []);
  // ONNX recorded y0 as a sequence of float32 tensors
  t.is(g.outputs[0]!.type?.kind, 'sequence');
  t.deepEqual(g.outputs[0]!.type?.kind === 'sequence' ? g.outputs[0]!.type.elem : null, { kind: 'tensor', dtype: 'float32', shape: ['N'] });
  // inside the Loop body: one element of each outer sequence (read from the main graph by name), and their sum
  const body = new Map(g.subgraphValues.map((v) => [v.name.replace(/^.*_function_/, ''), v.type]));
  t.deepEqual(body.get('in0'), { kind: 'tensor', dtype: 'float32', shape: ['N'] });
  t.deepEqual(body.get('out0'), { kind: 'tensor', dtype: 'float32', shape: ['N'] });
  t.deepEqual(body.get('SequenceMap_loop_body_itercount'), { kind: 'tensor', dtype: 'int64', shape: [] });
});

test("an error inside a body names the enclosing node and the body node; an earlier error does not stop a Loop's fixpoint", (t) => {
  const g = typed(M.loopBadBody);
  t.deepEqual(
    g.diagnostics.map((d) => d.message),
    ['node 0 (Loop "L") body: node 1 (Add "bad_add"): shapes [2] and [3] do not broadcast'],
  );
  const e = typed(M.errorThenLoop);
  t.is(e.diagnostics.length, 1);
  t.deepEqual(general([shapeOf(e.outputs[1]!.type)]), [[SIZE_VAR, 2]]);
});
