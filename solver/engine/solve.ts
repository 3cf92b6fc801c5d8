// The fixpoint loop. Strata run in order; each stratum runs rounds until a round adds
// nothing. A round evaluates every plan of the stratum against one snapshot (naive:
// all facts; semi-naive: only joins that touch a fact new since the plan last ran),
// then commits: new facts are inserted, unification heads bind holes, and every fact
// that mentions a newly bound hole is replaced by its resolved form, which is new and
// so feeds the next round. When a rebuild gives a lower stratum new input, solving
// goes back to it at once, before this stratum's next round (whose negations must see
// what the lower strata derive from the rebuilt facts). A rule that reads one relation
// is not run on facts rebuilt only in columns it ignores or passes to its head (a call's
// fact after its result is bound): it derived from the fact before the rebuild what it
// would derive from the rebuilt one, and that was rebuilt too. A plan whose first step
// scans a relation with no facts is not run (its join would end at once).
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diagnostic } from '../../diagnostics/diagnostic.js';
import { Database } from '../store/database.js';
import type { FactMeta } from '../store/fact-meta.js';
import { GIVEN, NEVER, nextStamp, REBUILT } from '../store/ids.js';
import { relationId } from '../store/relation-map.js';
import { resolve } from '../store/union-find.js';
import { TermDepthError, type TermId, type TermStore } from '../terms/term-store.js';
import { termText } from '../terms/print.js';
import { compare } from '../terms/arith.js';
import type { CompareOp } from '../language/ast.js';
import { userPredOf } from '../compile/relation-names.js';
import { Builder } from './build.js';
import { Joiner, type JoinContext } from './join.js';
import { checkHeap, newLimitClock } from './limit-clock.js';
import { DEFAULT_LIMITS, LimitError, type Limits } from './limits.js';
import type { Plan, Step } from '../compile/plan.js';
import { BufferMarks, RoundBuffer, type Wait } from './round.js';
import { unify } from './unify.js';
import { everyFact, PlanClock } from './window.js';
import { addWork, workMark } from './engine-work.js';
import { timed } from '../../diagnostics/phase-times.js';

export type EvalMode = 'naive' | 'seminaive';

export interface Binding {
  readonly hole: TermId;
  readonly value: TermId;
  readonly plan: Plan;
  readonly premises: readonly number[];
}

export interface Clash {
  readonly left: TermId;
  readonly right: TermId;
  readonly reason: string;
  /** The two whole terms being unified (left and right are the parts that clash). */
  readonly outer: readonly [TermId, TermId];
  readonly plan: Plan;
  readonly premises: readonly number[];
}

export interface SolveStats {
  rounds: number;
  facts: number;
  derived: number;
  rebuilt: number;
  bindings: number;
  /** Joins run: a rule's plan run over one window of new facts. */
  planRuns: number;
  millis: number;
  strata: number;
}

/** An undecided condition left at the fixpoint. */
export interface Residual {
  readonly plan: Plan;
  readonly steps: readonly Step[];
  /** Index into `steps`, or -1 for the head. */
  readonly step: number;
  readonly text: string;
  /** Under a call with bound arguments that has an answer: about another derivation. */
  readonly alternative: boolean;
  readonly premises: readonly number[];
  /**
   * The undecided comparison itself (terms under the final bindings), when the wait is
   * on a comparison or the residual is an assumed equality: for gradual checking.
   */
  readonly condition?: { readonly left: TermId; readonly op: CompareOp; readonly right: TermId };
  /** The facts behind an assumed equality (the wait's premises are kept empty for its report). */
  readonly sources?: readonly number[];
}

export interface Progress {
  readonly round: number;
  readonly stratum: number;
  readonly facts: number;
  readonly millis: number;
}

export class Solver {
  db: Database;
  readonly meta: FactMeta;
  readonly bindings: Binding[] = [];
  readonly bindingOf = new Map<TermId, number>();
  readonly clashes: Clash[] = [];
  readonly residualEqualities: { left: TermId; right: TermId; plan: Plan; premises: readonly number[] }[] = [];
  readonly waits = new Map<string, Wait>();
  readonly runtimeErrors: JoinContext['runtimeErrors'] = new Map();
  readonly stats: SolveStats = { rounds: 0, facts: 0, derived: 0, rebuilt: 0, bindings: 0, planRuns: 0, millis: 0, strata: 0 };
  limitHit: LimitError | null = null;
  private readonly byStratum: readonly Plan[][];
  /** Per stratum: the relations its plans read, and who reads each. Shared by every solver over the same plans. */
  private readonly index: PlanIndex;
  /** Per stratum: the database time when it last reached its fixpoint (0: never); it has input again only once a relation it reads changes at or after that. */
  private readonly doneAt: Int32Array;
  /** When each plan (by index) last ran, and so the windows of its next runs. Plans themselves are immutable and shareable. */
  private readonly clock: PlanClock;
  /** Per relation read by a plan (by its id in the plan index): the timestamp of the last commit that added facts to it. */
  private readonly changedAt: Int32Array;
  /** The last commit's timestamp and, per relation it changed, the columns that changed (all, for new facts; those with newly bound holes, for rebuilt ones). */
  private lastCommit: { at: number; columns: ReadonlyMap<string, number>; before: ReadonlyMap<string, number> } = {
    at: -1,
    columns: new Map(),
    before: new Map(),
  };
  /** Per plan (by index): the round that last put it on the list to run (to list each once). */
  private readonly pickedIn: Int32Array;
  private readonly plansByIndex: Plan[] = [];
  /** Which facts the running round has buffered (engine/round.ts). */
  private readonly marks = new BufferMarks();
  private readonly ctx: JoinContext;
  private readonly joiner: Joiner;
  private deadline = 0;

  constructor(
    readonly store: TermStore,
    readonly plans: readonly Plan[],
    readonly mode: EvalMode,
    readonly limits: Limits = DEFAULT_LIMITS,
    start: Database = Database.empty(),
    readonly onProgress?: (p: Progress) => void,
    /** The solver this one continues (fork()): its bookkeeping is copied instead of recomputed from `start`. */
    from?: Solver,
  ) {
    this.db = start;
    this.meta = start.meta;
    this.index = planIndex(plans);
    const count = this.index.byStratum.length;
    this.byStratum = this.index.byStratum;
    this.doneAt = new Int32Array(count);
    const planSlots = plans.reduce((m, p) => Math.max(m, p.index + 1), 0);
    this.clock = new PlanClock(planSlots, from?.clock);
    this.pickedIn = new Int32Array(planSlots);
    for (const p of plans) this.plansByIndex[p.index] = p;
    if (from !== undefined) {
      this.changedAt = from.changedAt.slice();
      this.doneAt.set(from.doneAt);
    } else {
      this.changedAt = new Int32Array(this.index.relIds.size);
      for (const [name, rel] of start.relations) if (rel.log.length > 0) this.setChangedAt(name, start.now - 1);
    }
    this.stats.strata = count;
    this.ctx = {
      store,
      meta: this.meta,
      builder: new Builder(store),
      termsAtRoundStart: 0,
      deadline: 0,
      clock: newLimitClock(),
      maxFacts: limits.maxFacts,
      waits: this.waits,
      runtimeErrors: this.runtimeErrors,
      incompleteDemands: new Set(),
      pendingHeads: new Map(),
    };
    this.joiner = new Joiner(this.ctx);
  }

  /**
   * A solver that continues from this one's fixpoint: the same plans, a fork of the
   * database (what either derives next is invisible to the other) and a copy of the
   * bookkeeping, so that facts added to the fork are joined semi-naively against
   * everything derived so far without deriving it again. `store` must be this solver's
   * store or a clone of it (the same ids).
   */
  fork(store: TermStore, limits: Limits = this.limits): Solver {
    const s = new Solver(store, this.plans, this.mode, limits, this.db.fork(), this.onProgress, this);
    for (const [k, v] of this.waits) s.waits.set(k, v);
    s.bindings.push(...this.bindings);
    for (const [k, v] of this.bindingOf) s.bindingOf.set(k, v);
    s.clashes.push(...this.clashes);
    s.residualEqualities.push(...this.residualEqualities);
    for (const [k, v] of this.runtimeErrors) s.runtimeErrors.set(k, v);
    for (const d of this.ctx.incompleteDemands) s.ctx.incompleteDemands.add(d);
    for (const [k, v] of this.ctx.pendingHeads) s.ctx.pendingHeads.set(k, v === null ? null : v.map((x) => [...x]));
    Object.assign(s.stats, this.stats);
    s.limitHit = this.limitHit;
    return s;
  }

  /** Insert given facts (from the source text) as one batch at the current timestamp. */
  addFacts(facts: ReadonlyMap<string, readonly TermId[]>): void {
    const buffer = new RoundBuffer(this.marks);
    const none = new Int32Array(0);
    for (const [rel, list] of facts) {
      const r = this.db.relation(rel);
      void r;
      for (const f of list) if (!buffer.has(f) && !this.meta.present(f)) buffer.add(rel, f, GIVEN, none, 0);
    }
    this.commit(buffer);
    this.stats.derived -= buffer.count; // given, not derived
  }

  /** Run to fixpoint. Returns normally when a limit stops it; `limitHit` says which. */
  solve(): void {
    timed('solve', () => this.solveToFixpoint());
  }

  private solveToFixpoint(): void {
    const started = Date.now();
    const before = workMark(this.stats);
    this.deadline = started + this.limits.maxMillis;
    this.ctx.deadline = this.deadline;
    const depthBefore = this.store.maxDepth;
    this.store.maxDepth = this.limits.maxTermDepth;
    try {
      for (;;) {
        let s = -1;
        for (let k = 0; k < this.byStratum.length && s < 0; k++) if (this.stratumHasInput(k)) s = k;
        if (s < 0) break;
        this.runStratum(s);
      }
    } catch (e) {
      if (e instanceof LimitError) this.limitHit = e;
      else if (e instanceof TermDepthError) this.limitHit = new LimitError('depth', e.message);
      else throw e;
    } finally {
      this.store.maxDepth = depthBefore;
      this.stats.millis += Date.now() - started;
      this.stats.facts = this.db.factCount;
      addWork(before, this.stats);
    }
  }

  private stratumHasInput(s: number): boolean {
    const done = this.doneAt[s]!;
    if (done > 0) {
      const ids = this.index.readIds[s]!;
      let changed = false;
      for (let k = 0; k < ids.length && !changed; k++) changed = this.changedAt[ids[k]!]! >= done;
      if (!changed) return false;
    }
    return this.byStratum[s]!.some((p) => this.hasInput(p));
  }

  private hasInput(p: Plan): boolean {
    const last = this.clock.lastRunOf(p.index);
    if (last === NEVER) return true;
    const ids = this.index.planReadIds[p.index]!;
    for (let k = 0; k < ids.length; k++) if (this.changedAt[ids[k]!]! >= last) return true;
    return false;
  }

  private runStratum(s: number): void {
    const plans = this.byStratum[s]!;
    const readers = this.readersOf(s);
    // the plans to run this round: at first those with input, then those reading a relation the last commit changed
    let dirty: Plan[];
    const done = this.doneAt[s]!;
    if (done > 0) {
      // only readers of what changed since the stratum's last fixpoint can have input
      const candidates = new Set<Plan>();
      const rels = this.index.reads[s]!;
      const ids = this.index.readIds[s]!;
      for (let k = 0; k < ids.length; k++) if (this.changedAt[ids[k]!]! >= done) for (const p of readers.get(rels[k]!) ?? []) candidates.add(p);
      dirty = [...candidates].filter((p) => this.hasInput(p)).sort((a, b) => a.index - b.index);
    } else dirty = plans.filter((p) => this.hasInput(p));
    while (dirty.length > 0) {
      if (this.stats.rounds >= this.limits.maxRounds) throw new LimitError('rounds', `stopped after ${this.limits.maxRounds} rounds`);
      if (Date.now() > this.deadline) throw new LimitError('time', `stopped after ${this.limits.maxMillis} ms`);
      if ((this.stats.rounds & 0xff) === 0xff) checkHeap();
      this.stats.rounds++;
      const now = this.db.now;
      const buffer = new RoundBuffer(this.marks);
      this.ctx.termsAtRoundStart = this.store.size;
      const db = this.db;
      for (const p of dirty) {
        const last = this.clock.lastRunOf(p.index);
        if (this.mode === 'naive' || last === NEVER || p.scanCount === 0) {
          if (startsOnEmptyRelation(p, db)) {
            // its first step scans a relation with no facts: the join ends there, as its run would
          } else {
            this.stats.planRuns++;
            this.joiner.run(db, buffer, p, everyFact(this.mode === 'naive', now));
          }
        } else if (p.singleScan !== null && this.onlyIgnoredChanges(p.singleScan, last)) {
          // its only new input is facts rebuilt in columns it ignores: it would derive again what it derived from them before
        } else {
          const scans = this.index.scans[p.index]!;
          for (let k = 0; k < scans.length; k += 2) {
            if (this.changedAt[scans[k]!]! < last) continue;
            this.stats.planRuns++;
            this.joiner.run(db, buffer, p, this.clock.newFactsAt(p.index, scans[k + 1]!, now));
          }
        }
        this.clock.ran(p.index, now);
      }
      const changed = this.commit(buffer);
      this.onProgress?.({ round: this.stats.rounds, stratum: s, facts: this.db.factCount, millis: Date.now() - (this.deadline - this.limits.maxMillis) });
      if (changed.size === 0) {
        this.doneAt[s] = this.db.now;
        return;
      }
      // A binding made in this stratum rebuilt facts that a lower stratum reads: stop
      // here (the stratum is not done) and let solve() run the lowest stratum with input
      // first. Going on would evaluate this stratum's negations against lower relations
      // that have not yet derived what the rebuilt facts give them (a demand for the
      // rebuilt arguments, or a pending instance now decided), so a `not` would hold
      // wrongly and its consequence could never be taken back.
      if (this.feedsLowerStratum(s, changed)) return;
      if (this.mode === 'naive') {
        dirty = plans; // the naive strategy re-evaluates everything
        continue;
      }
      // the readers of what changed, each once, in plan order
      const round = this.stats.rounds;
      const picked: number[] = [];
      for (const rel of changed) {
        const rs = readers.get(rel);
        if (rs === undefined) continue;
        for (const p of rs) {
          if (this.pickedIn[p.index] === round) continue;
          this.pickedIn[p.index] = round;
          picked.push(p.index);
        }
      }
      sortNumbers(picked);
      dirty = new Array<Plan>(picked.length);
      for (let k = 0; k < picked.length; k++) dirty[k] = this.plansByIndex[picked[k]!]!;
    }
  }

  /** Does a stratum below `s` read one of these relations? */
  private feedsLowerStratum(s: number, changed: ReadonlySet<string>): boolean {
    const below = this.index.readBelow[s]!;
    if (below.size === 0) return false;
    for (const rel of changed) if (below.has(rel)) return true;
    return false;
  }

  private changedAtOf(rel: string): number {
    const id = this.index.relIds.get(rel);
    return id === undefined ? 0 : this.changedAt[id]!;
  }

  private setChangedAt(rel: string, at: number): void {
    const id = this.index.relIds.get(rel);
    if (id !== undefined) this.changedAt[id] = at;
  }

  /**
   * Has a single-scan plan that last ran at `last` seen every fact of its relation but
   * those of the last commit, and do those differ from facts it saw only in columns it ignores?
   */
  private onlyIgnoredChanges(scan: { rel: string; columns: number }, last: number): boolean {
    const c = this.lastCommit;
    if (this.changedAtOf(scan.rel) !== c.at) return false;
    const changed = c.columns.get(scan.rel);
    if (changed === undefined || (changed & scan.columns) !== 0) return false;
    return (c.before.get(scan.rel) ?? Infinity) < last;
  }

  /** For one stratum: relation name → the plans of the stratum that scan it. */
  private readersOf(s: number): ReadonlyMap<string, readonly Plan[]> {
    return this.index.readers[s]!;
  }

  /** Apply a round's writes. Returns the relations that got new facts (empty: nothing changed). */
  private commit(buffer: RoundBuffer): Set<string> {
    const changed = new Set<string>(buffer.facts.keys());
    const store = this.store;
    const now = this.db.now;
    let relations = this.db.relations;
    const holeUses = this.db.holeUses;
    let factCount = this.db.factCount;
    // 1. new facts
    buffer.recordInto(this.meta, now);
    const newHoleFacts: TermId[] = [];
    const columns = new Map<string, number>();
    const before = new Map<string, number>();
    const changing = (rel: string) => {
      if (!before.has(rel)) before.set(rel, this.changedAtOf(rel));
      this.setChangedAt(rel, now);
    };
    for (const [rel, facts] of buffer.facts) {
      changing(rel);
      columns.set(rel, ALL_COLUMNS);
      factCount += facts.length;
      for (const f of facts) if (!store.isGround(f)) newHoleFacts.push(f);
    }
    this.stats.derived += buffer.count;
    holeUses.register(store, newHoleFacts);
    // 2. unifications
    let uf = this.db.uf;
    const linked: TermId[] = [];
    for (const u of buffer.unifications) {
      const a = resolve(store, uf, u.a);
      const b = resolve(store, uf, u.b);
      const out = unify(store, uf, a, b);
      if (out.k === 'clash') {
        this.clashes.push({
          left: resolve(store, uf, out.left),
          right: resolve(store, uf, out.right),
          reason: out.reason,
          outer: [a, b],
          plan: u.plan,
          premises: u.premises,
        });
        continue;
      }
      uf = out.uf;
      for (const h of out.linked) {
        linked.push(h);
        this.bindingOf.set(h, this.bindings.length);
        this.bindings.push({ hole: h, value: uf.parentOf(h)!, plan: u.plan, premises: u.premises });
      }
      for (const [l, r] of out.residuals) this.residualEqualities.push({ left: l, right: r, plan: u.plan, premises: u.premises });
    }
    this.stats.bindings += linked.length;
    // 3. rebuild every fact that mentions a newly bound hole
    let rebuilt = 0;
    const extra = new Map<string, number[]>();
    const removed = new Map<string, number[]>();
    if (linked.length > 0) {
      const rebuiltFacts: TermId[] = [];
      const done = new Set<TermId>();
      const used: TermId[] = [];
      for (const h of linked) {
        const uses = holeUses.get(h);
        if (!uses) continue;
        used.push(h);
        for (let i = 0; i < uses.length; i++) {
          const f = uses[i]!;
          if (done.has(f)) continue;
          done.add(f);
          const relName = store.functor(f);
          if (!this.meta.present(f)) continue;
          const r = resolve(store, uf, f);
          if (r === f) continue;
          (removed.get(relName) ?? removed.set(relName, []).get(relName)!).push(f);
          this.meta.markRemoved(f, now);
          if (this.meta.present(r) || done.has(r)) continue;
          done.add(r);
          (extra.get(relName) ?? extra.set(relName, []).get(relName)!).push(r);
          columns.set(relName, (columns.get(relName) ?? 0) | changedColumns(store, f, r));
          this.meta.record(r, now, REBUILT, [f], 1);
          if (!store.isGround(r)) rebuiltFacts.push(r);
          rebuilt++;
        }
      }
      for (const fs of removed.values()) factCount -= fs.length;
      for (const fs of extra.values()) factCount += fs.length;
      for (const h of used) holeUses.drop(h);
      holeUses.register(store, rebuiltFacts);
    }
    // 4. the relations, in one batch: new facts, replaced ones, rebuilt ones
    const live = (f: number) => this.meta.present(f);
    relations = relations.withWrites((m) => {
      for (const [rel, facts] of buffer.facts) {
        const id = relationId(rel);
        m.set(id, (m.get(id) ?? relations.emptyRelation).insertBatch(facts));
      }
      for (const [rel, fs] of removed) {
        const id = relationId(rel);
        let r = m.get(id)!.removeBatch(fs.length);
        // mostly replaced facts: scans would skip more than they read
        if (r.removed * 2 > r.log.length) r = r.compact(live);
        m.set(id, r);
      }
      for (const [rel, fs] of extra) {
        changing(rel);
        changed.add(rel);
        const id = relationId(rel);
        m.set(id, m.get(id)!.insertBatch(fs));
      }
    });
    this.stats.rebuilt += rebuilt;
    this.lastCommit = { at: now, columns, before };
    this.db = new Database(relations, uf, holeUses, nextStamp(now), factCount, this.meta);
    return changed;
  }

  /** Undecided conditions left at the fixpoint, re-checked under the final bindings. */
  residuals(): Residual[] {
    const out: Residual[] = [];
    const seen = new Set<string>();
    const b = this.ctx.builder;
    for (const w of this.waits.values()) {
      // a wait on a fact that a binding has since rebuilt is stale: the rebuilt fact was
      // evaluated again (and waited again, if it still had to)
      if (w.premises.some((f) => !this.db.has(f))) continue;
      // under a call with bound arguments that has an answer, an undecided condition only
      // concerns another derivation of that call: reported as a note, not a warning
      const alternative = w.demand > 0 && this.demandAnswered(w.plan, w.demand);
      const vals = w.vals.map((v) => (v > 0 ? resolve(this.store, this.db.uf, v) : v));
      const text = describeWait(this.store, b, w.steps, w.step, vals);
      if (text === null || seen.has(text)) continue;
      seen.add(text);
      const st = w.step >= 0 ? w.steps[w.step] : undefined;
      const condition = st?.k === 'compare' ? { left: b.build(st.a, vals), op: st.op, right: b.build(st.b, vals) } : undefined;
      out.push({
        plan: w.plan,
        steps: w.steps,
        step: w.step,
        text,
        alternative,
        premises: w.premises,
        ...(condition !== undefined && condition.left > 0 && condition.right > 0 ? { condition } : {}),
      });
    }
    for (const r of this.residualEqualities) {
      const text = `${termText(this.store, r.left)} = ${termText(this.store, r.right)} is assumed (cannot be decided)`;
      if (seen.has(text)) continue;
      seen.add(text);
      const condition = { left: resolve(this.store, this.db.uf, r.left), op: '==' as CompareOp, right: resolve(this.store, this.db.uf, r.right) };
      out.push({ plan: r.plan, steps: r.plan.steps, step: -1, text, alternative: false, premises: [], condition, sources: r.premises });
    }
    return out;
  }

  /** Did the demanded copy computed by this plan produce an answer for this demand? */
  private demandAnswered(plan: Plan, demand: TermId): boolean {
    if (plan.head.k !== 'fact') return true; // a demand rule: its waits show up in the copy it feeds
    const rel = this.db.relation(plan.head.rel);
    if (!rel) return false;
    const pattern = plan.head.rel.slice(plan.head.rel.lastIndexOf('@') + 1);
    if (!pattern.includes('b')) return false; // "all answers" is not one call
    const d = resolve(this.store, this.db.uf, demand);
    for (let i = 0; i < rel.log.length; i++) {
      const f = rel.log.get(i);
      let k = 0;
      let ok = true;
      for (let c = 0; c < pattern.length && ok; c++) if (pattern[c] === 'b') ok = this.store.arg(f, c) === this.store.arg(d, k++);
      if (ok) return true;
    }
    return false;
  }

  /** The arithmetic errors, each with the facts its binding had matched. */
  runtimeProblems(): { diagnostic: Diagnostic; premises: readonly TermId[] }[] {
    return [...this.runtimeErrors.values()].map((e) => ({ diagnostic: diagnostic('error', 'arithmetic', e.message, e.span), premises: e.premises }));
  }
}

const ALL_COLUMNS = -1;

/** Sorts a short list of numbers in place (insertion sort: a round's plans are few). */
function sortNumbers(xs: number[]): void {
  if (xs.length > 64) {
    xs.sort((a, b) => a - b);
    return;
  }
  for (let i = 1; i < xs.length; i++) {
    const x = xs[i]!;
    let j = i - 1;
    while (j >= 0 && xs[j]! > x) {
      xs[j + 1] = xs[j]!;
      j--;
    }
    xs[j + 1] = x;
  }
}

/** The columns in which a rebuilt fact differs from the fact before it, as a bit mask (bit 30: any column from 30 on). */
function changedColumns(store: TermStore, before: TermId, after: TermId): number {
  let mask = 0;
  const n = store.arity(after);
  for (let c = 0; c < n; c++) if (store.arg(before, c) !== store.arg(after, c)) mask |= 1 << Math.min(c, 30);
  return mask;
}

/** A still-undecided wait as text, or null if it is decided under the final bindings. */
function describeWait(store: TermStore, b: Builder, steps: readonly Step[], step: number, vals: Int32Array): string | null {
  const show = (t: Parameters<Builder['build']>[0]) => {
    const v = b.build(t, vals);
    return v > 0 ? termText(store, v) : null;
  };
  if (step < 0) return `the head of this rule needs a value that is not known yet`;
  const st = steps[step]!;
  switch (st.k) {
    case 'compare': {
      const a = show(st.a);
      const c = show(st.b);
      if (a === null || c === null) return `${st.op} needs a value that is not known yet`;
      const x = b.build(st.a, vals);
      const y = b.build(st.b, vals);
      try {
        const r = compareSafe(store, st.op, x, y);
        if (r !== undefined) return null;
      } catch {
        return null;
      }
      return `${a} ${st.op} ${c} cannot be decided`;
    }
    case 'equal': {
      const a = show(st.a);
      const c = show(st.b);
      return a && c ? `${a} ${st.negate ? '\\=' : '='} ${c} cannot be decided until holes are bound` : 'a test needs a value that is not known yet';
    }
    case 'test':
      return `${st.name}(${show(st.a) ?? '?'}) cannot be decided until holes are bound`;
    case 'neg': {
      const args = st.keyTmpls.map((t) => show(t) ?? '?');
      const shown: string[] = [];
      let k = 0;
      for (let c = 0; c < st.arity; c++) shown.push(st.keyCols.includes(c) ? args[k++]! : '_');
      const withHoles = st.keyTmpls.some((t) => {
        const v = b.build(t, vals);
        return v > 0 && !store.isGround(v);
      });
      if (withHoles) return `not ${userPredOf(st.rel) ?? st.rel}(${shown.join(', ')}) cannot be decided until its holes are bound`;
      return `not ${userPredOf(st.rel) ?? st.rel}(${shown.join(', ')}) cannot be decided${WAITS_ON_CONDITION}`;
    }
    default:
      return `a value needed here is not known yet`;
  }
}

/** The end of the message of a negation whose computation waits on an undecided comparison. */
export const WAITS_ON_CONDITION = ': its computation waits on an undecided condition';

function compareSafe(store: TermStore, op: CompareOp, a: TermId, b: TermId): boolean | undefined {
  if (a <= 0 || b <= 0) return undefined;
  return compare(store, op, a, b);
}

/** The plans grouped by stratum, with each stratum's read relations and their readers. */
interface PlanIndex {
  readonly byStratum: readonly Plan[][];
  /** An id for every relation some plan reads. */
  readonly relIds: ReadonlyMap<string, number>;
  /** Per plan (by index): for each positive scan of its steps, the relation's id and the scan number. */
  readonly scans: readonly Int32Array[];
  readonly reads: readonly (readonly string[])[];
  /** Per stratum: the ids of `reads` (same order). */
  readonly readIds: readonly Int32Array[];
  /** Per plan (by index): the ids of the relations it reads. */
  readonly planReadIds: readonly Int32Array[];
  readonly readers: readonly ReadonlyMap<string, readonly Plan[]>[];
  /** Per stratum: the relations read by the strata below it. */
  readonly readBelow: readonly ReadonlySet<string>[];
}

const planIndexes = new WeakMap<readonly Plan[], PlanIndex>();

/** Does the plan's first step scan a relation that has no live facts in `db` (so that a run over every fact derives nothing and waits on nothing)? */
function startsOnEmptyRelation(p: Plan, db: Database): boolean {
  const first = p.steps[0];
  if (first === undefined || first.k !== 'scan') return false;
  const rel = db.relationById(first.relId);
  return rel === undefined || rel.size === 0;
}

function idsOf(rels: readonly string[], relIds: ReadonlyMap<string, number>): Int32Array {
  const ids = new Int32Array(rels.length);
  for (let k = 0; k < rels.length; k++) ids[k] = relIds.get(rels[k]!)!;
  return ids;
}

function planIndex(plans: readonly Plan[]): PlanIndex {
  let idx = planIndexes.get(plans);
  if (idx === undefined) {
    const count = plans.reduce((m, p) => Math.max(m, p.stratum + 1), 1);
    const byStratum: Plan[][] = Array.from({ length: count }, () => []);
    for (const p of plans) byStratum[p.stratum]!.push(p);
    const readers = byStratum.map((ps) => {
      const m = new Map<string, Plan[]>();
      for (const p of ps) for (const rel of p.reads) (m.get(rel) ?? m.set(rel, []).get(rel)!).push(p);
      return m;
    });
    const relIds = new Map<string, number>();
    for (const p of plans) for (const rel of p.reads) if (!relIds.has(rel)) relIds.set(rel, relIds.size);
    // plain loops into sized arrays: this runs once per process on ~1,000 plans, in code not yet compiled
    const scans: Int32Array[] = [];
    for (const p of plans) {
      let n = 0;
      for (const st of p.steps) if (st.k === 'scan') n++;
      const pairs = new Int32Array(2 * n);
      let k = 0;
      for (const st of p.steps)
        if (st.k === 'scan') {
          pairs[k++] = relIds.get(st.rel)!;
          pairs[k++] = st.scanNo;
        }
      scans[p.index] = pairs;
    }
    const reads = readers.map((m) => [...m.keys()]);
    const readIds = reads.map((rels) => idsOf(rels, relIds));
    const planReadIds: Int32Array[] = [];
    for (const p of plans) planReadIds[p.index] = idsOf(p.reads, relIds);
    const readBelow: Set<string>[] = [];
    for (let s = 0, acc = new Set<string>(); s < count; s++) {
      readBelow.push(new Set(acc));
      for (const rel of reads[s]!) acc.add(rel);
    }
    idx = { byStratum, reads, readIds, planReadIds, readers, relIds, scans, readBelow };
    planIndexes.set(plans, idx);
  }
  return idx;
}
