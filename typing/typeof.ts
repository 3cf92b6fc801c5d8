// The type of one operator call, by either strategy: `{op, attrs, args}` with argument
// types as Relay text (`_` for unknown, `(T1, T2)` for a tuple argument) becomes a
// one-call function `def @main(%a0: T0, %a1) { op(%a0, %a1, attrs) }`, which is then
// inferred like any program.
import type { Attr, Module, Param, RExpr, RType, Span } from '../frontends/relay/ast.js';
import { parseRelayType } from '../frontends/relay/parse.js';
import { attrs as attrsOf, type AttrJs } from '../relations/imperative/solve-one.js';
import { UserError } from '../diagnostics/diagnostic.js';
import type { Limits } from '../solver/engine/limits.js';
import { inferModule, type InferStrategy } from './infer.js';
import type { RuleLibrary } from '../relations/library.js';

export interface TypeofRequest {
  readonly op: string;
  readonly attrs?: Readonly<Record<string, AttrJs>>;
  readonly args: readonly string[];
}

export type TypeofAnswer = { readonly type: string; readonly args: string[] } | { readonly error: string };

const SPAN: Span = { file: '<typeof>', start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } };

/**
 * A one-function module calling the operator `copies` times, each call on its own
 * parameters (`%a0_0, %a1_0, ...`), the result a tuple of the calls when copies > 1:
 * `copies` independent instances of the operator's relation, for benchmarks.
 * Throws a UserError when an argument type does not parse.
 */
export function callModule(req: TypeofRequest, copies = 1): Module {
  const types: (RType | null)[] = [];
  for (const [i, text] of req.args.entries()) {
    try {
      const t = parseRelayType(text, `<argument ${i + 1}>`);
      types.push(t.kind === 'incomplete' ? null : t);
    } catch (e) {
      if (e instanceof UserError) throw new UserError([{ ...e.diagnostics[0]!, message: `argument ${i + 1}: ${e.diagnostics[0]!.message}` }]);
      throw e;
    }
  }
  const attrs: Attr[] = attrsOf(req.attrs ?? {});
  const params: Param[] = [];
  const calls: RExpr[] = [];
  for (let k = 0; k < copies; k++) {
    const mine = types.map((type, i): Param => ({ name: copies === 1 ? `a${i}` : `a${i}_${k}`, type, span: SPAN }));
    params.push(...mine);
    calls.push({
      kind: 'call',
      callee: { kind: 'op', name: req.op, span: SPAN },
      args: mine.map((p) => ({ kind: 'local', name: p.name, span: SPAN })),
      attrs,
      span: SPAN,
    });
  }
  const body: RExpr = copies === 1 ? calls[0]! : { kind: 'tuple', fields: calls, span: SPAN };
  return { file: '<typeof>', version: null, typeDefs: [], functions: [{ name: 'main', typeParams: [], params, ret: null, body, span: SPAN }] };
}

/** `library`: type with another rule library than the current one (the rules strategy only). */
export function typeofCall(req: TypeofRequest, strategy: InferStrategy, limits: Partial<Limits> = {}, library?: RuleLibrary): TypeofAnswer {
  let module: Module;
  try {
    module = callModule(req);
  } catch (e) {
    if (e instanceof UserError) return { error: e.diagnostics[0]!.message };
    throw e;
  }
  const params = module.functions[0]!.params;
  const r = inferModule(module, new Map(), strategy, limits, library);
  const error = r.diagnostics.find((d) => d.severity === 'error' && d.code !== 'unresolved');
  if (error) return { error: error.message };
  const body = module.functions[0]!.body;
  const type = r.outcome.results.get(body) ?? '_';
  const args = params.map((p) => r.outcome.bindings.find((b) => b.node === p)?.type ?? '_');
  return { type, args };
}
