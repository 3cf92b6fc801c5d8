// Printing every fact of a solved program to stdout, grouped by predicate and sorted,
// streamed in chunks: lines are made from term ids (solver/fact-lines.ts) and written
// as they are made, so printing millions of facts holds neither all their lines nor
// one giant string in memory.
import type { RunResult } from '../solver/run.js';
import { writeFactLines } from '../solver/fact-lines.js';

const CHUNK_CHARS = 1 << 16;

/** Where the text goes: stdout, unless a test captures it. */
export type TextSink = (text: string) => void;

export function writeAllFacts(result: RunResult, write: TextSink = (text) => void process.stdout.write(text)): void {
  let chunk = '';
  /** Adds a line (`end` is what closes it) and writes the chunk once it is long enough. */
  const emit = (text: string, end: string): void => {
    chunk += text + end;
    if (chunk.length >= CHUNK_CHARS) {
      write(chunk);
      chunk = '';
    }
  };
  for (const pred of result.predicates()) {
    const tuples = result.sortedTuples(pred);
    emit(`% ${pred} (${tuples.count} fact${tuples.count === 1 ? '' : 's'})`, '\n');
    writeFactLines(result.store, pred, tuples, (line) => emit(line, '.\n'));
  }
  if (chunk.length > 0) write(chunk);
}
