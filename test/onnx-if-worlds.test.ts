// An If whose condition is unknown, typed per branch ("worlds", typing/onnx/if-worlds.ts):
// where the join of the branches loses information, the nodes after the If are typed
// once per branch; a branch with which a later node gets a type error is one no
// successful execution takes, so the other branch's types are the If's, and a warning
// names the If, the branch assumed and where the other one fails. Checked on small models
// written with frontends/onnx/encode.ts (expected types written by hand, onnxruntime runs
// them with each condition) and on Silero VAD as shipped, against onnxruntime's
// executions at several input lengths and sample rates.
import test from 'ava';
import { encodeModel, withGraphOutputs } from '../frontends/onnx/encode.js';
import { decodeModel } from '../frontends/onnx/decode.js';
import type { OnnxGraph, OnnxTensor } from '../frontends/onnx/model.js';
import { typeGraph, type TypedGraph } from '../typing/onnx/graph-types.js';
import type { ValueType } from '../typing/onnx/value-terms.js';
import { bundledModels, readBundledModel } from '../typing/onnx/bundled-models.js';
import { loadRuntime, runModelOnRuntime, stopRuntime } from '../proofs/onnx-cross-check/runtime.js';
import { parseDimText } from '../relations/imperative/type-text.js';
import { dimEvaluate } from '../solver/terms/dims.js';
import { graph, ints, node, tensor, value } from './onnx-subgraph-models.js';

const OPSETS = new Map([['', 17]]);
const IR_VERSION = 8;

test.after.always(() => stopRuntime());

const f32 = (shape: (number | string | null)[]) => tensor('float32', shape);
const weights = (name: string, rows: number, cols: number): OnnxTensor => ({
  name,
  dtype: 'float32',
  dims: [rows, cols],
  values: Array.from({ length: rows * cols }, (_, i) => i / 10),
  external: false,
});

/**
 * If (cond a graph input): then y = x ([N, 4]), else y = x unsqueezed at axis 2
 * ([N, 4, 1]); then z = y @ w, w [rows, 3]. With rows = 4 only the then branch types
 * the MatMul ([N, 4] @ [4, 3]; [N, 4, 1] @ [4, 3] has inner dims 1 and 4).
 */
function ifThenMatMul(rows: number): OnnxGraph {
  return graph(
    `if_then_matmul_${rows}`,
    [value('cond', tensor('bool', [])), value('x', f32(['N', 4]))],
    [value('z', null)],
    [
      node('If', ['cond'], ['y'], {
        then_branch: graph('then', [], [value('t', null)], [node('Identity', ['x'], ['t'])]),
        else_branch: graph('else', [], [value('e', null)], [node('Unsqueeze', ['x', 'two'], ['e'])], [ints('two', [2])]),
      }),
      node('MatMul', ['y', 'w'], ['z']),
    ],
    [weights('w', rows, 3)],
  );
}

/** If: then x + x ([2, 3]), else concat(x, x) ([4, 3]); then Relu: both branches type it. */
const ifThenRelu = graph(
  'if_then_relu',
  [value('cond', tensor('bool', [])), value('x', f32([2, 3]))],
  [value('r', null)],
  [
    node('If', ['cond'], ['y'], {
      then_branch: graph('then', [], [value('t', null)], [node('Add', ['x', 'x'], ['t'])]),
      else_branch: graph('else', [], [value('e', null)], [node('Concat', ['x', 'x'], ['e'], { axis: 0 })]),
    }),
    node('Relu', ['y'], ['r']),
  ],
);

const bytesOf = (g: OnnxGraph) => encodeModel(g, OPSETS, IR_VERSION);
const typed = (g: OnnxGraph): TypedGraph => {
  const model = decodeModel(bytesOf(g), `${g.name}.onnx`);
  return typeGraph(model.graph, model.opsets);
};
const shapeOf = (t: ValueType | null | undefined) => (t !== null && t !== undefined && t.kind === 'tensor' ? t.shape : undefined);
const valueShape = (g: TypedGraph, name: string) => shapeOf(g.values.find((v) => v.name === name)?.type);

test("a branch with which a later node fails is dropped: the If gets the other branch's types, and a warning says what is assumed", (t) => {
  const model = ifThenMatMul(4);
  const g = typed(model);
  t.deepEqual(valueShape(g, 'y'), ['N', 4]);
  t.deepEqual(valueShape(g, 'z'), ['N', 3]);
  t.deepEqual(
    g.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  const warnings = g.diagnostics.filter((d) => d.severity === 'warning');
  t.is(warnings.length, 1);
  const w = warnings[0]!;
  t.is(w.node?.opType, 'If');
  const ifName = model.nodes[0]!.name;
  const matmul = model.nodes[1]!.name;
  // the If (index, op_type, name), the branch assumed, and the node where the other branch fails
  t.true(w.message.startsWith(`node 0 (If "${ifName}")`), w.message);
  t.regex(w.message, /taking then_branch/);
  t.regex(w.message, /with else_branch, node 1 \(MatMul "[^"]+"\): /);
  t.true(w.message.includes(matmul), w.message);
});

test('both branches type the rest: the join, as without worlds, and no warning', (t) => {
  const g = typed(ifThenRelu);
  const y = valueShape(g, 'y');
  t.is(y?.length, 2);
  t.is(typeof y?.[0], 'string', 'the differing dim is a size variable of the If');
  t.is(y?.[1], 3);
  t.deepEqual(valueShape(g, 'r'), y);
  t.deepEqual(g.diagnostics, []);
});

test('neither branch types the rest: the join, no world assumed (no warning)', (t) => {
  const g = typed(ifThenMatMul(5));
  t.is(valueShape(g, 'y'), null, 'ranks 2 and 3 join to an unknown rank');
  t.deepEqual(
    g.diagnostics.filter((d) => d.severity === 'warning'),
    [],
  );
});

test.serial('onnxruntime: the branch kept runs to the shapes shapelog gives, the branch dropped fails', async (t) => {
  const loaded = await loadRuntime();
  t.true(loaded.ok, 'onnxruntime-node is a development dependency');
  const model = ifThenMatMul(4);
  const bytes = withGraphOutputs(bytesOf(model), ['y']);
  const run = (cond: number) =>
    runModelOnRuntime(
      bytes,
      [
        { name: 'cond', type: 'bool', dims: [], values: [cond] },
        { name: 'x', type: 'float32', dims: [5, 4] },
      ],
      ['z', 'y'],
    );
  const kept = await run(1);
  t.false('error' in kept, JSON.stringify(kept));
  if (!('error' in kept))
    t.deepEqual(
      kept.outputs.map((o) => o?.shape),
      [
        [5, 3],
        [5, 4],
      ],
    );
  const dropped = await run(0);
  t.true('error' in dropped, 'the else branch cannot run the MatMul');
});

// ---- Silero VAD as shipped (input [?, ?], state [2, ?, 128], sr unknown)

const silero = bundledModels().find((m) => m.name === 'silero-vad-v5')!;

/** A symbolic shape (shapelog's canonical dims) evaluated at the input sizes. */
function evaluate(shape: readonly (number | string | null)[], env: Record<string, number>): (number | null)[] {
  return shape.map((d) => {
    if (typeof d === 'number' || d === null) return d;
    // a size variable alone is written bare (`input#0`), inside an expression quoted
    if (env[d] !== undefined) return env[d];
    const parsed = parseDimText(d);
    if (typeof parsed === 'string') throw new Error(`cannot read dim ${d}: ${parsed}`);
    return dimEvaluate(parsed, env);
  });
}

test.serial(
  'Silero VAD as shipped: every top-level value fully known, and equal to what onnxruntime executes wherever it succeeds; where it fails, the warning names the assumption',
  async (t) => {
    const loaded = await loadRuntime();
    t.true(loaded.ok, 'onnxruntime-node is a development dependency');
    const bytes = readBundledModel(silero)!;
    const model = decodeModel(bytes, 'silero_vad_v5.onnx');
    const g = typeGraph(model.graph, model.opsets);
    t.deepEqual(
      g.diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    // one dropped world per sample rate's decoder If (T == 1: squeeze the time axis, else keep it)
    const warnings = g.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message);
    t.is(warnings.length, 2);
    for (const w of warnings) t.regex(w, /\(If "[^"]*\/decoder\/If"\): its condition is not known here; typed as taking then_branch.*with else_branch, /);
    t.true(warnings.some((w) => w.startsWith('node 2 (If "If_0") then_branch: ')) && warnings.some((w) => w.startsWith('node 2 (If "If_0") else_branch: ')));
    const shapes = g.values.map((v) => shapeOf(v.type));
    t.true(
      shapes.every((s) => s?.every((d) => d !== null)),
      JSON.stringify(shapes),
    );
    const names = g.values.map((v) => v.name);
    const outputs = new Set(model.graph.outputs.map((o) => o.name));
    const exposed = withGraphOutputs(
      bytes,
      names.filter((n) => !outputs.has(n)),
    );
    const runs = [
      { batch: 1, length: 512, sr: 16000 },
      { batch: 2, length: 512, sr: 16000 },
      { batch: 3, length: 640, sr: 16000 },
      { batch: 2, length: 256, sr: 8000 },
      { batch: 1, length: 300, sr: 8000 },
      { batch: 2, length: 1024, sr: 16000 },
      { batch: 1, length: 4096, sr: 16000 },
      { batch: 2, length: 1024, sr: 8000 },
    ];
    let succeeded = 0;
    let failed = 0;
    for (const r of runs) {
      const run = await runModelOnRuntime(
        exposed,
        [
          { name: 'input', type: 'float32', dims: [r.batch, r.length] },
          { name: 'state', type: 'float32', dims: [2, r.batch, 128] },
          { name: 'sr', type: 'int64', dims: [], values: [r.sr] },
        ],
        names,
      );
      const at = `batch ${r.batch}, ${r.length} samples at ${r.sr} Hz`;
      if ('error' in run) {
        failed++;
        // only the branch dropped (the time axis T != 1) fails: the LSTM gets a rank-5 input
        t.regex(run.error, /LSTM/, at);
        continue;
      }
      succeeded++;
      const env = { 'input#0': r.batch, 'input#1': r.length, 'state#1': r.batch };
      names.forEach((n, i) => {
        t.deepEqual(run.outputs[i]?.shape, evaluate(shapes[i]!, env), `${at}: ${n}`);
      });
    }
    t.is(succeeded, 5);
    t.is(failed, 3);
  },
);
