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
import type { CDim, CDType, Constraint, CType } from './ctypes.js';
import type { Generated } from './constraints.js';
import { UNDETERMINED } from './call-site-diagnostics.js';
import type { InferOutcome, InferredBinding, StuckCall } from './rules-strategy.js';
import type { UndecidedCondition } from './undecided.js';

/** Types generated constraints with Relay's solver: unifications applied, instances run from the queue, then what it solved and could not. */
export function inferWithRelay(gen: Generated): InferOutcome {
  const started = Date.now();
  const solving = new RelaySolving();
  for (const c of gen.constraints) solving.add(c);
  const done = solving.solve();
  const stuck = solving.reportUndetermined(done);
  solving.warnResiduals();
  return solving.outcome(gen, started, stuck);
}

/** A relation instance: an operator call or a tuple projection. */
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

/** The hole of constraint variable `v` in `m`, made by `make` on its first use. */
function hole<T>(m: Map<number, T>, v: number, make: () => T): T {
  let h = m.get(v);
  if (h === undefined) m.set(v, (h = make()));
  return h;
}

/** One run of Relay's solver on generated constraints: its union-find state, its relation instances and queue, and what it reports. */
class RelaySolving {
  private readonly state = new TypeSolverState();
  private readonly diagnostics: Diagnostic[] = [];
  /** The call (or unification constraint) that made each residual assumption, for --gradual. */
  private readonly askedBy = new Map<object, { span: Span; operator: string; relation: string | null }>();
  /** The solver's hole for each constraint variable (of a type, a dim, a dtype). */
  private readonly typeHoles = new Map<number, IType>();
  private readonly dimHoles = new Map<number, IDim>();
  private readonly dtypeHoles = new Map<number, IDtype>();
  /** Relation instances: operator calls and tuple projections. */
  private readonly instances: Instance[] = [];
  /** Why each operator call last waited (its run's wait reason), by instance index. */
  private readonly waitReasons: (string | null)[] = [];
  /** How many operator calls there are. */
  private opCount = 0;
  /** The dependency index: each hole → the instances that mention it. */
  private readonly dependents = new Map<number, number[]>();

  /** Attributes the residual assumptions not yet attributed to the call or unification at `span`. */
  private attribute(span: Span, operator: string, relation: string | null): void {
    for (const r of this.state.residuals) if (!this.askedBy.has(r)) this.askedBy.set(r, { span, operator, relation });
  }

  // ---- constraint types → solver types (a field each, so that `map` can take it as it is)

  /** A constraint dim as a solver dim. */
  private readonly dimOf = (d: CDim): IDim => {
    switch (d.k) {
      case 'int':
        return { kind: 'int', value: d.value };
      case 'any':
        return { kind: 'any' };
      case 'sym':
        return { kind: 'sym', dim: d.dim };
      case 'var':
        return hole(this.dimHoles, d.v, () => this.state.freshDim());
    }
  };

  /** A constraint dtype as a solver dtype. */
  private dtypeOf(d: CDType): IDtype {
    return d.k === 'dtype' ? d.name : hole(this.dtypeHoles, d.v, () => this.state.freshDtype());
  }

  /** A constraint type as a solver type. */
  private readonly typeOf = (t: CType): IType => {
    switch (t.k) {
      case 'var':
        return hole(this.typeHoles, t.v, () => this.state.freshType());
      case 'tensor':
        return { kind: 'tensor', shape: t.shape.map(this.dimOf), dtype: this.dtypeOf(t.dtype) };
      case 'tuple':
        return { kind: 'tuple', fields: t.fields.map(this.typeOf) };
      case 'func':
        return { kind: 'func', typeParams: [], params: t.params.map(this.typeOf), ret: this.typeOf(t.ret) };
      case 'adt':
        return { kind: 'call', name: t.name, args: t.args.map(this.typeOf) };
      case 'rigid':
        return { kind: 'var', name: t.name };
    }
  };

  // ---- constraints

  /** Applies a unification constraint now; makes an operator call or a projection a relation instance. */
  add(c: Constraint): void {
    if (c.k === 'unify') {
      const res = this.state.unify(this.typeOf(c.a), this.typeOf(c.b), 'unify');
      if (!res.ok) this.diagnostics.push(diagnostic('error', 'clash', `${c.reason}: ${res.message}`, c.span));
      this.attribute(c.span, c.reason, null);
    } else if (c.k === 'op') this.addCall(c);
    else this.addProjection(c);
  }

  /** An operator call as an instance of its hand-coded relation (reported if there is none). */
  private addCall(c: Extract<Constraint, { k: 'op' }>): void {
    this.opCount++;
    const found = lookupOp(c.op);
    const relation = found.ok ? imperativeRelation(found.op.relation) : undefined;
    if (!found.ok || relation === undefined) {
      this.diagnostics.push(diagnostic('error', 'library', `no imperative relation for ${c.op}`, c.span));
      return;
    }
    const inst: RelationInstance = { op: found.op, relation, attrs: c.attrs, args: c.args.map(this.typeOf), out: this.typeOf(c.out) };
    const state = this.state;
    const index = this.instances.length;
    this.instances.push({
      span: c.span,
      what: c.op,
      run: () => {
        const ran = runInstance(state, inst);
        this.attribute(c.span, c.op, found.op.relation);
        this.waitReasons[index] = ran.waitReason;
        return ran.result;
      },
      inputs: () => inst.args.map((a) => printType(state.resolve(a))).join(', '),
      argTexts: () => inst.args.map((a) => printType(state.resolve(a))),
      holes: () => dependencies(state, inst),
      inputsKnown: () => inst.args.every((a) => state.isGround(a)),
    });
  }

  /** A tuple projection as an instance that waits for the tuple's type. */
  private addProjection(c: Extract<Constraint, { k: 'proj' }>): void {
    const tuple = this.typeOf(c.tuple);
    const out = this.typeOf(c.out);
    const index = c.index;
    const state = this.state;
    this.instances.push({
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

  // ---- the FIFO queue and the dependency index

  /** Makes instance `i` depend on `holes`. */
  private watch(i: number, holes: readonly number[]): void {
    for (const h of holes) {
      const list = this.dependents.get(h);
      if (list === undefined) this.dependents.set(h, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  }

  /** Runs the instances from the queue until none is queued; returns which are done (1) and which still wait (0). */
  solve(): Uint8Array {
    const instances = this.instances;
    const queue: number[] = instances.map((_, i) => i);
    const queued = new Uint8Array(instances.length).fill(1);
    const done = new Uint8Array(instances.length);
    instances.forEach((inst, i) => {
      this.watch(i, inst.holes());
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
        this.diagnostics.push(
          diagnostic('error', 'relation', result.message.startsWith(inst.what) ? result.message : `${inst.what}: ${result.message}`, inst.span),
        );
        continue;
      }
      if (result === 'done') done[i] = 1;
      else this.watch(i, inst.holes());
      // re-queue the instances that mention a hole this run bound
      const after = new Set(inst.holes());
      for (const h of before) {
        if (after.has(h)) continue;
        for (const j of this.dependents.get(h) ?? []) {
          if (done[j] || queued[j]) continue;
          queued[j] = 1;
          queue.push(j);
        }
      }
      if (queue.length > 50_000_000) break;
    }
    return done;
  }

  // ---- what the run reports

  /** Reports each instance that still waits although its inputs are known (it determined nothing: an error); returns the operator calls among them. */
  reportUndetermined(done: Uint8Array): StuckCall[] {
    const stuck: StuckCall[] = [];
    this.instances.forEach((inst, i) => {
      if (done[i] || !inst.inputsKnown()) return;
      if (!inst.what.startsWith('.')) stuck.push({ span: inst.span, op: inst.what, args: inst.argTexts() });
      const why = this.waitReasons[i] ?? null;
      const condition = why?.endsWith(' cannot be decided') ? `: ${why}` : '';
      this.diagnostics.push(diagnostic('error', UNDETERMINED, `${inst.what}: cannot infer the result type from (${inst.inputs()})${condition}`, inst.span));
    });
    return stuck;
  }

  /** Warns of each residual assumption (a condition that cannot be decided). */
  warnResiduals(): void {
    for (const r of this.state.residuals)
      this.diagnostics.push(diagnostic('warning', 'undecided', `${residualText(r.left, r.op, r.right)} is assumed (cannot be decided)`, null));
  }

  /** A constraint type as solved, as Relay text. */
  private text(t: CType): string {
    return printType(this.state.resolve(this.typeOf(t)));
  }

  /** Whether no error has been reported. */
  private noErrors(): boolean {
    return this.diagnostics.every((d) => d.severity !== 'error');
  }

  /** The outcome: the solved types of bindings, results and functions (an unresolved one an error, when there is no other), and the undecided conditions. */
  outcome(gen: Generated, started: number, stuck: StuckCall[]): InferOutcome {
    const bindings = this.typedBindings(gen);
    const results = this.typedResults(gen);
    const functions = new Map<string, string>();
    const returns = new Map<string, string>();
    for (const [name, t] of gen.functions) {
      functions.set(name, this.text(t));
      if (t.k === 'func') returns.set(name, this.text(t.ret));
    }
    const undecided: UndecidedCondition[] = [];
    for (const r of this.state.residuals) {
      const by = this.askedBy.get(r);
      if (by !== undefined) undecided.push({ left: r.left, op: r.op, right: r.right, ...by });
    }
    const diagnostics = this.diagnostics;
    return { bindings, results, functions, returns, diagnostics, instances: this.opCount, millis: Date.now() - started, run: null, undecided, stuck };
  }

  /** The solved type of each binding; one not ground is an error (if there is no other). */
  private typedBindings(gen: Generated): InferredBinding[] {
    const bindings: InferredBinding[] = gen.bindings.map((b) => ({
      fn: b.fn,
      name: b.name,
      type: this.text(b.type),
      span: b.span,
      kind: b.kind,
      node: b.node as RExpr | Param,
    }));
    for (const b of gen.bindings) {
      if (!this.state.isGround(this.typeOf(b.type)) && this.noErrors())
        this.diagnostics.push(
          diagnostic('error', 'unresolved', `cannot infer the type of ${b.name}: annotate it`, b.span, [`what is known: ${this.text(b.type)}`]),
        );
    }
    return bindings;
  }

  /** The solved type of each function body's result (one not ground an error, if there is no other), then of each inner block's. */
  private typedResults(gen: Generated): Map<RExpr, string> {
    const results = new Map<RExpr, string>();
    for (const [e, t] of gen.results) {
      results.set(e, this.text(t));
      if (!this.state.isGround(this.typeOf(t)) && this.noErrors())
        this.diagnostics.push(
          diagnostic('error', 'unresolved', 'cannot infer the type of this result: annotate the function', e.span, [`what is known: ${this.text(t)}`]),
        );
    }
    for (const [e, t] of gen.blockResults) if (!results.has(e)) results.set(e, this.text(t));
    return results;
  }
}
