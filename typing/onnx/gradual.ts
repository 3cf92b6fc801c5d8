// Gradual typing of an ONNX model (`shapelog infer MODEL.onnx --gradual`): where typing
// leaves a condition on symbolic dims undecided, it becomes a residual check at the node
// that needs it (node name, op_type, index, condition in canonical form:
// typing/residual-checks.ts), and typing goes on under it. As for Relay
// (typing/gradual.ts), in rounds, each doing the first of these that applies:
//   - a node whose inputs are known but whose outputs nothing determined (an Add of `n`
//     against `3`) is typed alone with a dim name of its inputs set, in turn, to 1 and to
//     each size its inputs mention; the settings under which it types become the check
//     (`n == 1 || n == 3`) when they all give the same outputs, else the first that does
//     not set it to 1 alone; its outputs are then declared (value_info) with those types,
//     so the nodes after it are typed under the assumption;
//   - a size variable of the typing's own (an If's join of its branches, `If_3_out0_1`;
//     a fresh one, below) that a unification needs equal to another size (`cannot unify n
//     with 'If_3_out0_1'`) is renamed to that size everywhere (the `dims` option); for an
//     If's join, each branch whose dim differs gets a check at the If (`m == n`); the
//     assumptions are then made again;
//   - a value of the main graph (a graph input, then node outputs in order) whose rank is
//     known but some dims are not (no rule determines them) gets a fresh size variable
//     for each (`d1`, `d2`, ...: names the model does not use), one value per round, so
//     that the nodes after it are typed (and checked) on it;
// until a round changes nothing. The checks are then those assumptions, the If checks,
// and the conditions left undecided at nodes whose outputs were determined
// (undecided-nodes.ts), each once, in node order.
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
  /** The node's index in the main graph. */
  readonly index: number;
  /** The canonical text: comparisons joined by ` || `. */
  readonly condition: string;
  readonly anyOf: readonly Comparison[];
  /** What typing assumed beyond the condition (the outputs a node has under it), or null. */
  readonly assumes: string | null;
}

export interface OnnxGradualResult {
  /** The last round's typing (assumed outputs declared, fresh dims given). */
  readonly typed: TypedGraph;
  readonly checks: readonly OnnxCheck[];
  /** The fresh size variables given to dims no rule determines, those still in the typing. */
  readonly freshDims: readonly string[];
}

const MAX_ROUNDS = 64;
const JOIN_VARIABLE = /^If_(\d+)_out(\d+)_(\d+)$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function typeModelGradually(model: OnnxModel, options: GraphTypeOptions = {}): OnnxGradualResult {
  // outputs of stuck nodes, declared with the types an assumption gives them
  const assumed = new Map<string, OnnxType>();
  const assumptions: OnnxCheck[] = [];
  const assumedNodes = new Set<OnnxNode>();
  // fresh dims: of node outputs (declared as value_info) and of graph inputs (as --shape)
  const freshOutputs = new Map<string, OnnxType>();
  const shapes = new Map(options.shapes ?? []);
  // size variables renamed to the size a unification needs (and --dim's)
  const renamed = new Map<string, number | string>(options.dims ?? []);
  const joinChecks: OnnxCheck[] = [];
  const taken = namesOf(model);
  const freshDims: string[] = [];
  const freshName = (): string => {
    let k = freshDims.length + 1;
    while (taken.has(`d${k}`)) k++;
    taken.add(`d${k}`);
    freshDims.push(`d${k}`);
    return `d${k}`;
  };
  // a graph input's dim with neither dim_value nor dim_param is a fresh size variable, as
  // any dim no rule determines (plain typing names it INPUT#AXIS, typing/onnx/input-dims.ts,
  // which is no name a check or `checks --dims` can use)
  const initializers = new Set(model.graph.initializers.map((t) => t.name));
  for (const v of model.graph.inputs) {
    if (initializers.has(v.name) || shapes.has(v.name) || v.type?.kind !== 'tensor' || v.type.shape === null || !v.type.shape.includes(null)) continue;
    shapes.set(
      v.name,
      v.type.shape.map((d) => (d === null ? freshName() : d)),
    );
  }
  // a graph output's declared type counts after value_info: an assumed one replaces both
  const withAssumed = (): OnnxGraph => {
    const declared = new Map([...freshOutputs, ...assumed]);
    return {
      ...model.graph,
      valueInfo: [...model.graph.valueInfo.filter((v) => !declared.has(v.name)), ...[...declared].map(([name, type]) => ({ name, type }))],
      outputs: model.graph.outputs.map((v) => ({ ...v, type: declared.get(v.name) ?? v.type })),
    };
  };
  // the graph inputs' dims stay size variables where the inputs' shapes are given; fresh dims are size variables too
  const inputNames = namesOf({ ...model, graph: { ...model.graph, outputs: [], valueInfo: [], nodes: [] } });
  const typeNow = () =>
    typeGraph(withAssumed(), model.opsets, { ...options, shapes, dims: renamed, undecided: true, sizeVariables: new Set([...inputNames, ...freshDims]) });
  let typed = typeNow();
  for (let round = 1; round < MAX_ROUNDS; round++) {
    let changed = assumeOneNode(model, typed, assumedNodes, assumed, assumptions, options);
    if (!changed && equateOne(model, typed, renamed, joinChecks)) {
      assumed.clear();
      assumptions.length = 0;
      assumedNodes.clear();
      changed = true;
    }
    if (!changed) changed = fillOneValue(typed, shapes, freshOutputs, freshName);
    if (!changed) break;
    typed = typeNow();
  }
  const undecided: OnnxCheck[] = [];
  const types = new Map([...typed.inputs, ...typed.values].map((v) => [v.name, v.type]));
  // at a node whose outputs are still not determined, what typing waited on are alternatives, not requirements
  const determined = (n: OnnxNode) => n.outputs.every((o) => o === '' || known(types.get(o) ?? null));
  for (const u of typed.undecided ?? []) {
    if (assumedNodes.has(u.node) || (!u.negatedError && !determined(u.node))) continue;
    const c = canonicalComparison(u.left, u.op, u.right);
    if (c !== null)
      undecided.push({ node: nodeName(u.node), opType: u.node.opType, index: u.node.index, condition: comparisonText(c), anyOf: [c], assumes: null });
  }
  const order = new Map(model.graph.nodes.map((n, i) => [n.index, i]));
  const seen = new Set<string>();
  const checks = [...undecided, ...assumptions, ...joinChecks]
    .sort((a, b) => (order.get(a.index) ?? 0) - (order.get(b.index) ?? 0) || (a.condition < b.condition ? -1 : a.condition > b.condition ? 1 : 0))
    .filter((c) => !seen.has(c.condition) && seen.add(c.condition) !== undefined);
  const used = dimNamesOf([...typed.inputs, ...typed.values].map((v) => v.type));
  return { typed, checks, freshDims: freshDims.filter((d) => used.has(d) && !renamed.has(d)) };
}

/** Assumes the outputs of the first stuck node (inputs known, outputs not all known) that a setting types; whether one was. */
function assumeOneNode(
  model: OnnxModel,
  typed: TypedGraph,
  assumedNodes: Set<OnnxNode>,
  assumed: Map<string, OnnxType>,
  assumptions: OnnxCheck[],
  options: GraphTypeOptions,
): boolean {
  const types = new Map([...typed.inputs, ...typed.values].map((v) => [v.name, v.type]));
  for (const n of model.graph.nodes) {
    if (assumedNodes.has(n)) continue;
    const inputs = n.inputs.map((i) => (i === '' ? null : (types.get(i) ?? null)));
    const outputs = n.outputs.filter((o) => o !== '').map((o) => types.get(o) ?? null);
    if (!inputs.every((t) => t === null || known(t)) || outputs.every((t) => t !== null && known(t))) continue;
    const a = assumeOutputs(model, n, inputs, options);
    if (a === null) continue;
    assumedNodes.add(n);
    for (const [i, o] of n.outputs.entries()) {
      const assumedType = a.outputs[i];
      if (o !== '' && assumedType !== undefined) assumed.set(o, assumedType);
    }
    assumptions.push(...a.checks);
    return true; // the nodes after it are typed under the assumption first
  }
  return false;
}

/**
 * Renames the first size variable of the typing's own (an If's join, a fresh dim) that an
 * error says must equal another size (`cannot unify n with 'If_0_out0_1'`) to that size;
 * for an If's join, the checks that each branch's dim is that size. Whether one was.
 */
function equateOne(model: OnnxModel, typed: TypedGraph, renamed: Map<string, number | string>, joinChecks: OnnxCheck[]): boolean {
  const own = (v: string) => JOIN_VARIABLE.test(v) || /^d\d+$/.test(v);
  for (const d of typed.diagnostics) {
    if (d.severity !== 'error') continue;
    for (const m of d.message.matchAll(/cannot unify '?([A-Za-z_]\w*|\d+)'? with '?([A-Za-z_]\w*|\d+)'?/g)) {
      const [a, b] = [m[1]!, m[2]!];
      const [v, other] = own(b) && !renamed.has(b) ? [b, a] : own(a) && !renamed.has(a) ? [a, b] : [null, null];
      if (v === null || other === null || v === other) continue;
      const size = /^\d+$/.test(other) ? Number(other) : other;
      renamed.set(v, size);
      joinChecks.push(...branchChecks(model, typed, v, size));
      return true;
    }
  }
  return false;
}

/** The checks at an If whose join variable `v` (output k, dim i) is `size`: each branch whose dim there differs must be that size. */
function branchChecks(model: OnnxModel, typed: TypedGraph, v: string, size: number | string): OnnxCheck[] {
  const m = JOIN_VARIABLE.exec(v);
  if (m === null) return [];
  const [index, k, i] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const n = model.graph.nodes.find((x) => x.index === index && x.opType === 'If');
  if (n === undefined) return [];
  const out: OnnxCheck[] = [];
  for (const attr of ['then_branch', 'else_branch']) {
    const g = n.attrs.get(attr);
    const name = g?.kind === 'graph' ? g.value.outputs[k]?.name : undefined;
    const t = typed.subgraphValues.find((x) => x.graph === `${nodeName(n)}.${attr}` && x.name === name)?.type;
    const dim = t?.kind === 'tensor' ? t.shape?.[i] : undefined;
    if (dim === undefined || dim === null) continue;
    const c = canonicalComparison(sizeDim(dim), '==', sizeDim(size));
    if (c !== null) out.push({ node: nodeName(n), opType: n.opType, index: n.index, condition: comparisonText(c), anyOf: [c], assumes: null });
  }
  return out;
}

/** Gives the unknown dims of the first value of known rank that has some (graph inputs first) fresh size variables; whether one had any. */
function fillOneValue(
  typed: TypedGraph,
  shapes: Map<string, readonly (number | string | null)[]>,
  freshOutputs: Map<string, OnnxType>,
  freshName: () => string,
): boolean {
  const partial = (t: ValueType | null): t is Extract<ValueType, { kind: 'tensor' }> & { shape: (number | string | null)[] } =>
    t !== null && t.kind === 'tensor' && (t.shape?.some((d) => d === null) ?? false);
  const fill = (shape: readonly (number | string | null)[]) => shape.map((d) => (d === null ? freshName() : d));
  for (const v of typed.inputs) {
    if (!partial(v.type) || shapes.has(v.name)) continue;
    shapes.set(v.name, fill(v.type.shape));
    return true;
  }
  for (const v of typed.values) {
    if (!partial(v.type) || freshOutputs.has(v.name)) continue;
    freshOutputs.set(v.name, { kind: 'tensor', dtype: v.type.dtype, shape: fill(v.type.shape) });
    return true;
  }
  return false;
}

/** The dim names a model's declared types mention (fresh names avoid them). */
function namesOf(model: OnnxModel): Set<string> {
  const names = new Set<string>();
  const walk = (g: OnnxGraph) => {
    for (const v of [...g.inputs, ...g.outputs, ...g.valueInfo]) for (const n of dimNamesOf([v.type as ValueType | null])) names.add(n);
    for (const n of g.nodes) for (const a of n.attrs.values()) if (a.kind === 'graph') walk(a.value);
  };
  walk(model.graph);
  return names;
}

/** The names in the symbolic dims of these types (`checks MODEL.onnx` takes its size variables from them too). */
export function dimNamesOf(types: readonly (ValueType | null)[]): Set<string> {
  const names = new Set<string>();
  const walk = (t: ValueType | null) => {
    if (t === null) return;
    if (t.kind === 'sequence' || t.kind === 'optional') return walk(t.elem);
    if (t.kind !== 'tensor' || t.shape === null) return;
    for (const d of t.shape) if (typeof d === 'string') for (const m of d.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) names.add(m[0]);
  };
  types.forEach(walk);
  return names;
}

function nodeName(n: OnnxNode): string {
  return n.name !== '' ? n.name : `${n.opType}#${n.index}`;
}

/** A tensor type with dtype and every dim known. */
function known(t: ValueType | null): boolean {
  return t !== null && t.kind === 'tensor' && t.dtype !== null && (t.shape?.every((d) => d !== null) ?? false);
}

/** The node's outputs under a setting of one dim name of its inputs, and the check standing for it; null when no setting types it. */
function assumeOutputs(
  model: OnnxModel,
  n: OnnxNode,
  inputs: readonly (ValueType | null)[],
  options: GraphTypeOptions,
): { outputs: (OnnxType | undefined)[]; checks: OnnxCheck[] } | null {
  const dims = inputs.flatMap((t) => (t !== null && t.kind === 'tensor' && t.shape !== null ? t.shape : []));
  const names = [...new Set(dims.filter((d): d is string => typeof d === 'string' && NAME.test(d)))];
  for (const v of names) {
    const sizes = [1, ...new Set(dims.filter((d): d is number | string => d !== null && d !== v && d !== 1))];
    const typedUnder: { size: number | string; outputs: OnnxType[]; text: string }[] = [];
    for (const size of sizes) {
      const outputs = typeNodeAlone(
        model,
        n,
        inputs.map((t) => substitute(t, v, size)),
        options,
      );
      if (outputs !== null) typedUnder.push({ size, outputs, text: JSON.stringify(outputs) });
    }
    if (typedUnder.length === 0) continue;
    const same = typedUnder.every((t) => t.text === typedUnder[0]!.text);
    const chosen = same ? typedUnder : [typedUnder.find((t) => t.size !== 1) ?? typedUnder[0]!];
    const anyOf = chosen.map((t) => canonicalComparison(dimVar(v), '==', sizeDim(t.size))).filter((c): c is Comparison => c !== null);
    if (anyOf.length === 0) continue;
    return assumption(n, chosen[0]!.outputs, [anyOf]);
  }
  return assumePair(model, n, inputs, names, options);
}

/** How many pairs of settings a stuck node may be typed under before it is left stuck. */
const PAIR_BUDGET = 48;

/**
 * No one dim name suffices (two dims undecided: `[h, d1]` against `[n, 4]`): the first
 * pair of settings that types the node (sizes of the other inputs first, 1 last), each setting a check
 * of its own (`h == n`, `d1 == 4`): sufficient conditions, not always necessary ones.
 */
function assumePair(
  model: OnnxModel,
  n: OnnxNode,
  inputs: readonly (ValueType | null)[],
  names: readonly string[],
  options: GraphTypeOptions,
): { outputs: (OnnxType | undefined)[]; checks: OnnxCheck[] } | null {
  // the sizes of the other inputs first (a broadcast equates dims of different inputs), then of v's own, then 1
  const sizesFor = (v: string, ts: readonly (ValueType | null)[]) => {
    const shapes = ts.flatMap((t) => (t !== null && t.kind === 'tensor' && t.shape !== null ? [t.shape] : []));
    const dims = [...shapes.filter((s) => !s.includes(v)), ...shapes.filter((s) => s.includes(v))].flat();
    return [...new Set(dims.filter((d): d is number | string => d !== null && d !== v && d !== 1)), 1];
  };
  let tried = 0;
  for (const v1 of names) {
    for (const size1 of sizesFor(v1, inputs)) {
      const once = inputs.map((t) => substitute(t, v1, size1));
      for (const v2 of names) {
        if (v2 === v1) continue;
        for (const size2 of sizesFor(v2, once)) {
          if (++tried > PAIR_BUDGET) return null;
          const outputs = typeNodeAlone(
            model,
            n,
            once.map((t) => substitute(t, v2, size2)),
            options,
          );
          if (outputs === null) continue;
          const settings = [canonicalComparison(dimVar(v1), '==', sizeDim(size1)), canonicalComparison(dimVar(v2), '==', sizeDim(size2))].filter(
            (c): c is Comparison => c !== null,
          );
          if (settings.length === 0) continue;
          return assumption(
            n,
            outputs,
            settings.map((c) => [c]),
          );
        }
      }
    }
  }
  return null;
}

/** The node's outputs as assumed, and a check per disjunction of comparisons. */
function assumption(
  n: OnnxNode,
  outputs: readonly OnnxType[],
  disjunctions: readonly (readonly Comparison[])[],
): { outputs: (OnnxType | undefined)[]; checks: OnnxCheck[] } {
  const assumes = `${n.opType} gives ${outputs.map(typeText).join(', ')}`;
  return {
    outputs: n.outputs.map((o, i) => (o === '' ? undefined : outputs[i])),
    checks: disjunctions.map((anyOf) => ({
      node: nodeName(n),
      opType: n.opType,
      index: n.index,
      condition: anyOf.map(comparisonText).join(' || '),
      anyOf,
      assumes,
    })),
  };
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
