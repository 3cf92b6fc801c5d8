// The checks that make a graph typable, and its nodes in an order where every value is
// produced before it is used: each node's domain is imported, each input is a graph
// input, an initializer, an outer graph's value (for If/Loop/Scan bodies) or some node's
// output; the nodes are sorted topologically (a stable sort: the written order when it
// is already valid). A cycle or a missing input is an error naming the node.
import type { OnnxGraph, OnnxNode } from './model.js';
import { nodeLabel } from './model.js';
import { fail } from './decode.js';

/** The newest opset version shapelog knows, per domain; a model importing a newer one is refused. */
export const KNOWN_OPSETS: ReadonlyMap<string, number> = new Map([
  ['', 28],
  ['ai.onnx.ml', 5],
  ['ai.onnx.preview.training', 1],
  ['ai.onnx.preview', 1],
]);

export function checkGraph(graph: OnnxGraph, opsets: ReadonlyMap<string, number>): OnnxGraph {
  for (const [domain, version] of opsets) {
    const known = KNOWN_OPSETS.get(domain);
    if (known !== undefined && version > known)
      fail(`opset_import: version ${version} of domain "${domain === '' ? 'ai.onnx' : domain}" is unknown (shapelog knows versions 1 to ${known})`);
  }
  return sortGraph(graph, opsets, () => false);
}

/** Names a graph defines before any node runs. */
function givenNames(graph: OnnxGraph): Set<string> {
  return new Set(['', ...graph.inputs.map((v) => v.name), ...graph.initializers.map((t) => t.name)]);
}

/** What reads() found per node: a node inside nested subgraphs is asked once per enclosing graph. */
const readsOf = new WeakMap<OnnxNode, readonly string[]>();

/** Values a node reads: its inputs and what its subgraphs read from outside themselves. */
function reads(n: OnnxNode): readonly string[] {
  const known = readsOf.get(n);
  if (known !== undefined) return known;
  const out = [...n.inputs];
  for (const a of n.attrs.values()) {
    const graphs = a.kind === 'graph' ? [a.value] : a.kind === 'graphs' ? a.value : [];
    for (const g of graphs) {
      const inner = givenNames(g);
      for (const m of g.nodes) for (const o of m.outputs) inner.add(o);
      for (const m of g.nodes) for (const x of reads(m)) if (!inner.has(x)) out.push(x);
      for (const o of g.outputs) if (!inner.has(o.name)) out.push(o.name);
    }
  }
  readsOf.set(n, out);
  return out;
}

/** `outer`: is a name a value of an enclosing graph (a subgraph reads them; asked through the chain of graphs, not copied into each). */
function sortGraph(graph: OnnxGraph, opsets: ReadonlyMap<string, number>, outer: (name: string) => boolean): OnnxGraph {
  const given = givenNames(graph);
  const known = { has: (x: string) => given.has(x) || outer(x) };
  const producer = new Map<string, OnnxNode>();
  for (const n of graph.nodes) {
    if (!opsets.has(n.domain)) fail(`${nodeLabel(n)}: its domain "${n.domain}" is not imported by the model (no opset_import for it)`);
    for (const o of n.outputs) {
      if (o === '') continue;
      const prev = producer.get(o);
      if (prev !== undefined || known.has(o))
        fail(`${nodeLabel(n)}: output '${o}' is already ${prev !== undefined ? `produced by ${nodeLabel(prev)}` : 'a graph input or initializer'}`);
      producer.set(o, n);
    }
  }
  for (const n of graph.nodes)
    for (const x of reads(n))
      if (!known.has(x) && !producer.has(x)) fail(`${nodeLabel(n)}: input '${x}' is not a graph input, an initializer or any node's output`);
  // this graph's values produced so far (with `outer`, every value a node may read)
  const done = new Set(given);
  const available = (x: string) => done.has(x) || outer(x);
  const sorted = inWrittenOrder(graph.nodes, done, available) ?? topologicalOrder(graph.nodes, done, available, producer);
  // subgraphs: their own order, with this graph's values visible
  const scope = available;
  const nodes = sorted.map((n) => {
    let changed = false;
    const attrs = new Map(n.attrs);
    for (const [k, a] of n.attrs) {
      if (a.kind === 'graph') {
        attrs.set(k, { kind: 'graph', value: sortGraph(a.value, opsets, scope) });
        changed = true;
      }
      if (a.kind === 'graphs') {
        attrs.set(k, { kind: 'graphs', value: a.value.map((g) => sortGraph(g, opsets, scope)) });
        changed = true;
      }
    }
    return changed ? { ...n, attrs } : n;
  });
  for (const o of graph.outputs) if (!available(o.name)) fail(`graph output '${o.name}' is not produced by any node, nor a graph input or initializer`);
  return { ...graph, nodes };
}

/** The nodes as written when that order is topological (adding their outputs to `done`), else null. */
function inWrittenOrder(nodes: readonly OnnxNode[], done: Set<string>, available: (name: string) => boolean): readonly OnnxNode[] | null {
  const produced = new Set<string>();
  for (const n of nodes) {
    if (!reads(n).every((x) => available(x) || produced.has(x))) return null;
    for (const o of n.outputs) produced.add(o);
  }
  for (const x of produced) done.add(x);
  return nodes;
}

/** Kahn's sort, round by round, each round in written order (adding outputs to `done`); a cycle is an error. */
function topologicalOrder(
  nodes: readonly OnnxNode[],
  done: Set<string>,
  available: (name: string) => boolean,
  producer: ReadonlyMap<string, OnnxNode>,
): OnnxNode[] {
  const sorted: OnnxNode[] = [];
  let pending = [...nodes];
  while (pending.length > 0) {
    const ready = pending.filter((n) => reads(n).every(available));
    if (ready.length === 0) {
      const n = pending[0]!;
      const waits = reads(n).filter((x) => !available(x));
      fail(
        `the graph is not topologically sortable: ${nodeLabel(n)} waits for ${waits.map((x) => `'${x}' (from ${nodeLabel(producer.get(x)!)})`).join(', ')}, which depends on it in turn (a cycle)`,
      );
    }
    for (const n of ready) {
      sorted.push(n);
      for (const o of n.outputs) done.add(o);
    }
    const r = new Set(ready);
    pending = pending.filter((n) => !r.has(n));
  }
  return sorted;
}
