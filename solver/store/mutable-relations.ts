// The mutable store of the `mutable` strategy: the same relation interface as the
// persistent store (store/relation.ts, store/relation-map.ts), but one plain array per
// relation changed in place and one array of relations by number, with no snapshots.
// A commit appends to the arrays and returns the same objects, so nothing is copied or
// allocated per round; an older Database value then sees the newest facts (the solver
// never reads one). It exists so a researcher can measure what persistence costs: the
// plans, joins and fact tables are the ones the persistent store uses. fork() copies.
import { LogIndex } from './log-index.js';
import { knownRelationId, relationNames, type RelationMap, type RelationWrites } from './relation-map.js';
import type { FactLog, Relation } from './relation.js';

class MutableLog implements FactLog {
  readonly raw: number[] = [];
  private indexes: Map<string, LogIndex> | null = null;

  get length(): number {
    return this.raw.length;
  }

  get(i: number): number {
    return this.raw[i]!;
  }

  index(name: string, keyCols: readonly number[], arg: (fact: number, col: number) => number): LogIndex {
    if (this.indexes === null) this.indexes = new Map();
    let idx = this.indexes.get(name);
    if (idx === undefined) this.indexes.set(name, (idx = new LogIndex(keyCols)));
    if (idx.coveredLength < this.raw.length) idx.catchUp(this.raw, this.raw.length, arg);
    return idx;
  }

  toArray(): number[] {
    return this.raw.slice();
  }

  /** Replaces the items (after a compaction): positions change, so the indexes go. */
  reset(items: readonly number[]): void {
    this.raw.length = 0;
    for (const f of items) this.raw.push(f);
    this.indexes = null;
  }
}

export class MutableRelation implements Relation {
  readonly log = new MutableLog();
  removed = 0;

  get size(): number {
    return this.log.length - this.removed;
  }

  insertBatch(facts: readonly number[]): MutableRelation {
    const raw = this.log.raw;
    for (let i = 0; i < facts.length; i++) raw.push(facts[i]!);
    return this;
  }

  removeBatch(count: number): MutableRelation {
    this.removed += count;
    return this;
  }

  compact(isLive: (fact: number) => boolean): MutableRelation {
    this.log.reset(this.log.raw.filter(isLive));
    this.removed = 0;
    return this;
  }

  copy(): MutableRelation {
    const c = new MutableRelation();
    c.insertBatch(this.log.raw);
    c.removed = this.removed;
    return c;
  }
}

export class MutableRelationMap implements RelationMap {
  private readonly byId: (MutableRelation | undefined)[] = [];
  private count = 0;

  /** A new empty relation each time: relations are changed in place, so none is shared. */
  get emptyRelation(): Relation {
    return new MutableRelation();
  }

  get(name: string): Relation | undefined {
    const id = knownRelationId(name);
    return id === undefined ? undefined : this.byId[id];
  }

  getById(id: number): Relation | undefined {
    return this.byId[id];
  }

  get size(): number {
    return this.count;
  }

  *entries(): IterableIterator<[string, Relation]> {
    const names = relationNames();
    for (let id = 0; id < this.byId.length; id++) {
      const rel = this.byId[id];
      if (rel !== undefined) yield [names[id]!, rel];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  [Symbol.iterator](): IterableIterator<[string, Relation]> {
    return this.entries();
  }

  withWrites(fn: (m: RelationWrites) => void): RelationMap {
    fn({
      get: (id) => this.byId[id],
      set: (id, rel) => {
        if (!(rel instanceof MutableRelation)) throw new Error('the mutable store holds only mutable relations');
        if (this.byId[id] === undefined) this.count++;
        this.byId[id] = rel;
      },
    });
    return this;
  }

  fork(): RelationMap {
    const c = new MutableRelationMap();
    for (let id = 0; id < this.byId.length; id++) {
      const rel = this.byId[id];
      if (rel !== undefined) c.byId[id] = rel.copy();
    }
    c.count = this.count;
    return c;
  }
}
