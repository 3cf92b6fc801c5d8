// A fast path for the commonest statement of big inputs, a ground fact with plain
// arguments: `edge(1, 2).`, `dtype(x, float32).`. It builds exactly the tree the Peggy
// grammar (grammar/rules.peggy) builds for such a statement, with the same spans, at a
// fraction of the cost (no backtracking through the expression rules, no position cache).
//
// Only a strict subset is taken: a name right before `(`, one or more arguments that are
// integer literals of at most 15 characters (`-?[0-9]+`) or lowercase atoms
// (`[a-z][A-Za-z0-9_]*`), separated by `,` with spaces or tabs around them, then `)`, spaces
// or tabs, and `.`. Anything else (comments or line breaks inside, floats, long integers,
// variables, strings, compounds, named arguments, a statement keyword as the name) returns
// null, and the caller parses the statement with the grammar. Why each accepted form reads
// the same in the grammar: the notes on `scanGroundFact`.
import type { AstTerm, Position, Span, Statement } from './ast.js';

/** Where a statement starts: its offset, and the line and the offset where that line starts (as Peggy counts: only `\n` ends a line). */
export interface Cursor {
  readonly offset: number;
  readonly line: number;
  readonly lineStart: number;
}

/** Names that begin a declaration statement (grammar: Relation, Import, OperatorDecl, AttrGroupDecl, TextDecl). */
const KEYWORDS = new Set(['relation', 'import', 'operator', 'attrs', 'text']);

/** The longest integer literal the grammar turns into a number without a range check (Number: `t.length <= 15`). */
const MAX_PLAIN_INT = 15;

const enum Ch {
  Tab = 9,
  Space = 32,
  OpenParen = 40,
  CloseParen = 41,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Digit0 = 48,
  Digit9 = 57,
  UpperA = 65,
  UpperZ = 90,
  Underscore = 95,
  LowerA = 97,
  LowerZ = 122,
}

const isDigit = (c: number): boolean => c >= Ch.Digit0 && c <= Ch.Digit9;
const isLower = (c: number): boolean => c >= Ch.LowerA && c <= Ch.LowerZ;
const isIdentStart = (c: number): boolean => isLower(c) || (c >= Ch.UpperA && c <= Ch.UpperZ) || c === Ch.Underscore;
const isIdentChar = (c: number): boolean => isIdentStart(c) || isDigit(c);
const isBlank = (c: number): boolean => c === Ch.Space || c === Ch.Tab;

function position(offset: number, line: number, lineStart: number): Position {
  return { offset, line, column: offset - lineStart + 1 };
}

/**
 * The ground fact starting at `at`, and the offset right after its `.`; null when the
 * statement is not of the accepted form (then the grammar decides what it is).
 *
 * Why the grammar reads an accepted statement the same way: no declaration keyword, so
 * Statement reaches Clause; Head's first alternative (`Expr = Expr`) reads the whole
 * `name(...)` as a compound and fails on the `.`, so Head is the Call; each argument is
 * an Expr with no operator, sign, subscript or argument list after it (the next
 * non-blank character is `,` or `)`), so it is the Number or NamedTerm node itself; a
 * digit run not followed by `.`, `e` or `E` is an integer, and up to 15 characters it is
 * `Number(text)`; a lowercase name is an atom. Spans are the grammar's: each node from
 * its first character to its last, the call's up to `)`, the clause's up to `.`.
 */
export function scanGroundFact(text: string, at: Cursor, file: string): { statement: Statement; end: number } | null {
  const { line, lineStart } = at;
  const n = text.length;
  let i = at.offset;
  if (i >= n || !isIdentStart(text.charCodeAt(i))) return null;
  while (i < n && isIdentChar(text.charCodeAt(i))) i++;
  const pred = text.slice(at.offset, i);
  if (KEYWORDS.has(pred) || text.charCodeAt(i) !== Ch.OpenParen) return null;
  i++;
  const args: AstTerm[] = [];
  for (;;) {
    while (i < n && isBlank(text.charCodeAt(i))) i++;
    const start = i;
    let c = text.charCodeAt(i);
    let arg: AstTerm;
    if (isDigit(c) || (c === Ch.Minus && isDigit(text.charCodeAt(i + 1)))) {
      i++;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
      if (i - start > MAX_PLAIN_INT) return null;
      arg = { kind: 'int', value: Number(text.slice(start, i)), span: { file, start: position(start, line, lineStart), end: position(i, line, lineStart) } };
    } else if (isLower(c)) {
      while (i < n && isIdentChar(text.charCodeAt(i))) i++;
      arg = { kind: 'atom', name: text.slice(start, i), span: { file, start: position(start, line, lineStart), end: position(i, line, lineStart) } };
    } else return null;
    // right after the argument: a blank, `,` or `)` (not `.`, `e`, `(`, `[`, ...)
    c = text.charCodeAt(i);
    if (!isBlank(c) && c !== Ch.Comma && c !== Ch.CloseParen) return null;
    args.push(arg);
    while (i < n && isBlank(text.charCodeAt(i))) i++;
    c = text.charCodeAt(i);
    i++;
    if (c === Ch.Comma) continue;
    if (c === Ch.CloseParen) break;
    return null;
  }
  const callEnd = i;
  while (i < n && isBlank(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== Ch.Dot) return null;
  i++;
  const first = position(at.offset, line, lineStart);
  const callSpan: Span = { file, start: first, end: position(callEnd, line, lineStart) };
  const head = { kind: 'call' as const, pred, args, named: [], span: callSpan };
  return { statement: { kind: 'clause', head, body: [], span: { file, start: first, end: position(i, line, lineStart) } }, end: i };
}
