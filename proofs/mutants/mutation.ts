// A mutation of an imperative twin or of a rule file: replace one exact piece of its source text.
export interface Mutation {
  /** Short unique id, e.g. `conv2d-stride-off-by-one`. */
  readonly id: string;
  /** The file, relative to the repository root: `relations/imperative/conv.ts`, `relations/conv.rules`. */
  readonly file: string;
  /** Text that occurs exactly once in the file. */
  readonly find: string;
  /** What it becomes. */
  readonly replace: string;
  /** The operators whose sweep should detect it. */
  readonly ops: readonly string[];
  /** What kind of bug it imitates: an off-by-one, a dropped check, a swapped axis, a wrong default. */
  readonly what: string;
}

/** How often `find` occurs in `text`. */
export function occurrences(text: string, find: string): number {
  if (find === '') return 0;
  let n = 0;
  for (let i = text.indexOf(find); i >= 0; i = text.indexOf(find, i + 1)) n++;
  return n;
}
