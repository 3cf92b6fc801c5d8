// Einsum's equation as the rules read it. The rule language has no string functions, so
// the equation string is parsed here, once, into a term (the one owner of this encoding):
//
//   "ij,jk->ik"   →  einsum([["i", "j"], ["j", "k"]], ["i", "k"])
//   "...ii->...i" →  einsum([[ellipsis, "i", "i"]], [ellipsis, "i"])
//
// one list of subscripts per operand, then the output's: each subscript a one-letter
// string, `ellipsis` for "...". An equation without "->" gets numpy's implicit output,
// written out: the ellipsis (when an operand has one), then the letters that occur once,
// in alphabetical order (capitals first, as in ASCII). relations/onnx/shape.rules
// (OnnxEinsum) maps the letters to the operands' dims.
import type { TermId, TermStore } from '../../solver/terms/term-store.js';

/** The Einsum relation attribute that takes the parsed equation. */
export const EINSUM_EQUATION_ATTR = 'equation';

export type Subscript = string | 'ellipsis';

export interface EinsumEquation {
  readonly operands: readonly (readonly Subscript[])[];
  readonly output: readonly Subscript[];
}

const ELLIPSIS = '...';

/** The subscripts of one side of the equation (`where` names it in messages); a message when malformed. */
function subscripts(text: string, where: string): Subscript[] | string {
  const out: Subscript[] = [];
  for (let i = 0; i < text.length; ) {
    if (text.startsWith(ELLIPSIS, i)) {
      if (out.includes('ellipsis')) return `${where} "${text}" has more than one ellipsis`;
      out.push('ellipsis');
      i += ELLIPSIS.length;
    } else if (/[A-Za-z]/.test(text[i]!)) out.push(text[i++]!);
    else return `${where} "${text}" has '${text[i]}' (a subscript is a letter or "...")`;
  }
  return out;
}

/** The equation parsed, or a message saying what is wrong with it. */
export function parseEinsum(equation: string): EinsumEquation | string {
  const eq = equation.replace(/\s+/g, '');
  const parts = eq.split('->');
  if (parts.length > 2) return `Einsum equation "${equation}" has more than one "->"`;
  const operands: Subscript[][] = [];
  for (const [i, t] of parts[0]!.split(',').entries()) {
    const s = subscripts(t, `Einsum equation "${equation}": operand ${i}`);
    if (typeof s === 'string') return s;
    operands.push(s);
  }
  if (parts.length === 2) {
    const output = subscripts(parts[1]!, `Einsum equation "${equation}": the output`);
    if (typeof output === 'string') return output;
    const seen = new Set<Subscript>();
    for (const l of output) {
      if (seen.has(l)) return `Einsum equation "${equation}": the output has '${l === 'ellipsis' ? ELLIPSIS : l}' twice`;
      seen.add(l);
      if (l === 'ellipsis' ? !operands.some((o) => o.includes('ellipsis')) : !operands.some((o) => o.includes(l)))
        return `Einsum equation "${equation}": the output's '${l === 'ellipsis' ? ELLIPSIS : l}' is in no operand`;
    }
    return { operands, output };
  }
  const count = new Map<string, number>();
  for (const o of operands) for (const l of o) if (l !== 'ellipsis') count.set(l, (count.get(l) ?? 0) + 1);
  const once = [...count]
    .filter(([, n]) => n === 1)
    .map(([l]) => l)
    .sort();
  return { operands, output: [...(operands.some((o) => o.includes('ellipsis')) ? ['ellipsis'] : []), ...once] };
}

/** The term `einsum(Operands, Output)` of `equation`, or a message saying what is wrong with it. */
export function einsumTerm(store: TermStore, equation: string): TermId | string {
  const parsed = parseEinsum(equation);
  if (typeof parsed === 'string') return parsed;
  const side = (s: readonly Subscript[]) => store.list(s.map((l) => (l === 'ellipsis' ? store.atom('ellipsis') : store.str(l))));
  return store.compound('einsum', [store.list(parsed.operands.map(side)), side(parsed.output)]);
}
