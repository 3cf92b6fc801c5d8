// Printing every fact of a solved program to stdout, grouped by predicate and sorted,
// streamed in chunks of bytes: lines are made from term ids (solver/fact-bytes.ts) and
// written as each chunk fills, so printing millions of facts holds neither all their
// lines nor one giant string in memory.
import type { RunResult } from '../solver/run.js';
import { ByteChunks, writeFactBytes } from '../solver/fact-bytes.js';

/** Where the bytes go: stdout, unless a test captures them. */
export type ByteSink = (chunk: Buffer) => void;

export function writeAllFacts(result: RunResult, write: ByteSink = (chunk) => void process.stdout.write(chunk)): void {
  const out = new ByteChunks(write);
  for (const pred of result.predicates()) {
    const tuples = result.sortedTuples(pred);
    out.text(`% ${pred} (${tuples.count} fact${tuples.count === 1 ? '' : 's'})\n`);
    writeFactBytes(result.store, pred, tuples, out);
  }
  out.end();
}
