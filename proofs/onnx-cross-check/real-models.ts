// A real model (typing/onnx/bundled-models.ts) typed by shapelog with concrete input
// shapes, against onnxruntime's execution of the same model on inputs of those shapes
// with every intermediate value of the main graph made a graph output
// (frontends/onnx/encode.ts withGraphOutputs): per value exact, consistent (right where
// stated, something unknown) or a contradiction. Values inside If/Loop/Scan bodies cannot
// be made outputs; they are counted, with how many of them shapelog types.
import { decodeModel } from '../../frontends/onnx/decode.js';
import { withGraphOutputs } from '../../frontends/onnx/encode.js';
import type { OnnxGraph } from '../../frontends/onnx/model.js';
import { readBundledModel, runShapes, runValues, type BundledModel } from '../../typing/onnx/bundled-models.js';
import { typeModel } from '../../typing/onnx/model-types.js';
import type { ValueType } from '../../typing/onnx/value-terms.js';
import { againstExecution, type OutputType, type Truth } from './compare.js';
import { runModelOnRuntime, type RuntimeFeed } from './runtime.js';

export interface ValueVerdict {
  readonly name: string;
  readonly op: string;
  readonly shapelog: OutputType | null;
  readonly executed: { readonly dtype: string; readonly shape: readonly number[] } | null;
  readonly truth: Truth;
}

export interface RealModelCheck {
  readonly model: string;
  /** One per node output of the main graph. */
  readonly values: readonly ValueVerdict[];
  readonly exact: number;
  readonly consistent: number;
  readonly contradictions: number;
  /** Values onnxruntime did not hand back (nothing decided for them). */
  readonly notExecuted: number;
  /** shapelog's errors on the model. */
  readonly errors: readonly string[];
  /** Node outputs inside If/Loop/Scan bodies, and how many of them shapelog gives a type. */
  readonly subgraphValues: number;
  readonly subgraphValuesTyped: number;
}

function outputType(t: ValueType | null): OutputType | null {
  if (t === null || t.kind !== 'tensor') return null;
  return { dtype: t.dtype, shape: t.shape };
}

/** The names of every node output inside the subgraphs of `graph`'s nodes, at any depth. */
export function subgraphValueNames(graph: OnnxGraph): string[] {
  const out: string[] = [];
  const walk = (g: OnnxGraph, inside: boolean) => {
    for (const n of g.nodes) {
      if (inside) out.push(...n.outputs.filter((o) => o !== ''));
      for (const a of n.attrs.values()) {
        if (a.kind === 'graph') walk(a.value, true);
        if (a.kind === 'graphs') for (const b of a.value) walk(b, true);
      }
    }
  };
  walk(graph, false);
  return out;
}

/** onnxruntime must be loaded (runtime.ts loadRuntime) first. */
export async function checkRealModel(m: BundledModel): Promise<RealModelCheck> {
  const bytes = readBundledModel(m);
  if (bytes === null) throw new Error(`${m.name}: ${m.package}@${m.version} is not installed (npm install)`);
  const model = decodeModel(bytes, m.name);
  const typed = typeModel(model, { shapes: runShapes(m), values: runValues(m) });
  const names = typed.values.map((v) => v.name);
  const declaredOutputs = new Set(model.graph.outputs.map((o) => o.name));
  const feeds: RuntimeFeed[] = Object.entries(m.run).map(([name, i]) => ({
    name,
    type: i.dtype,
    dims: i.shape,
    ...(i.values !== undefined ? { values: i.values } : {}),
  }));
  const run = await runModelOnRuntime(
    withGraphOutputs(
      bytes,
      names.filter((n) => !declaredOutputs.has(n)),
    ),
    feeds,
    names,
  );
  if ('error' in run) throw new Error(`${m.name}: ${run.error}`);
  const values = typed.values.map((v, i): ValueVerdict => {
    const executed = run.outputs[i] ?? null;
    const shapelog = outputType(v.type);
    const truth = againstExecution({ outputs: [shapelog] }, executed === null ? null : [executed]);
    return { name: v.name, op: v.op, shapelog, executed, truth };
  });
  const count = (t: Truth) => values.filter((v) => v.truth === t).length;
  const inside = new Set(subgraphValueNames(model.graph));
  return {
    model: m.name,
    values,
    exact: count('exact'),
    consistent: count('consistent'),
    contradictions: count('wrong'),
    notExecuted: count('no-execution'),
    errors: typed.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
    subgraphValues: inside.size,
    subgraphValuesTyped: typed.subgraphValues.filter((v) => inside.has(v.name) && v.type !== null).length,
  };
}
