// Parses rule-language text with the generated Peggy parser (grammar/rules.peggy) and
// turns every syntax error into a `UserError` with one `syntax` diagnostic.
import { type SyntaxErrorStyle, syntaxDiagnostic } from '../../diagnostics/peggy-errors.js';
import { parse as peggyParse, SyntaxError as PeggySyntaxError } from '../../grammar/generated/rules-parser.js';
import type { AstTerm, Literal, Program, Statement } from './ast.js';
import { positionAt } from '../../diagnostics/span.js';
import { diagnostic, UserError } from '../../diagnostics/diagnostic.js';
import { GroundFact, groundFactEnd } from './ground-facts.js';

/**
 * Brackets `(` and `[` may nest this deep. The parser is recursive, so deeper input is
 * rejected up front instead of overflowing the stack.
 */
export const MAX_NESTING = 500;

/**
 * A whole file: statements ending in `.`. `tick` is called after each statement (it may throw a LimitError).
 * Statements are read one by one, ground facts by a fast path (ground-facts.ts) and the
 * rest by the grammar; whenever that meets anything but a well-formed statement (a
 * syntax error, an unterminated comment), the whole text is parsed by the grammar
 * instead, so the result and every error are the grammar's own.
 */
export function parseProgram(text: string, file: string, tick?: () => void): Program {
  checkNesting(text, file);
  const statements = readStatements(text, file, tick) ?? (run(text, file, 'Program', tick) as Statement[]);
  return { file, statements };
}

/** A whole file read by the grammar alone, statement by statement as Peggy reads it: the reference the fast path is tested against. */
export function parseProgramWithGrammar(text: string, file: string): Program {
  return { file, statements: run(text, file, 'Program') as Statement[] };
}

/**
 * A statement the fast path does not take is parsed by the grammar from the start of its
 * line; beyond this column (a file of very long lines), the whole text is parsed instead.
 */
const MAX_SLOW_COLUMN = 4096;

/**
 * When more than this many statements, and more than a quarter of those read so far,
 * need the grammar, one parse of the whole text is cheaper than one grammar call each.
 */
const MAX_SLOW_STATEMENTS = 256;

/** The statements of `text` as the grammar's Program rule reads them, or null to leave the text to the grammar. */
function readStatements(text: string, file: string, tick?: () => void): Statement[] | null {
  const statements: Statement[] = [];
  const source = { text, file };
  let slow = 0;
  let offset = 0;
  // the line of `offset` and where it starts, counted by jumping from line break to line break
  let line = 1;
  let lineStart = 0;
  let nextBreak = text.indexOf('\n');
  for (;;) {
    const next = skipLayout(text, offset);
    if (next === null) return null;
    offset = next;
    if (offset >= text.length) return statements;
    while (nextBreak >= 0 && nextBreak < offset) {
      line++;
      lineStart = nextBreak + 1;
      nextBreak = text.indexOf('\n', lineStart);
    }
    const factEnd = groundFactEnd(text, offset);
    if (factEnd >= 0) {
      // (a fast fact is on one line)
      statements.push(new GroundFact(source, offset, line));
      offset = factEnd;
    } else {
      if (++slow > MAX_SLOW_STATEMENTS && slow * 4 > statements.length) return null;
      const read = grammarStatement(text, file, { offset, line, lineStart });
      if (read === null) return null;
      statements.push(read.statement);
      offset = read.end;
    }
    tick?.();
  }
}

/** The end of the layout (the grammar's `_`: blanks, `%` line comments, block comments) at `from`; null for an unterminated block comment. */
function skipLayout(text: string, from: number): number | null {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff) i++;
    else if (c === 37 /* % */) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
    } else if (c === 47 /* / */ && text.charCodeAt(i + 1) === 42 /* * */) {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) return null;
      i = close + 2;
    } else return i;
  }
}

/** One statement parsed by the grammar, starting at `at`; null when it is not a well-formed statement. */
function grammarStatement(text: string, file: string, at: { offset: number; line: number; lineStart: number }): { statement: Statement; end: number } | null {
  if (at.offset - at.lineStart > MAX_SLOW_COLUMN) return null;
  // The grammar reads from the start of the statement's line (a slice shares the text's
  // memory), so its columns are right and only lines and offsets are shifted.
  let result: { peg$result: unknown; peg$currPos: number; peg$FAILED: unknown };
  try {
    result = peggyParse(text.slice(at.lineStart), {
      startRule: 'Statement',
      file,
      grammarSource: file,
      peg$library: true,
      peg$currPos: at.offset - at.lineStart,
    }) as typeof result;
  } catch {
    return null;
  }
  if (result.peg$result === result.peg$FAILED) return null;
  shiftPositions(result.peg$result, at.line - 1, at.lineStart, new Set());
  return { statement: result.peg$result as Statement, end: at.lineStart + result.peg$currPos };
}

/** Moves every position in a parsed tree (objects with offset, line and column) by `lines` lines and `offset` characters, each object once. */
function shiftPositions(node: unknown, lines: number, offset: number, seen: Set<object>): void {
  if (typeof node !== 'object' || node === null || seen.has(node)) return;
  seen.add(node);
  const o = node as Record<string, unknown>;
  if (typeof o.offset === 'number' && typeof o.line === 'number' && typeof o.column === 'number') {
    o.offset += offset;
    o.line += lines;
    return;
  }
  for (const value of Object.values(o)) shiftPositions(value, lines, offset, seen);
}

/** Body literals separated by commas, with an optional final `.`: `path(1, X), X > 2`. */
export function parseGoal(text: string, file = '<goal>'): readonly Literal[] {
  return run(text, file, 'Goal') as Literal[];
}

/** One term or expression: `tensor([2, N], float32)`. */
export function parseTerm(text: string, file = '<term>'): AstTerm {
  return run(text, file, 'Term') as AstTerm;
}

function run(text: string, file: string, startRule: 'Program' | 'Goal' | 'Term', tick?: () => void): unknown {
  checkNesting(text, file);
  try {
    return peggyParse(text, { startRule, file, grammarSource: file, ...(tick ? { tick } : {}) });
  } catch (e) {
    if (e instanceof PeggySyntaxError) throw new UserError([syntaxDiagnostic(e, text, file, RULES_SYNTAX)]);
    if (e instanceof RangeError) {
      // Backstop for whatever the nesting check misses (e.g. brackets after a `%` that is an operator).
      const message = /call stack/i.test(e.message) ? 'terms nested too deeply to parse' : `input too large to parse (${e.message})`;
      throw new UserError([diagnostic('error', 'syntax', message, null)]);
    }
    throw e;
  }
}

/**
 * Rejects `(`/`[` nesting deeper than MAX_NESTING, pointing at the first bracket past the
 * limit. Strings, quoted atoms and comments are skipped, approximately as the grammar
 * reads them: a `%` is always taken to start a comment here, so brackets after a modulo
 * operator are not counted (the RangeError backstop in `run` covers those).
 */
function checkNesting(text: string, file: string): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (depth < MAX_NESTING) {
      // what the loop below would pass over without effect, skipped natively
      for (;;) {
        NO_EFFECT.lastIndex = i;
        if (!NO_EFFECT.test(text)) break;
        i = NO_EFFECT.lastIndex;
      }
      if (i >= text.length) break;
    }
    const c = text[i];
    if (c === '(' || c === '[') {
      if (++depth > MAX_NESTING) {
        const start = positionAt(text, i);
        const end = { offset: i + 1, line: start.line, column: start.column + 1 };
        const message = `terms nested deeper than ${MAX_NESTING} levels`;
        throw new UserError([diagnostic('error', 'syntax', message, { file, start, end })]);
      }
    } else if (c === ')' || c === ']') {
      if (depth > 0) depth--;
    } else if (c === '"' || c === "'") {
      // Skip to the closing quote; a line break or the end of the text also ends it.
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n' && text[j] !== '\r') {
        j += text[j] === '\\' && text[j + 1] !== '\n' && text[j + 1] !== '\r' ? 2 : 1;
      }
      i = j;
    } else if (c === '%') {
      // to the last character before the next line break
      const lineBreak = text.indexOf('\n', i + 1);
      i = lineBreak < 0 ? text.length - 1 : lineBreak - 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 1;
    }
  }
}

/**
 * Text that `checkNesting`'s loop passes over with no effect while the depth is below
 * MAX_NESTING: characters that are no bracket, quote, `%` or comment opener, and `(`
 * ... `)` pairs with only such characters inside (depth one up, then back). Bounded, so
 * that the regular expression's backtracking stack stays small on huge inputs.
 */
const NO_EFFECT = /(?:[^()[\]"'%/]|\/(?!\*)|\((?:[^()[\]"'%/]|\/(?!\*)){0,256}\)){1,1024}/y;

/**
 * Syntax errors in rule files. A token is a whole identifier or number. Continuations:
 * an operator, the `(` of a compound, a subscript `[` (`p(a, b.` gives `expected ")",
 * ",", or ";"`, not also `"(", "[", or operator`). A `%` earlier on the line was read as
 * the modulo operator, not as the comment its writer meant: a note says so.
 */
const RULES_SYNTAX: SyntaxErrorStyle = {
  token: /[A-Za-z0-9_]+/y,
  continuations: new Set(['operator', '"("', '"["']),
  notes: (text, start) =>
    text.slice(start.offset - start.column + 1, start.offset).includes('%')
      ? ['`%` right after a term on the same line is the modulo operator, not a comment; put a comment after `,` or `.`, or on a line of its own']
      : [],
};
