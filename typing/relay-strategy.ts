// Relay's own type solver, as the imperative baseline: unification constraints are
// applied eagerly to a union-find; operator calls become relation instances in a FIFO
// queue; a dependency index maps each hole to the instances that mention it; running an
// instance that binds holes re-queues the instances depending on them; 'done' instances
// never run again (TVM: src/relay/analysis/type_solver.cc). The relations are the
// hand-coded twins in relations/imperative/.
import type { Param, RExpr, Span } from '../frontends/relay/ast.js';
import { lookupOp } from '../relations/catalogue.js';
import { dependencies, type RelationInstance, runInstance } from '../relations/imperative/instance.js';
import { imperativeRelation } from '../relations/imperative/registry.js';
import { isError } from '../relations/imperative/relation.js';
import { type IDim, type IDtype, type IType, printType, residualText, TypeSolverState } from '../relations/imperative/types.js';
import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic.js';
import type { CDim, CDType, CType } from './ctypes.js';
import type { Generated } from './constraints.js';
import { UNDETERMINED } from './call-site-diagnostics.js';
import type { InferOutcome, InferredBinding, StuckCall } from './rules-strategy.js';
import type { UndecidedCondition } from './undecided.js';

export function inferWithRelay(gen: Generated): InferOutcome {
  const started = Date.now();
  const state = new TypeSolverState();
  const diagnostics: Diagnostic[] = [];
  // the call (or unification constraint) that made each residual assumption, for --gradual
  const askedBy = new Map<object, { span: Span; operator: string; relation: string | null }>();
  const attribute = (span: Span, operator: string, relation: string | null) => {
    for (const r of state.residuals) if (!askedBy.has(r)) askedBy.set(r, { span, operator, relation });
  };
  const typeHoles = new Map<number, IType>();
  const dimHoles = new Map<number, IDim>();
  const dtypeHoles = new Map<number, IDtype>();
  const hole = <T>(m: Map<number, T>, v: number, make: () => T): T => {
    let h = m.get(v);
    if (h === undefined) m.set(v, (h = make()));
    return h;
  };
  const dim = (d: CDim): IDim => {
    switch (d.k) {
      case 'int':
        return { kind: 'int', value: d.value };
      case 'any':
        return { kind: 'any' };
      case 'sym':
        return { kind: 'sym', dim: d.dim };
      case 'var':
        return hole(dimHoles, d.v, () => state.freshDim());
    }
  };
  const dtype = (d: CDType): IDtype => (d.k === 'dtype' ? d.name : hole(dtypeHoles, d.v, () => state.freshDtype()));
  const type = (t: CType): IType => {
    switch (t.k) {
      case 'var':
        return hole(typeHoles, t.v, () => state.freshType());
      case 'tensor':
        return { kind: 'tensor', shape: t.shape.map(dim), dtype: dtype(t.dtype) };
      case 'tuple':
        return { kind: 'tuple', fields: t.fields.map(type) };
      case 'func':
        return { kind: 'func', typeParams: [], params: t.params.map(type), ret: type(t.ret) };
      case 'adt':
        return { kind: 'call', name: t.name, args: t.args.map(type) };
      case 'rigid':
        return { kind: 'var', name: t.name };
    }
  };

  // relation instances: operator calls and tuple projections
  interface Instance {
    readonly span: Span;
    readonly what: string;
    readonly run: () => 'done' | 'wait' | { kind: 'error'; message: string };
    /** The argument types as Relay text (for the message of a call nothing determined). */
    readonly inputs: () => string;
    /** The argument types one by one (an operator call's; empty for a projection). */
    readonly argTexts: () => string[];
    readonly holes: () => number[];
    readonly inputsKnown: () => boolean;
  }
  const instances: Instance[] = [];
  const waitReasons: (string | null)[] = [];
  let opCount = 0;
  for (const c of gen.constraints) {
    if (c.k === 'unify') {
      const res = state.unify(type(c.a), type(c.b), 'unify');
      if (!res.ok) diagnostics.push(diagnostic('error', 'clash', `${c.reason}: ${res.message}`, c.span));
      attribute(c.span, c.reason, null);
    } else if (c.k === 'op') {
      opCount++;
      const found = lookupOp(c.op);
      const relation = found.ok ? imperativeRelation(found.op.relation) : undefined;
      if (!found.ok || relation === undefined) {
        diagnostics.push(diagnostic('error', 'library', `no imperative relation for ${c.op}`, c.span));
        continue;
      }
      const inst: RelationInstance = { op: found.op, relation, attrs: c.attrs, args: c.args.map(type), out: type(c.out) };
      const index = instances.length;
      instances.push({
        span: c.span,
        what: c.op,
        run: () => {
          const ran = runInstance(state, inst);
          attribute(c.span, c.op, found.op.relation);
          waitReasons[index] = ran.waitReason;
          return ran.result;
        },
        inputs: () => inst.args.map((a) => printType(state.resolve(a))).join(', '),
        argTexts: () => inst.args.map((a) => printType(state.resolve(a))),
        holes: () => dependencies(state, inst),
        inputsKnown: () => inst.args.every((a) => state.isGround(a)),
      });
    } else {
      const tuple = type(c.tuple);
      const out = type(c.out);
      const index = c.index;
      instances.push({
        span: c.span,
        what: `.${index}`,
        run: () => {
          const t = state.resolve(tuple);
          if (t.kind === 'hole') return 'wait';
          if (t.kind !== 'tuple') return { kind: 'error', message: `cannot take a field of ${printType(t)}, which is not a tuple` };
          const f = t.fields[index];
          if (f === undefined) return { kind: 'error', message: `cannot take field ${index} of a tuple of ${t.fields.length}` };
          const r = state.unify(out, f, 'proj');
          return r.ok ? 'done' : { kind: 'error', message: r.message };
        },
        inputs: () => printType(state.resolve(tuple)),
        argTexts: () => [],
        holes: () => [...state.holesIn(tuple), ...state.holesIn(out)],
        inputsKnown: () => state.isGround(tuple),
      });
    }
  }

  // the FIFO queue and the dependency index
  const queue: number[] = instances.map((_, i) => i);
  const queued = new Uint8Array(instances.length).fill(1);
  const done = new Uint8Array(instances.length);
  const dependents = new Map<number, number[]>();
  const watch = (i: number, holes: readonly number[]) => {
    for (const h of holes) {
      const list = dependents.get(h);
      if (list === undefined) dependents.set(h, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  };
  instances.forEach((inst, i) => {
    watch(i, inst.holes());
  });
  for (let head = 0; head < queue.length; head++) {
    const i = queue[head]!;
    queued[i] = 0;
    if (done[i]) continue;
    const inst = instances[i]!;
    const before = inst.holes();
    const result = inst.run();
    if (isError(result)) {
      done[i] = 1;
      diagnostics.push(diagnostic('error', 'relation', result.message.startsWith(inst.what) ? result.message : `${inst.what}: ${result.message}`, inst.span));
      continue;
    }
    if (result === 'done') done[i] = 1;
    else watch(i, inst.holes());
    // re-queue the instances that mention a hole this run bound
    const after = new Set(inst.holes());
    for (const h of before) {
      if (after.has(h)) continue;
      for (const j of dependents.get(h) ?? []) {
        if (done[j] || queued[j]) continue;
        queued[j] = 1;
        queue.push(j);
      }
    }
    if (queue.length > 50_000_000) break;
  }
  // an instance that still waits although its inputs are known determined nothing: an error
  const stuck: StuckCall[] = [];
  instances.forEach((inst, i) => {
    if (done[i] || !inst.inputsKnown()) return;
    if (!inst.what.startsWith('.')) stuck.push({ span: inst.span, op: inst.what, args: inst.argTexts() });
    const why = waitReasons[i] ?? null;
    const condition = why?.endsWith(' cannot be decided') ? `: ${why}` : '';
    diagnostics.push(diagnostic('error', UNDETERMINED, `${inst.what}: cannot infer the result type from (${inst.inputs()})${condition}`, inst.span));
  });
  for (const r of state.residuals)
    diagnostics.push(diagnostic('warning', 'undecided', `${residualText(r.left, r.op, r.right)} is assumed (cannot be decided)`, null));

  const text = (t: CType) => printType(state.resolve(type(t)));
  const bindings: InferredBinding[] = gen.bindings.map((b) => ({
    fn: b.fn,
    name: b.name,
    type: text(b.type),
    span: b.span,
    kind: b.kind,
    node: b.node as RExpr | Param,
  }));
  for (const b of gen.bindings) {
    if (!state.isGround(type(b.type)) && diagnostics.every((d) => d.severity !== 'error'))
      diagnostics.push(diagnostic('error', 'unresolved', `cannot infer the type of ${b.name}: annotate it`, b.span, [`what is known: ${text(b.type)}`]));
  }
  const results = new Map<RExpr, string>();
  for (const [e, t] of gen.results) {
    results.set(e, text(t));
    if (!state.isGround(type(t)) && diagnostics.every((d) => d.severity !== 'error'))
      diagnostics.push(diagnostic('error', 'unresolved', 'cannot infer the type of this result: annotate the function', e.span, [`what is known: ${text(t)}`]));
  }
  for (const [e, t] of gen.blockResults) if (!results.has(e)) results.set(e, text(t));
  const functions = new Map<string, string>();
  const returns = new Map<string, string>();
  for (const [name, t] of gen.functions) {
    functions.set(name, text(t));
    if (t.k === 'func') returns.set(name, text(t.ret));
  }
  const undecided: UndecidedCondition[] = [];
  for (const r of state.residuals) {
    const by = askedBy.get(r);
    if (by !== undefined) undecided.push({ left: r.left, op: r.op, right: r.right, ...by });
  }
  return { bindings, results, functions, returns, diagnostics, instances: opCount, millis: Date.now() - started, run: null, undecided, stuck };
}
