// ONNX gradual checking's best effort and dynamic half (issue 14, points 2, 4, 6 for
// ONNX): a dim no rule determines gets a fresh size variable; an If whose branches differ
// joins them, with a check at the If when a use needs the join to be one size;
// `shapelog checks MODEL.onnx --dims ...` evaluates the checks, reporting each failing
// one with its node; bad input is a clear error. Each expected check and type is worked
// out by hand (in the comments). Where onnxruntime can run a model, a grid of sizes is
// run on it: a check fails exactly when onnxruntime rejects those shapes.
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeModel } from '../frontends/onnx/encode.js';
import type { OnnxGraph, OnnxType } from '../frontends/onnx/model.js';
import { readModel } from '../typing/onnx/model-types.js';
import { type OnnxGradualResult, typeModelGradually } from '../typing/onnx/gradual.js';
import { checkHolds } from '../typing/residual-checks.js';
import { loadRuntime, runModelOnRuntime, type RuntimeFeed, stopRuntime } from '../proofs/onnx-cross-check/runtime.js';
import { graph, ints, node, tensor, value } from './onnx-subgraph-models.js';
import { runShapelog } from './helpers.js';

const f32 = (shape: (number | string | null)[]): OnnxType => tensor('float32', shape);
const dir = mkdtempSync(join(tmpdir(), 'shapelog-onnx-gradual-checks-'));
const OPSETS = new Map([['', 18]]);
const write = (g: OnnxGraph): string => {
  const file = join(dir, `${g.name}.onnx`);
  writeFileSync(file, encodeModel(g, OPSETS, 8));
  return file;
};
const listed = (g: OnnxGradualResult) => g.checks.map((c) => `${c.index} ${c.node} ${c.opType}: ${c.condition}`);
const shapeOf = (g: OnnxGradualResult, name: string) => {
  const t = g.typed.values.find((v) => v.name === name)?.type;
  return t?.kind === 'tensor' ? t.shape : undefined;
};
const named = (g: OnnxGraph): OnnxGraph => ({ ...g, nodes: g.nodes.map((n, i) => ({ ...n, name: `${n.opType.toLowerCase()}_${i}`, index: i })) });

/** X [n, 4] + Y [3, 4] -> Z; P [h, w] reshaped to [6, 4] -> R. */
const ADD_RESHAPE = named(
  graph(
    'add_reshape',
    [value('X', f32(['n', 4])), value('Y', f32([3, 4])), value('P', f32(['h', 'w']))],
    [value('Z', null), value('R', null)],
    [node('Add', ['X', 'Y'], ['Z']), node('Reshape', ['P', 'six_by_four'], ['R'])],
    [ints('six_by_four', [6, 4])],
  ),
);

/** The first `end` rows of P [h, 4] (Slice: end from the graph input E, so no rule knows it), declared [?, 4], plus Y [3, 4]. */
const SLICE_ADD: OnnxGraph = {
  ...named(
    graph(
      'slice_add',
      [value('P', f32(['h', 4])), value('E', tensor('int64', [1])), value('Y', f32([3, 4]))],
      [value('Z', null)],
      [node('Slice', ['P', 'zero', 'E'], ['S']), node('Add', ['S', 'Y'], ['Z'])],
      [ints('zero', [0])],
    ),
  ),
  valueInfo: [value('S', f32([null, 4]))],
};

const branches = (x: string, y: string) => ({
  then_branch: graph('then', [], [value('t', null)], [node('Relu', [x], ['t'])]),
  else_branch: graph('else', [], [value('e', null)], [node('Relu', [y], ['e'])]),
});

/** If C then Relu(X [n, 4]) else Relu(W [m, 4]), plus Y [3, 4]. */
const IF_ADD = named(
  graph(
    'if_add',
    [value('C', tensor('bool', [])), value('X', f32(['n', 4])), value('W', f32(['m', 4])), value('Y', f32([3, 4]))],
    [value('Z', null)],
    [node('If', ['C'], ['J'], branches('X', 'W')), node('Add', ['J', 'Y'], ['Z'])],
  ),
);

/** If C then Relu(X [n, 4]) else Relu(W [m, 4]), its output declared [n, 4]. */
const IF_DECLARED = named(
  graph(
    'if_declared',
    [value('C', tensor('bool', [])), value('X', f32(['n', 4])), value('W', f32(['m', 4]))],
    [value('J', f32(['n', 4]))],
    [node('If', ['C'], ['J'], branches('X', 'W'))],
  ),
);

/** X [?, 4] (a dim with neither dim_value nor dim_param) + Y [3, 4]. */
const ANON_ADD = named(graph('anon_add', [value('X', f32([null, 4])), value('Y', f32([3, 4]))], [value('Z', null)], [node('Add', ['X', 'Y'], ['Z'])]));

const FILES = { anonAdd: write(ANON_ADD), addReshape: write(ADD_RESHAPE), sliceAdd: write(SLICE_ADD), ifAdd: write(IF_ADD), ifDeclared: write(IF_DECLARED) };

test('a dim no rule determines (a Slice by a runtime end, declared [?, 4]) gets a fresh size variable; the Add after it is checked on it', (t) => {
  const g = typeModelGradually(readModel(FILES.sliceAdd));
  t.deepEqual(g.typed.diagnostics, []);
  // by hand: S is [d1, 4] (d1 fresh); d1 broadcast against 3 types for d1 = 1 and d1 = 3, giving [3, 4] either way
  t.deepEqual(g.freshDims, ['d1']);
  t.deepEqual(shapeOf(g, 'S'), ['d1', 4]);
  t.deepEqual(listed(g), ['1 add_1 Add: d1 == 1 || d1 == 3']);
  t.deepEqual(shapeOf(g, 'Z'), [3, 4]);
  // without --gradual the Add stays unknown
  const plain = runShapelog(['infer', FILES.sliceAdd]);
  t.is(plain.code, 0, plain.err);
  t.regex(plain.out, /Add "add_1"\(S, Y\) -> Z: \?/);
  const json = runShapelog(['infer', FILES.sliceAdd, '--gradual', '--json']);
  t.is(json.code, 0, json.err);
  t.deepEqual((JSON.parse(json.out) as { freshDims: string[] }).freshDims, ['d1']);
});

test('If branches of n and m rows join to a size variable; an Add of it against 3 is checked on that variable', (t) => {
  const g = typeModelGradually(readModel(FILES.ifAdd));
  t.deepEqual(g.typed.diagnostics, []);
  // by hand: the join of [n, 4] and [m, 4] is [If_0_out0_0, 4]; against [3, 4] it must be 1 or 3
  t.deepEqual(shapeOf(g, 'J'), ['If_0_out0_0', 4]);
  t.deepEqual(listed(g), ['1 add_1 Add: If_0_out0_0 == 1 || If_0_out0_0 == 3']);
  t.deepEqual(shapeOf(g, 'Z'), [3, 4]);
});

test('an If join that the declared output needs to be n becomes n, with the check m == n at the If', (t) => {
  const g = typeModelGradually(readModel(FILES.ifDeclared));
  t.deepEqual(g.typed.diagnostics, []);
  // by hand: the then branch gives n rows already; the else branch's m rows must be n
  t.deepEqual(listed(g), ['0 if_0 If: m == n']);
  t.deepEqual(shapeOf(g, 'J'), ['n', 4]);
  t.deepEqual(g.freshDims, []);
  const plain = runShapelog(['infer', FILES.ifDeclared]);
  t.is(plain.code, 1);
  t.regex(plain.err, /cannot unify n with 'If_0_out0_0'/);
});

test('checks MODEL.onnx --dims: each failing check with its node (index, name, op_type), exit 1; all holding, exit 0', (t) => {
  const bad = runShapelog(['checks', FILES.addReshape, '--dims', 'n=2,h=5,w=5']);
  t.is(bad.code, 1, bad.err);
  // by hand: n = 2 is neither 1 nor 3; 5*5 = 25 is not 24
  t.deepEqual(bad.out.trim().split('\n'), [
    `${FILES.addReshape}: node 0 "add_0" (Add): check failed: n == 1 || n == 3 (n = 2)`,
    `${FILES.addReshape}: node 1 "reshape_1" (Reshape): check failed: h*w == 24 (h = 5, w = 5)`,
    '0 of 2 checks hold',
  ]);
  const one = runShapelog(['checks', FILES.addReshape, '--dims', 'n=3', '--dims', 'h=5,w=5']);
  t.is(one.code, 1, one.err);
  t.notRegex(one.out, /Add/);
  t.regex(one.out, /1 of 2 checks hold/);
  const good = runShapelog(['checks', FILES.addReshape, '--dims', 'n=1,h=4,w=6', '--json']);
  t.is(good.code, 0, good.err);
  const parsed = JSON.parse(good.out) as {
    failed: number;
    checks: { node: { index: number; name: string; op_type: string }; condition: string; holds: boolean }[];
  };
  t.is(parsed.failed, 0);
  t.deepEqual(
    parsed.checks.map((c) => [c.node.index, c.node.name, c.node.op_type, c.condition, c.holds]),
    [
      [0, 'add_0', 'Add', 'n == 1 || n == 3', true],
      [1, 'reshape_1', 'Reshape', 'h*w == 24', true],
    ],
  );
  // the If's check and a fresh size variable's
  const ifBad = runShapelog(['checks', FILES.ifDeclared, '--dims', 'n=2,m=3']);
  t.is(ifBad.code, 1, ifBad.err);
  t.regex(ifBad.out, /node 0 "if_0" \(If\): check failed: m == n \(m = 3, n = 2\)/);
  t.is(runShapelog(['checks', FILES.ifDeclared, '--dims', 'n=3,m=3']).code, 0);
  t.is(runShapelog(['checks', FILES.sliceAdd, '--dims', 'd1=3,h=7']).code, 0);
  t.is(runShapelog(['checks', FILES.sliceAdd, '--dims', 'd1=2']).code, 1);
});

test('checks MODEL.onnx: bad --dims and models without size variables are clear errors, no stack trace', (t) => {
  const noTrace = (r: { err: string }) => t.notRegex(r.err, /\n\s+at /);
  const notInt = runShapelog(['checks', FILES.addReshape, '--dims', 'n=three,h=4,w=6']);
  t.is(notInt.code, 2);
  t.regex(notInt.err, /the size of n must be a non-negative integer, not 'three'/);
  noTrace(notInt);
  t.is(runShapelog(['checks', FILES.addReshape, '--dims', 'n=1.5,h=4,w=6']).code, 2);
  const unknown = runShapelog(['checks', FILES.addReshape, '--dims', 'n=1,h=4,w=6,ww=2']);
  t.is(unknown.code, 2);
  t.regex(unknown.err, /has no size variable ww; did you mean w\? \(its size variables: h, n, w\)/);
  noTrace(unknown);
  const missing = runShapelog(['checks', FILES.addReshape, '--dims', 'n=3']);
  t.is(missing.code, 2);
  t.regex(missing.err, /the checks need a size for h, w/);
  const known: OnnxGraph = { ...ADD_RESHAPE, name: 'all_known', inputs: [value('X', f32([3, 4])), value('Y', f32([3, 4])), value('P', f32([4, 6]))] };
  const none = runShapelog(['checks', write(known), '--dims', 'n=3']);
  t.is(none.code, 1);
  t.regex(none.err, /has no size variables/);
  noTrace(none);
  const notOnnx = runShapelog(['checks', join(dir, 'missing.onnx'), '--dims', 'n=3']);
  t.is(notOnnx.code, 1);
  t.regex(notOnnx.err, /cannot read/);
  noTrace(notOnnx);
  const help = runShapelog(['checks', '--help']);
  t.regex(help.out, /\.onnx/);
});

// ---------------------------------------------------------------- against onnxruntime

/** Whether every check holds for these sizes. */
const allHold = (g: OnnxGradualResult, sizes: Record<string, number>) => g.checks.every((c) => checkHolds(c, sizes));

const f = (name: string, dims: number[], type = 'float32', values?: number[]): RuntimeFeed => ({
  name,
  type,
  dims,
  ...(values === undefined ? {} : { values }),
});

test('a check fails exactly when onnxruntime rejects the shapes (Add n vs 3, Reshape h x w to 6 x 4; Slice rows vs 3; If join vs 3)', async (t) => {
  const loaded = await loadRuntime();
  t.true(loaded.ok, 'onnxruntime-node is a development dependency');
  const cases: { file: string; g: OnnxGradualResult; sizes: Record<string, number>; feeds: RuntimeFeed[]; outputs: string[] }[] = [];
  const addReshape = typeModelGradually(readModel(FILES.addReshape));
  for (const n of [1, 2, 3, 4])
    for (const [h, w] of [
      [4, 6],
      [3, 8],
      [5, 5],
      [2, 12],
      [1, 23],
    ] as const)
      cases.push({ file: FILES.addReshape, g: addReshape, sizes: { n, h, w }, feeds: [f('X', [n, 4]), f('Y', [3, 4]), f('P', [h, w])], outputs: ['Z', 'R'] });
  const sliceAdd = typeModelGradually(readModel(FILES.sliceAdd));
  // d1, the rows the Slice keeps, is min(h, end): what a user gives --dims for it
  for (const h of [1, 3, 5])
    for (const end of [0, 1, 2, 3, 4])
      cases.push({
        file: FILES.sliceAdd,
        g: sliceAdd,
        sizes: { h, d1: Math.min(h, end) },
        feeds: [f('P', [h, 4]), f('E', [1], 'int64', [end]), f('Y', [3, 4])],
        outputs: ['Z'],
      });
  const ifAdd = typeModelGradually(readModel(FILES.ifAdd));
  // the join's size is the rows of the branch taken
  for (const c of [0, 1])
    for (const n of [1, 2, 3])
      for (const m of [1, 3, 4])
        cases.push({
          file: FILES.ifAdd,
          g: ifAdd,
          sizes: { n, m, If_0_out0_0: c === 1 ? n : m },
          feeds: [f('C', [], 'bool', [c]), f('X', [n, 4]), f('W', [m, 4]), f('Y', [3, 4])],
          outputs: ['Z'],
        });
  try {
    let rejected = 0;
    for (const k of cases) {
      const ran = await runModelOnRuntime(encodeModelOf(k.file), k.feeds, k.outputs);
      const runs = !('error' in ran);
      if (!runs) rejected++;
      t.is(allHold(k.g, k.sizes), runs, `${k.file} ${JSON.stringify(k.sizes)}: ${'error' in ran ? ran.error : 'runs'}`);
    }
    t.true(rejected > 10 && rejected < cases.length - 10, `both outcomes occur (${rejected} of ${cases.length} rejected)`);
  } finally {
    stopRuntime();
  }
});

const encoded = new Map<string, Uint8Array>([
  [FILES.addReshape, encodeModel(ADD_RESHAPE, OPSETS, 8)],
  [FILES.sliceAdd, encodeModel(SLICE_ADD, OPSETS, 8)],
  [FILES.ifAdd, encodeModel(IF_ADD, OPSETS, 8)],
]);
function encodeModelOf(file: string): Uint8Array {
  return encoded.get(file)!;
}

test('an anonymous input dim is a fresh size variable under --gradual: the Add is checked on it, and checks --dims evaluates it', (t) => {
  const g = typeModelGradually(readModel(FILES.anonAdd));
  t.deepEqual(g.typed.diagnostics, []);
  // by hand: X is [d1, 4]; d1 broadcast against 3 types for d1 = 1 and d1 = 3, giving [3, 4]
  t.deepEqual(g.freshDims, ['d1']);
  t.deepEqual(listed(g), ['0 add_0 Add: d1 == 1 || d1 == 3']);
  t.deepEqual(shapeOf(g, 'Z'), [3, 4]);
  const bad = runShapelog(['checks', FILES.anonAdd, '--dims', 'd1=2']);
  t.is(bad.code, 1, bad.err);
  t.regex(bad.out, /node 0 "add_0" \(Add\): check failed: d1 == 1 \|\| d1 == 3 \(d1 = 2\)/);
  const good = runShapelog(['checks', FILES.anonAdd, '--dims', 'd1=3']);
  t.is(good.code, 0, good.err);
  t.regex(good.out, /1 of 1 checks hold/);
});
