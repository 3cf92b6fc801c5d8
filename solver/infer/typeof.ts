// The type of one operator call, by either strategy: `{op, attrs, args}` with argument
// types as Relay text (`_` for unknown, `(T1, T2)` for a tuple argument) becomes a
// one-call function `def @main(%a0: T0, %a1) { op(%a0, %a1, attrs) }`, which is then
// inferred like any program.
import type { Attr, Module, Param, RType, Span } from '../../frontends/relay/ast.js';
import { parseRelayType } from '../../frontends/relay/parse.js';
import { attrs as attrsOf, type AttrJs } from '../../relations/imperative/solve-one.js';
import { UserError } from '../language/diagnostic.js';
import { inferModule, type InferStrategy } from './infer.js';

export interface TypeofRequest {
  readonly op: string;
  readonly attrs?: Readonly<Record<string, AttrJs>>;
  readonly args: readonly string[];
}

export type TypeofAnswer = { readonly type: string; readonly args: string[] } | { readonly error: string };

const SPAN: Span = { file: '<typeof>', start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } };

export function typeofCall(req: TypeofRequest, strategy: InferStrategy): TypeofAnswer {
  const params: Param[] = [];
  for (const [i, text] of req.args.entries()) {
    let type: RType | null;
    try {
      const t = parseRelayType(text, `<argument ${i + 1}>`);
      type = t.kind === 'incomplete' ? null : t;
    } catch (e) {
      if (e instanceof UserError) return { error: `argument ${i + 1}: ${e.diagnostics[0]!.message}` };
      throw e;
    }
    params.push({ name: `a${i}`, type, span: SPAN });
  }
  const attrs: Attr[] = attrsOf(req.attrs ?? {});
  const module: Module = {
    file: '<typeof>',
    version: null,
    typeDefs: [],
    functions: [
      {
        name: 'main',
        typeParams: [],
        params,
        ret: null,
        body: { kind: 'call', callee: { kind: 'op', name: req.op, span: SPAN }, args: params.map((p) => ({ kind: 'local', name: p.name, span: SPAN })), attrs, span: SPAN },
        span: SPAN,
      },
    ],
  };
  const r = inferModule(module, new Map(), strategy);
  const error = r.diagnostics.find((d) => d.severity === 'error' && d.code !== 'unresolved');
  if (error) return { error: error.message };
  const body = module.functions[0]!.body;
  const type = r.outcome.results.get(body) ?? '_';
  const args = params.map((p) => r.outcome.bindings.find((b) => b.node === p)?.type ?? '_');
  return { type, args };
}
