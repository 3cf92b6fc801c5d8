// The protobufjs reader decode.ts reads a model with. Over a node Buffer (what reading a
// file gives), protobufjs decodes strings with node's own UTF-8 decoder, several times
// faster than its own, but cuts a string that runs past the end of its message short
// without a word: a truncated model would read, and the same bytes with more after them
// (a model with value_info appended, value-info-writer.ts) would read differently. Here
// such a string is an error, as any other field running past the end is.
import protobuf from 'protobufjs/minimal.js';

/** A reader over `bytes` whose strings never run past the end of their message. */
export function checkedReader(bytes: Uint8Array): protobuf.Reader {
  const r = protobuf.Reader.create(bytes);
  if (r instanceof protobuf.BufferReader) r.string = checkedString;
  return r;
}

function checkedString(this: protobuf.BufferReader): string {
  const length = this.uint32();
  const start = this.pos;
  const end = start + length;
  // the message protobufjs gives for any other field that runs past the end
  if (end > this.len) throw RangeError(`index out of range: ${start} + ${length} > ${this.len}`);
  this.pos = end;
  return (this.buf as Buffer).toString('utf8', start, end);
}
