// An index over a relation's log: for each key (the values of some columns), the log
// positions of the facts with that key, in log order (so in timestamp order).
//
// The log is a persistent append-only vector (store/slice.ts): every snapshot is a
// prefix of a shared buffer, and a written entry never changes. An index is therefore a
// memo of the buffer, not part of any snapshot: it is attached to the buffer, covers its
// first `synced` entries, and is caught up in place when a longer view asks for it.
// A view of length L reads only positions below L, so snapshots taken earlier, and
// solvers forked from the same state, each see exactly their own facts through it.
// Keys are the term ids of the key columns; several columns key a trie of maps, so no
// term is interned for a key (forked solvers have their own term stores).

/** Positions of a key in the log, ascending; shared, never mutated by readers. */
export type Positions = readonly number[];

export const NO_POSITIONS: Positions = [];

/** A key's positions: one position as a plain number until a reader asks (no array per key while building). */
type Leaf = number[] | number;
type Trie = Map<number, Trie | Leaf>;

export class LogIndex {
  private readonly root: Trie = new Map();
  /** How many log entries are indexed. */
  private synced = 0;

  constructor(private readonly keyCols: readonly number[]) {}

  /** Index the entries [synced, upTo) of `items`; `arg(fact, col)` reads a column. */
  catchUp(items: readonly number[], upTo: number, arg: (fact: number, col: number) => number): void {
    const cols = this.keyCols;
    const last = cols.length - 1;
    for (let pos = this.synced; pos < upTo; pos++) {
      const f = items[pos]!;
      let node = this.root;
      for (let k = 0; k < last; k++) {
        const v = arg(f, cols[k]!);
        let next = node.get(v) as Trie | undefined;
        if (next === undefined) node.set(v, (next = new Map()));
        node = next;
      }
      const v = arg(f, cols[last]!);
      const leaf = node.get(v) as Leaf | undefined;
      if (leaf === undefined) node.set(v, pos);
      else if (typeof leaf === 'number') node.set(v, [leaf, pos]);
      else leaf.push(pos);
    }
    if (upTo > this.synced) this.synced = upTo;
  }

  get coveredLength(): number {
    return this.synced;
  }

  /** The positions of the facts whose key columns hold `key` (one id per key column). */
  get(key: readonly number[]): Positions {
    let parent: Trie = this.root;
    for (let k = 0; k < key.length - 1; k++) {
      const next = parent.get(key[k]!) as Trie | undefined;
      if (next === undefined) return NO_POSITIONS;
      parent = next;
    }
    return positionsOf(parent, key[key.length - 1]!);
  }

  /** The positions for a single-column key. */
  get1(key: number): Positions {
    return positionsOf(this.root, key);
  }
}

/** The positions under `key` in a last-level node; a single position becomes its array here, once. */
function positionsOf(node: Trie, key: number): Positions {
  const leaf = node.get(key) as Leaf | undefined;
  if (leaf === undefined) return NO_POSITIONS;
  if (typeof leaf !== 'number') return leaf;
  const list = [leaf];
  node.set(key, list);
  return list;
}
