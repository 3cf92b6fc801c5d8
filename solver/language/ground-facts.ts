// A fast path for the commonest statement of big inputs, a ground fact with plain
// arguments: `edge(1, 2).`, `dtype(x, float32).`. It builds exactly the tree the Peggy
// grammar (grammar/rules.peggy) builds for such a statement, with the same spans, at a
// fraction of the cost (no backtracking through the expression rules, no position cache)
// and in a fraction of the memory (GroundFact keeps only where the fact is). Lowering
// reads a fact's values straight from the text (`GroundFact.values`), with no tree.
//
// Only a strict subset is taken: a name right before `(`, one or more arguments that are
// integer literals of at most 15 characters (`-?[0-9]+`) or lowercase atoms
// (`[a-z][A-Za-z0-9_]*`), separated by `,` with spaces or tabs around them, then `)`, spaces
// or tabs, and `.`. Anything else (comments or line breaks inside, floats, long integers,
// variables, strings, compounds, named arguments, a statement keyword as the name) returns
// null, and the caller parses the statement with the grammar. Why each accepted form reads
// the same in the grammar: the notes on `scanGroundFact`.
import type { AstTerm, Call, Literal, Position, Span } from './ast.js';

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

/** Where a ground fact ends (the offset right after its `.`), or -1 when the statement at `at` is not one of the accepted form. Allocates nothing. */
export function groundFactEnd(text: string, at: number): number {
  return scan(text, at, null);
}

/**
 * A ground fact found by `groundFactEnd`, held as its place in the text (a few words
 * instead of the ~1 KB of a parsed tree, which is what lets millions of facts be read).
 * Its head and span are rebuilt from the text on each use, equal to the grammar's; as
 * JSON (the parse cache) it is the grammar's tree.
 */
export class GroundFact {
  readonly kind = 'clause' as const;
  readonly body: readonly Literal[] = NO_LITERALS;
  constructor(
    private readonly source: { readonly text: string; readonly file: string },
    private readonly offset: number,
    private readonly line: number,
  ) {}

  get head(): Call {
    return this.tree().head;
  }

  get span(): Span {
    return this.tree().span;
  }

  /** The tree, rebuilt unless it is the last one built (a compiler pass reads a statement's head and span several times in a row). */
  private tree(): Tree {
    if (lastBuilt.fact !== this) {
      lastBuilt.fact = this;
      lastBuilt.tree = this.read();
    }
    return lastBuilt.tree!;
  }

  /** The grammar's tree of this statement. */
  read(): Tree {
    const args: AstTerm[] = [];
    const lineStart = this.source.text.lastIndexOf('\n', this.offset - 1) + 1;
    const built = { file: this.source.file, line: this.line, lineStart, args, callEnd: 0, push: pushNode };
    const end = scan(this.source.text, this.offset, built);
    const { file, text } = this.source;
    const first = position(this.offset, this.line, lineStart);
    const pred = text.slice(this.offset, text.indexOf('(', this.offset));
    const head: Call = { kind: 'call', pred, args, named: [], span: { file, start: first, end: position(built.callEnd, this.line, lineStart) } };
    return { kind: 'clause', head, body: [], span: { file, start: first, end: position(end, this.line, lineStart) } };
  }

  toJSON(): unknown {
    return this.read();
  }

  /**
   * The predicate name, with the arguments' values put in `args` (cleared first): an
   * integer as its number, an atom as its name. What lowering needs, without the tree
   * and its spans.
   */
  values(args: (number | string)[]): string {
    args.length = 0;
    const { text } = this.source;
    const open = text.indexOf('(', this.offset);
    const sink: ValueSink = { args, push: pushValue };
    scan(text, this.offset, sink);
    return text.slice(this.offset, open);
  }
}

/** A sink that keeps each argument's value. */
interface ValueSink extends Sink {
  readonly args: (number | string)[];
}

function pushValue(this: ValueSink, text: string, start: number, end: number, isInt: boolean): void {
  this.args.push(isInt ? intValue(text, start, end) : text.slice(start, end));
}

/** `Number(text.slice(start, end))` for `-?[0-9]{1,15}` (exact: below 2^53), without making the string. */
function intValue(text: string, start: number, end: number): number {
  const negative = text.charCodeAt(start) === Ch.Minus;
  let value = 0;
  for (let i = negative ? start + 1 : start; i < end; i++) value = value * 10 + (text.charCodeAt(i) - Ch.Digit0);
  return negative ? -value : value;
}

const NO_LITERALS: readonly Literal[] = Object.freeze([]);

type Tree = { kind: 'clause'; head: Call; body: readonly Literal[]; span: Span };

/** The one tree kept: the last one a GroundFact built. */
const lastBuilt: { fact: GroundFact | null; tree: Tree | null } = { fact: null, tree: null };

/** What `scan` calls for each argument (with the sink as `this`), and where it puts the call's end. */
interface Sink {
  push(text: string, start: number, end: number, isInt: boolean): void;
  callEnd?: number;
}

/** A sink that builds the arguments' nodes, with the grammar's spans. */
interface Build extends Sink {
  readonly file: string;
  readonly line: number;
  readonly lineStart: number;
  readonly args: AstTerm[];
}

function pushNode(this: Build, text: string, start: number, i: number, isInt: boolean): void {
  const span = { file: this.file, start: position(start, this.line, this.lineStart), end: position(i, this.line, this.lineStart) };
  this.args.push(isInt ? { kind: 'int', value: Number(text.slice(start, i)), span } : { kind: 'atom', name: text.slice(start, i), span });
}

/**
 * The end of the ground fact at `at` (right after its `.`), or -1; with `build`, also each
 * argument handed to it and where its call ends.
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
function scan(text: string, at: number, build: Sink | null): number {
  const n = text.length;
  let i = at;
  if (i >= n || !isIdentStart(text.charCodeAt(i))) return -1;
  while (i < n && isIdentChar(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== Ch.OpenParen || KEYWORDS.has(text.slice(at, i))) return -1;
  i++;
  for (;;) {
    while (i < n && isBlank(text.charCodeAt(i))) i++;
    const start = i;
    let c = text.charCodeAt(i);
    let isInt: boolean;
    if (isDigit(c) || (c === Ch.Minus && isDigit(text.charCodeAt(i + 1)))) {
      i++;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
      if (i - start > MAX_PLAIN_INT) return -1;
      isInt = true;
    } else if (isLower(c)) {
      while (i < n && isIdentChar(text.charCodeAt(i))) i++;
      isInt = false;
    } else return -1;
    // right after the argument: a blank, `,` or `)` (not `.`, `e`, `(`, `[`, ...)
    c = text.charCodeAt(i);
    if (!isBlank(c) && c !== Ch.Comma && c !== Ch.CloseParen) return -1;
    if (build !== null) build.push(text, start, i, isInt);
    while (i < n && isBlank(text.charCodeAt(i))) i++;
    c = text.charCodeAt(i);
    i++;
    if (c === Ch.Comma) continue;
    if (c === Ch.CloseParen) break;
    return -1;
  }
  if (build !== null) build.callEnd = i;
  while (i < n && isBlank(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== Ch.Dot) return -1;
  return i + 1;
}
