// The size limit on Relay programs, checked before parsing: typing costs ~2-4 KB of
// memory and ~50 µs per binding, so a program of millions of bindings would run for
// minutes and then stop on the memory budget. Counting its bindings first refuses it in
// well under a second, before any memory is spent on it, with an error that names the
// limit and the flag that raises it.
//
// A binding is counted textually: a line whose first token is `%name =` (optionally
// after `let`), as TVM prints every binding. Lines inside a block comment count too, so
// the count can only be too high, never too low.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { positionAt } from '../../diagnostics/span.js';

/** Bindings a Relay program may have unless `--max-bindings` says otherwise. */
export const DEFAULT_MAX_BINDINGS = 500_000;

const BINDING_LINE = /^[ \t]*(?:let[ \t]+)?%[A-Za-z0-9_.]+[ \t]*=(?!=)/gm;

/** The error for a program with more than `max` bindings (located at the first binding past the limit), or null. */
export function bindingLimitError(text: string, file: string, max: number): Diagnostic | null {
  BINDING_LINE.lastIndex = 0;
  let count = 0;
  let firstPast = -1;
  for (let m = BINDING_LINE.exec(text); m !== null; m = BINDING_LINE.exec(text)) {
    if (++count === max + 1) firstPast = m.index + m[0].length - m[0].trimStart().length;
  }
  if (count <= max) return null;
  const start = positionAt(text, firstPast);
  const end = { offset: start.offset + 1, line: start.line, column: start.column + 1 };
  return diagnostic(
    'error',
    'limit',
    `the program has ${count.toLocaleString('en')} bindings, more than the limit of ${max.toLocaleString('en')}; this is binding ${(max + 1).toLocaleString('en')}`,
    { file, start, end },
    [`raise the limit with --max-bindings ${count} (typing takes about 2-4 KB of memory per binding; --max-memory sets the memory budget)`],
  );
}
