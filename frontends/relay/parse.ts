// Parses TVM Relay text (v0.0.5) with the generated Peggy parser (grammar/relay.peggy)
// and turns every syntax error into a `UserError` with one `syntax` diagnostic, as
// solver/language/parse.ts does for the rule language.
import { type SyntaxErrorStyle, syntaxDiagnostic } from '../../diagnostics/peggy-errors.js';
import { parse as peggyParse, SyntaxError as PeggySyntaxError } from '../../grammar/generated/relay-parser.js';
import { diagnostic, UserError } from '../../diagnostics/diagnostic.js';
import { positionAt } from '../../diagnostics/span.js';
import type { Module, RType } from './ast.js';
import { checkTypeDepth } from './depth.js';

/**
 * Brackets `(`, `[` and `{` (and `/* *\/` comments) may nest this deep. The parser is
 * recursive, so deeper input is rejected up front instead of overflowing the stack.
 * Sequences of bindings (`%0 = ...; %1 = ...;`) do not nest and may be any length.
 */
export const MAX_NESTING = 500;

/** A whole module: an optional `#[version = "0.0.5"]` header, then `type` and `def` definitions. `tick` is called after each binding (it may throw a LimitError). */
export function parseRelay(text: string, file: string, tick?: () => void): Module {
  return run(text, file, 'Module', tick) as Module;
}

/**
 * One type: `Tensor[(1, 3), float32]`, `(Tensor[(2), int32], float32)`, `_`, `List[A]`.
 * A bare name is a type variable unless it is `float32`-like (a scalar), since there are
 * no type definitions to resolve it against.
 */
export function parseRelayType(text: string, file = '<type>'): RType {
  const type = run(text, file, 'TypeOnly') as RType;
  checkTypeDepth(type, MAX_NESTING);
  return type;
}

function run(text: string, file: string, startRule: 'Module' | 'TypeOnly', tick?: () => void): unknown {
  checkNesting(text, file);
  try {
    return peggyParse(text, { startRule, file, grammarSource: file, ...(tick ? { tick } : {}) });
  } catch (e) {
    if (e instanceof PeggySyntaxError) throw new UserError([syntaxDiagnostic(e, text, file, RELAY_SYNTAX)]);
    if (e instanceof RangeError) {
      // Backstop for recursion the nesting check does not see (e.g. a long `fn () -> fn () -> ...` type).
      const message = /call stack/i.test(e.message) ? 'program nested too deeply to parse' : `input too large to parse (${e.message})`;
      throw new UserError([diagnostic('error', 'syntax', message, null)]);
    }
    throw e;
  }
}

/**
 * Rejects brackets (`(`, `[`, `{`) or block comments nested deeper than MAX_NESTING,
 * pointing at the first one past the limit. Strings and comments are skipped as the
 * grammar reads them; what is malformed is left for the parser to report.
 */
function checkNesting(text: string, file: string): void {
  let depth = 0;
  const tooDeep = (offset: number, width: number, what: string): never => {
    const start = positionAt(text, offset);
    const end = { offset: offset + width, line: start.line, column: start.column + width };
    const message = `${what} nested deeper than ${MAX_NESTING} levels`;
    const notes = what === 'brackets' ? ['a long computation can be written flat, as a sequence of bindings `%0 = ...; %1 = ...;`'] : [];
    throw new UserError([diagnostic('error', 'syntax', message, { file, start, end }, notes)]);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') {
      if (++depth > MAX_NESTING) tooDeep(i, 1, 'brackets');
    } else if (c === ')' || c === ']' || c === '}') {
      if (depth > 0) depth--;
    } else if (c === '"') {
      // Skip to the closing quote; a line break or the end of the text also ends it.
      let j = i + 1;
      while (j < text.length && text[j] !== '"' && text[j] !== '\n' && text[j] !== '\r') {
        j += text[j] === '\\' && text[j + 1] !== '\n' && text[j + 1] !== '\r' ? 2 : 1;
      }
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      const newline = text.indexOf('\n', i);
      i = newline < 0 ? text.length : newline;
    } else if (c === '/' && text[i + 1] === '*') {
      // Block comments nest.
      let comments = 0;
      let j = i;
      while (j < text.length) {
        if (text[j] === '/' && text[j + 1] === '*') {
          if (++comments > MAX_NESTING) tooDeep(j, 2, 'comments');
          j += 2;
        } else if (text[j] === '*' && text[j + 1] === '/') {
          j += 2;
          if (--comments === 0) break;
        } else {
          j++;
        }
      }
      i = j - 1;
    }
  }
}

/**
 * Syntax errors in Relay text. A token is a whole `%local`, `@global`, identifier or
 * number. Continuations: a call's `(`, a projection's `.`, a type's `[` arguments, a
 * dimension operator, the `=` of a graph binding (`%0` could have been `%0 = ...`).
 */
const RELAY_SYNTAX: SyntaxErrorStyle = {
  token: /[%@]?[A-Za-z0-9_]+/y,
  continuations: new Set(['operator', '"("', '"."', '"["', '"="']),
};
