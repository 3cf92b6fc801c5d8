// The fixpoint loop. Strata run in order; each stratum runs rounds until a round adds
// nothing. A round evaluates every plan of the stratum against one snapshot (naive:
// all facts; semi-naive: only joins that touch a fact new since the plan last ran),
// then commits: new facts are inserted, unification heads bind holes, and every fact
// that mentions a newly bound hole is replaced by its resolved form, which is new and
// so feeds the next round. When a rebuild gives a lower stratum new input, solving
// goes back to it.
import { Map as IMap } from 'immutable';
import type { Diagnostic } from '../language/diagnostic.js';
import { diagnostic } from '../language/diagnostic.js';
import { Database } from '../store/database.js';
import { type FactMeta, GIVEN, REBUILT } from '../store/fact-meta.js';
import { Relation } from '../store/relation.js';
import { Slice } from '../store/slice.js';
import { holesOf, resolve } from '../store/union-find.js';
import { TermDepthError, type TermId, type TermStore } from '../terms/term-store.js';
import { termText } from '../terms/print.js';
import { compare } from '../terms/arith.js';
import type { CompareOp } from '../language/ast.js';
import { userPredOf } from '../compile/demand.js';
import { Builder } from './build.js';
import { checkHeap, Joiner, type JoinContext } from './join.js';
import { DEFAULT_LIMITS, LimitError, type Limits } from './limits.js';
import type { Plan, Step } from './plan.js';
import { RoundBuffer, type Wait } from './round.js';
import { unify } from './unify.js';

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
  readonly residualEqualities: { left: TermId; right: TermId; plan: Plan }[] = [];
  readonly waits = new Map<string, Wait>();
  readonly runtimeErrors: JoinContext['runtimeErrors'] = new Map();
  readonly stats: SolveStats = { rounds: 0, facts: 0, derived: 0, rebuilt: 0, bindings: 0, millis: 0, strata: 0 };
  limitHit: LimitError | null = null;
  private readonly byStratum: readonly Plan[][];
  /** Per stratum: the relations its plans read, and who reads each. Shared by every solver over the same plans. */
  private readonly index: PlanIndex;
  /** Per stratum: the database time when it last reached its fixpoint (0: never); it has input again only once a relation it reads changes at or after that. */
  private readonly doneAt: Int32Array;
  /** Per plan (by index): every fact with a timestamp below this has been seen by it. Plans themselves are immutable and shareable. */
  private readonly lastRun: Int32Array;
  /** Per relation: the timestamp of the last commit that added facts to it. */
  private readonly changedAt = new Map<string, number>();
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
  ) {
    this.db = start;
    this.meta = start.meta;
    this.index = planIndex(plans);
    const count = this.index.byStratum.length;
    this.byStratum = this.index.byStratum;
    this.doneAt = new Int32Array(count);
    this.lastRun = new Int32Array(plans.reduce((m, p) => Math.max(m, p.index + 1), 0));
    for (const [name, rel] of start.relations) if (rel.log.length > 0) this.changedAt.set(name, start.now - 1);
    this.stats.strata = count;
    this.ctx = {
      store,
      meta: this.meta,
      builder: new Builder(store),
      termsAtRoundStart: 0,
      deadline: 0,
      ticks: 0,
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
    const s = new Solver(store, this.plans, this.mode, limits, this.db.fork(), this.onProgress);
    s.lastRun.set(this.lastRun);
    s.doneAt.set(this.doneAt);
    s.changedAt.clear();
    for (const [k, v] of this.changedAt) s.changedAt.set(k, v);
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
    const buffer = new RoundBuffer();
    const none = new Int32Array(0);
    for (const [rel, list] of facts) {
      const r = this.db.relation(rel);
      void r;
      for (const f of list) if (!buffer.seen.has(f) && !this.meta.present(f)) buffer.add(rel, f, GIVEN, none, 0);
    }
    this.commit(buffer);
    this.stats.derived -= buffer.count; // given, not derived
  }

  /** Run to fixpoint. Returns normally when a limit stops it; `limitHit` says which. */
  solve(): void {
    const started = Date.now();
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
    }
  }

  private stratumHasInput(s: number): boolean {
    const done = this.doneAt[s]!;
    if (done > 0) {
      let changed = false;
      for (const rel of this.index.reads[s]!) {
        if ((this.changedAt.get(rel) ?? 0) >= done) {
          changed = true;
          break;
        }
      }
      if (!changed) return false;
    }
    return this.byStratum[s]!.some((p) => this.hasInput(p));
  }

  private hasInput(p: Plan): boolean {
    const last = this.lastRun[p.index]!;
    if (last === 0) return true;
    for (const rel of p.reads) if ((this.changedAt.get(rel) ?? 0) >= last) return true;
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
      for (const rel of this.index.reads[s]!) if ((this.changedAt.get(rel) ?? 0) >= done) for (const p of readers.get(rel) ?? []) candidates.add(p);
      dirty = [...candidates].filter((p) => this.hasInput(p)).sort((a, b) => a.index - b.index);
    } else dirty = plans.filter((p) => this.hasInput(p));
    while (dirty.length > 0) {
      if (this.stats.rounds >= this.limits.maxRounds) throw new LimitError('rounds', `stopped after ${this.limits.maxRounds} rounds`);
      if (Date.now() > this.deadline) throw new LimitError('time', `stopped after ${this.limits.maxMillis} ms`);
      if ((this.stats.rounds & 0xff) === 0xff) checkHeap();
      this.stats.rounds++;
      const now = this.db.now;
      const buffer = new RoundBuffer();
      this.ctx.termsAtRoundStart = this.store.size;
      let db = this.db;
      for (const p of dirty) {
        const last = this.lastRun[p.index]!;
        if (this.mode === 'naive' || last === 0 || p.scanCount === 0) {
          db = this.joiner.run(db, buffer, p, this.mode === 'naive' ? -1 : 0, 0, now, this.mode === 'naive');
        } else {
          for (const st of p.steps) {
            if (st.k !== 'scan') continue;
            if ((this.changedAt.get(st.rel) ?? 0) < last) continue;
            db = this.joiner.run(db, buffer, p, st.scanNo, last, now, false);
          }
        }
        this.lastRun[p.index] = now;
      }
      this.db = db;
      const changed = this.commit(buffer);
      this.onProgress?.({ round: this.stats.rounds, stratum: s, facts: this.db.factCount, millis: Date.now() - (this.deadline - this.limits.maxMillis) });
      if (changed.size === 0) {
        this.doneAt[s] = this.db.now;
        return;
      }
      if (this.mode === 'naive') {
        dirty = plans; // the naive strategy re-evaluates everything
        continue;
      }
      const next = new Set<Plan>();
      for (const rel of changed) for (const p of readers.get(rel) ?? []) next.add(p);
      dirty = [...next].sort((a, b) => a.index - b.index);
    }
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
    let holeUses = this.db.holeUses;
    let factCount = this.db.factCount;
    // 1. new facts
    const prov = buffer.provenance;
    for (let i = 0; i < prov.length; ) {
      const fact = prov[i]!;
      const rule = prov[i + 1]!;
      const n = prov[i + 2]!;
      this.meta.record(fact, now, rule, prov, n, i + 3);
      i += 3 + n;
    }
    const newHoleFacts: TermId[] = [];
    relations = relations.withMutations((m) => {
      for (const [rel, facts] of buffer.facts) {
        this.changedAt.set(rel, now);
        m.set(rel, (m.get(rel) ?? Relation.empty).insertBatch(facts));
        factCount += facts.length;
        for (const f of facts) if (!store.isGround(f)) newHoleFacts.push(f);
      }
    });
    this.stats.derived += buffer.count;
    holeUses = registerHoles(store, holeUses, newHoleFacts);
    // 2. unifications
    let uf = this.db.uf;
    const linked: TermId[] = [];
    for (const u of buffer.unifications) {
      const a = resolve(store, uf, u.a);
      const b = resolve(store, uf, u.b);
      const out = unify(store, uf, a, b);
      if (out.k === 'clash') {
        this.clashes.push({ left: resolve(store, uf, out.left), right: resolve(store, uf, out.right), reason: out.reason, outer: [a, b], plan: u.plan, premises: u.premises });
        continue;
      }
      uf = out.uf;
      for (const h of out.linked) {
        linked.push(h);
        this.bindingOf.set(h, this.bindings.length);
        this.bindings.push({ hole: h, value: uf.parent.get(h)!, plan: u.plan, premises: u.premises });
      }
      for (const [l, r] of out.residuals) this.residualEqualities.push({ left: l, right: r, plan: u.plan });
    }
    this.stats.bindings += linked.length;
    // 3. rebuild every fact that mentions a newly bound hole
    let rebuilt = 0;
    if (linked.length > 0) {
      const extra = new Map<string, number[]>();
      const removed = new Map<string, number[]>();
      const rebuiltFacts: TermId[] = [];
      const done = new Set<TermId>();
      for (const h of linked) {
        const uses = holeUses.get(h);
        if (!uses) continue;
        holeUses = holeUses.remove(h);
        for (let i = 0; i < uses.length; i++) {
          const f = uses.get(i);
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
          this.meta.record(r, now, REBUILT, [f], 1);
          if (!store.isGround(r)) rebuiltFacts.push(r);
          rebuilt++;
        }
      }
      const live = (f: number) => this.meta.present(f);
      relations = relations.withMutations((m) => {
        for (const [rel, fs] of removed) {
          let r = m.get(rel)!.removeBatch(fs.length);
          // mostly replaced facts: scans would skip more than they read
          if (r.removed * 2 > r.log.length) r = r.compact(live);
          m.set(rel, r);
        }
        for (const [rel, fs] of extra) {
          this.changedAt.set(rel, now);
          changed.add(rel);
          m.set(rel, m.get(rel)!.insertBatch(fs));
        }
      });
      for (const fs of removed.values()) factCount -= fs.length;
      for (const fs of extra.values()) factCount += fs.length;
      holeUses = registerHoles(store, holeUses, rebuiltFacts);
    }
    this.stats.rebuilt += rebuilt;
    this.db = new Database(relations, uf, holeUses, now + 1, factCount, this.meta);
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
      out.push({ plan: w.plan, steps: w.steps, step: w.step, text, alternative, premises: w.premises });
    }
    for (const r of this.residualEqualities) {
      const text = `${termText(this.store, r.left)} = ${termText(this.store, r.right)} is assumed (cannot be decided)`;
      if (seen.has(text)) continue;
      seen.add(text);
      out.push({ plan: r.plan, steps: r.plan.steps, step: -1, text, alternative: false, premises: [] });
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

  runtimeDiagnostics(): Diagnostic[] {
    return [...this.runtimeErrors.values()].map((e) => diagnostic('error', 'arithmetic', e.message, e.span));
  }
}

function registerHoles(store: TermStore, uses: IMap<number, Slice>, facts: readonly TermId[]): IMap<number, Slice> {
  if (facts.length === 0) return uses;
  return uses.withMutations((m) => {
    for (const f of facts) for (const h of holesOf(store, f)) m.set(h, (m.get(h) ?? Slice.empty).push(f));
  });
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
      return `not ${userPredOf(st.rel) ?? st.rel}(${shown.join(', ')}) cannot be decided: its computation waits on an undecided condition`;
    }
    default:
      return `a value needed here is not known yet`;
  }
}

function compareSafe(store: TermStore, op: CompareOp, a: TermId, b: TermId): boolean | undefined {
  if (a <= 0 || b <= 0) return undefined;
  return compare(store, op, a, b);
}

/** The plans grouped by stratum, with each stratum's read relations and their readers. */
interface PlanIndex {
  readonly byStratum: readonly Plan[][];
  readonly reads: readonly (readonly string[])[];
  readonly readers: readonly ReadonlyMap<string, readonly Plan[]>[];
}

const planIndexes = new WeakMap<readonly Plan[], PlanIndex>();

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
    idx = { byStratum, reads: readers.map((m) => [...m.keys()]), readers };
    planIndexes.set(plans, idx);
  }
  return idx;
}
