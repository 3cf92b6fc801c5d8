// What one round derives, buffered: writes are applied together at the end of the
// round (Solver.commit, engine/solve.ts), so every rule in a round reads the same snapshot.
import type { Plan, Step } from '../compile/plan.js';
import type { FactMeta } from '../store/fact-meta.js';
import type { Origin, Stamp } from '../store/ids.js';
import type { TermId } from '../terms/term-store.js';

export interface UnifyRequest {
  readonly a: number;
  readonly b: number;
  readonly plan: Plan;
  readonly premises: readonly number[];
}

export interface Wait {
  readonly plan: Plan;
  /** The join order that was running (the plan's steps or one of its variants). */
  readonly steps: readonly Step[];
  /** Index of the step that could not be decided, or -1 for the head. */
  readonly step: number;
  readonly vals: Int32Array;
  /** The demand fact the plan was running for, if it computes a demanded copy (else 0). */
  readonly demand: number;
  /** The facts matched so far by the waiting rule instance. */
  readonly premises: readonly number[];
}

/**
 * Which facts the current round has buffered, as a stamp per term id (no Set to grow and
 * hash): a fact is buffered when its stamp is the current buffer's. One per solver.
 */
export class BufferMarks {
  private stamps = new Int32Array(1 << 12);
  private last = 0;

  /** A stamp no earlier buffer used. */
  next(): number {
    return ++this.last;
  }

  has(fact: number, stamp: number): boolean {
    return fact < this.stamps.length && this.stamps[fact] === stamp;
  }

  set(fact: number, stamp: number): void {
    if (fact >= this.stamps.length) {
      let n = this.stamps.length;
      while (n <= fact) n *= 2;
      const grown = new Int32Array(n);
      grown.set(this.stamps);
      this.stamps = grown;
    }
    this.stamps[fact] = stamp;
  }
}

export class RoundBuffer {
  /** New facts by relation, distinct and absent from the snapshot. */
  readonly facts = new Map<string, number[]>();
  /** Flat provenance records: fact, origin, premise count, premises... (the first `provenanceLength` entries). */
  private provenance = new Int32Array(1 << 6);
  private provenanceLength = 0;
  readonly unifications: UnifyRequest[] = [];
  count = 0;
  private readonly stamp: number;

  constructor(private readonly marks: BufferMarks) {
    this.stamp = marks.next();
  }

  /** Has this round buffered the fact? */
  has(fact: number): boolean {
    return this.marks.has(fact, this.stamp);
  }

  /** Buffers a new fact of `rel`, with what derived it and its first `premiseCount` premises. */
  add(rel: string, fact: TermId, origin: Origin, premises: Int32Array, premiseCount: number): void {
    this.marks.set(fact, this.stamp);
    let list = this.facts.get(rel);
    if (!list) this.facts.set(rel, (list = []));
    list.push(fact);
    let prov = this.provenance;
    let top = this.provenanceLength;
    if (top + 3 + premiseCount > prov.length) {
      const grown = new Int32Array(Math.max(prov.length * 2, top + 3 + premiseCount));
      grown.set(prov);
      this.provenance = prov = grown;
    }
    prov[top++] = fact;
    prov[top++] = origin;
    prov[top++] = premiseCount;
    for (let i = 0; i < premiseCount; i++) prov[top++] = premises[i]!;
    this.provenanceLength = top;
    this.count++;
  }

  /** Writes every buffered fact's stamp (`round`) and provenance into the fact tables. */
  recordInto(meta: FactMeta, round: Stamp): void {
    const prov = this.provenance;
    for (let i = 0; i < this.provenanceLength; ) {
      const n = prov[i + 2]!;
      meta.record(prov[i]!, round, prov[i + 1]! as Origin, prov, n, i + 3);
      i += 3 + n;
    }
  }
}
