// A persistent append-only vector of ints. Every value is an immutable view of a
// prefix of a shared buffer; appending to the newest view writes into the buffer in
// place (O(1) amortised), appending to an older view copies first. Older views never
// see later elements, so every snapshot stays valid. Indexes over a buffer's entries
// are memos attached to the buffer (store/log-index.ts).
import { LogIndex } from './log-index.js';

interface Buffer {
  items: number[];
  /** Indexes over the entries, by name (built on first use). */
  indexes?: Map<string, LogIndex>;
}

export class Slice {
  static readonly empty = new Slice({ items: [] }, 0);

  private constructor(
    private readonly buffer: Buffer,
    readonly length: number,
  ) {}

  get(i: number): number {
    return this.buffer.items[i]!;
  }

  /** The backing items; only indices below `length` belong to this view. */
  get raw(): readonly number[] {
    return this.buffer.items;
  }

  push(value: number): Slice {
    if (this.length === 0) return new Slice({ items: [value] }, 1);
    const items = this.buffer.items;
    if (items.length === this.length) {
      items.push(value);
      return new Slice(this.buffer, this.length + 1);
    }
    const copy = items.slice(0, this.length);
    copy.push(value);
    return new Slice({ items: copy }, copy.length);
  }

  append(values: readonly number[]): Slice {
    if (values.length === 0) return this;
    if (this.length === 0) return new Slice({ items: values.slice() }, values.length);
    let items = this.buffer.items;
    let buffer = this.buffer;
    if (items.length !== this.length) {
      items = items.slice(0, this.length);
      buffer = { items };
    }
    for (let i = 0; i < values.length; i++) items.push(values[i]!);
    return new Slice(buffer, items.length);
  }

  /**
   * The index `name` on the columns `keyCols` of the facts in this view, covering at
   * least this view's entries (callers skip positions at or past `length`).
   */
  index(name: string, keyCols: readonly number[], arg: (fact: number, col: number) => number): LogIndex {
    const buffer = this.buffer;
    let indexes = buffer.indexes;
    if (indexes === undefined) buffer.indexes = indexes = new Map();
    let idx = indexes.get(name);
    if (idx === undefined) indexes.set(name, (idx = new LogIndex(keyCols)));
    if (idx.coveredLength < this.length) idx.catchUp(buffer.items, this.length, arg);
    return idx;
  }

  toArray(): number[] {
    return this.buffer.items.slice(0, this.length);
  }
}
