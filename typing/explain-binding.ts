// `infer --explain %N`: why a binding has its type, in the user's terms and the same
// from both strategies: the operator call that produced it (in Relay syntax), each
// argument with its inferred type and whether its type was given or inferred
// backwards, every attribute with its value (defaults marked), and the relation that
// typed the call with its output-shape formula and backward inference, as the
// operator's declaration states them. The engine's own derivation (internal helper
// relations, in the engine's syntax) is shown only with `--internals`.
import type { Param, RExpr } from '../frontends/relay/ast.js';
import { printAttrValue, printExpr } from '../frontends/relay/print.js';
import { attrValueText, lookupOp } from '../relations/catalogue.js';
import type { InferResult } from './infer.js';

/** The explanation of binding `name` (`%3`), or null when the program has no such binding. */
export function explainBinding(r: InferResult, name: string, options: { internals?: boolean } = {}): string | null {
  const b = r.outcome.bindings.find((x) => x.name === name);
  if (b === undefined) return null;
  const lines = [`${b.name} : ${b.type}   (@${b.fn}, line ${b.span.start.line})`];
  const typeOfLocal = new Map(r.outcome.bindings.filter((x) => x.fn === b.fn).map((x) => [x.name, x]));
  const node = b.node as RExpr | Param;
  if (!('kind' in node)) {
    lines.push(node.type === null ? '  a parameter without annotation: its type is inferred from its uses' : '  a parameter: its type is its annotation');
    return `${lines.join('\n')}\n`;
  }
  lines.push(`  = ${oneLine(node)}`);
  if (node.kind === 'proj') {
    const tuple = node.tuple.kind === 'local' ? typeOfLocal.get(`%${node.tuple.name}`) : undefined;
    lines.push(`  field ${node.index} of ${oneLine(node.tuple)}${tuple === undefined ? '' : ` : ${tuple.type}`}`);
    return `${lines.join('\n')}\n`;
  }
  if (node.kind !== 'call' || node.callee.kind !== 'op') {
    lines.push('  not an operator call: its type comes from unification (annotations, tuples, projections, function types)');
    return `${lines.join('\n')}\n`;
  }
  const found = lookupOp(node.callee.name);
  if (!found.ok) return `${lines.join('\n')}\n`;
  const op = found.op;
  const width = Math.max(...op.args.map((a) => a.length), 0);
  lines.push('  arguments:');
  node.args.forEach((arg, i) => {
    const argName = (op.args[i] ?? `#${i}`).padEnd(width);
    const local = arg.kind === 'local' ? typeOfLocal.get(`%${arg.name}`) : undefined;
    const given = local !== undefined && local.kind === 'param' && 'type' in local.node && local.node.type !== null;
    const how = local === undefined ? '' : local.kind === 'param' ? (given ? '   (annotated)' : '   (inferred: from this and other calls)') : '';
    lines.push(`    ${argName}  ${oneLine(arg)}${local !== undefined ? ` : ${local.type}` : ''}${how}`);
  });
  if (op.attrs.length > 0) {
    lines.push('  attributes:');
    const given = new Map(node.attrs.map((a) => [a.name, a.value]));
    for (const a of op.attrs) {
      const v = given.get(a.name);
      const text = v !== undefined ? printAttrValue(v) : a.default === 'required' ? '(required, missing)' : `${attrValueText(a.default)}   (default)`;
      lines.push(`    ${a.name}=${text}`);
    }
  }
  const where = op.span === undefined ? '' : ` (declared at ${op.span.file}:${op.span.start.line})`;
  lines.push(`  typed by the relation ${op.relation}${where}`);
  if (op.formula !== undefined) lines.push(`    result: ${op.formula}`);
  if (op.backwards !== undefined) lines.push(`    backwards: ${op.backwards}`);
  for (const d of op.deviations ?? []) lines.push(`    differs from TVM: ${d}`);
  if (options.internals === true) {
    const derivation = r.outcome.explainCall?.(node.span) ?? null;
    lines.push(
      derivation === null
        ? '  (no engine derivation: the relay strategy runs the hand-coded relations)'
        : `  the engine's derivation:\n${derivation.replace(/^/gm, '    ')}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** An expression on one line, shortened past 160 characters. */
function oneLine(e: RExpr): string {
  const text = printExpr(e).replace(/\s*\n\s*/g, ' ');
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}
