// Bounded line reading (cli/line-reader.ts): lines split across chunks, `\r\n`, a final
// line without newline, overlong lines skipped to their newline, endless input stopped.
import test from 'ava';
import { boundedLines, type BoundedLine } from '../cli/line-reader.js';

async function collect(chunks: readonly string[], maxBytes: number, maxSkipped?: number): Promise<BoundedLine[]> {
  async function* source() {
    for (const c of chunks) yield Buffer.from(c);
  }
  const out: BoundedLine[] = [];
  for await (const l of boundedLines(source(), maxBytes, maxSkipped)) out.push(l);
  return out;
}

test('lines across chunk boundaries, CRLF, blank lines and a final line without newline', async (t) => {
  t.deepEqual(await collect(['ab', 'c\r\nd', 'e\n\nf'], 10), [{ text: 'abc' }, { text: 'de' }, { text: '' }, { text: 'f' }]);
});

test('a line over the bound is one tooLong entry; the next line is read normally', async (t) => {
  t.deepEqual(await collect(['12345', '67890123\nok\n'], 10), [{ tooLong: true, endless: false }, { text: 'ok' }]);
  t.deepEqual(await collect(['12345678901'], 10), [{ tooLong: true, endless: false }]);
});

test('no newline within maxSkipped bytes after the bound: one endless entry, reading stops', async (t) => {
  t.deepEqual(await collect(['x'.repeat(50), 'x'.repeat(50), '\nnever\n'], 10, 40), [{ tooLong: true, endless: true }]);
});
