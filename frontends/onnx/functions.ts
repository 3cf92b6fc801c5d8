// Model-local functions (ModelProto.functions) inlined into the graph: a node that calls
// one is replaced by the function's body, with the body's inputs and outputs renamed to
// the call's values, its other values given names of their own (`call/fn/value`), and
// its attribute references (`ref_attr_name`) replaced by the call's attributes or the
// function's defaults. Nested calls are inlined too, up to MAX_INLINE_DEPTH.
import type { OnnxAttr, OnnxFunction, OnnxGraph, OnnxNode } from './model.js';
import { nodeLabel } from './model.js';
import { fail } from './decode.js';

const MAX_INLINE_DEPTH = 32;

export function inlineFunctions(graph: OnnxGraph, functions: readonly OnnxFunction[]): OnnxGraph {
  if (functions.length === 0) return graph;
  const byKey = new Map(functions.map((f) => [`${f.domain}\0${f.name}`, f]));
  let fresh = 0;
  const expand = (nodes: readonly OnnxNode[], depth: number): OnnxNode[] =>
    nodes.flatMap((n) => {
      const f = byKey.get(`${n.domain}\0${n.opType}`);
      if (f === undefined) return [n];
      if (depth >= MAX_INLINE_DEPTH) fail(`${nodeLabel(n)}: model-local functions call each other more than ${MAX_INLINE_DEPTH} deep (recursion?)`);
      const prefix = `${n.name !== '' ? n.name : `call${fresh++}`}/${f.name}/`;
      const rename = new Map<string, string>([['', '']]);
      f.inputs.forEach((x, i) => {
        rename.set(x, n.inputs[i] ?? '');
      });
      f.outputs.forEach((x, i) => {
        rename.set(x, n.outputs[i] ?? `${prefix}${x}`);
      });
      const name = (x: string) => rename.get(x) ?? `${prefix}${x}`;
      const body = f.nodes.map(
        (b): OnnxNode => ({
          name: `${prefix}${b.name !== '' ? b.name : b.index}`,
          opType: b.opType,
          domain: b.domain,
          inputs: b.inputs.map(name),
          outputs: b.outputs.map(name),
          attrs: bindAttrs(b.attrs, n.attrs, f),
          index: n.index,
        }),
      );
      return expand(body, depth + 1);
    });
  return { ...graph, nodes: expand(graph.nodes, 0) };
}

/** A body node's attributes with references to the caller's attributes resolved (an unset reference drops the attribute). */
function bindAttrs(attrs: ReadonlyMap<string, OnnxAttr>, caller: ReadonlyMap<string, OnnxAttr>, f: OnnxFunction): Map<string, OnnxAttr> {
  const out = new Map<string, OnnxAttr>();
  for (const [k, a] of attrs) {
    if (a.kind !== 'ref') {
      out.set(k, a);
      continue;
    }
    const v = caller.get(a.name) ?? f.attrs.get(a.name) ?? null;
    if (v !== null) out.set(k, v);
  }
  return out;
}
