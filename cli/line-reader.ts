// Lines of a stream with a bound on each line's length: a line longer than the bound
// is skipped up to its newline and reported as too long, instead of being buffered
// whole. A stream that goes on for more than `maxSkipped` bytes without a newline (a
// binary file, `/dev/zero` piped in) ends the reading. Memory stays bounded whatever
// the input, and so does the time spent on input that has no lines.

export type BoundedLine =
  | { readonly text: string }
  /** A line longer than the bound; `endless`: no newline came within maxSkipped bytes, reading stopped. */
  | { readonly tooLong: true; readonly endless: boolean };

/** The lines of `input` (without their `\n` or `\r\n`); a final line without `\n` is included. */
export async function* boundedLines(input: AsyncIterable<Buffer | string>, maxBytes: number, maxSkipped = 64 * maxBytes): AsyncGenerator<BoundedLine> {
  let parts: Buffer[] = [];
  let length = 0;
  let skipping = false; // the current line was too long and has been reported
  let skipped = 0;
  for await (const chunk of input) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let from = 0;
    while (from < buf.length) {
      const nl = buf.indexOf(10, from);
      const end = nl < 0 ? buf.length : nl;
      if (skipping) {
        skipped += end - from;
        if (skipped > maxSkipped) {
          yield { tooLong: true, endless: true };
          return;
        }
      } else if (length + end - from > maxBytes) {
        skipping = true;
        skipped = 0;
        parts = [];
        length = 0;
      } else {
        parts.push(Buffer.from(buf.subarray(from, end)));
        length += end - from;
      }
      if (nl < 0) break;
      yield skipping ? { tooLong: true, endless: false } : { text: Buffer.concat(parts).toString('utf8').replace(/\r$/, '') };
      parts = [];
      length = 0;
      skipping = false;
      from = nl + 1;
    }
  }
  if (skipping) yield { tooLong: true, endless: false };
  else if (length > 0) yield { text: Buffer.concat(parts).toString('utf8').replace(/\r$/, '') };
}
