// Relations by name, as a persistent map keyed by a number per relation name (names
// are registered once per process, so every store, solver and fork agrees on them):
// joins and commits look relations up by number instead of hashing long names such as
// `$demand:conv_route@bbbbbbf` on every access.
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

/** Relations per chunk of a PersistentRelationMap (a power of two). */
const CHUNK_BITS = 5;
const CHUNK = 1 << CHUNK_BITS;

type Chunk = readonly (Relation | undefined)[];

/**
 * A persistent array of relations by number, in chunks of CHUNK: every value is a
 * snapshot, shared freely by forks. A batch of writes copies the short array of chunks
 * once and each chunk it writes to once, and shares the rest with the map it came from
 * (path copying, as a persistent vector does, with two levels: relation numbers are
 * dense and few). A commit writes a handful of relations, so it copies a few dozen
 * slots instead of updating a hash trie per relation.
 */
export class PersistentRelationMap implements RelationMap {
  static readonly empty = new PersistentRelationMap([], 0);
  readonly emptyRelation: Relation = PersistentRelation.empty;

  private constructor(
    private readonly chunks: readonly Chunk[],
    readonly size: number,
  ) {}

  get(name: string): Relation | undefined {
    const id = ids.get(name);
    return id === undefined ? undefined : this.getById(id);
  }

  getById(id: number): Relation | undefined {
    const chunk = this.chunks[id >>> CHUNK_BITS];
    return chunk === undefined ? undefined : chunk[id & (CHUNK - 1)];
  }

  /** By relation number, ascending. */
  *entries(): IterableIterator<[string, Relation]> {
    for (let c = 0; c < this.chunks.length; c++) {
      const chunk = this.chunks[c]!;
      for (let i = 0; i < chunk.length; i++) {
        const rel = chunk[i];
        if (rel !== undefined) yield [names[(c << CHUNK_BITS) + i]!, rel];
      }
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  [Symbol.iterator](): IterableIterator<[string, Relation]> {
    return this.entries();
  }

  /** A new map with a batch of writes applied; this one is unchanged. */
  withWrites(fn: (m: RelationWrites) => void): RelationMap {
    let chunks: (Relation | undefined)[][] | null = null;
    /** The chunks this batch has copied already (written in place from then on). */
    const own = new Set<number>();
    let size = this.size;
    fn({
      get: (id) => {
        const chunk = (chunks ?? this.chunks)[id >>> CHUNK_BITS];
        return chunk === undefined ? undefined : chunk[id & (CHUNK - 1)];
      },
      set: (id, rel) => {
        chunks ??= this.chunks.slice() as (Relation | undefined)[][];
        const c = id >>> CHUNK_BITS;
        while (chunks.length <= c) chunks.push([]);
        if (!own.has(c)) {
          chunks[c] = chunks[c]!.slice();
          own.add(c);
        }
        const chunk = chunks[c]!;
        const at = id & (CHUNK - 1);
        while (chunk.length < at) chunk.push(undefined);
        if (chunk[at] === undefined) size++;
        chunk[at] = rel;
      },
    });
    return chunks === null ? this : new PersistentRelationMap(chunks, size);
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
