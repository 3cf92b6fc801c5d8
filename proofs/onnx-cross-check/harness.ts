// The ONNX cross-check of one case: shapelog's rules, ONNX's own shape inference and
// onnxruntime's execution of the same one-node model. The rules and ONNX answer the
// case as given (size variables included); both, and onnxruntime, also answer its
// concrete instance, where the execution decides who is right. A case where the sides
// differ is shrunk (dims made 1 or halved while the difference stays the same kind) and
// can be written as a one-node .onnx file.
import { UserError } from '../../diagnostics/diagnostic.js';
import { dtypeName } from '../../frontends/onnx/dtypes.js';
import { encodeModel, EncodeError } from '../../frontends/onnx/encode.js';
import type { OnnxGraph } from '../../frontends/onnx/model.js';
import { nodeGraph, typeNodeRequest } from '../../typing/onnx/node-request.js';
import { normDomain } from '../../frontends/onnx/decode.js';
import { againstExecution, compareSides, type Agreement, type SideAnswer, type Truth } from './compare.js';
import { concrete, opKey, smallerRecords, type NodeRecord, type OnnxCase } from './cases.js';
import type { OnnxInference } from './onnx-inference.js';
import { CANNOT_LOAD, runOnRuntime, runtimeHandles, type RuntimeAnswer } from './runtime.js';
import { runtimeDeviationOf } from './runtime-deviations.js';

/** The IR version of the written models (what python3-onnx 1.12 reads; onnxruntime reads it too). */
const IR_VERSION = 8;

export interface CaseOutcome {
  readonly op: string;
  readonly label: string;
  readonly record: NodeRecord;
  readonly sizes: ReadonlyMap<string, number>;
  /** Rules vs ONNX's inference on the case as given; null: ONNX's inference does not know the opset. */
  readonly agreement: Agreement | null;
  readonly rules: Truth;
  readonly onnx: Truth | null;
  readonly answers: { readonly rules: SideAnswer; readonly onnx: SideAnswer | null; readonly runtime: RuntimeAnswer };
}

export interface Sides {
  /** null: ONNX's inference is not available (then the rules face onnxruntime alone). */
  readonly inference: OnnxInference | null;
}

/** A one-node model of the record: inputs with values as initializers, every node output a graph output. */
export function recordModel(record: NodeRecord): { bytes: Uint8Array; graph: OnnxGraph; names: readonly string[] } {
  const { graph, opsets } = nodeGraph(record);
  const names = graph.nodes[0]!.outputs;
  const withOutputs: OnnxGraph = { ...graph, outputs: names.filter((n) => n !== '').map((name) => ({ name, type: null })) };
  return { bytes: encodeModel(withOutputs, opsets, IR_VERSION), graph: withOutputs, names };
}

function rulesAnswer(record: NodeRecord): SideAnswer {
  try {
    const a = typeNodeRequest(record);
    if ('error' in a) return a;
    return { outputs: a.outputs.map((o) => ('dtype' in o ? { dtype: o.dtype, shape: o.shape } : null)) };
  } catch (e) {
    if (e instanceof UserError) return { error: e.diagnostics[0]?.message ?? 'rejected' };
    throw e;
  }
}

async function onnxAnswer(sides: Sides, record: NodeRecord, bytes: Uint8Array, names: readonly string[]): Promise<SideAnswer | null> {
  const inf = sides.inference;
  if (inf === null || (normDomain(record.domain) === '' && record.opset > inf.info.maxOpset)) return null;
  const a = await inf.ask(bytes, names);
  if ('error' in a) return a;
  return {
    outputs: names.map((n, i) =>
      n === '' ? null : a.types[i] === null || a.types[i] === undefined ? null : { dtype: dtypeName(a.types[i]!.elem), shape: a.types[i]!.shape },
    ),
  };
}

/** Tensors larger than this are not executed (onnxruntime would allocate them). */
const MAX_EXECUTED_ELEMENTS = 1_000_000;

const elements = (shape: readonly (number | string | null)[] | null): number =>
  shape === null ? 0 : shape.reduce<number>((p, d) => p * (typeof d === 'number' ? d : 1), 1);

function largestInput(r: NodeRecord): number {
  return Math.max(0, ...r.inputs.map((i) => ('absent' in i ? 0 : elements(i.shape))));
}

/** Dtypes named by int attributes that choose an output's type (Cast's `to`, `dtype`, ...). */
function attributeDtypes(r: NodeRecord): string[] {
  return Object.entries(r.attributes).flatMap(([k, a]) =>
    a.type === 'int' && /^(to|dtype|output_dtype|saturate_dtype)$/.test(k) ? [dtypeName(Number(a.value)) ?? `dtype ${a.value}`] : [],
  );
}

function outputDtypes(a: SideAnswer | null): string[] {
  return a === null || 'error' in a ? [] : a.outputs.flatMap((o) => (o === null || o.dtype === null ? [] : [o.dtype]));
}

function largestOutput(a: SideAnswer | null): number {
  return a === null || 'error' in a ? 0 : Math.max(0, ...a.outputs.map((o) => (o === null ? 0 : elements(o.shape))));
}

/** Runs one case on every side; null when the case cannot be written as a model. */
export async function runCase(sides: Sides, c: OnnxCase): Promise<CaseOutcome | null> {
  let model: ReturnType<typeof recordModel>;
  let concreteModel: ReturnType<typeof recordModel>;
  const instance = concrete(c);
  try {
    model = recordModel(c.record);
    concreteModel = instance === c.record ? model : recordModel(instance);
  } catch (e) {
    if (e instanceof EncodeError || e instanceof UserError) return null;
    throw e;
  }
  const rules = rulesAnswer(c.record);
  const onnx = await onnxAnswer(sides, c.record, model.bytes, model.names);
  const rulesOnInstance = instance === c.record ? rules : rulesAnswer(instance);
  const onnxOnInstance = instance === c.record ? onnx : await onnxAnswer(sides, instance, concreteModel.bytes, concreteModel.names);
  const size = Math.max(largestInput(instance), largestOutput(rulesOnInstance), largestOutput(onnxOnInstance));
  const unhandled = [...outputDtypes(rulesOnInstance), ...outputDtypes(onnxOnInstance), ...attributeDtypes(instance)].find((d) => !runtimeHandles(d));
  const runtime: RuntimeAnswer =
    size > MAX_EXECUTED_ELEMENTS
      ? { error: `not executed: a tensor of ${size} elements` }
      : unhandled !== undefined
        ? { error: `not executed: onnxruntime-node cannot return ${unhandled} tensors` }
        : await runOnRuntime(concreteModel.bytes, concreteModel.graph, concreteModel.names);
  const executed = 'error' in runtime ? null : runtime.outputs;
  return {
    op: opKey(c.record),
    label: c.label,
    record: c.record,
    sizes: c.sizes,
    agreement: onnx === null ? null : compareSides(rules, onnx),
    rules: againstExecution(rulesOnInstance, executed),
    onnx: onnxOnInstance === null ? null : againstExecution(onnxOnInstance, executed),
    answers: { rules, onnx, runtime },
  };
}

/** A case the report lists: the sides differ, or a side is contradicted by the execution. */
export function isDisagreement(o: CaseOutcome): boolean {
  return (o.agreement !== null && o.agreement !== 'agree') || o.rules === 'wrong' || o.onnx === 'wrong';
}

/**
 * A case that fails the check: the execution contradicts the rules (unless ONNX's
 * inference is contradicted too, or the case is a known deviation of onnxruntime), or
 * the rules contradict ONNX's inference where nothing was executed (unless onnxruntime
 * refused the model itself as invalid: then neither side should have typed it).
 */
export function isFailure(o: CaseOutcome): boolean {
  if (o.rules === 'wrong') return o.onnx !== 'wrong' && runtimeDeviationOf(concrete({ label: '', record: o.record, sizes: o.sizes })) === null;
  const refused = 'error' in o.answers.runtime && o.answers.runtime.error.startsWith(CANNOT_LOAD);
  return o.agreement === 'contradict' && o.rules === 'no-execution' && !refused;
}

const kindOf = (o: CaseOutcome): string => `${o.agreement}|${o.rules}|${o.onnx}`;

/** The smallest instance found with the same kind of difference (at most `budget` tries). */
export async function shrinkCase(sides: Sides, o: CaseOutcome, c: OnnxCase, budget = 40): Promise<CaseOutcome> {
  let best = o;
  let current = c;
  let tries = 0;
  for (let improved = true; improved && tries < budget; ) {
    improved = false;
    for (const r of smallerRecords(current.record)) {
      if (++tries > budget) break;
      const next = { ...current, record: r };
      const out = await runCase(sides, next);
      if (out !== null && kindOf(out) === kindOf(o)) {
        best = out;
        current = next;
        improved = true;
        break;
      }
    }
  }
  return best;
}

/** Which side onnxruntime's execution supports, in words. */
export function verdictOf(o: CaseOutcome): string {
  const deviation = runtimeDeviationOf(concrete({ label: '', record: o.record, sizes: o.sizes }));
  if (deviation !== null && o.rules !== 'no-execution') return `a known deviation of onnxruntime: ${deviation.what}`;
  if (o.rules === 'no-execution') return `onnxruntime did not run it (${'error' in o.answers.runtime ? o.answers.runtime.error : ''})`;
  const ok = (t: Truth | null) => t === 'exact' || t === 'consistent';
  if (o.onnx === null) return ok(o.rules) ? "onnxruntime's execution supports the rules" : `onnxruntime's execution contradicts the rules (${o.rules})`;
  if (ok(o.rules) && ok(o.onnx)) return "onnxruntime's execution is consistent with both";
  if (ok(o.rules)) return `onnxruntime's execution supports the rules (ONNX's inference: ${o.onnx})`;
  if (ok(o.onnx)) return `onnxruntime's execution supports ONNX's inference (the rules: ${o.rules})`;
  return `onnxruntime's execution supports neither (rules: ${o.rules}, ONNX: ${o.onnx})`;
}
