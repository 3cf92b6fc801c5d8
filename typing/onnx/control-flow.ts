// Typing the subgraphs of If, Loop, Scan and SequenceMap nodes. Each body's nodes become
// facts of the same solver as the graph around them (a body reads outer values by
// name, scope.ts's lookup), and the node's own fact gets its bodies as
// `graph(BodyInputs, BodyOutputs)` of the very terms the body's values have, so the rules
// of relations/onnx/control-flow.rules read the bodies' types. What monotone rules
// cannot do is done here, once per node:
//   - If: when the condition's value is known (data propagation: a shape compared with a
//     constant), only the branch taken is typed, and the outputs are its outputs (the
//     branch not taken is not typed at all: an error there is not an error of the model);
//     otherwise the outputs are the join of the two branches' (type-join.ts). Either is
//     given to the rules as the attribute `branch_join`.
//   - Loop and Scan (Scan 8: each state and scan input has a batch axis first, which the
//     body does not see): a carried value's type inside the body is the join of its initial
//     type and the body's output after any number of iterations: found by iterating the
//     body in a scratch fork of the solver until the join stops changing (a dim that
//     changes becomes a size variable of the node, and stays it; after MAX_ITERATIONS
//     rounds without a fixpoint the types are unknown; a body with an error stops the
//     search, and is typed with the types so far, where its error is reported), and
//     given to the rules as the attribute `carried`. A Loop's trip count (`trips`) is M's
//     value when M is known and the loop cannot stop early (no cond input, or a cond that
//     stays true: its carried value is the constant true); else a size variable of the node.
//   - SequenceMap: the rules bind each body input to an input sequence's element type.
import type { OnnxGraph, OnnxNode } from '../../frontends/onnx/model.js';
import { Kind, type TermId } from '../../solver/terms/term-store.js';
import { copyTerm, joinTypes } from './type-join.js';
import { joinLoses, typedByWorld } from './if-worlds.js';
import { emitGraph, emitNode, flush, resolved, ruleErrorCount, scratchContext, type Scope, type TypingContext } from './graph-types.js';

/** Fixpoint rounds of the carried values' types; a type still changing after them is unknown. */
export const MAX_ITERATIONS = 8;

const CONTROL_FLOW: Readonly<Record<string, (ctx: TypingContext, scope: Scope, n: OnnxNode, opsets: ReadonlyMap<string, number>) => void>> = {
  If: typeIf,
  Loop: typeLoop,
  Scan: typeScan,
  SequenceMap: typeSequenceMap,
};

/** Emits node `n` (which has a subgraph with nodes) with its bodies typed. */
export function typeControlFlow(ctx: TypingContext, scope: Scope, n: OnnxNode, opsets: ReadonlyMap<string, number>): void {
  const handler = CONTROL_FLOW[n.opType];
  if (handler === undefined) return emitNode(ctx, scope, n, opsets);
  handler(ctx, scope, n, opsets);
}

function body(n: OnnxNode, attr: string): OnnxGraph | null {
  const a = n.attrs.get(attr);
  return a?.kind === 'graph' ? a.value : null;
}

function fail(ctx: TypingContext, scope: Scope, n: OnnxNode, message: string): void {
  ctx.diagnostics.push({ severity: 'error', node: n, message: `${scope.nodeLabel(n)}: ${message}` });
}

/** `graph(Inputs, Outputs)`: a typed body as the rules see it. */
function graphTerm(ctx: TypingContext, inner: Scope): TermId {
  const s = ctx.store;
  return s.compound('graph', [s.list(inner.graph.inputs.map((v) => inner.term(ctx, v.name))), s.list(inner.graph.outputs.map((v) => inner.term(ctx, v.name)))]);
}

/** Emits a body whose inputs have the terms `inputs` (a hole where the rules bind it), and records them as the body's values. */
function emitBody(ctx: TypingContext, inner: Scope, inputs: readonly TermId[], opsets: ReadonlyMap<string, number>): void {
  inner.graph.inputs.forEach((v, i) => {
    const t = inputs[i] ?? ctx.terms.type(v.type);
    inner.values.set(v.name, t);
    ctx.emitted.push({ name: v.name, op: 'input', term: t, scope: inner, node: null });
  });
  for (const t of inner.graph.initializers) {
    inner.values.set(t.name, ctx.terms.tensor(t));
  }
  emitGraph(ctx, inner, opsets);
}

/** The size variable `name` as a dim term. */
function sizeVar(ctx: TypingContext, name: string): TermId {
  return ctx.terms.dim(name);
}

function typeIf(ctx: TypingContext, scope: Scope, n: OnnxNode, opsets: ReadonlyMap<string, number>): void {
  const thenG = body(n, 'then_branch');
  const elseG = body(n, 'else_branch');
  if (thenG === null || elseG === null) return fail(ctx, scope, n, 'If needs the graph attributes then_branch and else_branch');
  const outs = n.outputs.length;
  for (const [name, g] of [
    ['then_branch', thenG],
    ['else_branch', elseG],
  ] as const)
    if (g.outputs.length !== outs) return fail(ctx, scope, n, `${name} has ${g.outputs.length} outputs, the node ${outs}`);
  flush(ctx);
  const cond = knownScalar(ctx, resolved(ctx, scope.term(ctx, n.inputs[0] ?? '')));
  if (cond !== null) {
    const [attr, g] = cond !== 0 ? (['then_branch', thenG] as const) : (['else_branch', elseG] as const);
    const taken = scope.child(n, attr, g);
    emitBody(ctx, taken, [], opsets);
    return emitNode(
      ctx,
      scope,
      n,
      opsets,
      new Map([
        [attr, graphTerm(ctx, taken)],
        ['branch_join', ctx.store.list(g.outputs.map((o) => taken.term(ctx, o.name)))],
      ]),
    );
  }
  const thenS = scope.child(n, 'then_branch', thenG);
  const elseS = scope.child(n, 'else_branch', elseG);
  emitBody(ctx, thenS, [], opsets);
  emitBody(ctx, elseS, [], opsets);
  flush(ctx);
  const tag = `${scope.prefix}${n.opType}_${n.index}`;
  const thenOuts = thenG.outputs.map((t) => resolved(ctx, thenS.term(ctx, t.name)));
  const elseOuts = elseG.outputs.map((t) => resolved(ctx, elseS.term(ctx, t.name)));
  const emitWith = (c: TypingContext, outs: TermId) =>
    emitNode(
      c,
      scope,
      n,
      opsets,
      new Map([
        ['then_branch', graphTerm(c, thenS)],
        ['else_branch', graphTerm(c, elseS)],
        ['branch_join', outs],
      ]),
    );
  // the branch every execution that succeeds takes, when only one of them types the rest of the graph (if-worlds.ts)
  const losesInfo = thenOuts.some((a, k) => joinLoses(ctx, a, elseOuts[k]!));
  if (typedByWorld(ctx, scope, n, opsets, losesInfo, (c, b) => emitWith(c, c.store.list(b === 'then_branch' ? thenOuts : elseOuts)))) return;
  const joined = thenOuts.map(
    (a, k) =>
      joinTypes({ store: ctx.store, term: copyTerm(ctx.store, a, ctx.store) }, { store: ctx.store, term: elseOuts[k]! }, (i) =>
        sizeVar(ctx, `${tag}_out${k}_${i}`),
      ).term,
  );
  emitWith(ctx, ctx.store.list(joined));
}

/**
 * The carried values' types to a fixpoint: `initial` (terms of ctx, resolved) joined with
 * the body's carried outputs, iteration after iteration. `bodyInputs(cands)` gives the
 * body's input terms for candidate types `cands`; `emitExtra` emits what else the body
 * needs in the same batch (Scan's own fact); `carriedOut(k)` is the body output index of
 * carried value k.
 */
function carriedFixpoint(
  ctx: TypingContext,
  scope: Scope,
  n: OnnxNode,
  g: OnnxGraph,
  attr: string,
  initial: readonly TermId[],
  bodyInputs: (c: TypingContext, cands: readonly TermId[]) => TermId[],
  emitExtra: (c: TypingContext, inner: Scope, cands: readonly TermId[]) => void,
  carriedOut: (k: number) => number,
  opsets: ReadonlyMap<string, number>,
): TermId[] {
  const tag = `${scope.prefix}${n.opType}_${n.index}`;
  // the node's outputs get their terms in ctx now: a scratch round must not be the first to name them
  for (const o of n.outputs) if (o !== '') scope.term(ctx, o);
  let cands = initial.map((t) => copyTerm(ctx.store, t, ctx.store));
  flush(ctx);
  const errorsBefore = ruleErrorCount(ctx);
  let stable = false;
  for (let round = 0; round < MAX_ITERATIONS && !stable; round++) {
    const scratch = scratchContext(ctx);
    const inner = scope.child(n, attr, g);
    const copies = cands.map((t) => copyTerm(ctx.store, t, scratch.store));
    emitBody(scratch, inner, bodyInputs(scratch, copies), opsets);
    emitExtra(scratch, inner, copies);
    flush(scratch);
    // a body that does not type (an error) has no fixpoint to find: these types, with which
    // the body is typed once more in the graph's own context, report the error there
    if (scratch.diagnostics.some((d) => d.severity === 'error') || ruleErrorCount(scratch) > errorsBefore) return cands;
    let changed = false;
    cands = cands.map((c, k) => {
      const out = g.outputs[carriedOut(k)];
      if (out === undefined) return c;
      const b = resolved(scratch, inner.term(scratch, out.name));
      // after the last round every dim still changing is widened: the join with the body's output, whatever it is
      const j = joinTypes({ store: ctx.store, term: c }, { store: scratch.store, term: b }, (i) => sizeVar(ctx, `${tag}_v${k}_${i}`));
      changed ||= j.changed;
      return j.term;
    });
    stable = !changed;
  }
  // no fixpoint within MAX_ITERATIONS rounds (types that keep nesting deeper): unknown
  return stable ? cands : cands.map(() => ctx.terms.hole());
}

function typeLoop(ctx: TypingContext, scope: Scope, n: OnnxNode, opsets: ReadonlyMap<string, number>): void {
  const g = body(n, 'body');
  if (g === null) return fail(ctx, scope, n, 'Loop needs the graph attribute body');
  const carried = n.inputs.length - 2;
  if (carried < 0) return fail(ctx, scope, n, `Loop takes M, cond and the carried values; the node gives ${n.inputs.length} inputs`);
  if (g.inputs.length !== carried + 2)
    return fail(ctx, scope, n, `the body has ${g.inputs.length} inputs; Loop's body takes the iteration number, cond and the ${carried} carried values`);
  if (g.outputs.length < carried + 1)
    return fail(ctx, scope, n, `the body has ${g.outputs.length} outputs; it returns cond and the ${carried} carried values, then its scan outputs`);
  flush(ctx);
  const s = ctx.store;
  const cond = n.inputs[1] ?? '';
  // carried value 0 is cond (when given): a cond that stays the constant true cannot stop the loop
  const initial = [cond === '' ? s.atom('absent') : resolved(ctx, scope.term(ctx, cond)), ...n.inputs.slice(2).map((v) => resolved(ctx, scope.term(ctx, v)))];
  const bodyInputs = (c: TypingContext, cands: readonly TermId[]): TermId[] => {
    const cs = c.store;
    const boolScalar = cs.compound('tensor', [cs.nil, cs.atom('bool'), c.terms.hole()]);
    return [cs.compound('tensor', [cs.nil, cs.atom('int64'), c.terms.hole()]), cond === '' ? boolScalar : cands[0]!, ...cands.slice(1)];
  };
  // without a cond input the body's cond output is ignored: carried value 0 stays `absent`
  const cands = carriedFixpoint(
    ctx,
    scope,
    n,
    g,
    'body',
    initial,
    bodyInputs,
    () => {},
    (k) => (k === 0 && cond === '' ? -1 : k),
    opsets,
  );
  const inner = scope.child(n, 'body', g);
  emitBody(
    ctx,
    inner,
    bodyInputs(
      ctx,
      cands.map((t) => copyTerm(s, t, s)),
    ),
    opsets,
  );
  flush(ctx);
  const tag = `${scope.prefix}${n.opType}_${n.index}`;
  const trips = knownTrips(ctx, scope, n, cands[0]!) ?? sizeVar(ctx, `${tag}_trips`);
  const cs = ctx.store; // after the body: an If in it may have handed ctx a world's store
  emitNode(
    ctx,
    scope,
    n,
    opsets,
    new Map([
      ['body', graphTerm(ctx, inner)],
      ['carried', cs.list(cands.slice(1).map((t) => copyTerm(cs, t, cs)))],
      ['trips', trips],
    ]),
  );
}

/** The one integer value of a tensor term whose values are known (a bool is 0 or 1); else null. */
function knownScalar(ctx: TypingContext, t: TermId): number | null {
  const s = ctx.store;
  if (s.kind(t) !== Kind.Compound || s.functor(t) !== 'tensor') return null;
  const data = s.listItems(s.arg(t, 2));
  return data !== null && data.length === 1 && s.kind(data[0]!) === Kind.Int ? s.intValue(data[0]!) : null;
}

/** M's value when the loop runs exactly M times: M known, and no cond or a cond that stays true. */
function knownTrips(ctx: TypingContext, scope: Scope, n: OnnxNode, condType: TermId): TermId | null {
  const m = n.inputs[0] ?? '';
  if (m === '') return null;
  const s = ctx.store;
  const mt = resolved(ctx, scope.term(ctx, m));
  if (knownScalar(ctx, mt) === null) return null;
  const alwaysTrue = (n.inputs[1] ?? '') === '' || knownScalar(ctx, condType) === 1;
  return alwaysTrue ? s.listItems(s.arg(mt, 2))![0]! : null;
}

function typeScan(ctx: TypingContext, scope: Scope, n: OnnxNode, opsets: ReadonlyMap<string, number>): void {
  const g = body(n, 'body');
  if (g === null) return fail(ctx, scope, n, 'Scan needs the graph attribute body');
  const numScan = n.attrs.get('num_scan_inputs');
  if (numScan?.kind !== 'int') return fail(ctx, scope, n, "Scan needs attribute 'num_scan_inputs'");
  // Scan 8: sequence_lens first, and every input has a batch axis the body does not see
  const batched = (opsets.get('') ?? 0) < 9;
  const ins = batched ? n.inputs.slice(1) : n.inputs;
  const states = ins.length - numScan.value;
  if (states < 0 || g.inputs.length !== ins.length)
    return fail(
      ctx,
      scope,
      n,
      `the body has ${g.inputs.length} inputs; Scan's body takes one per ${batched ? 'state and scan input' : 'input of the node'} (${ins.length})`,
    );
  flush(ctx);
  const s = ctx.store;
  const initial = ins
    .slice(0, states)
    .map((v) => resolved(ctx, scope.term(ctx, v)))
    .map((t) => (batched ? withoutBatch(ctx, t) : t));
  // the scan inputs' slices are holes: the Scan rules bind them from the scan inputs
  const bodyInputs = (c: TypingContext, cands: readonly TermId[]): TermId[] => [...cands, ...Array.from({ length: numScan.value }, () => c.terms.hole())];
  const scanFact = (c: TypingContext, inner: Scope, cands: readonly TermId[]) =>
    emitNode(
      c,
      scope,
      n,
      opsets,
      new Map([
        ['body', graphTerm(c, inner)],
        ['carried', c.store.list(cands.map((t) => copyTerm(c.store, t, c.store)))],
      ]),
    );
  const cands = carriedFixpoint(
    ctx,
    scope,
    n,
    g,
    'body',
    initial,
    bodyInputs,
    (c, inner, cands) => (c.main ? undefined : scanFact(c, inner, cands)),
    (k) => k,
    opsets,
  );
  const inner = scope.child(n, 'body', g);
  emitBody(
    ctx,
    inner,
    bodyInputs(
      ctx,
      cands.map((t) => copyTerm(s, t, s)),
    ),
    opsets,
  );
  scanFact(ctx, inner, cands);
}

/** A Scan 8 state as its body sees it: the tensor type without its first (batch) dim; a tensor of unknown shape when the rank is unknown. */
function withoutBatch(ctx: TypingContext, t: TermId): TermId {
  const s = ctx.store;
  if (s.kind(t) !== Kind.Compound || s.functor(t) !== 'tensor') return ctx.terms.hole();
  const dims = s.listItems(s.arg(t, 0));
  return s.compound('tensor', [dims === null || dims.length === 0 ? ctx.terms.hole() : s.list(dims.slice(1)), s.arg(t, 1), ctx.terms.hole()]);
}

function typeSequenceMap(ctx: TypingContext, scope: Scope, n: OnnxNode, opsets: ReadonlyMap<string, number>): void {
  const g = body(n, 'body');
  if (g === null) return fail(ctx, scope, n, 'SequenceMap needs the graph attribute body');
  if (g.inputs.length !== n.inputs.length) return fail(ctx, scope, n, `the body has ${g.inputs.length} inputs, the node ${n.inputs.length}`);
  const inner = scope.child(n, 'body', g);
  // the inputs are holes: the SequenceMap rules bind each to its sequence's element type
  emitBody(
    ctx,
    inner,
    g.inputs.map(() => ctx.terms.hole()),
    opsets,
  );
  emitNode(ctx, scope, n, opsets, new Map([['body', graphTerm(ctx, inner)]]));
}
