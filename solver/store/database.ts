// One snapshot of the solver's state: relations by name and the union-find of holes,
// both immutable: a round produces a new Database and the old one stays valid, for
// explanations and for re-solving from a starting point. The lineage's fact tables and
// its table of which facts mention each unbound hole are shared by its snapshots
// (versioned by timestamps, or used only by the newest) and copied by fork().
import { FactMeta } from './fact-meta.js';
import { FIRST_STAMP, type Stamp } from './ids.js';
import type { Relation } from './relation.js';
import { HoleUses } from './hole-uses.js';
import { PersistentRelationMap, type RelationMap } from './relation-map.js';
import { UnionFind } from './union-find.js';

export class Database {
  /** An empty database with its own fact tables. */
  static empty(meta: FactMeta = new FactMeta(), relations: RelationMap = PersistentRelationMap.empty): Database {
    return new Database(relations, UnionFind.empty, new HoleUses(), FIRST_STAMP, 0, meta);
  }

  constructor(
    readonly relations: RelationMap,
    readonly uf: UnionFind,
    /** hole term id → facts that mentioned it when inserted (the lineage's, used by its newest state) */
    readonly holeUses: HoleUses,
    /** The timestamp the next round's facts get. Facts of this snapshot have smaller ones. */
    readonly now: Stamp,
    readonly factCount: number,
    /** The lineage's versioned fact tables (timestamps, removals, provenance). */
    readonly meta: FactMeta,
  ) {}

  relation(name: string): Relation | undefined {
    return this.relations.get(name);
  }

  /** A relation by its number (store/relation-map.ts). */
  relationById(id: number): Relation | undefined {
    return this.relations.getById(id);
  }

  /** Is the fact a member of this snapshot? */
  has(fact: number): boolean {
    return this.meta.visibleAt(fact, this.now);
  }

  /**
   * A snapshot to start another solver from: same immutable maps, its own copy of the
   * fact tables, so what either side derives next stays invisible to the other.
   */
  fork(): Database {
    return new Database(this.relations.fork(), this.uf, this.holeUses.fork(), this.now, this.factCount, this.meta.fork());
  }

  with(changes: Partial<{ relations: RelationMap; uf: UnionFind; now: Stamp; factCount: number }>): Database {
    return new Database(
      changes.relations ?? this.relations,
      changes.uf ?? this.uf,
      this.holeUses,
      changes.now ?? this.now,
      changes.factCount ?? this.factCount,
      this.meta,
    );
  }
}
