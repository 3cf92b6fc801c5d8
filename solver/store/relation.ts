// A relation: the log of its facts in timestamp order (each round appends one batch)
// and how many logged facts were replaced by a rebuilt form. Two implementations share
// this interface: the persistent one below (every value a snapshot: the log is a
// persistent append-only vector, store/slice.ts) and the mutable one of the `mutable`
// strategy (store/mutable-relations.ts: one array changed in place, no snapshots).
// Indexes on column subsets are memos of the log, built on first use and caught up
// when next used (store/log-index.ts). Which logged facts are still members is read
// from the versioned fact tables (store/fact-meta.ts).
import type { LogIndex } from './log-index.js';
import { Slice } from './slice.js';

/** A relation's log as the joins read it. */
export interface FactLog {
  readonly length: number;
  /** The backing items; only indices below `length` belong to this log. */
  readonly raw: readonly number[];
  get(i: number): number;
  /** The index `name` on `keyCols`, covering at least the first `length` entries. */
  index(name: string, keyCols: readonly number[], arg: (fact: number, col: number) => number): LogIndex;
  toArray(): number[];
}

export interface Relation {
  readonly log: FactLog;
  /** How many logged facts were replaced by their rebuilt form (so scans must check membership). */
  readonly removed: number;
  readonly size: number;
  /** Append a batch of new (distinct, absent) facts. */
  insertBatch(facts: readonly number[]): Relation;
  /** Count facts replaced by rebuilt forms (their removal time is in the fact tables). */
  removeBatch(count: number): Relation;
  /** The same live facts without the replaced ones, still in timestamp order. */
  compact(isLive: (fact: number) => boolean): Relation;
}

/** Every field an immutable value: a PersistentRelation is a snapshot. */
export class PersistentRelation implements Relation {
  static readonly empty = new PersistentRelation(Slice.empty, 0);

  constructor(
    readonly log: Slice,
    readonly removed: number,
  ) {}

  get size(): number {
    return this.log.length - this.removed;
  }

  insertBatch(facts: readonly number[]): PersistentRelation {
    if (facts.length === 0) return this;
    return new PersistentRelation(this.log.append(facts), this.removed);
  }

  /** A fresh log (with its own indexes, built on first use); older snapshots keep their own log. */
  compact(isLive: (fact: number) => boolean): PersistentRelation {
    const live: number[] = [];
    const raw = this.log.raw;
    for (let i = 0; i < this.log.length; i++) if (isLive(raw[i]!)) live.push(raw[i]!);
    return new PersistentRelation(Slice.empty.append(live), 0);
  }

  removeBatch(count: number): PersistentRelation {
    if (count === 0) return this;
    return new PersistentRelation(this.log, this.removed + count);
  }
}
