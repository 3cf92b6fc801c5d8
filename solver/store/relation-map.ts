// Relations by name, as a persistent map keyed by a number per relation name (names
// are registered once per process, so every store, solver and fork agrees on them):
// joins and commits look relations up by number instead of hashing long names such as
// `$demand:cv_route@bbbbbbf` on every access.
import { Map as IMap } from 'immutable';
import { PersistentRelation, type Relation } from './relation.js';

const ids = new Map<string, number>();
const names: string[] = [];

/** The number of a relation name (registered on first use). */
export function relationId(name: string): number {
  let id = ids.get(name);
  if (id === undefined) {
    id = names.length;
    names.push(name);
    ids.set(name, id);
  }
  return id;
}

export function relationName(id: number): string {
  return names[id]!;
}

/** The writes a commit applies to a relation map, in one batch. */
export interface RelationWrites {
  get(id: number): Relation | undefined;
  set(id: number, rel: Relation): void;
}

/** Relations by number, as a database snapshot reads them (persistent here; mutable in store/mutable-relations.ts). */
export interface RelationMap extends Iterable<[string, Relation]> {
  get(name: string): Relation | undefined;
  getById(id: number): Relation | undefined;
  readonly size: number;
  entries(): IterableIterator<[string, Relation]>;
  keys(): IterableIterator<string>;
  /** The map with a batch of writes applied (a new snapshot, or this map changed in place). */
  withWrites(fn: (m: RelationWrites) => void): RelationMap;
  /** An empty relation of this map's kind. */
  readonly emptyRelation: Relation;
  /** A map that a forked solver can write without the other seeing it. */
  fork(): RelationMap;
}

/** An Immutable.js map: every value is a snapshot, shared freely by forks. */
export class PersistentRelationMap implements RelationMap {
  static readonly empty = new PersistentRelationMap(IMap<number, Relation>());
  readonly emptyRelation: Relation = PersistentRelation.empty;

  private constructor(private readonly byId: IMap<number, Relation>) {}

  get(name: string): Relation | undefined {
    const id = ids.get(name);
    return id === undefined ? undefined : this.byId.get(id);
  }

  getById(id: number): Relation | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.byId.size;
  }

  *entries(): IterableIterator<[string, Relation]> {
    for (const [id, rel] of this.byId) yield [names[id]!, rel];
  }

  *keys(): IterableIterator<string> {
    for (const id of this.byId.keys()) yield names[id]!;
  }

  [Symbol.iterator](): IterableIterator<[string, Relation]> {
    return this.entries();
  }

  /** A new map with a batch of writes applied. */
  withWrites(fn: (m: RelationWrites) => void): RelationMap {
    return new PersistentRelationMap(this.byId.withMutations((m) => fn({ get: (id) => m.get(id), set: (id, rel) => void m.set(id, rel) })));
  }

  fork(): RelationMap {
    return this;
  }
}

/** The name of every relation number (for the map implementations). */
export function relationNames(): readonly string[] {
  return names;
}

/** The number of a name if it was ever registered. */
export function knownRelationId(name: string): number | undefined {
  return ids.get(name);
}
