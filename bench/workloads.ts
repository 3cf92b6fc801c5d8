// Benchmark workloads for the engine: each is a program text (facts + rules, in the
// Prolog-like rule language, which is also valid Prolog) together with the number of
// tuples its least model must contain. Those counts come from plain graph algorithms
// in this file (BFS closure, depth grouping), never from the engine, so the harness
// can check the engine's answers before it trusts any timing.

export type Edge = readonly [from: number, to: number];

export interface Query {
  /** The goal as given to `runText({ goal })`, e.g. `path(0, X)`. */
  readonly goal: string;
  /** Number of answers the goal must have. */
  readonly expected: number;
}

export interface Workload {
  readonly id: string;
  readonly description: string;
  /** Facts + rules. Contains no engine- or Prolog-specific directives. */
  readonly source: string;
  /** The derived predicate whose full extension is measured (`path` or `sg`). */
  readonly pred: string;
  readonly arity: number;
  /** Number of `pred` tuples in the least model. */
  readonly expected: number;
  /** Set for workloads that also time a point query. */
  readonly query?: Query;
}

// ---------------------------------------------------------------- seeded PRNG

/** mulberry32: a tiny 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------- graphs

export function chainEdges(nodes: number): Edge[] {
  const edges: Edge[] = [];
  for (let i = 0; i + 1 < nodes; i++) edges.push([i, i + 1]);
  return edges;
}

/** `count` distinct directed edges between `nodes` nodes, no self-loops, in generation order. */
export function randomEdges(nodes: number, count: number, seed: number): Edge[] {
  if (count > nodes * (nodes - 1)) throw new Error(`cannot draw ${count} distinct edges on ${nodes} nodes`);
  const rand = mulberry32(seed);
  const seen = new Set<number>();
  const edges: Edge[] = [];
  while (edges.length < count) {
    const u = Math.floor(rand() * nodes);
    const v = Math.floor(rand() * nodes);
    if (u === v || seen.has(u * nodes + v)) continue;
    seen.add(u * nodes + v);
    edges.push([u, v]);
  }
  return edges;
}

function adjacency(nodes: number, edges: readonly Edge[]): number[][] {
  const adj: number[][] = Array.from({ length: nodes }, () => []);
  for (const [u, v] of edges) adj[u]!.push(v);
  return adj;
}

/** Nodes reachable from `src` by a path of length >= 1 (so `src` itself only if it lies on a cycle). */
function reachCount(adj: readonly number[][], src: number, seen: Int32Array, stamp: number): number {
  const stack = [...adj[src]!];
  let count = 0;
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (seen[v] === stamp) continue;
    seen[v] = stamp;
    count++;
    for (const w of adj[v]!) if (seen[w] !== stamp) stack.push(w);
  }
  return count;
}

/** |transitive closure| = number of pairs (x, y) with a non-empty path x -> y. */
export function closureSize(nodes: number, edges: readonly Edge[]): number {
  const adj = adjacency(nodes, edges);
  const seen = new Int32Array(nodes);
  let total = 0;
  for (let s = 0; s < nodes; s++) total += reachCount(adj, s, seen, s + 1);
  return total;
}

export function reachableFrom(nodes: number, edges: readonly Edge[], src: number): number {
  return reachCount(adjacency(nodes, edges), src, new Int32Array(nodes), 1);
}

// ---------------------------------------------------------------- program text

const TC_RULES = `
path(X, Y) :- edge(X, Y).
path(X, Z) :- path(X, Y), edge(Y, Z).
`;

const SG_RULES = `
sg(X, Y) :- par(X, P), par(Y, P).
sg(X, Y) :- par(X, A), sg(A, B), par(Y, B).
`;

function factsText(pred: string, pairs: readonly Edge[]): string {
  return pairs.map(([a, b]) => `${pred}(${a}, ${b}).`).join('\n');
}

function tcWorkload(id: string, description: string, nodes: number, edges: readonly Edge[], query?: number): Workload {
  const source = `% ${description}\n${factsText('edge', edges)}\n${TC_RULES}`;
  const base = { id, description, source, pred: 'path', arity: 2, expected: closureSize(nodes, edges) };
  if (query === undefined) return base;
  return { ...base, query: { goal: `path(${query}, X)`, expected: reachableFrom(nodes, edges, query) } };
}

// ---------------------------------------------------------------- same generation

/** Complete binary tree with levels 0..depth, heap-numbered: the parent of i > 0 is floor((i - 1) / 2). */
export function binaryTreeParents(depth: number): Edge[] {
  const nodes = 2 ** (depth + 1) - 1;
  const par: Edge[] = [];
  for (let i = 1; i < nodes; i++) par.push([i, Math.floor((i - 1) / 2)]);
  return par;
}

/**
 * |sg| for the two standard rules over a forest given by `par(Child, Parent)`:
 * sg(X, Y) holds iff X and Y have a common ancestor at the same positive distance,
 * i.e. (in a tree) X and Y are non-root nodes at the same depth. Computed by grouping
 * nodes by depth, independently of any rule evaluation.
 */
export function sameGenerationSize(par: readonly Edge[]): number {
  const parentOf = new Map<number, number>(par.map(([c, p]) => [c, p]));
  const nodes = new Set<number>(par.flat());
  const depthCache = new Map<number, number>();
  const depth = (n: number): number => {
    const known = depthCache.get(n);
    if (known !== undefined) return known;
    const p = parentOf.get(n);
    const d = p === undefined ? 0 : depth(p) + 1;
    depthCache.set(n, d);
    return d;
  };
  // Key: root * 2^20 + depth, so nodes of different trees never pair up.
  const rootOf = (n: number): number => {
    let r = n;
    for (let p = parentOf.get(r); p !== undefined; p = parentOf.get(r)) r = p;
    return r;
  };
  const groups = new Map<number, number>();
  for (const n of nodes) {
    const d = depth(n);
    if (d === 0) continue;
    const key = rootOf(n) * 2 ** 20 + d;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  let total = 0;
  for (const size of groups.values()) total += size * size;
  return total;
}

// ---------------------------------------------------------------- the suite

/** (a) transitive closure of a 1000-node chain: C(1000, 2) = 499,500 tuples. */
export function chain1000(): Workload {
  return tcWorkload('chain-1000', 'transitive closure of a 1000-node chain', 1000, chainEdges(1000));
}

/** (b) Seed 7 is a fixed arbitrary choice; the closure has 644,135 tuples. */
export function random1000(): Workload {
  return tcWorkload('random-1000', 'transitive closure of a random graph, 1000 nodes, 2000 edges (mulberry32 seed 7)', 1000, randomEdges(1000, 2000, 7), 0);
}

/**
 * (c) same generation on a complete binary tree of depth 10 (2047 nodes, 2046 `par` facts).
 * Level d >= 1 has 2^d nodes, all pairs at one level are in sg, so
 * |sg| = sum_{d=1..10} 4^d = (4^11 - 4) / 3 = 1,398,100.
 */
export function sgTree10(): Workload {
  const par = binaryTreeParents(10);
  const description = 'same generation on a complete binary tree of depth 10 (2047 nodes)';
  const source = `% ${description}\n${factsText('par', par)}\n${SG_RULES}`;
  return { id: 'sg-tree-10', description, source, pred: 'sg', arity: 2, expected: sameGenerationSize(par) };
}

/** (d) naive vs semi-naive: closure of a 200-node chain, 19,900 tuples. */
export function chain200(): Workload {
  return tcWorkload('chain-200', 'transitive closure of a 200-node chain', 200, chainEdges(200));
}

/**
 * (e) point query `path(0, X)` vs the full closure: random graph, 2000 nodes, 4000 edges.
 * Seed 3 is fixed and chosen so that node 0 reaches the giant component (1563 answers),
 * so the point query is not trivial; the full closure has 2,464,029 tuples.
 */
export function random2000(): Workload {
  return tcWorkload('random-2000', 'random graph, 2000 nodes, 4000 edges (mulberry32 seed 3)', 2000, randomEdges(2000, 4000, 3), 0);
}

/** Peak memory while printing: transitive closure of a 2000-node chain, 1,999,000 tuples. */
export function chain2000(): Workload {
  return tcWorkload('chain-2000', 'transitive closure of a 2000-node chain', 2000, chainEdges(2000));
}
