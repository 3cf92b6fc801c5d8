// One snapshot of the solver's state: relations by name, the union-find of holes, and
// which facts mention each hole. All immutable: a round produces a new Database and
// the old one stays valid, for explanations and for re-solving from a starting point.
import { Map as IMap } from 'immutable';
import { Relation } from './relation.js';
import { Slice } from './slice.js';
import { UnionFind } from './union-find.js';

export class Database {
  static readonly empty = new Database(IMap<string, Relation>(), UnionFind.empty, IMap<number, Slice>(), 1, 0);

  constructor(
    readonly relations: IMap<string, Relation>,
    readonly uf: UnionFind,
    /** hole term id → facts that mentioned it when inserted */
    readonly holeUses: IMap<number, Slice>,
    /** The timestamp the next round's facts get. Facts of this snapshot have smaller ones. */
    readonly now: number,
    readonly factCount: number,
  ) {}

  relation(name: string): Relation | undefined {
    return this.relations.get(name);
  }

  with(changes: Partial<{ relations: IMap<string, Relation>; uf: UnionFind; holeUses: IMap<number, Slice>; now: number; factCount: number }>): Database {
    return new Database(
      changes.relations ?? this.relations,
      changes.uf ?? this.uf,
      changes.holeUses ?? this.holeUses,
      changes.now ?? this.now,
      changes.factCount ?? this.factCount,
    );
  }
}
