// A relation: the log of its facts in timestamp order (each round appends one batch, a
// persistent append-only vector). Every field is an immutable value, so a Relation is
// a snapshot. Indexes on column subsets are memos of the log's buffer, built on first
// use and caught up when next used (store/log-index.ts). Which logged facts are still
// members (not replaced by a rebuilt form) is read from the versioned fact tables
// (store/fact-meta.ts).
import { Slice } from './slice.js';

export class Relation {
  static readonly empty = new Relation(Slice.empty, 0);

  constructor(
    readonly log: Slice,
    /** How many logged facts were replaced by their rebuilt form (so scans must check membership). */
    readonly removed: number,
  ) {}

  get size(): number {
    return this.log.length - this.removed;
  }

  /** Append a batch of new (distinct, absent) facts. */
  insertBatch(facts: readonly number[]): Relation {
    if (facts.length === 0) return this;
    return new Relation(this.log.append(facts), this.removed);
  }

  /**
   * The same live facts without the replaced ones: a fresh log (still in timestamp
   * order, with its own indexes, built on first use). Older snapshots keep their own log.
   */
  compact(isLive: (fact: number) => boolean): Relation {
    const live: number[] = [];
    const raw = this.log.raw;
    for (let i = 0; i < this.log.length; i++) if (isLive(raw[i]!)) live.push(raw[i]!);
    return new Relation(Slice.empty.append(live), 0);
  }

  /** Count facts replaced by rebuilt forms (their removal time is in the fact tables). */
  removeBatch(count: number): Relation {
    if (count === 0) return this;
    return new Relation(this.log, this.removed + count);
  }
}
