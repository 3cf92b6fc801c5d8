// Gradual typing of an ONNX model (`shapelog infer MODEL.onnx --gradual`): where typing
// leaves a condition on symbolic dims undecided, it becomes a residual check at the node
// that needs it (node name, op_type, condition in canonical form:
// typing/residual-checks.ts), and typing goes on under it. As for Relay
// (typing/gradual.ts), in rounds:
//   - a node whose inputs are known but whose outputs nothing determined (an Add of `n`
//     against `3`) is typed alone with a dim name of its inputs set, in turn, to 1 and to
//     each size its inputs mention; the settings under which it types become the check
//     (`n == 1 || n == 3`) when they all give the same outputs, else the first that does
//     not set it to 1 alone; its outputs are then declared (value_info) with those types,
//     so the nodes after it are typed under the assumption;
// until a round assumes nothing. The checks are then those assumptions and the
// conditions left undecided at nodes whose outputs were determined (undecided-nodes.ts).
import type { OnnxGraph, OnnxModel, OnnxNode, OnnxType } from '../../frontends/onnx/model.js';
import { parseDimText } from '../../relations/imperative/type-text.js';
import { type Dim, dimConst, dimVar } from '../../solver/terms/dims.js';
import { canonicalComparison, type Comparison, comparisonText } from '../residual-checks.js';
import { typeGraph, type GraphTypeOptions, type TypedGraph } from './graph-types.js';
import type { ValueType } from './value-terms.js';

/** A residual check at a node of the main graph. */
export interface OnnxCheck {
  /** The node's name, or `OpType#index` when it has none. */
  readonly node: string;
  readonly opType: string;
  /** The canonical text: comparisons joined by ` || `. */
  readonly condition: string;
  readonly anyOf: readonly Comparison[];
  /** What typing assumed beyond the condition (the outputs a node has under it), or null. */
  readonly assumes: string | null;
}

export interface OnnxGradualResult {
  /** The last round's typing (assumed outputs declared). */
  readonly typed: TypedGraph;
  readonly checks: readonly OnnxCheck[];
}

const MAX_ROUNDS = 32;

export function typeModelGradually(model: OnnxModel, options: GraphTypeOptions = {}): OnnxGradualResult {
  const assumed = new Map<string, OnnxType>();
  const assumptions: OnnxCheck[] = [];
  const assumedNodes = new Set<OnnxNode>();
  // a graph output's declared type counts after value_info: an assumed one replaces both
  const withAssumed = (): OnnxGraph => ({
    ...model.graph,
    valueInfo: [...model.graph.valueInfo.filter((v) => !assumed.has(v.name)), ...[...assumed].map(([name, type]) => ({ name, type }))],
    outputs: model.graph.outputs.map((v) => ({ ...v, type: assumed.get(v.name) ?? v.type })),
  });
  let typed = typeGraph(withAssumed(), model.opsets, { ...options, undecided: true });
  for (let round = 1; round < MAX_ROUNDS; round++) {
    const types = new Map([...typed.inputs, ...typed.values].map((v) => [v.name, v.type]));
    let changed = false;
    for (const n of model.graph.nodes) {
      if (assumedNodes.has(n)) continue;
      const inputs = n.inputs.map((i) => (i === '' ? null : (types.get(i) ?? null)));
      const outputs = n.outputs.filter((o) => o !== '').map((o) => types.get(o) ?? null);
      if (!inputs.every((t) => t === null || known(t)) || outputs.every((t) => t !== null && known(t))) continue;
      const a = assumeOutputs(model, n, inputs, options);
      if (a === null) continue;
      assumedNodes.add(n);
      n.outputs.forEach((o, i) => (o !== '' && a.outputs[i] !== undefined ? assumed.set(o, a.outputs[i]!) : undefined));
      assumptions.push(a.check);
      changed = true;
      break; // the nodes after it are typed under the assumption first
    }
    if (!changed) break;
    typed = typeGraph(withAssumed(), model.opsets, { ...options, undecided: true });
  }
  const undecided: OnnxCheck[] = [];
  for (const u of typed.undecided ?? []) {
    if (assumedNodes.has(u.node)) continue;
    const c = canonicalComparison(u.left, u.op, u.right);
    if (c !== null) undecided.push({ node: nodeName(u.node), opType: u.node.opType, condition: comparisonText(c), anyOf: [c], assumes: null });
  }
  const order = new Map(model.graph.nodes.map((n, i) => [nodeName(n), i]));
  const seen = new Set<string>();
  const checks = [...undecided, ...assumptions]
    .sort((a, b) => (order.get(a.node) ?? 0) - (order.get(b.node) ?? 0) || (a.condition < b.condition ? -1 : a.condition > b.condition ? 1 : 0))
    .filter((c) => !seen.has(c.condition) && seen.add(c.condition) !== undefined);
  return { typed, checks };
}

function nodeName(n: OnnxNode): string {
  return n.name !== '' ? n.name : `${n.opType}#${n.index}`;
}

/** A tensor type with dtype and every dim known. */
function known(t: ValueType): boolean {
  return t.kind === 'tensor' && t.dtype !== null && t.shape !== null && t.shape.every((d) => d !== null);
}

/** The node's outputs under a setting of one dim name of its inputs, and the check standing for it; null when no setting types it. */
function assumeOutputs(model: OnnxModel, n: OnnxNode, inputs: readonly (ValueType | null)[], options: GraphTypeOptions): { outputs: (OnnxType | undefined)[]; check: OnnxCheck } | null {
  const dims = inputs.flatMap((t) => (t !== null && t.kind === 'tensor' && t.shape !== null ? t.shape : []));
  const names = [...new Set(dims.filter((d): d is string => typeof d === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(d)))];
  for (const v of names) {
    const sizes = [1, ...new Set(dims.filter((d): d is number | string => d !== null && d !== v && d !== 1))];
    const typedUnder: { size: number | string; outputs: OnnxType[]; text: string }[] = [];
    for (const size of sizes) {
      const outputs = typeNodeAlone(model, n, inputs.map((t) => substitute(t, v, size)), options);
      if (outputs !== null) typedUnder.push({ size, outputs, text: JSON.stringify(outputs) });
    }
    if (typedUnder.length === 0) continue;
    const same = typedUnder.every((t) => t.text === typedUnder[0]!.text);
    const chosen = same ? typedUnder : [typedUnder.find((t) => t.size !== 1) ?? typedUnder[0]!];
    const anyOf = chosen.map((t) => canonicalComparison(dimVar(v), '==', sizeDim(t.size))).filter((c): c is Comparison => c !== null);
    if (anyOf.length === 0) continue;
    const outputs = chosen[0]!.outputs;
    return {
      outputs: n.outputs.map((o, i) => (o === '' ? undefined : outputs[i])),
      check: { node: nodeName(n), opType: n.opType, condition: anyOf.map(comparisonText).join(' || '), anyOf, assumes: `${n.opType} gives ${outputs.map(typeText).join(', ')}` },
    };
  }
  return null;
}

function sizeDim(size: number | string): Dim {
  if (typeof size === 'number') return dimConst(size);
  const d = parseDimText(size);
  return typeof d === 'string' ? dimVar(size) : d;
}

function substitute(t: ValueType | null, v: string, size: number | string): ValueType | null {
  if (t === null || t.kind !== 'tensor' || t.shape === null) return t;
  return { ...t, shape: t.shape.map((d) => (d === v ? size : d)) };
}

function typeText(t: OnnxType): string {
  return t.kind === 'tensor' ? `${t.dtype ?? '?'}[${(t.shape ?? []).map((d) => (d === null ? '?' : String(d))).join(', ')}]` : t.kind;
}

/** The node alone, on inputs of these types (initializers kept as they are), typed: its outputs, or null (an error, or an output not fully known). */
function typeNodeAlone(model: OnnxModel, n: OnnxNode, inputs: readonly (ValueType | null)[], options: GraphTypeOptions): OnnxType[] | null {
  const initializers = model.graph.initializers.filter((t) => n.inputs.includes(t.name));
  const own = new Set(initializers.map((t) => t.name));
  const graph: OnnxGraph = {
    name: 'alone',
    inputs: n.inputs.flatMap((name, i) => {
      const t = inputs[i];
      if (name === '' || own.has(name) || t === null || t === undefined || t.kind !== 'tensor') return [];
      return [{ name, type: { kind: 'tensor' as const, dtype: t.dtype, shape: t.shape } }];
    }),
    outputs: n.outputs.filter((o) => o !== '').map((name) => ({ name, type: null })),
    valueInfo: [],
    initializers,
    nodes: [{ ...n, index: 0 }],
  };
  const r = typeGraph(graph, model.opsets, { limits: options.limits ?? {} });
  if (r.diagnostics.some((d) => d.severity === 'error')) return null;
  const out: OnnxType[] = [];
  for (const v of r.values) {
    if (v.type === null || !known(v.type) || v.type.kind !== 'tensor') return null;
    out.push({ kind: 'tensor', dtype: v.type.dtype, shape: v.type.shape });
  }
  return out;
}
