// The floor for the engine benchmarks: each workload as a short plain-JavaScript
// semi-naive loop over Sets of packed integer pairs, written for these two rule shapes
// only (transitive closure, same generation). Its input is the workload's fact list as
// numbers (read from the program text once, outside the timing); it returns the number
// of derived tuples, which the harness checks like the engine's.
import type { Workload } from './workloads.js';

export interface PlainInput {
  readonly nodes: number;
  /** Pairs of the workload's only base relation (`edge` or `par`), flattened. */
  readonly pairs: Int32Array;
  /** For a point query `path(S, X)`: S. */
  readonly source: number | null;
}

const FACT = /^(edge|par)\((\d+), (\d+)\)\.$/gm;

export function plainInput(w: Workload, pointQuery: boolean): PlainInput {
  const flat: number[] = [];
  let nodes = 0;
  for (const m of w.source.matchAll(FACT)) {
    const a = Number(m[2]);
    const b = Number(m[3]);
    flat.push(a, b);
    nodes = Math.max(nodes, a + 1, b + 1);
  }
  const source = pointQuery ? Number(/\((\d+),/.exec(w.query!.goal)![1]) : null;
  return { nodes, pairs: Int32Array.from(flat), source };
}

/** Successor lists of a pair list, by first column (`byFirst`) or by second. */
function adjacency(input: PlainInput, byFirst: boolean): number[][] {
  const adj: number[][] = Array.from({ length: input.nodes }, () => []);
  const p = input.pairs;
  for (let i = 0; i < p.length; i += 2) {
    if (byFirst) adj[p[i]!]!.push(p[i + 1]!);
    else adj[p[i + 1]!]!.push(p[i]!);
  }
  return adj;
}

/** path(X, Y) :- edge(X, Y).  path(X, Z) :- path(X, Y), edge(Y, Z). */
export function plainClosure(input: PlainInput): number {
  const n = input.nodes;
  const next = adjacency(input, true);
  const path = new Set<number>();
  let delta: number[] = [];
  const p = input.pairs;
  for (let i = 0; i < p.length; i += 2) {
    const key = p[i]! * n + p[i + 1]!;
    if (!path.has(key)) {
      path.add(key);
      delta.push(key);
    }
  }
  while (delta.length > 0) {
    const fresh: number[] = [];
    for (const key of delta) {
      const x = Math.floor(key / n);
      for (const z of next[key - x * n]!) {
        const k = x * n + z;
        if (!path.has(k)) {
          path.add(k);
          fresh.push(k);
        }
      }
    }
    delta = fresh;
  }
  return path.size;
}

/** path(S, X) for one S: the same loop over a Set of reached nodes. */
export function plainPointQuery(input: PlainInput): number {
  const next = adjacency(input, true);
  const reached = new Set<number>();
  let delta = [input.source!];
  while (delta.length > 0) {
    const fresh: number[] = [];
    for (const y of delta)
      for (const z of next[y]!)
        if (!reached.has(z)) {
          reached.add(z);
          fresh.push(z);
        }
    delta = fresh;
  }
  return reached.size;
}

/** sg(X, Y) :- par(X, P), par(Y, P).  sg(X, Y) :- par(X, A), sg(A, B), par(Y, B). */
export function plainSameGeneration(input: PlainInput): number {
  const n = input.nodes;
  const children = adjacency(input, false);
  const sg = new Set<number>();
  let delta: number[] = [];
  for (let parent = 0; parent < n; parent++)
    for (const x of children[parent]!)
      for (const y of children[parent]!) {
        const k = x * n + y;
        if (!sg.has(k)) {
          sg.add(k);
          delta.push(k);
        }
      }
  while (delta.length > 0) {
    const fresh: number[] = [];
    for (const key of delta) {
      const a = Math.floor(key / n);
      const b = key - a * n;
      for (const x of children[a]!)
        for (const y of children[b]!) {
          const k = x * n + y;
          if (!sg.has(k)) {
            sg.add(k);
            fresh.push(k);
          }
        }
    }
    delta = fresh;
  }
  return sg.size;
}

/** The plain loop for a workload (its point query when `pointQuery`). */
export function plainRun(w: Workload, pointQuery: boolean): (input: PlainInput) => number {
  if (pointQuery) return plainPointQuery;
  return w.pred === 'sg' ? plainSameGeneration : plainClosure;
}
