// A relation: the log of its facts in timestamp order (each round appends one batch, a
// persistent append-only vector) and indexes on column subsets (Immutable.js maps from
// key to persistent vectors) built on first use and caught up from the log when next
// used. Every field is an immutable value, so a Relation is a snapshot. Which logged
// facts are still members (not replaced by a rebuilt form) is read from the versioned
// fact tables (store/fact-meta.ts).
import { Map as IMap } from 'immutable';
import { Slice } from './slice.js';

export class Index {
  constructor(
    readonly map: IMap<number, Slice>,
    /** How many log entries the index covers. */
    readonly synced: number,
  ) {}
}

export class Relation {
  static readonly empty = new Relation(Slice.empty, IMap<string, Index>(), 0);

  constructor(
    readonly log: Slice,
    readonly indexes: IMap<string, Index>,
    /** How many logged facts were replaced by their rebuilt form (so scans must check membership). */
    readonly removed: number,
  ) {}

  get size(): number {
    return this.log.length - this.removed;
  }

  /** Append a batch of new (distinct, absent) facts. */
  insertBatch(facts: readonly number[]): Relation {
    if (facts.length === 0) return this;
    return new Relation(this.log.append(facts), this.indexes, this.removed);
  }

  /**
   * The same live facts without the replaced ones: a fresh log (still in timestamp
   * order) and no indexes (rebuilt on first use). Older snapshots keep their own log.
   */
  compact(isLive: (fact: number) => boolean): Relation {
    const live: number[] = [];
    const raw = this.log.raw;
    for (let i = 0; i < this.log.length; i++) if (isLive(raw[i]!)) live.push(raw[i]!);
    return new Relation(Slice.empty.append(live), IMap<string, Index>(), 0);
  }

  /** Count facts replaced by rebuilt forms (their removal time is in the fact tables). */
  removeBatch(count: number): Relation {
    if (count === 0) return this;
    return new Relation(this.log, this.indexes, this.removed + count);
  }

  /** The relation with the index `name` caught up to the log, using `keyOf(fact)` as the key. */
  withIndex(name: string, keyOf: (fact: number) => number): Relation {
    const old = this.indexes.get(name);
    const from = old?.synced ?? 0;
    if (from === this.log.length && old) return this;
    const raw = this.log.raw;
    // group the new entries by key so each key's slice is extended once
    const groups = new Map<number, number[]>();
    for (let i = from; i < this.log.length; i++) {
      const f = raw[i]!;
      const k = keyOf(f);
      const g = groups.get(k);
      if (g) g.push(f);
      else groups.set(k, [f]);
    }
    const map = (old?.map ?? IMap<number, Slice>()).withMutations((m) => {
      for (const [k, fs] of groups) m.set(k, (m.get(k) ?? Slice.empty).append(fs));
    });
    return new Relation(this.log, this.indexes.set(name, new Index(map, this.log.length)), this.removed);
  }
}
