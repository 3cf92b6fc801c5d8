// `shapelog check MODEL.onnx [--shape NAME=d0,d1]... [--dim PARAM=N]... [--value NAME=v0,v1]...
// [--json]`: the user's model checked three ways (proofs/onnx-cross-check/model-check.ts):
// shapelog's rules, ONNX's own shape inference (when a Python with the onnx package is
// found) and onnxruntime's execution (when every graph input's shape is concrete, from the
// model or the options). A line per node output of the main graph with each side's type and
// what stands out, then the counts. Exit 1 when shapelog's type of a value contradicts the
// execution or shapelog finds a type error; what ONNX's inference gets wrong is a finding,
// reported, not a failure. 2 on bad usage.
import { readFileSync } from 'node:fs';
import { decodeModel } from '../frontends/onnx/decode.js';
import { type ModelCheck, type ValueCheck, checkModel } from '../proofs/onnx-cross-check/model-check.js';
import type { OutputType } from '../proofs/onnx-cross-check/compare.js';
import { findPython, ONNX_PYTHON_HINT } from '../proofs/onnx-cross-check/onnx-inference.js';
import { stopRuntime } from '../proofs/onnx-cross-check/runtime.js';
import { failureReason } from '../diagnostics/read-source.js';
import { onnxInputsProblem, parseOnnxInputs } from './onnx-inputs.js';
import { EXIT_OK, EXIT_USAGE, EXIT_USER_ERROR } from './report.js';

export interface CheckModelOptions {
  readonly shapes: readonly string[];
  readonly dims: readonly string[];
  readonly values: readonly string[];
  readonly json: boolean;
}

function typeText(t: OutputType | null | undefined): string {
  if (t === null || t === undefined) return '?';
  return `${t.dtype ?? '?'}[${t.shape === null ? '*' : t.shape.map((d) => d ?? '?').join(', ')}]`;
}

/** What stands out about a value: an inference the execution contradicts, a contradiction between the two, who knows more. */
function flags(v: ValueCheck): string[] {
  const out: string[] = [];
  if (v.shapelogTruth === 'wrong') out.push('shapelog WRONG');
  if (v.onnxTruth === 'wrong') out.push("ONNX's inference WRONG");
  if (v.rulesVsOnnx === 'contradict') out.push('the two contradict');
  else if (v.rulesVsOnnx === 'rules-more-precise') out.push('shapelog knows more');
  else if (v.rulesVsOnnx === 'onnx-more-precise') out.push("ONNX's inference knows more");
  else if (v.rulesVsOnnx === 'each-more-precise') out.push('each knows something the other does not');
  return out;
}

function counts<T extends string>(xs: readonly (T | undefined)[]): Map<T, number> {
  const m = new Map<T, number>();
  for (const x of xs) if (x !== undefined) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

function truthLine(who: string, truths: readonly (string | undefined)[]): string {
  const c = counts(truths);
  return `${who}: exact ${c.get('exact') ?? 0}, right but incomplete ${c.get('consistent') ?? 0}, wrong ${c.get('wrong') ?? 0}`;
}

function summaryLines(r: ModelCheck): string[] {
  const lines: string[] = [];
  const ran = r.values.filter((v) => v.executed !== null).length;
  if (r.onnxruntime !== null) {
    lines.push(`against onnxruntime's execution (${ran} of ${r.values.length} values returned):`);
    lines.push(
      `  ${truthLine(
        'shapelog',
        r.values.map((v) => (v.executed === null ? undefined : v.shapelogTruth)),
      )}`,
    );
    if (r.onnx !== null)
      lines.push(
        `  ${truthLine(
          "ONNX's inference",
          r.values.map((v) => (v.executed === null ? undefined : v.onnxTruth)),
        )}`,
      );
  }
  if (r.onnx !== null) {
    const c = counts(r.values.map((v) => v.rulesVsOnnx));
    lines.push(
      `shapelog against ONNX's inference: same ${c.get('agree') ?? 0}, shapelog knows more ${c.get('rules-more-precise') ?? 0}, ONNX's inference knows more ${c.get('onnx-more-precise') ?? 0}, each knows more ${c.get('each-more-precise') ?? 0}, contradicting ${c.get('contradict') ?? 0}`,
    );
  }
  return lines;
}

function table(r: ModelCheck): string[] {
  const header = ['value', 'op', 'shapelog', ...(r.onnx !== null ? ["ONNX's inference"] : []), ...(r.onnxruntime !== null ? ['executed'] : []), ''];
  const rows = r.values.map((v) => [
    v.name,
    v.op,
    typeText(v.shapelog),
    ...(r.onnx !== null ? [typeText(v.onnx)] : []),
    ...(r.onnxruntime !== null ? [v.executed === null ? '-' : typeText(v.executed)] : []),
    flags(v).join('; '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

function json(file: string, r: ModelCheck): string {
  const values = r.values.map((v) => ({
    name: v.name,
    op: v.op,
    shapelog: v.shapelog,
    ...(r.onnx !== null ? { onnx: v.onnx ?? null } : {}),
    executed: v.executed,
    shapelog_vs_executed: v.shapelogTruth,
    ...(r.onnx !== null ? { onnx_vs_executed: v.onnxTruth, rules_vs_onnx: v.rulesVsOnnx } : {}),
  }));
  const list = (xs: readonly unknown[]) => (xs.length === 0 ? '[]' : `[\n  ${xs.map((x) => JSON.stringify(x)).join(',\n  ')}\n ]`);
  return `{"model": ${JSON.stringify(file)},\n "onnx": ${JSON.stringify(r.onnx)},\n "onnxruntime": ${JSON.stringify(r.onnxruntime)},\n "inputs": ${JSON.stringify(r.feeds)},\n "notes": ${JSON.stringify(r.notes)},\n "errors": ${JSON.stringify(r.errors)},\n "values": ${list(values)}}\n`;
}

export async function checkModelCommand(file: string, o: CheckModelOptions): Promise<number> {
  const given = parseOnnxInputs(o.shapes, o.dims, o.values);
  if (typeof given === 'string') {
    process.stderr.write(`error: ${given}\n`);
    return EXIT_USAGE;
  }
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    process.stderr.write(`error: cannot read ${file}: ${failureReason(e)}\n`);
    return EXIT_USER_ERROR;
  }
  const model = decodeModel(bytes, file);
  const problem = onnxInputsProblem(model.graph, given);
  if (problem !== null) {
    process.stderr.write(`error: ${problem}\n`);
    return EXIT_USAGE;
  }
  const python = findPython();
  let r: ModelCheck;
  try {
    r = await checkModel(bytes, model, { ...given, python, execute: true });
  } finally {
    stopRuntime();
  }
  const notes = [...(python === null ? [`ONNX's shape inference not run: no Python that can import onnx (${ONNX_PYTHON_HINT})`] : []), ...r.notes];
  const wrong = r.values.filter((v) => v.shapelogTruth === 'wrong').length;
  if (o.json) process.stdout.write(json(file, { ...r, notes }));
  else {
    const sides = [
      "shapelog's rules",
      ...(r.onnx !== null ? [`ONNX's shape inference (onnx ${r.onnx})`] : []),
      ...(r.onnxruntime !== null ? [`onnxruntime ${r.onnxruntime} on ${r.feeds!.map((f) => `${f.name} ${f.type}[${f.dims.join(', ')}]`).join(', ')}`] : []),
    ];
    process.stdout.write(`${file}: ${r.values.length} node outputs of the main graph, by ${sides.join(', ')}\n\n`);
    process.stdout.write(`${[...table(r), '', ...summaryLines(r)].join('\n')}\n`);
    for (const n of notes) process.stderr.write(`note: ${n}\n`);
    for (const e of r.errors) process.stderr.write(`${file}: error: ${e}\n`);
  }
  return wrong > 0 || r.errors.length > 0 ? EXIT_USER_ERROR : EXIT_OK;
}
