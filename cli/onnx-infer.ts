// `shapelog infer MODEL.onnx [--shape NAME=d0,d1]... [--dim PARAM=N]... [--value NAME=v0,v1]... [--json] [--explain VALUE]
// [--write-value-info OUT.onnx]`: the
// type of every value of an ONNX model: graph inputs, each node's outputs, graph
// outputs. The default output is a listing, node by node; --json prints
// {"inputs", "values", "outputs", "diagnostics"}, each value {"name", "op", "dtype",
// "shape"}, a dim an int, a string (symbolic, canonical form) or null (unknown), and
// "shape": null for an unknown rank; the values of subgraphs (If branches, Loop/Scan
// bodies) follow, each with "graph": the enclosing node and attribute
// (`loop_1.body/if_2.then_branch`), and the listing shows them under their node; --explain VALUE prints the derivation of the node
// that produces VALUE; --write-value-info writes the model back with the inferred types as
// value_info (frontends/onnx/value-info-writer.ts), subgraphs included; --gradual types the
// model gradually (typing/onnx/gradual.ts): the checks per node follow the listing, and
// --json adds "checks" and "freshDims". Exit 1 when a diagnostic is an error.
import { readFileSync, writeFileSync } from 'node:fs';
import type { OnnxAttr, OnnxGraph, OnnxModel, OnnxNode } from '../frontends/onnx/model.js';
import { withSubgraphValueInfo, withValueInfo, type ValueInfoEntry } from '../frontends/onnx/value-info-writer.js';
import { diagnostic, UserError } from '../diagnostics/diagnostic.js';
import { timed } from '../diagnostics/phase-times.js';
import { failureReason } from '../diagnostics/read-source.js';
import { readModel, typeModel } from '../typing/onnx/model-types.js';
import { type OnnxCheck, typeModelGradually } from '../typing/onnx/gradual.js';
import type { SubgraphStep, SubgraphValue, TypedGraph, TypedValue } from '../typing/onnx/graph-types.js';
import type { ValueType } from '../typing/onnx/value-terms.js';
import { onnxInputsProblem, parseOnnxInputs } from './onnx-inputs.js';
import { EXIT_OK, EXIT_USAGE, EXIT_USER_ERROR } from './report.js';

export interface OnnxInferOptions {
  readonly json: boolean;
  /** NAME=d0,d1,... (a dim: an int, a name, or ? for unknown) */
  readonly shapes: readonly string[];
  /** PARAM=N */
  readonly dims: readonly string[];
  /** NAME=v0,v1,...: a graph input's integer values (an If's condition may depend on them) */
  readonly values?: readonly string[];
  /** --explain VALUE: why a value has its type */
  readonly explain?: string;
  /** --write-value-info OUT.onnx: the model with every inferred type as value_info */
  readonly writeValueInfo?: string;
  /** --gradual: residual checks per node where a condition cannot be decided (typing/onnx/gradual.ts) */
  readonly gradual?: boolean;
  /** --checks-only (with --gradual): print just the checks */
  readonly checksOnly?: boolean;
}

function typeText(t: ValueType | null): string {
  if (t === null) return '?';
  if (t.kind === 'absent') return 'absent';
  if (t.kind !== 'tensor') return `${t.kind}(${typeText(t.elem)})`;
  const shape = t.shape === null ? '*' : t.shape.map((d) => (d === null ? '?' : String(d))).join(', ');
  const values = t.values !== undefined && t.values.length <= 16 ? ` = [${t.values.join(', ')}]` : '';
  return `${t.dtype ?? '?'}[${shape}]${values}`;
}

function valueJson(v: TypedValue | SubgraphValue): Record<string, unknown> {
  const t = v.type;
  const base = { name: v.name, op: v.op, ...('graph' in v ? { graph: v.graph } : {}) };
  if (t === null) return { ...base, dtype: null, shape: null };
  if (t.kind === 'tensor') return { ...base, dtype: t.dtype, shape: t.shape, ...(t.values !== undefined ? { values: t.values } : {}) };
  return { ...base, kind: t.kind };
}

function nodeRef(n: OnnxNode | null): Record<string, unknown> | null {
  return n === null ? null : { index: n.index, name: n.name, op_type: n.opType };
}

function listing(model: OnnxModel, typed: TypedGraph): string {
  const out: string[] = [];
  const opsets = [...model.opsets].map(([d, v]) => `${d === '' ? 'ai.onnx' : d} ${v}`).join(', ');
  out.push(`graph ${model.graph.name || '(unnamed)'} (opsets: ${opsets})`);
  out.push('inputs:');
  for (const v of typed.inputs) out.push(`  ${v.name}: ${typeText(v.type)}`);
  out.push('nodes:');
  const top = new Map(typed.values.map((v) => [v.name, v]));
  const inner = new Map<string, Map<string, SubgraphValue>>();
  for (const v of typed.subgraphValues) (inner.get(v.graph) ?? inner.set(v.graph, new Map()).get(v.graph)!).set(v.name, v);
  const nodes = (g: OnnxGraph, byName: ReadonlyMap<string, TypedValue>, indent: string, path: string) => {
    for (const n of g.nodes) {
      const outs = n.outputs.filter((o) => o !== '').map((o) => `${o}: ${typeText(byName.get(o)?.type ?? null)}`);
      out.push(
        `${indent}${n.index} ${n.domain === '' ? '' : `${n.domain}.`}${n.opType}${n.name ? ` "${n.name}"` : ''}(${n.inputs.map((i) => (i === '' ? '_' : i)).join(', ')}) -> ${outs.join(', ')}`,
      );
      for (const [attr, a] of n.attrs) {
        if (a.kind !== 'graph' || a.value.nodes.length === 0) continue;
        const sub = `${path === '' ? '' : `${path}/`}${n.name !== '' ? n.name : `${n.opType}#${n.index}`}.${attr}`;
        const values = inner.get(sub);
        // a body with nodes and no typed value: an If branch not taken (its condition known)
        if (values === undefined) {
          out.push(`${indent}    ${attr}: not taken, not typed (${a.value.nodes.length} node${a.value.nodes.length === 1 ? '' : 's'})`);
          continue;
        }
        out.push(`${indent}    ${attr}(${a.value.inputs.map((v) => `${v.name}: ${typeText(values.get(v.name)?.type ?? null)}`).join(', ')}):`);
        nodes(a.value, values, `${indent}      `, sub);
      }
    }
  };
  nodes(model.graph, top, '  ', '');
  out.push('outputs:');
  for (const v of typed.outputs) out.push(`  ${v.name}: ${typeText(v.type)}`);
  return out.join('\n');
}

/** The subgraph of `graph` at `at`, or null. */
function subgraphAt(graph: OnnxGraph, at: readonly SubgraphStep[]): OnnxGraph | null {
  let g: OnnxGraph | null = graph;
  for (const step of at) {
    const n: OnnxNode | undefined = g?.nodes.find((m) => m.index === step.node && m.attrs.get(step.attr)?.kind === 'graph');
    const a: OnnxAttr | undefined = n?.attrs.get(step.attr);
    g = a?.kind === 'graph' ? a.value : null;
  }
  return g;
}

/** Writes the model with the type of every node output it does not declare yet, in the main graph and in each subgraph. */
function writeTyped(file: string, model: OnnxModel, typed: TypedGraph, out: string): void {
  const declaredIn = (g: OnnxGraph) => new Set([...g.valueInfo, ...g.outputs, ...g.inputs].map((v) => v.name));
  const entry = (v: TypedValue): ValueInfoEntry | null =>
    v.type?.kind === 'tensor' && v.type.dtype !== null ? { name: v.name, dtype: v.type.dtype, shape: v.type.shape } : null;
  const declared = declaredIn(model.graph);
  const entries = typed.values
    .filter((v) => !declared.has(v.name))
    .map(entry)
    .filter((e): e is ValueInfoEntry => e !== null);
  const bySubgraph = new Map<string, { at: readonly SubgraphStep[]; values: SubgraphValue[] }>();
  for (const v of typed.subgraphValues) (bySubgraph.get(v.graph) ?? bySubgraph.set(v.graph, { at: v.at, values: [] }).get(v.graph)!).values.push(v);
  try {
    let bytes: Uint8Array = readFileSync(file);
    for (const { at, values } of bySubgraph.values()) {
      const g = subgraphAt(model.graph, at);
      if (g === null) continue;
      const own = declaredIn(g);
      bytes = withSubgraphValueInfo(
        bytes,
        at,
        values
          .filter((v) => v.op !== 'input' && !own.has(v.name))
          .map(entry)
          .filter((e): e is ValueInfoEntry => e !== null),
      );
    }
    writeFileSync(out, withValueInfo(bytes, entries));
  } catch (e) {
    throw new UserError([diagnostic('error', 'io', `cannot write ${out}: ${failureReason(e)}`, null)]);
  }
}

/** `node "name" (OpType): condition`, and what was assumed under it. */
function checkLine(c: OnnxCheck): string {
  return `node "${c.node}" (${c.opType}): ${c.condition}${c.assumes === null ? '' : ` (assumed: ${c.assumes})`}`;
}

export function inferOnnx(file: string, options: OnnxInferOptions): number {
  const given = parseOnnxInputs(options.shapes, options.dims, options.values ?? []);
  if (typeof given === 'string') {
    process.stderr.write(`error: ${given}\n`);
    return EXIT_USAGE;
  }
  const model = readModel(file);
  const problem = onnxInputsProblem(model.graph, given);
  if (problem !== null) {
    process.stderr.write(`error: ${problem}\n`);
    return EXIT_USAGE;
  }
  const { shapes, dims, values } = given;
  const gradual = options.gradual === true ? typeModelGradually(model, { shapes, dims, values }) : null;
  const typed = gradual?.typed ?? typeModel(model, { shapes, dims, values });
  return timed('print', () => printTyped(file, model, typed, gradual, options));
}

/** Prints the typed model as the options ask (listing, --json, --explain, --checks-only; --write-value-info); the exit code. */
function printTyped(
  file: string,
  model: OnnxModel,
  typed: TypedGraph,
  gradual: ReturnType<typeof typeModelGradually> | null,
  options: OnnxInferOptions,
): number {
  const errors = typed.diagnostics.filter((d) => d.severity === 'error');
  if (options.explain !== undefined) {
    const why = typed.explain(options.explain);
    if (why === null) {
      const produced = typed.values.map((v) => v.name);
      process.stderr.write(
        `error: --explain ${options.explain}: no node of the model produces a value of that name${produced.length > 0 ? ` (for example ${produced.slice(0, 5).join(', ')})` : ''}\n`,
      );
      return EXIT_USAGE;
    }
    process.stdout.write(`${why}\n`);
    return errors.length > 0 ? EXIT_USER_ERROR : EXIT_OK;
  }
  if (options.writeValueInfo !== undefined) writeTyped(file, model, typed, options.writeValueInfo);
  if (options.json) {
    const json = {
      inputs: typed.inputs.map(valueJson),
      values: [...typed.values, ...typed.subgraphValues].map(valueJson),
      outputs: typed.outputs.map(valueJson),
      diagnostics: typed.diagnostics.map((d) => ({ severity: d.severity, node: nodeRef(d.node), message: d.message })),
      ...(gradual === null
        ? {}
        : {
            checks: gradual.checks.map((c) => ({ node: c.node, op: c.opType, index: c.index, condition: c.condition, assumes: c.assumes })),
            freshDims: gradual.freshDims,
          }),
    };
    // one value per line: readable, and still one JSON document
    const list = (xs: readonly unknown[]) => (xs.length === 0 ? '[]' : `[\n  ${xs.map((x) => JSON.stringify(x)).join(',\n  ')}\n ]`);
    const checks = json.checks === undefined ? '' : `,\n "checks": ${list(json.checks)},\n "freshDims": ${JSON.stringify(json.freshDims)}`;
    process.stdout.write(
      `{"inputs": ${list(json.inputs)},\n "values": ${list(json.values)},\n "outputs": ${list(json.outputs)},\n "diagnostics": ${list(json.diagnostics)}${checks}}\n`,
    );
  } else if (gradual !== null && options.checksOnly === true) {
    process.stdout.write(gradual.checks.map((c) => `${file}: ${checkLine(c)}\n`).join(''));
    for (const d of typed.diagnostics) process.stderr.write(`${file}: ${d.severity}: ${d.message}\n`);
  } else {
    process.stdout.write(`${listing(model, typed)}\n`);
    if (gradual !== null)
      process.stdout.write(
        `checks:${gradual.checks.length === 0 ? ' none' : ''}\n${gradual.checks.map((c) => `  ${checkLine(c)}\n`).join('')}${gradual.freshDims.length === 0 ? '' : `fresh size variables: ${gradual.freshDims.join(', ')}\n`}`,
      );
    for (const d of typed.diagnostics) process.stderr.write(`${file}: ${d.severity}: ${d.message}\n`);
  }
  return errors.length > 0 ? EXIT_USER_ERROR : EXIT_OK;
}
