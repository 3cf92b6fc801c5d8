// Reading an .onnx file without its weights. A model's file is mostly the element data of
// large tensors (a Constant node's value, an initializer), which typing never reads: the
// decoder keeps the values of integer tensors of at most MAX_KEPT_VALUES elements and of
// float tensors of a few, a tensor's shape is its dims. So the file is read front to back,
// and a tensor's element data field longer than MAX_READ_TENSOR_BYTES is stepped over
// (not read from disk); everything else is copied as it is, and the message lengths around
// what was left out are written anew. What decode.ts gets is a valid ModelProto that
// decodes to the same model, read with a few percent of the file's bytes (ppocr-rec: 10.8
// MB, most in 325 Constant nodes). Only messages longer than the limit are looked into
// (a shorter one cannot hold a longer field): the walk sees a few fields per large tensor.
//
// Field numbers are wire-fields.ts's (onnx-wire.proto's). protobufjs reads and writes the
// varints; a file it cannot walk (malformed, truncated) is read whole instead, so that
// decode.ts reports it as it would.
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import protobuf from 'protobufjs/minimal.js';
import { MAX_KEPT_VALUES } from './model.js';
import { FIELD, LENGTH_DELIMITED } from './wire-fields.js';

/** Element data longer than this is not read: no kept value needs more (MAX_KEPT_VALUES int64s). */
export const MAX_READ_TENSOR_BYTES = MAX_KEPT_VALUES * 8;
/** Files up to this size are read whole (nothing worth skipping). */
const READ_WHOLE_BELOW = 1 << 20;
/** How much is read from disk at a time. */
const WINDOW = 1 << 16;

type MessageKind = 'model' | 'graph' | 'node' | 'attribute' | 'function' | 'sparse' | 'tensor';

/** The fields of each message that hold tensors, or messages that may: field number -> its message kind. */
const TENSOR_HOLDERS: Readonly<Record<MessageKind, Readonly<Record<number, MessageKind>>>> = {
  model: { [FIELD.model.graph]: 'graph', [FIELD.model.functions]: 'function' },
  graph: { [FIELD.graph.node]: 'node', [FIELD.graph.initializer]: 'tensor', [FIELD.graph.sparseInitializer]: 'sparse' },
  node: { [FIELD.node.attribute]: 'attribute' },
  attribute: {
    [FIELD.attribute.t]: 'tensor',
    [FIELD.attribute.g]: 'graph',
    [FIELD.attribute.tensors]: 'tensor',
    [FIELD.attribute.graphs]: 'graph',
    [FIELD.attribute.sparseTensor]: 'sparse',
  },
  function: { [FIELD.function.node]: 'node', [FIELD.function.attributeProto]: 'attribute' },
  sparse: { [FIELD.sparseTensor.values]: 'tensor', [FIELD.sparseTensor.indices]: 'tensor' },
  tensor: {},
};
/** TensorProto's element data fields. */
const ELEMENT_DATA = new Set<number>(Object.values(FIELD.tensor));

/** The file's bytes from `pos` on, read a window at a time, front to back. */
class ForwardFile {
  private buf = new Uint8Array(0);
  /** protobufjs's reader over buf (made again when the window moves). */
  private reader = protobuf.Reader.create(this.buf);
  /** The file offset of buf[0]. */
  private start = 0;
  pos = 0;

  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}

  /** The window, holding at least `n` bytes from pos (fewer at the end of the file), and pos's index in it. */
  at(n: number): { buf: Uint8Array; i: number } {
    if (this.pos < this.start || this.pos + n > this.start + this.buf.length) {
      const want = Math.min(Math.max(n, WINDOW), this.size - this.pos);
      const buf = new Uint8Array(Math.max(want, 0));
      let got = 0;
      while (got < buf.length) {
        const r = readSync(this.fd, buf, got, buf.length - got, this.pos + got);
        if (r === 0) break;
        got += r;
      }
      this.buf = buf.subarray(0, got);
      this.reader = protobuf.Reader.create(this.buf);
      this.start = this.pos;
    }
    return { buf: this.buf, i: this.pos - this.start };
  }

  /** The next `n` bytes (a copy), pos moved past them. */
  take(n: number): Uint8Array {
    if (this.pos + n > this.size) throw new Error('field past the end of the file');
    const out = new Uint8Array(n);
    for (let got = 0; got < n; ) {
      const { buf, i } = this.at(Math.min(n - got, WINDOW));
      const part = buf.subarray(i, i + Math.min(n - got, buf.length - i));
      if (part.length === 0) throw new Error('field past the end of the file');
      out.set(part, got);
      got += part.length;
      this.pos += part.length;
    }
    return out;
  }

  /** A varint at pos of at most 32 bits (a tag, a length), pos moved past it. */
  varint(): number {
    const r = this.readerAt(10);
    const before = r.pos;
    const v = r.uint32();
    this.pos += r.pos - before;
    return v;
  }

  /** How many bytes the value of wire type `wt` at pos takes (not length-delimited ones). */
  valueLength(wt: number): number {
    const r = this.readerAt(10);
    const before = r.pos;
    r.skipType(wt);
    return r.pos - before;
  }

  /** protobufjs's reader at pos, with at least `n` bytes after it (fewer at the end of the file). */
  private readerAt(n: number): protobuf.Reader {
    const { i } = this.at(n);
    this.reader.pos = i;
    return this.reader;
  }
}

/** A message's bytes as they are written out: the parts in order, and their total length. */
interface Written {
  readonly parts: Uint8Array[];
  length: number;
}

function push(w: Written, part: Uint8Array): void {
  w.parts.push(part);
  w.length += part.length;
}

/** The message of kind `kind` from f.pos to `end`, with large element data left out. */
function transcode(f: ForwardFile, kind: MessageKind, end: number): Written {
  const out: Written = { parts: [], length: 0 };
  const holders = TENSOR_HOLDERS[kind];
  // fields kept as they are, from here to the field being looked at: copied in one piece when something else comes
  let verbatimFrom = f.pos;
  const copyVerbatim = (to: number) => {
    if (to === verbatimFrom) return;
    f.pos = verbatimFrom;
    push(out, f.take(to - verbatimFrom));
  };
  while (f.pos < end) {
    const fieldStart = f.pos;
    const tag = f.varint();
    const wt = tag & 7;
    if (wt !== LENGTH_DELIMITED) {
      f.pos += f.valueLength(wt);
      continue;
    }
    const field = tag >>> 3;
    const length = f.varint();
    const dataStart = f.pos;
    if (dataStart + length > end) throw new Error('a field runs past the end of its message');
    const child = holders[field];
    if (child !== undefined && length > MAX_READ_TENSOR_BYTES) {
      // a message large enough to hold large element data: looked into
      copyVerbatim(fieldStart);
      f.pos = dataStart;
      const inner = transcode(f, child, dataStart + length);
      push(out, protobuf.Writer.create().uint32(tag).uint32(inner.length).finish());
      for (const p of inner.parts) push(out, p);
      verbatimFrom = f.pos;
    } else if (kind === 'tensor' && ELEMENT_DATA.has(field) && length > MAX_READ_TENSOR_BYTES) {
      copyVerbatim(fieldStart);
      f.pos = dataStart + length; // stepped over, not read
      verbatimFrom = f.pos;
    } else f.pos = dataStart + length;
  }
  if (f.pos !== end) throw new Error('a field runs past the end of its message');
  copyVerbatim(end);
  f.pos = end;
  return out;
}

/**
 * The bytes of the model in `path` with the element data of its large tensors left out:
 * they decode (decode.ts) to the same model. A small file, or one this walk cannot
 * follow, is read whole.
 */
export function readModelBytes(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size < READ_WHOLE_BELOW) return readFileSync(fd);
    try {
      const out = transcode(new ForwardFile(fd, size), 'model', size);
      // a Buffer, as readFileSync gives: protobufjs decodes its strings with node's own utf8 (several times faster)
      const bytes = Buffer.allocUnsafe(out.length);
      let at = 0;
      for (const p of out.parts) {
        bytes.set(p, at);
        at += p.length;
      }
      return bytes;
    } catch {
      return readFileSync(fd);
    }
  } finally {
    closeSync(fd);
  }
}
