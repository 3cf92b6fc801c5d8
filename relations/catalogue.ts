// The operator catalogue: for each Relay operator, its name, the relation that types
// it, its arguments in TVM's order, its attributes (types and defaults exactly as in
// TVM's Python API, `tvm.relay.*`), and the shape of its result. The entries are the
// `operator` declarations of the rule files (relations/*.rules), read with the rules
// by `ruleLibrary()`; this file looks them up.
//
// Shared by the rule-based and the imperative strategies: this file knows nothing
// about how a relation is solved. Checking a call's attributes is in attr-check.ts.
import type { OpInfo } from './schema.js';
import { ruleLibrary } from './library.js';
import { closest } from '../diagnostics/suggest.js';

export * from './schema.js';
export { type AttrError, attrValueText, checkAttrs, describeType } from './attr-check.js';

/** Every operator of the library, in declaration order (rule files sorted by name). */
export function allOps(): readonly OpInfo[] {
  return ruleLibrary().ops;
}

/** The operator, or undefined. */
export function findOp(name: string): OpInfo | undefined {
  return ruleLibrary().opsByName.get(name);
}

export type OpLookup = { readonly ok: true; readonly op: OpInfo } | { readonly ok: false; readonly message: string };

/** The operator, or `unknown operator 'nn.conv3x3'; did you mean 'nn.conv2d'?`. */
export function lookupOp(name: string): OpLookup {
  const byName = ruleLibrary().opsByName;
  const op = byName.get(name);
  if (op !== undefined) return { ok: true, op };
  return { ok: false, message: `unknown operator '${name}'${suggestion(name, byName.keys())}` };
}

function suggestion(name: string, candidates: Iterable<string>): string {
  const list = [...candidates];
  let best = closest(name, list);
  // `conv2d` for `nn.conv2d`: also try the name without (or with) a namespace.
  if (best === null) {
    const bare = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
    best =
      list.find((c) => c.slice(c.lastIndexOf('.') + 1) === bare) ??
      closest(
        bare,
        list.map((c) => c.slice(c.lastIndexOf('.') + 1)),
      );
    if (best !== null && !list.includes(best)) best = list.find((c) => c.endsWith(`.${best}`) || c === best) ?? null;
  }
  return best === null ? '' : `; did you mean '${best}'?`;
}
