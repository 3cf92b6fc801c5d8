// One whole model checked three ways (`shapelog check MODEL.onnx`): shapelog's rules
// (typing/onnx), ONNX's own shape inference (onnx-inference.ts, when a Python with the
// onnx package is found) and onnxruntime's execution with every node output of the main
// graph made a graph output (runtime.ts; when every graph input has a concrete shape and
// onnxruntime-node loads). Per node output: each side's type, each inference against the
// execution (compare.ts's Truth), and the rules against ONNX's inference (Agreement).
// What the per-operator sweep of `check --onnx` (harness.ts) does for one node, on the
// user's own model.
import { dtypeName } from '../../frontends/onnx/dtypes.js';
import { withGraphOutputs } from '../../frontends/onnx/encode.js';
import type { OnnxGraph, OnnxModel, OnnxValueInfo } from '../../frontends/onnx/model.js';
import type { TypedGraph } from '../../typing/onnx/graph-types.js';
import { typeModel } from '../../typing/onnx/model-types.js';
import type { ValueType } from '../../typing/onnx/value-terms.js';
import { againstExecution, compareSides, type Agreement, type OutputType, type Truth } from './compare.js';
import { OnnxInference } from './onnx-inference.js';
import { loadRuntime, runModelOnRuntime, type RuntimeFeed } from './runtime.js';

export interface ModelCheckOptions {
  /** Graph inputs' shapes, dim_params' sizes and inputs' values, as `infer --shape/--dim/--value` take them. */
  readonly shapes: ReadonlyMap<string, readonly (number | string | null)[]>;
  readonly dims: ReadonlyMap<string, number>;
  readonly values: ReadonlyMap<string, readonly number[]>;
  /** The Python that runs ONNX's inference; null: that side is left out. */
  readonly python: string | null;
  /** Run the model on onnxruntime (when every input's shape is concrete); the caller stops it (runtime.ts stopRuntime). */
  readonly execute: boolean;
}

export interface ValueCheck {
  readonly name: string;
  readonly op: string;
  readonly shapelog: OutputType | null;
  /** undefined: ONNX's inference was not run. */
  readonly onnx?: OutputType | null;
  readonly executed: { readonly dtype: string; readonly shape: readonly number[] } | null;
  /** shapelog against the execution ('no-execution' when it did not run). */
  readonly shapelogTruth: Truth;
  readonly onnxTruth?: Truth;
  /** shapelog's rules against ONNX's inference, where it ran. */
  readonly rulesVsOnnx?: Agreement;
}

export interface ModelCheck {
  readonly values: readonly ValueCheck[];
  /** The inputs fed to onnxruntime, or null when it did not run (`notes` say why). */
  readonly feeds: readonly RuntimeFeed[] | null;
  /** Versions of the other sides that ran. */
  readonly onnx: string | null;
  readonly onnxruntime: string | null;
  /** Why a side did not run, and what each side saw. */
  readonly notes: readonly string[];
  /** shapelog's type errors on the model. */
  readonly errors: readonly string[];
  /** shapelog's typing itself (subgraph values included). */
  readonly typed: TypedGraph;
}

function outputType(t: ValueType | null): OutputType | null {
  if (t === null || t.kind !== 'tensor') return null;
  return { dtype: t.dtype, shape: t.shape };
}

/** A graph input's shape as the options make it: --shape's, else the declared one, with --dim's sizes put in; null when it has none. */
function inputShape(input: OnnxValueInfo, o: ModelCheckOptions): (number | string | null)[] | null {
  const declared = o.shapes.get(input.name) ?? (input.type?.kind === 'tensor' ? input.type.shape : null);
  return declared === null ? null : declared.map((d) => (typeof d === 'string' ? (o.dims.get(d) ?? d) : d));
}

/** The graph inputs whose shape --shape or --dim changes, each with its whole new shape (for ONNX's inference). */
function givenInputShapes(graph: OnnxGraph, o: ModelCheckOptions): Map<string, (number | string | null)[]> {
  const out = new Map<string, (number | string | null)[]>();
  for (const input of graph.inputs) {
    const dims = inputShape(input, o);
    const declared = input.type?.kind === 'tensor' ? input.type.shape : null;
    if (dims !== null && (o.shapes.has(input.name) || dims.some((d, i) => d !== declared?.[i]))) out.set(input.name, dims);
  }
  return out;
}

/** The feeds for a run: each graph input (not an initializer) with its concrete shape, or why there is none. */
function runFeeds(graph: OnnxGraph, o: ModelCheckOptions): RuntimeFeed[] | string {
  const initializers = new Set(graph.initializers.map((t) => t.name));
  const feeds: RuntimeFeed[] = [];
  for (const input of graph.inputs) {
    if (initializers.has(input.name)) continue;
    const t = input.type?.kind === 'tensor' ? input.type : null;
    if (t === null || t.dtype === null) return `graph input '${input.name}' has no tensor type with a dtype`;
    const dims = inputShape(input, o);
    if (dims === null) return `graph input '${input.name}' has no shape: give one with --shape ${input.name}=d0,d1,...`;
    if (dims.some((d) => typeof d !== 'number'))
      return `graph input '${input.name}' has dims that are not concrete (${dims.map((d) => d ?? '?').join(', ')}): give them with --shape ${input.name}=... or --dim`;
    const values = o.values.get(input.name);
    feeds.push({ name: input.name, type: t.dtype, dims: dims as number[], ...(values !== undefined ? { values } : {}) });
  }
  return feeds;
}

/** `model` is `bytes` decoded (frontends/onnx/decode.ts). */
export async function checkModel(bytes: Uint8Array, model: OnnxModel, o: ModelCheckOptions): Promise<ModelCheck> {
  const typed = typeModel(model, { shapes: o.shapes, dims: o.dims, values: o.values });
  const names = typed.values.map((v) => v.name);
  const notes: string[] = [];

  // ONNX's inference, with the same input shapes (--shape, --dim) written into the model
  let onnx: (OutputType | null)[] | null = null;
  let onnxVersion: string | null = null;
  if (o.python !== null) {
    const service = await OnnxInference.start(o.python);
    try {
      onnxVersion = service.info.onnx;
      const answer = await service.ask(bytes, names, givenInputShapes(model.graph, o));
      if ('error' in answer) notes.push(`ONNX's shape inference rejects the model: ${answer.error}`);
      else onnx = answer.types.map((t) => (t === null || t === undefined ? null : { dtype: dtypeName(t.elem), shape: t.shape }));
    } finally {
      service.close();
    }
    if (o.values.size > 0) notes.push("ONNX's shape inference is not given the inputs' values (--value): only shapelog and the execution are");
  }

  // the execution
  let executed: ({ readonly dtype: string; readonly shape: readonly number[] } | null)[] | null = null;
  let feeds: RuntimeFeed[] | null = null;
  let runtimeVersion: string | null = null;
  if (o.execute) {
    const planned = runFeeds(model.graph, o);
    if (typeof planned === 'string') notes.push(`not run on onnxruntime: ${planned}`);
    else {
      const runtime = await loadRuntime();
      if (!runtime.ok)
        notes.push(
          `not run on onnxruntime: ${/Cannot find module/.test(runtime.reason) ? 'onnxruntime-node is not installed (a development dependency: npm install onnxruntime-node beside shapelog)' : runtime.reason}`,
        );
      else {
        {
          runtimeVersion = runtime.version;
          const declaredOutputs = new Set(model.graph.outputs.map((v) => v.name));
          const run = await runModelOnRuntime(
            withGraphOutputs(
              bytes,
              names.filter((n) => !declaredOutputs.has(n)),
            ),
            planned,
            names,
          );
          if ('error' in run) notes.push(`onnxruntime did not run the model: ${run.error}`);
          else {
            executed = names.map((_, i) => run.outputs[i] ?? null);
            feeds = planned;
          }
        }
      }
    }
  }

  const values = typed.values.map((v, i): ValueCheck => {
    const shapelog = outputType(v.type);
    const ran = executed?.[i] ? [executed[i]] : null;
    const check: ValueCheck = {
      name: v.name,
      op: v.op,
      shapelog,
      executed: executed?.[i] ?? null,
      shapelogTruth: againstExecution({ outputs: [shapelog] }, ran),
    };
    if (onnx === null) return check;
    const theirs = onnx[i] ?? null;
    return {
      ...check,
      onnx: theirs,
      onnxTruth: againstExecution({ outputs: [theirs] }, ran),
      rulesVsOnnx: compareSides({ outputs: [shapelog] }, { outputs: [theirs] }),
    };
  });
  return {
    values,
    feeds,
    onnx: onnx === null ? null : onnxVersion,
    onnxruntime: executed === null ? null : runtimeVersion,
    notes,
    errors: typed.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
    typed,
  };
}
