// Executes one join plan against a database snapshot, reading the facts of a scan
// window (engine/window.ts: every fact, or the semi-naive split around a delta scan).
import type { Tmpl } from '../compile/ir.js';
import type { Plan, PlanRule, Step } from '../compile/plan.js';
import { isDemandRelation } from '../compile/relation-names.js';
import { ArithmeticError, compare, syntacticEquals } from '../terms/arith.js';
import { Kind, type TermId, type TermStore } from '../terms/term-store.js';
import { termText } from '../terms/print.js';
import type { Database } from '../store/database.js';
import type { FactMeta } from '../store/fact-meta.js';
import type { Relation } from '../store/relation.js';
import { NO_POSITIONS, type Positions } from '../store/log-index.js';
import { type Builder, FAIL, WAIT } from './build.js';
import { LimitError } from './limits.js';
import { checkLimits, type LimitClock } from './limit-clock.js';
import type { RoundBuffer, Wait } from './round.js';
import { joinOrder, readsFrom, readsTo, type ScanWindow } from './window.js';

export interface JoinContext {
  readonly store: TermStore;
  readonly meta: FactMeta;
  readonly builder: Builder;
  /** Terms with ids at or above this were created in this round: they cannot be facts yet. */
  termsAtRoundStart: number;
  deadline: number;
  readonly clock: LimitClock;
  maxFacts: number;
  readonly waits: Map<string, Wait>;
  /** Arithmetic errors (division by zero, overflow) by place and message, each with the facts its binding had matched. */
  readonly runtimeErrors: Map<string, { message: string; rule: PlanRule; span: Step['span']; premises: readonly TermId[] }>;
  /** Demand facts whose computation waited on something undecided (and their ancestors). */
  readonly incompleteDemands: Set<number>;
  /**
   * Bottom-up relations with a rule that waited on something undecided, with the head
   * instances that might still be derived (0 in a position = any value), or null when
   * there were too many to keep.
   */
  readonly pendingHeads: Map<string, number[][] | null>;
}

export class Joiner {
  private db!: Database;
  private buffer!: RoundBuffer;
  private plan!: Plan;
  /** The join order in use: the plan's, or its variant with the delta literal first. */
  private steps!: readonly Step[];
  private vals!: Int32Array;
  private premises!: Int32Array;
  private readonly scratchOf: Scratch[] = [];
  private planScratch!: Scratch;
  /** Relations of `db` looked up so far, by number (valid while `cachedIn` holds the current epoch): those of every plan run on it. */
  private readonly cached: (Relation | undefined)[] = [];
  private readonly cachedIn: number[] = [];
  private epoch = 0;
  /** The facts this run reads. */
  private window!: ScanWindow;

  constructor(private readonly ctx: JoinContext) {}

  /** Run `plan` against the snapshot `db`, buffering what it derives (the database itself is not changed). */
  run(db: Database, buffer: RoundBuffer, plan: Plan, window: ScanWindow): void {
    if (db !== this.db) {
      this.db = db;
      this.epoch++;
    }
    // the relations the plan reads, looked up here and not in the join's hot path (where a
    // lookup that first runs after V8 has optimized `scan` deoptimizes it: see WARM_CHECKS in limit-clock.ts)
    for (const st of plan.steps) {
      if ((st.k === 'scan' || st.k === 'neg') && this.cachedIn[st.relId] !== this.epoch) {
        this.cachedIn[st.relId] = this.epoch;
        this.cached[st.relId] = db.relationById(st.relId);
      }
    }
    this.buffer = buffer;
    this.plan = plan;
    this.steps = joinOrder(plan, window);
    // each plan keeps its own scratch arrays (runs never nest): cleared, not allocated
    let scratch = this.scratchOf[plan.index];
    if (scratch === undefined) this.scratchOf[plan.index] = scratch = { vals: new Int32Array(plan.nvars), premises: new Int32Array(plan.scanCount), keys: [] };
    else {
      scratch.vals.fill(0);
      scratch.premises.fill(0);
    }
    this.planScratch = scratch;
    this.vals = scratch.vals;
    this.premises = scratch.premises;
    this.window = window;
    try {
      this.step(0);
    } catch (e) {
      if (e instanceof ArithmeticError) this.runtimeError(e.message, plan.rule.span);
      else throw e;
    }
  }

  private tick(): void {
    const clock = this.ctx.clock;
    if (++clock.ticks >= clock.nextCheck) checkLimits(clock, this.ctx.deadline);
  }

  private step(i: number): void {
    const steps = this.steps;
    if (i === steps.length) {
      this.emit();
      return;
    }
    const st = steps[i]!;
    const b = this.ctx.builder;
    const vals = this.vals;
    switch (st.k) {
      case 'scan':
        this.scan(st, i);
        return;
      case 'neg': {
        // a hole in the arguments could still be bound to make a fact match
        for (const t of st.keyTmpls) {
          const v = this.build(t, st.span);
          if (v === WAIT || (v > 0 && !this.ctx.store.isGround(v))) return this.wait(i);
          if (v === FAIL) return;
        }
        // an existing answer decides `not` as false; no answer decides it as true
        // only when the negated computation is not waiting on something undecided
        const rel = this.relation(st.relId);
        if (rel !== undefined && rel.size > 0) {
          const n = rel.log.length;
          const raw = rel.log.raw;
          if (st.keyCols.length === 0) {
            for (let k = 0; k < n; k++) if (rel.removed === 0 || this.ctx.meta.present(raw[k]!)) return;
          } else {
            const found = this.lookup(rel, st.keyCols, st.keyTmpls, st.indexName, i);
            if (found === null) return; // waiting
            for (let k = 0; k < found.length; k++) {
              const pos = found[k]!;
              if (pos >= n) break;
              if (rel.removed > 0 && !this.ctx.meta.present(raw[pos]!)) continue;
              return;
            }
          }
        }
        if (this.negationUndecided(st)) return this.wait(i);
        return this.step(i + 1);
      }
      case 'guard': {
        const x = b.build(st.a, vals);
        const y = b.build(st.b, vals);
        const s = this.ctx.store;
        if (x > 0 && y > 0 && s.kind(x) === Kind.Int && s.kind(y) === Kind.Int && compare(s, st.op, x, y) === false) return;
        return this.step(i + 1);
      }
      case 'compare': {
        const a = this.build(st.a, st.span);
        const c = a < 0 ? a : this.build(st.b, st.span);
        if (a === WAIT || c === WAIT) return this.wait(i);
        if (a === FAIL || c === FAIL) return;
        let r: boolean | undefined;
        try {
          r = compare(this.ctx.store, st.op, a, c);
        } catch (e) {
          if (e instanceof ArithmeticError) return this.runtimeError(`${e.message}${this.bindingText()}`, st.span);
          throw e;
        }
        if (r === undefined) return this.wait(i);
        if (r) this.step(i + 1);
        return;
      }
      case 'match': {
        const v = this.build(st.value, st.span);
        if (v === WAIT) return this.wait(i);
        if (v === FAIL) return;
        if (b.match(st.pat, v, vals)) this.step(i + 1);
        return;
      }
      case 'equal': {
        const x = this.build(st.a, st.span);
        const y = x < 0 ? x : this.build(st.b, st.span);
        if (x === WAIT || y === WAIT) return this.wait(i);
        if (x === FAIL || y === FAIL) return;
        const eq = syntacticEquals(this.ctx.store, x, y);
        if (eq === undefined) return this.wait(i);
        if (eq !== st.negate) this.step(i + 1);
        return;
      }
      case 'test': {
        const x = this.build(st.a, st.span);
        if (x === FAIL) return;
        if (x === WAIT) return this.wait(i);
        const s = this.ctx.store;
        const k = s.kind(x);
        let r: boolean | undefined;
        switch (st.name) {
          case 'ground':
            r = s.isGround(x);
            break;
          case 'hole':
            r = k === Kind.Hole;
            break;
          case 'integer':
            r = k === Kind.Hole ? undefined : k === Kind.Int;
            break;
          case 'atom':
            r = k === Kind.Hole ? undefined : k === Kind.Atom && x !== s.nil;
            break;
          case 'string':
            r = k === Kind.Hole ? undefined : k === Kind.Str;
            break;
          case 'is_list': {
            const items = b.items(x);
            r = items === WAIT ? undefined : items !== FAIL;
            break;
          }
        }
        if (r === undefined) return this.wait(i);
        if (r) this.step(i + 1);
        return;
      }
    }
  }

  /** A relation the running plan reads (looked up when the run started). */
  private relation(id: number): Relation | undefined {
    return this.cached[id];
  }

  private scan(st: Extract<Step, { k: 'scan' }>, i: number): void {
    const rel = this.relation(st.relId);
    if (rel === undefined) return;
    // the timestamp range this scan reads
    const end = this.window.end;
    const from = readsFrom(this.window, st.scanNo);
    const to = readsTo(this.window, st.scanNo);
    if (from >= to) return;
    const log = rel.log;
    const raw = log.raw;
    const n = log.length;
    if (n === 0) return;
    // the facts to read: the whole log, or the log positions of the key's facts
    let positions: Positions | null = null;
    let count = n;
    if (st.keyCols.length > 0) {
      positions = this.lookup(rel, st.keyCols, st.keyTmpls, st.indexName, i);
      if (positions === null) return;
      count = positions.length;
      if (count === 0) return;
    }
    const ts = this.ctx.meta.timestamps;
    // entries are in timestamp order: skip to the first one in range. Searched from the
    // first call on, when the range starts at 0 too, and both outcomes of a step do the
    // same arithmetic, so that no branch lacks type feedback (see WARM_CHECKS in limit-clock.ts)
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const pos = positions === null ? mid : positions[mid]!;
      const next = mid + 1;
      if (pos < n && ts[raw[pos]!]! < from) lo = next;
      else hi = mid;
    }
    let k = lo;
    const store = this.ctx.store;
    const b = this.ctx.builder;
    const pats = st.pats;
    const arity = pats.length;
    const checkLive = rel.removed > 0;
    const meta = this.ctx.meta;
    const project = st.project;
    const vals = this.vals;
    // facts that agree on what the rest of the join reads lead to the same derivations
    let seen: SeenKeys | null = null;
    let first = true;
    const firstKey = project !== null && project.length > 0 ? this.projectKey(i, project.length) : null!;
    for (; k < count; k++) {
      const pos = positions === null ? k : positions[k]!;
      if (pos >= n) break;
      const f = raw[pos]!;
      // every fact of the snapshot is stamped before the window's end: only a range that ends earlier (a scan before the delta) can stop here
      if (to < end && ts[f]! >= to) break;
      this.tick();
      if (checkLive && !meta.present(f)) continue;
      let ok = true;
      for (let c = 0; c < arity; c++) {
        const p = pats[c];
        if (p !== null && p !== undefined && !b.match(p, store.arg(f, c), this.vals)) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      if (project !== null) {
        if (project.length === 0) {
          this.premises[st.scanNo] = f;
          this.step(i + 1);
          return;
        }
        // the first match's key is kept in place; a set only from the second match on
        if (first) {
          first = false;
          for (let v = 0; v < project.length; v++) firstKey[v] = vals[project[v]!]!;
        } else {
          if (seen === null) {
            seen = new SeenKeys();
            seen.addKey(firstKey, project.length);
          }
          if (!seen.add(vals, project)) continue;
        }
      }
      this.premises[st.scanNo] = f;
      this.step(i + 1);
    }
  }

  /** Log positions of the facts whose key columns equal the given values, through an index built on demand; null when a key must wait. */
  private lookup(rel: Relation, keyCols: readonly number[], keyTmpls: readonly Tmpl[], indexName: string, stepIndex: number): Positions | null {
    const b = this.ctx.builder;
    const index = rel.log.index(indexName, keyCols, this.arg);
    if (keyCols.length === 1) {
      const key = b.build(keyTmpls[0]!, this.vals);
      if (key === WAIT) {
        this.wait(stepIndex);
        return null;
      }
      if (key === FAIL) return NO_POSITIONS;
      return index.get1(key);
    }
    const parts = this.keyParts;
    parts.length = keyTmpls.length;
    for (let k = 0; k < keyTmpls.length; k++) {
      const v = b.build(keyTmpls[k]!, this.vals);
      if (v === WAIT) {
        this.wait(stepIndex);
        return null;
      }
      if (v === FAIL) return NO_POSITIONS;
      parts[k] = v;
    }
    return index.get(parts);
  }

  private readonly keyParts: number[] = [];

  /** Scratch space for the first projected key of the scan at step `i` (each step has its own: scans nest). */
  private projectKey(i: number, n: number): Int32Array {
    const keys = this.planScratch.keys;
    let a = keys[i];
    if (a === undefined || a.length < n) keys[i] = a = new Int32Array(n);
    return a;
  }
  private readonly arg = (fact: number, col: number): number => this.ctx.store.arg(fact, col);

  private emit(): void {
    const plan = this.plan;
    const head = plan.head;
    const b = this.ctx.builder;
    const store = this.ctx.store;
    switch (head.k) {
      case 'fact': {
        const n = head.args.length;
        const args = this.scratch(n);
        for (let c = 0; c < n; c++) {
          const v = this.build(head.args[c]!, plan.rule.span);
          if (v === WAIT) return this.wait(-1);
          if (v === FAIL) return;
          args[c] = v;
        }
        const fact = store.compoundSym(head.relSym, args);
        this.offer(head.rel, fact);
        return;
      }
      case 'error': {
        const args = head.vars.map((v) => this.vals[v]!);
        this.offer(head.rel, store.compoundSym(head.relSym, args));
        return;
      }
      case 'unify': {
        // `_` and named wildcards (`_D`) the body left unbound build as fresh holes; note them to clear after
        const names = plan.rule.varNames;
        const fresh = this.freshScratch;
        fresh.length = 0;
        for (let v = 0; v < plan.nvars; v++) if (this.vals[v] === 0 && names[v]!.charCodeAt(0) === 95 /* _ */) fresh.push(v);
        b.freshHoles = true;
        try {
          const x = this.build(head.a, plan.rule.span);
          const y = x < 0 ? x : this.build(head.b, plan.rule.span);
          if (x === WAIT || y === WAIT) return this.wait(-1);
          if (x === FAIL || y === FAIL) return;
          this.buffer.unifications.push({ a: x, b: y, plan, premises: Array.from(this.premises) });
        } finally {
          b.freshHoles = false;
          // fresh holes were written into vals for `_` and named wildcards; clear them for the next match
          for (let v = 0; v < plan.nvars; v++) if (plan.rule.varNames[v] === '_') this.vals[v] = 0;
          for (const v of fresh) this.vals[v] = 0;
        }
        return;
      }
    }
  }

  private readonly scratchArrays: number[][] = [];
  /** The variables a unification head builds as fresh holes (reused across firings). */
  private readonly freshScratch: number[] = [];

  /** A reusable argument array of length n (the interner copies what it keeps). */
  private scratch(n: number): number[] {
    let a = this.scratchArrays[n];
    if (a === undefined) this.scratchArrays[n] = a = new Array<number>(n).fill(0);
    return a;
  }

  private offer(rel: string, fact: number): void {
    if (this.buffer.has(fact)) return;
    if (fact < this.ctx.termsAtRoundStart && this.ctx.meta.present(fact)) return;
    this.buffer.add(rel, fact, this.plan.rule.id, this.premises, this.plan.scanCount);
    if (this.buffer.count + this.db.factCount > this.ctx.maxFacts) throw new LimitError('facts', `stopped at ${this.ctx.maxFacts} facts`);
    this.tick();
  }

  /**
   * `not q(...)` is undecided while q's computation for these arguments waits on an
   * undecided condition: no answer yet does not mean no answer.
   */
  private negationUndecided(st: Extract<Step, { k: 'neg' }>): boolean {
    const ctx = this.ctx;
    if (ctx.pendingHeads.size > 0) {
      for (const r of st.dependsOn) if (ctx.pendingHeads.has(r)) return true;
      if (ctx.pendingHeads.has(st.rel)) {
        const pending = ctx.pendingHeads.get(st.rel)!;
        if (pending === null) return true;
        const key = st.keyTmpls.map((t) => ctx.builder.build(t, this.vals));
        for (const p of pending) {
          let could = true;
          for (let k = 0; k < st.keyCols.length && could; k++) {
            const x = p[st.keyCols[k]!]!;
            could = x === 0 || syntacticEquals(ctx.store, x, key[k]!) !== false;
          }
          if (could) return true;
        }
      }
    }
    if (ctx.incompleteDemands.size === 0 || !st.demandRel) return false;
    const parts: number[] = [];
    for (const t of st.keyTmpls) {
      const v = ctx.builder.build(t, this.vals);
      if (v < 0) return false;
      parts.push(v);
    }
    const d = ctx.store.findCompoundSym(ctx.store.symbol(st.demandRel), parts);
    return d !== 0 && ctx.incompleteDemands.has(d);
  }

  private markIncomplete(): void {
    const plan = this.plan;
    if (plan.demandGuarded) {
      // this demand, and every demand it was made for, is incomplete
      const stack = [this.premises[0]!];
      while (stack.length > 0) {
        const d = stack.pop()!;
        if (d <= 0 || this.ctx.incompleteDemands.has(d)) continue;
        this.ctx.incompleteDemands.add(d);
        const p = this.ctx.meta.provenance(d);
        if (p) for (const q of p.premises) if (isDemandRelation(this.ctx.store.functor(q))) stack.push(q);
      }
    } else if (plan.head.k === 'fact') {
      // remember which head instance is pending: its bound positions, the rest any value
      const pending = this.ctx.pendingHeads;
      const list = pending.get(plan.head.rel);
      if (list === null) return;
      const inst = plan.head.args.map((t) => {
        try {
          const v = this.ctx.builder.build(t, this.vals);
          return Math.max(v, 0);
        } catch {
          return 0;
        }
      });
      if (list === undefined) pending.set(plan.head.rel, [inst]);
      else if (list.length >= 1000) pending.set(plan.head.rel, null);
      else list.push(inst);
    }
  }

  private wait(step: number): void {
    this.markIncomplete();
    const w = this.ctx.waits;
    if (w.size >= 10_000) return;
    const key = `${this.plan.index}:${this.steps === this.plan.steps ? '' : 'v'}${step}:${this.vals.join(',')}`;
    if (!w.has(key)) {
      const demand = this.plan.demandGuarded ? this.premises[0]! : 0;
      w.set(key, { plan: this.plan, steps: this.steps, step, vals: this.vals.slice(), demand, premises: Array.from(this.premises).filter((f) => f > 0) });
    }
  }

  /**
   * A term of the current binding. An arithmetic error (division by zero, overflow) is
   * this binding's alone: it is reported, naming the binding, and the binding is
   * dropped (FAIL) while the rule's other bindings go on.
   */
  private build(t: Tmpl, span: Step['span']): TermId {
    try {
      return this.ctx.builder.build(t, this.vals);
    } catch (e) {
      if (!(e instanceof ArithmeticError)) throw e;
      this.runtimeError(`${e.message}${this.bindingText()}`, span);
      return FAIL;
    }
  }

  /** ` when X = 0, Y = 2`: the named variables bound so far in the current binding. */
  private bindingText(): string {
    const names = this.plan.rule.varNames;
    const parts: string[] = [];
    for (let v = 0; v < names.length && parts.length < 6; v++) {
      const name = names[v]!;
      if (name === '_' || name.startsWith('_') || this.vals[v]! <= 0) continue;
      parts.push(`${name} = ${termText(this.ctx.store, this.vals[v]!)}`);
    }
    return parts.length === 0 ? '' : ` when ${parts.join(', ')}`;
  }

  private runtimeError(message: string, span: Step['span']): void {
    // one diagnostic per place and message; a runaway rule stops adding them after MAX_RUNTIME_ERRORS
    if (this.ctx.runtimeErrors.size >= MAX_RUNTIME_ERRORS) return;
    const key = `${span.file}:${span.start.offset}:${message}`;
    if (this.ctx.runtimeErrors.has(key)) return;
    // the facts matched so far (a scan not reached yet has none): where the error comes from
    const premises = Array.from(this.premises.subarray(0, this.plan.scanCount)).filter((f) => f > 0);
    this.ctx.runtimeErrors.set(key, { message, rule: this.plan.rule, span, premises });
  }
}

/** Run-time errors (per place, message and binding) kept at most. */
const MAX_RUNTIME_ERRORS = 100;

/** A plan's reusable arrays: variable values, premises, and per scan step the first projected key. */
interface Scratch {
  readonly vals: Int32Array;
  readonly premises: Int32Array;
  readonly keys: (Int32Array | undefined)[];
}

/** The distinct value tuples a scan has passed on (a trie over term ids, so no key strings are built). */
class SeenKeys {
  private readonly root = new Map<number, unknown>();

  /** Records the values of `vars`; false when they were seen before. */
  add(vals: Int32Array, vars: readonly number[]): boolean {
    let node = this.root;
    const last = vars.length - 1;
    for (let k = 0; k < last; k++) {
      const v = vals[vars[k]!]!;
      let next = node.get(v) as Map<number, unknown> | undefined;
      if (next === undefined) node.set(v, (next = new Map()));
      node = next;
    }
    const v = vals[vars[last]!]!;
    if (node.has(v)) return false;
    node.set(v, true);
    return true;
  }

  /** Records a key given as its values. */
  addKey(key: Int32Array, n: number): void {
    let node = this.root;
    for (let k = 0; k < n - 1; k++) {
      let next = node.get(key[k]!) as Map<number, unknown> | undefined;
      if (next === undefined) node.set(key[k]!, (next = new Map()));
      node = next;
    }
    node.set(key[n - 1]!, true);
  }
}
