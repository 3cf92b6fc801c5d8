// A real model (typing/onnx/bundled-models.ts) typed by shapelog with concrete input
// shapes, against onnxruntime's execution of the same model on inputs of those shapes
// with every intermediate value of the main graph made a graph output
// (frontends/onnx/encode.ts withGraphOutputs): per value exact, consistent (right where
// stated, something unknown) or a contradiction. Values inside If/Loop/Scan bodies cannot
// be made outputs; they are counted, with how many of them shapelog types. The check
// itself is model-check.ts's (without ONNX's inference), with the run's shapes and values.
import { decodeModel } from '../../frontends/onnx/decode.js';
import type { OnnxGraph } from '../../frontends/onnx/model.js';
import { readBundledModel, runShapes, runValues, type BundledModel } from '../../typing/onnx/bundled-models.js';
import type { OutputType, Truth } from './compare.js';
import { checkModel } from './model-check.js';

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
  const checked = await checkModel(bytes, model, { shapes: runShapes(m), dims: new Map(), values: runValues(m), python: null, execute: true });
  if (checked.onnxruntime === null) throw new Error(`${m.name}: ${checked.notes.join('; ')}`);
  const values = checked.values.map((v): ValueVerdict => ({ name: v.name, op: v.op, shapelog: v.shapelog, executed: v.executed, truth: v.shapelogTruth }));
  const count = (t: Truth) => values.filter((v) => v.truth === t).length;
  const inside = new Set(subgraphValueNames(model.graph));
  return {
    model: m.name,
    values,
    exact: count('exact'),
    consistent: count('consistent'),
    contradictions: count('wrong'),
    notExecuted: count('no-execution'),
    errors: checked.errors,
    subgraphValues: inside.size,
    subgraphValuesTyped: checked.typed.subgraphValues.filter((v) => inside.has(v.name) && v.type !== null).length,
  };
}
