// A relation: a persistent set of fact ids, the log of insertions in timestamp order
// (each round appends one batch), and indexes on column subsets built on first use
// and caught up from the log when next used. Every field is an immutable value, so a
// Relation is a snapshot.
import { Map as IMap, Set as ISet } from 'immutable';
import { Slice } from './slice.js';

export class Index {
  constructor(
    readonly map: IMap<number, Slice>,
    /** How many log entries the index covers. */
    readonly synced: number,
  ) {}
}

export class Relation {
  static readonly empty = new Relation(Slice.empty, ISet<number>(), IMap<string, Index>(), 0);

  constructor(
    readonly log: Slice,
    readonly members: ISet<number>,
    readonly indexes: IMap<string, Index>,
    /** How many facts were replaced by their rebuilt form (so joins must check membership). */
    readonly removed: number,
  ) {}

  get size(): number {
    return this.members.size;
  }

  has(fact: number): boolean {
    return this.members.has(fact);
  }

  /** Append a batch of new (distinct, absent) facts. */
  insertBatch(facts: readonly number[]): Relation {
    if (facts.length === 0) return this;
    const members = this.members.withMutations((m) => {
      for (let i = 0; i < facts.length; i++) m.add(facts[i]!);
    });
    return new Relation(this.log.append(facts), members, this.indexes, this.removed);
  }

  removeBatch(facts: readonly number[]): Relation {
    if (facts.length === 0) return this;
    const members = this.members.withMutations((m) => {
      for (const f of facts) m.remove(f);
    });
    return new Relation(this.log, members, this.indexes, this.removed + facts.length);
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
    return new Relation(this.log, this.members, this.indexes.set(name, new Index(map, this.log.length)), this.removed);
  }
}
