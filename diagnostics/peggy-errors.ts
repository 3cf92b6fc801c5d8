// Turning a Peggy parser's expectations into readable text, for both grammars:
// `expected ")", ",", or ";" but found "."`.
import type { PeggyExpectation } from '../grammar/generated/rules-parser.js';

/**
 * The expected tokens, deduplicated and sorted. `continuations` are tokens that would
 * only have continued what came before the error (an operator, a call's `(`): true but
 * rarely what the writer meant, so they are listed only when nothing else was expected.
 */
export function describeExpected(expected: readonly PeggyExpectation[], continuations: ReadonlySet<string>): string {
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

export function quote(s: string): string {
  return `"${s.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;
}
