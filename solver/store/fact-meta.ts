// Per-fact metadata, written once: the timestamp of the round a fact was inserted in,
// the timestamp of the round it was replaced by its rebuilt form (if ever), and its
// provenance (the rule and the premises that derived it). These versioned tables make
// membership persistent (the "fat node" technique): a snapshot taken at time N contains
// exactly the facts inserted before N and not removed before N, so old snapshots stay
// readable while the head moves on, at the cost of a typed-array read per check.
// A solver that starts from a shared snapshot gets its own copy (fork), so branches
// never see each other's writes.

import type { TermId } from '../terms/term-store.js';
import type { Origin, Stamp } from './ids.js';

/** The smallest table a fork gets (entries). */
const MIN_FORK_CAPACITY = 1 << 8;

export class FactMeta {
  private ts: Int32Array<ArrayBuffer>;
  private removedAt: Int32Array<ArrayBuffer>;
  private provStart: Int32Array<ArrayBuffer>;
  private prov: Int32Array<ArrayBuffer>;
  private provTop = 1; // offset 0 means "no provenance"
  /** One past the highest fact id recorded: a fork copies the tables up to here, not their spare capacity. */
  private used = 0;

  constructor(other?: FactMeta) {
    if (other === undefined) {
      this.ts = new Int32Array(1 << 12);
      this.removedAt = new Int32Array(1 << 12);
      this.provStart = new Int32Array(1 << 12);
      this.prov = new Int32Array(1 << 14);
      return;
    }
    // a fork is made once per inference from a library's fixpoint: copy what is written,
    // with room to grow (the tables grow by doubling on record())
    const n = Math.min(other.ts.length, Math.max(MIN_FORK_CAPACITY, other.used * 2));
    this.ts = other.ts.slice(0, n);
    this.removedAt = other.removedAt.slice(0, n);
    this.provStart = other.provStart.slice(0, n);
    this.prov = other.prov.slice(0, Math.min(other.prov.length, Math.max(MIN_FORK_CAPACITY, other.provTop * 2)));
    this.provTop = other.provTop;
    this.used = other.used;
  }

  fork(): FactMeta {
    return new FactMeta(this);
  }

  timestamp(fact: TermId): Stamp {
    return this.ts[fact]! as Stamp;
  }

  /** Raw timestamp table for hot loops (valid until the next record()). */
  get timestamps(): Int32Array {
    return this.ts;
  }

  /** Is the fact in the snapshot whose next timestamp is `now`? */
  visibleAt(fact: TermId, now: Stamp): boolean {
    const t = fact < this.ts.length ? this.ts[fact]! : 0;
    if (t === 0 || t >= now) return false;
    const r = this.removedAt[fact]!;
    return r === 0 || r >= now;
  }

  /** Is the fact in the newest state (inserted and never removed)? */
  present(fact: TermId): boolean {
    return fact < this.ts.length && this.ts[fact] !== 0 && this.removedAt[fact] === 0;
  }

  markRemoved(fact: TermId, round: Stamp): void {
    this.removedAt[fact] = round;
  }

  /** Record a new fact: the round that added it, what derived it and the premise facts (`premiseCount` of them from `premiseOffset`). */
  record(fact: TermId, round: Stamp, origin: Origin, premises: ArrayLike<TermId>, premiseCount: number, premiseOffset = 0): void {
    if (fact >= this.ts.length) {
      let n = this.ts.length;
      while (n <= fact) n *= 2;
      this.ts = grow(this.ts, n);
      this.removedAt = grow(this.removedAt, n);
      this.provStart = grow(this.provStart, n);
    }
    this.ts[fact] = round;
    if (fact >= this.used) this.used = fact + 1;
    const need = this.provTop + 2 + premiseCount;
    if (need > this.prov.length) this.prov = grow(this.prov, Math.max(need, this.prov.length * 2));
    this.provStart[fact] = this.provTop;
    this.prov[this.provTop++] = origin;
    this.prov[this.provTop++] = premiseCount;
    for (let i = 0; i < premiseCount; i++) this.prov[this.provTop++] = premises[premiseOffset + i]!;
  }

  /** What first produced a fact and from which premises, or null if unknown. */
  provenance(fact: TermId): { rule: Origin; premises: TermId[] } | null {
    if (fact >= this.provStart.length) return null;
    const at = this.provStart[fact]!;
    if (at === 0) return null;
    const n = this.prov[at + 1]!;
    return { rule: this.prov[at]! as Origin, premises: Array.from(this.prov.subarray(at + 2, at + 2 + n)) };
  }
}

function grow(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}
