// Which facts mention each unbound hole, so that binding the hole rebuilds them.
//
// Only the newest state of a solver's lineage binds holes and rebuilds facts, so this
// table belongs to the lineage, like the fact tables (store/fact-meta.ts): it is
// appended to in place as facts are inserted, a bound hole's list is dropped once its
// facts are rebuilt, and a solver started from a shared snapshot gets its own copy
// (fork). A listed fact may have been replaced since; readers check membership.
import { someHole } from './union-find.js';
import type { TermId, TermStore } from '../terms/term-store.js';

export class HoleUses {
  private readonly lists: Map<TermId, TermId[]>;
  /** The subterms still to visit while registering a fact (reused). */
  private readonly pending: TermId[] = [];

  constructor(lists?: ReadonlyMap<TermId, readonly TermId[]>) {
    this.lists = new Map();
    if (lists) for (const [h, fs] of lists) this.lists.set(h, [...fs]);
  }

  /**
   * List each fact under every hole it mentions, once: facts are registered one at a
   * time, so a hole whose list already ends with the fact was met earlier in it.
   */
  register(store: TermStore, facts: readonly TermId[]): void {
    for (const f of facts)
      someHole(
        store,
        f,
        (h) => {
          const list = this.lists.get(h);
          if (list === undefined) this.lists.set(h, [f]);
          else if (list[list.length - 1] !== f) list.push(f);
          return false;
        },
        this.pending,
      );
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
