// Which facts mention each unbound hole, so that binding the hole rebuilds them.
//
// Only the newest state of a solver's lineage binds holes and rebuilds facts, so this
// table belongs to the lineage, like the fact tables (store/fact-meta.ts): it is
// appended to in place as facts are inserted, a bound hole's list is dropped once its
// facts are rebuilt, and a solver started from a shared snapshot gets its own copy
// (fork). A listed fact may have been replaced since; readers check membership.
import { holesOf } from './union-find.js';
import type { TermId, TermStore } from '../terms/term-store.js';

export class HoleUses {
  private readonly lists: Map<TermId, TermId[]>;
  private readonly scratch = new Set<TermId>();

  constructor(lists?: ReadonlyMap<TermId, readonly TermId[]>) {
    this.lists = new Map();
    if (lists) for (const [h, fs] of lists) this.lists.set(h, [...fs]);
  }

  /** List each fact under every hole it mentions. */
  register(store: TermStore, facts: readonly TermId[]): void {
    const holes = this.scratch;
    for (const f of facts) {
      holes.clear();
      for (const h of holesOf(store, f, holes)) {
        const list = this.lists.get(h);
        if (list === undefined) this.lists.set(h, [f]);
        else list.push(f);
      }
    }
  }

  /** The facts listed under a hole. */
  get(hole: TermId): readonly TermId[] | undefined {
    return this.lists.get(hole);
  }

  /** Forget a hole whose facts have been rebuilt (it is bound: nothing will list it again). */
  drop(hole: TermId): void {
    this.lists.delete(hole);
  }

  get size(): number {
    return this.lists.size;
  }

  /** An independent copy for a solver that continues from the same state. */
  fork(): HoleUses {
    return new HoleUses(this.lists);
  }
}
