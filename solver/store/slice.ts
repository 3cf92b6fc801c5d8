// A persistent append-only vector of ints. Every value is an immutable view of a
// prefix of a shared buffer; appending to the newest view writes into the buffer in
// place (O(1) amortised), appending to an older view copies first. Older views never
// see later elements, so every snapshot stays valid.

interface Buffer {
  items: number[];
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

  toArray(): number[] {
    return this.buffer.items.slice(0, this.length);
  }
}
