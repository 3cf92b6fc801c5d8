// A Peggy parser's syntax error as a located diagnostic, for every grammar (rules, Relay,
// ITIR): `expected ")", ",", or ";" but found "."`, spanning the whole token found. What
// differs between the grammars (what a token is, which expected tokens only continue the
// one before, notes for a common mistake) is their SyntaxErrorStyle.
import type { PeggyExpectation, PeggyLocation } from '../grammar/generated/rules-parser.js';
import { diagnostic, type Diagnostic } from './diagnostic.js';
import type { Position, Span } from './span.js';

/** A syntax error as every generated parser throws it (its class is one per grammar). */
export interface PeggyFailure {
  readonly message: string;
  readonly location: PeggyLocation;
  readonly expected: readonly PeggyExpectation[] | null;
}

/** How one grammar's syntax errors read. */
export interface SyntaxErrorStyle {
  /** A sticky pattern for a whole token (a word, a number): the error spans the one it finds, else one character. */
  readonly token: RegExp;
  /** Expected tokens that would only have continued the one before the error (see describeExpected). */
  readonly continuations: ReadonlySet<string>;
  /** Notes on a likely cause, given the text, where the error is and what was found there (null: the end). */
  readonly notes?: (text: string, start: Position, found: string | null) => string[];
}

/** `e` (thrown by a generated parser reading `text` from `file`) as a diagnostic. */
export function syntaxDiagnostic(e: PeggyFailure, text: string, file: string, style: SyntaxErrorStyle): Diagnostic {
  const start = toPosition(e.location.start);
  if (e.expected === null) {
    // a message raised by `error(...)` in a grammar action, at the location it chose
    return diagnostic('error', 'syntax', e.message, { file, start, end: toPosition(e.location.end) });
  }
  const found = foundToken(text, start.offset, style.token);
  const width = found?.length ?? 0;
  const span: Span = { file, start, end: { offset: start.offset + width, line: start.line, column: start.column + width } };
  const what = found === null ? 'end of input' : quote(found);
  return diagnostic(
    'error',
    'syntax',
    `expected ${describeExpected(e.expected, style.continuations)} but found ${what}`,
    span,
    style.notes?.(text, start, found) ?? [],
  );
}

function toPosition(p: PeggyLocation['start']): Position {
  return { offset: p.offset, line: p.line, column: p.column };
}

/** The token at `offset`: what the sticky `token` matches there, else one character; null at the end. */
function foundToken(text: string, offset: number, token: RegExp): string | null {
  if (offset >= text.length) return null;
  token.lastIndex = offset;
  return token.exec(text)?.[0] ?? text.charAt(offset);
}

/**
 * The expected tokens, deduplicated and sorted. `continuations` are tokens that would
 * only have continued what came before the error (an operator, a call's `(`): true but
 * rarely what the writer meant, so they are listed only when nothing else was expected.
 */
function describeExpected(expected: readonly PeggyExpectation[], continuations: ReadonlySet<string>): string {
  const all = [...new Set(expected.map(describeExpectation))].sort();
  const main = all.filter((d) => !continuations.has(d));
  const shown = main.length > 0 ? main : all;
  if (shown.length <= 1) return shown[0] ?? 'nothing';
  if (shown.length === 2) return `${shown[0]} or ${shown[1]}`;
  return `${shown.slice(0, -1).join(', ')}, or ${shown[shown.length - 1]}`;
}

function describeExpectation(x: PeggyExpectation): string {
  switch (x.type) {
    case 'literal':
      return quote(x.text ?? '');
    case 'end':
      return 'end of input';
    case 'any':
      return 'any character';
    case 'other':
      return x.description ?? 'something else';
    default:
      return 'a character'; // character classes: the grammars name every rule that uses one
  }
}

function quote(s: string): string {
  return `"${s.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;
}
