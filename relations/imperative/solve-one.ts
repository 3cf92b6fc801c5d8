// Type one operator call in isolation, with types written as Relay text:
//
//   typeofOp('nn.conv2d', attrs({ channels: 64, kernel_size: [7, 7], strides: [2, 2], padding: [3, 3] }),
//            ['Tensor[(1, 3, 224, 224), float32]', '_'])
//   → { type: 'Tensor[(1, 64, 112, 112), float32]',
//       args: ['Tensor[(1, 3, 224, 224), float32]', 'Tensor[(64, 3, 7, 7), float32]'],
//       residuals: [] }
//
// The relation is run to a fixpoint (re-run while it makes progress). A relation
// still waiting when every argument type is known is an error: "nn.conv2d: cannot
// infer the result type from (...)". Unresolved parts print as `_`; residual
// assumptions on symbolic sizes (`n = 3`) are listed.

import type { Attr, AttrValue } from '../attr-value.js';
import { DEFAULT_SPAN, lookupOp } from '../catalogue.js';
import { requiredArgCount } from '../op-arity.js';
import { makeInstance, runInstance } from './instance.js';
import { isError } from './relation.js';
import { parseType } from './type-text.js';
import { type IType, TypeSolverState, printType } from './types.js';

export type TypeofResult = { readonly type: string; readonly args: readonly string[]; readonly residuals: readonly string[] } | { readonly error: string };

export interface TypeofOptions {
  /** The result type, if known (default `_`). */
  readonly out?: string;
  /** Bound on the number of runs of the relation (default 50). */
  readonly maxRuns?: number;
}

export function typeofOp(op: string, attrList: readonly Attr[], args: readonly string[], options: TypeofOptions = {}): TypeofResult {
  const state = new TypeSolverState();
  const argTypes: IType[] = [];
  for (const [i, text] of args.entries()) {
    const p = parseType(text, state);
    if (!p.ok) return { error: `argument ${i}: ${p.message}` };
    argTypes.push(p.type);
  }
  // a left-out optional argument is an unknown type (a call giving too many or too few is refused by makeInstance)
  const declared = lookupOp(op);
  if (declared.ok) while (argTypes.length >= requiredArgCount(declared.op) && argTypes.length < declared.op.args.length) argTypes.push(state.freshType());
  const outParsed = parseType(options.out ?? '_', state);
  if (!outParsed.ok) return { error: `result: ${outParsed.message}` };
  const made = makeInstance(op, attrList, argTypes, outParsed.type);
  if (!made.ok) return { error: made.errors.map((e) => e.message).join('; ') };
  const inst = made.instance;

  const maxRuns = options.maxRuns ?? 50;
  let last = runInstance(state, inst);
  for (let runs = 1; last.result === 'wait' && last.progressed && runs < maxRuns; runs++) last = runInstance(state, inst);
  if (isError(last.result)) return { error: last.result.message };
  if (last.result === 'wait' && argTypes.every((t) => state.isGround(t))) {
    const given = argTypes.map((t) => printType(state.resolve(t))).join(', ');
    const why = last.waitReason !== null ? `: ${last.waitReason}` : '';
    return { error: `${op}: cannot infer the result type from (${given})${why}` };
  }
  return {
    type: printType(state.resolve(inst.out)),
    args: argTypes.map((t) => printType(state.resolve(t))),
    residuals: state.residuals.map((r) => r.text),
  };
}

/** A JavaScript value for an attribute: ints, floats, booleans, strings, null (None), arrays. */
export type AttrJs = number | boolean | string | null | readonly AttrJs[];

/**
 * Attributes from a plain object, e.g. `attrs({ strides: [2, 2], out_dtype: '', axis: null })`.
 * Integers become `int` (use `{ float: 1 }`-free values: a non-integer number is a `float`).
 */
export function attrs(values: Readonly<Record<string, AttrJs>>): Attr[] {
  return Object.entries(values).map(([name, v]) => ({ name, value: attrValue(v), span: DEFAULT_SPAN }));
}

export function attrValue(v: AttrJs): AttrValue {
  const span = DEFAULT_SPAN;
  if (v === null) return { kind: 'none', span };
  if (typeof v === 'boolean') return { kind: 'bool', value: v, span };
  if (typeof v === 'string') return { kind: 'string', value: v, span };
  if (typeof v === 'number') return Number.isInteger(v) ? { kind: 'int', value: v, span } : { kind: 'float', value: v, span };
  return { kind: 'list', items: v.map(attrValue), span };
}
