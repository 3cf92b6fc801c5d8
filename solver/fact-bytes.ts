// Facts as lines of UTF-8 bytes (`path(0, 1).` and a newline), straight from sorted tuples
// of term ids into fixed-size chunks: what `shapelog query` prints, up to millions of
// lines. Each distinct argument's text is encoded once, into one flat byte array; each
// line is then copies of bytes. The lines
// read exactly as fact-lines.ts makes them, followed by `.` and a newline.
import type { SortedTuples } from './sorted-tuples.js';
import { functorText, termText } from './terms/print.js';
import type { TermStore } from './terms/term-store.js';

const COMMA_SPACE = Buffer.from(', ');
const LINE_END = Buffer.from(').\n');

/**
 * Bytes appended to chunks of a fixed size; each full chunk goes to `flush`. A chunk is a
 * fresh buffer: nothing writes to it once it is handed over, so `flush` may keep it.
 */
export class ByteChunks {
  /** The chunk being filled, up to `at`; writers may fill it directly after `reserve`. */
  chunk: Buffer;
  at = 0;

  constructor(
    private readonly flush: (chunk: Buffer) => void,
    readonly size = 1 << 16,
  ) {
    this.chunk = Buffer.allocUnsafe(size);
  }

  /** Makes room for `n` more bytes in the chunk (n at most `size`). */
  reserve(n: number): void {
    if (this.at + n > this.size) this.end();
  }

  /** Appends bytes `from` (included) to `to` (excluded) of `bytes`. */
  bytes(bytes: Uint8Array, from = 0, to = bytes.length): void {
    const n = to - from;
    if (n > this.size) {
      this.end();
      this.flush(Buffer.from(bytes.subarray(from, to)));
      return;
    }
    this.reserve(n);
    this.chunk.set(bytes.subarray(from, to), this.at);
    this.at += n;
  }

  /** Appends a text, as UTF-8. */
  text(text: string): void {
    this.bytes(Buffer.from(text, 'utf8'));
  }

  /** Hands over what the current chunk holds, if anything, and starts a fresh one. */
  end(): void {
    if (this.at === 0) return;
    this.flush(this.chunk.subarray(0, this.at));
    this.chunk = Buffer.allocUnsafe(this.size);
    this.at = 0;
  }
}

/**
 * The texts of the distinct arguments of some tuples, each followed by `after`, as UTF-8
 * in one flat array: slot s is bytes `starts[s]` to `starts[s + 1]`.
 */
class ArgumentTexts {
  /** A term id's slot plus one (0: not seen yet). */
  readonly slotOf: Int32Array;
  bytes = Buffer.allocUnsafe(1 << 12);
  starts: Int32Array = new Int32Array(1 << 8);
  /** How many slots are taken. */
  size = 0;
  private at = 0;

  constructor(
    private readonly store: TermStore,
    private readonly after: Uint8Array,
  ) {
    this.slotOf = new Int32Array(store.size);
  }

  /** Gives `id` the next slot, with its text; returns the slot plus one. */
  add(id: number): number {
    if (this.size + 2 > this.starts.length) this.starts = grown(this.starts, this.size + 2);
    const text = termText(this.store, id);
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    this.reserve(3 * text.length + this.after.length);
    this.at += this.bytes.write(text, this.at, 'utf8');
    this.bytes.set(this.after, this.at);
    this.at += this.after.length;
    this.slotOf[id] = ++this.size;
    this.starts[this.size] = this.at;
    return this.size;
  }

  private reserve(n: number): void {
    if (this.at + n > this.bytes.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + n));
      this.bytes.copy(bigger, 0, 0, this.at);
      this.bytes = bigger;
    }
  }
}

function grown(a: Int32Array, atLeast: number): Int32Array {
  const bigger = new Int32Array(Math.max(a.length * 2, atLeast));
  bigger.set(a);
  return bigger;
}

/** Appends each tuple as a fact of `pred`, in order, each line ending in `.` and a newline. */
export function writeFactBytes(store: TermStore, pred: string, tuples: SortedTuples, out: ByteChunks): void {
  const { arity, count, ids } = tuples;
  const name = functorText(pred);
  if (arity === 0) {
    if (count > 0) out.text(`${name}.\n`);
    return;
  }
  const open = Buffer.from(`${name}(`, 'utf8');
  const last = arity - 1;
  // a line is a prefix (the name and every argument but the last, each with `, ` after it:
  // remade only when a row's differ from the row before's, rarely, as rows are sorted)
  // and a suffix (the last argument with the line's end), each copied into the chunk
  const lasts = new ArgumentTexts(store, LINE_END);
  const others = last > 0 ? new ArgumentTexts(store, COMMA_SPACE) : null;
  let prefix = new Uint8Array(Math.max(256, open.length));
  prefix.set(open);
  let prefixLength = open.length;
  /** Longer lines go through `out.bytes`; shorter ones are copied straight into the chunk. */
  const longLine = out.size >> 2;
  let chunk = out.chunk;
  let at = out.at;
  for (let r = 0; r < count; r++) {
    const row = r * arity;
    if (others !== null) {
      let same = r > 0;
      for (let c = 0; c < last && same; c++) same = ids[row + c] === ids[row - arity + c];
      if (!same) {
        prefixLength = open.length;
        for (let c = 0; c < last; c++) {
          const slot = others.slotOf[ids[row + c]!] || others.add(ids[row + c]!);
          const from = others.starts[slot - 1]!;
          const to = others.starts[slot]!;
          if (prefixLength + to - from > prefix.length) {
            const bigger = new Uint8Array(2 * (prefixLength + to - from));
            bigger.set(prefix.subarray(0, prefixLength));
            prefix = bigger;
          }
          prefix.set(others.bytes.subarray(from, to), prefixLength);
          prefixLength += to - from;
        }
      }
    }
    const id = ids[row + last]!;
    const slot = lasts.slotOf[id] || lasts.add(id);
    const bytes = lasts.bytes;
    const from = lasts.starts[slot - 1]!;
    const to = lasts.starts[slot]!;
    const length = prefixLength + (to - from);
    if (length > longLine) {
      out.at = at;
      out.bytes(prefix, 0, prefixLength);
      out.bytes(bytes, from, to);
      chunk = out.chunk;
      at = out.at;
      continue;
    }
    if (at + length > out.size) {
      out.at = at;
      out.end();
      chunk = out.chunk;
      at = 0;
    }
    for (let b = 0; b < prefixLength; b++) chunk[at++] = prefix[b]!;
    for (let b = from; b < to; b++) chunk[at++] = bytes[b]!;
  }
  out.at = at;
}
