// A fast path for the commonest statement of big inputs, a ground fact with plain
// arguments: `edge(1, 2).`, `dtype(x, float32).`, `name(n1, "conv \"1\"").`. It builds
// exactly the tree the Peggy grammar (grammar/rules.peggy) builds for such a statement,
// with the same spans, at a fraction of the cost (one native regular-expression match
// instead of backtracking through the expression rules, no position cache) and in a
// fraction of the memory (GroundFact keeps only where the fact is). Lowering reads a
// fact's values straight from the text (`GroundFact.values`), with no tree.
//
// Only a strict subset is taken (the pattern FACT below): a name right before `(`, one or
// more arguments separated by `,`, then `)`, spaces or tabs, and `.`, all on one line. An
// argument is an integer literal of at most 15 characters (`-?[0-9]+`), a lowercase atom
// (`[a-z][A-Za-z0-9_]*`) or a string on one line with the grammar's escapes (`\\ \" \'
// \n \t`), with spaces or tabs around it. Anything else (comments or line breaks inside,
// floats, long integers, variables, quoted atoms, compounds, lists, named arguments, a
// statement keyword as the name) does not match, and the caller parses the statement
// with the grammar. Why each accepted form reads the same in the grammar: the notes on
// FACT.
import type { AstTerm, Call, Literal, Position, Span } from './ast.js';

/** An argument's token: an integer of at most 15 characters (the grammar's Number turns it into `Number(text)` without a range check), a lowercase atom, or a one-line string. */
const TOKEN = String.raw`-[0-9]{1,14}|[0-9]{1,15}|[a-z][A-Za-z0-9_]*|"(?:[^"\\\r\n]|\\[\\"'nt])*"`;
/** An argument with the blanks around it, its token captured. */
const ARG = String.raw`[ \t]*(${TOKEN})[ \t]*`;
/** The same, capturing nothing. */
const ARG_NC = String.raw`[ \t]*(?:${TOKEN})[ \t]*`;
/** A name that begins a declaration statement (grammar: Relation, Import, OperatorDecl, AttrGroupDecl, TextDecl), right before `(`. */
const KEYWORD = String.raw`(?!(?:relation|import|operator|attrs|text)\()`;
const NAME = '[A-Za-z_][A-Za-z0-9_]*';

/**
 * A plain ground fact, sticky (it matches at `lastIndex` only). Captures: 1 the name,
 * 2-5 the first four arguments' tokens (undefined past the last), 6 the text of the
 * arguments after the fourth (`, 5, 6`; empty when there are none; read with REST), and
 * 7 a fifth-or-later argument's token (unused).
 *
 * Why the grammar reads a match the same way: no declaration keyword, so Statement
 * reaches Clause; Head's first alternative (`Expr = Expr`) reads the whole `name(...)` as
 * a compound and fails on the `.`, so Head is the Call; each argument is an Expr with no
 * operator, sign, subscript or argument list after it (the next non-blank character is
 * `,` or `)`), so it is the Number, NamedTerm or StringTerm node itself; a digit run not
 * followed by `.`, `e` or `E` is an integer, and up to 15 characters it is
 * `Number(text)`; a lowercase name is an atom; a string's value is its characters with
 * the escapes replaced. Spans are the grammar's: each node from its first character to
 * its last (a string's quotes included), the call's up to `)`, the clause's up to `.`.
 * No backtracking blow-up: every token ends where the next character cannot continue
 * it, so a shorter match of a token fails at once.
 */
const FACT_SOURCE = String.raw`${KEYWORD}(${NAME})\(${ARG}(?:,${ARG}(?:,${ARG}(?:,${ARG})?)?)?((?:,${ARG})*)\)[ \t]*\.`;
const FACT = new RegExp(FACT_SOURCE, 'y');
/** FACT with the captures' places (for building the tree). */
const FACT_PLACES = new RegExp(FACT_SOURCE, 'yd');
/** FACT capturing nothing: where a fact ends. */
const FACT_END = new RegExp(String.raw`${KEYWORD}${NAME}\(${ARG_NC}(?:,${ARG_NC})*\)[ \t]*\.`, 'y');
/** One argument of FACT's capture 6, with its comma, sticky. */
const REST = new RegExp(`,${ARG}`, 'y');
const REST_PLACES = new RegExp(`,${ARG}`, 'yd');

/** Where a ground fact ends (the offset right after its `.`), or -1 when the statement at `at` is not one of the accepted form. */
export function groundFactEnd(text: string, at: number): number {
  FACT_END.lastIndex = at;
  return FACT_END.test(text) ? FACT_END.lastIndex : -1;
}

/** What an argument of a plain ground fact is. */
export const ValueKind = { Int: 0, Atom: 1, Str: 2 } as const;
export type ValueKind = (typeof ValueKind)[keyof typeof ValueKind];

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
    const { file, text } = this.source;
    const lineStart = text.lastIndexOf('\n', this.offset - 1) + 1;
    const at = (offset: number): Position => ({ offset, line: this.line, column: offset - lineStart + 1 });
    const node = (token: string, start: number): AstTerm => {
      const span = { file, start: at(start), end: at(start + token.length) };
      const c = token.charCodeAt(0);
      if (c === QUOTE) return { kind: 'string', value: stringValue(token), span };
      return c === MINUS || isDigit(c) ? { kind: 'int', value: Number(token), span } : { kind: 'atom', name: token, span };
    };
    FACT_PLACES.lastIndex = this.offset;
    const m = FACT_PLACES.exec(text)!;
    const places = m.indices!;
    const args: AstTerm[] = [];
    for (let i = 2; i <= 5 && m[i] !== undefined; i++) args.push(node(m[i]!, places[i]![0]));
    const rest = m[6]!;
    const restStart = places[6]![0];
    REST_PLACES.lastIndex = 0;
    for (let r = REST_PLACES.exec(rest); r !== null; r = REST_PLACES.exec(rest)) args.push(node(r[1]!, restStart + r.indices![1]![0]));
    const end = FACT_PLACES.lastIndex;
    const callEnd = text.lastIndexOf(')', end - 1) + 1;
    const first = at(this.offset);
    const head: Call = { kind: 'call', pred: m[1]!, args, named: [], span: { file, start: first, end: at(callEnd) } };
    return { kind: 'clause', head, body: [], span: { file, start: first, end: at(end) } };
  }

  toJSON(): unknown {
    return this.read();
  }

  /**
   * The predicate name, with the arguments' values put in `values` and their kinds in
   * `kinds` (both cleared first): an integer as its number, an atom as its name, a
   * string as its value. What lowering needs, without the tree and its spans.
   */
  values(values: (number | string)[], kinds: ValueKind[]): string {
    values.length = 0;
    kinds.length = 0;
    FACT.lastIndex = this.offset;
    const m = FACT.exec(this.source.text)!;
    for (let i = 2; i <= 5; i++) {
      const token = m[i];
      if (token === undefined) return m[1]!;
      pushValue(token, values, kinds);
    }
    const rest = m[6]!;
    REST.lastIndex = 0;
    for (let r = REST.exec(rest); r !== null; r = REST.exec(rest)) pushValue(r[1]!, values, kinds);
    return m[1]!;
  }
}

const QUOTE = 34;
const MINUS = 45;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

function pushValue(token: string, values: (number | string)[], kinds: ValueKind[]): void {
  const c = token.charCodeAt(0);
  if (c === QUOTE) {
    values.push(stringValue(token));
    kinds.push(ValueKind.Str);
  } else if (c === MINUS || isDigit(c)) {
    values.push(Number(token));
    kinds.push(ValueKind.Int);
  } else {
    values.push(token);
    kinds.push(ValueKind.Atom);
  }
}

const ESCAPED: Readonly<Record<string, string>> = { '\\': '\\', '"': '"', "'": "'", n: '\n', t: '\t' };

/** The value of a string token (quotes included) that FACT matched: its characters, each escape replaced. */
function stringValue(token: string): string {
  const inner = token.slice(1, -1);
  return inner.includes('\\') ? inner.replace(/\\(.)/g, (_, c: string) => ESCAPED[c]!) : inner;
}

const NO_LITERALS: readonly Literal[] = Object.freeze([]);

type Tree = { kind: 'clause'; head: Call; body: readonly Literal[]; span: Span };

/** The one tree kept: the last one a GroundFact built. */
const lastBuilt: { fact: GroundFact | null; tree: Tree | null } = { fact: null, tree: null };
