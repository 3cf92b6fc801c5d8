// The kit the per-family case generators (cases/*.ts) share: Relay text of
// tensor and tuple types, a fixed set of small shapes per rank, attribute
// combinations, and the call builder.
//
// Shapes use dims from {1, 2, 3, 5}, a few 0s, and a symbolic `n`; some arguments
// are unknown (`_`). Every dtype is float32, except one mismatch case per
// operator with several tensor arguments.
import type { AttrJs } from '../../relations/imperative/solve-one.js';
import type { OpInfo } from '../../relations/schema.js';
import type { TypeofRequest } from '../../typing/typeof.js';

export type Dim = number | string;
export type Shape = readonly Dim[];
export type Attrs = Record<string, AttrJs>;

/** Relay text of a tensor type: `Tensor[(1, 3), float32]`. */
export function tensor(shape: Shape, dtype = 'float32'): string {
  return `Tensor[(${shape.join(', ')}), ${dtype}]`;
}

/** Relay text of a tuple type: `(T1, T2)`. */
export function tuple(fields: readonly string[]): string {
  return fields.length === 1 ? `(${fields[0]},)` : `(${fields.join(', ')})`;
}

/** A small fixed set of shapes per rank. */
export const SHAPES: readonly (readonly Shape[])[] = [
  [[]],
  [[1], [3], [5], [0]],
  [
    [2, 3],
    [1, 5],
    ['n', 3],
  ],
  [
    [2, 3, 5],
    [1, 3, 1],
    ['n', 2, 3],
  ],
  [
    [1, 3, 5, 5],
    [2, 1, 3, 2],
    ['n', 3, 5, 5],
    [1, 2, 0, 3],
  ],
];

export const shapesOfRank = (ranks: readonly number[]): Shape[] => ranks.flatMap((r) => SHAPES[r] ?? []);
export const ALL_SHAPES = shapesOfRank([0, 1, 2, 3, 4]);
export const range = (lo: number, hi: number): number[] => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);

/** Every combination of the given attribute values, in order (first key slowest). */
export function combos(choices: Readonly<Record<string, readonly AttrJs[]>>): Attrs[] {
  let out: Attrs[] = [{}];
  for (const [name, values] of Object.entries(choices)) out = out.flatMap((a) => values.map((v) => ({ ...a, [name]: v })));
  return out;
}

export const call = (op: string, args: readonly string[], attrs: Attrs = {}): TypeofRequest =>
  Object.keys(attrs).length === 0 ? { op, args } : { op, attrs, args };

/** A sweep generator: the cases of one operator. */
export type CaseGenerator = (op: OpInfo) => TypeofRequest[];

/** Calls of `op` on the well-typed arguments `ok` with each argument in turn unknown (`_`), then wrapped in a tuple. */
export function eachArgumentUnknownOrTuple(op: string, ok: readonly string[]): TypeofRequest[] {
  return ok.flatMap((_, i) => [
    call(
      op,
      ok.map((t, j) => (j === i ? '_' : t)),
    ),
    call(
      op,
      ok.map((t, j) => (j === i ? tuple([t]) : t)),
    ),
  ]);
}

export function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((p) => range(0, n - 1).map((i) => [...p.slice(0, i), n - 1, ...p.slice(i)]));
}

export function unary(op: OpInfo, extraArgs: readonly string[] = []): TypeofRequest[] {
  return [...ALL_SHAPES.map((s) => call(op.name, [tensor(s), ...extraArgs])), call(op.name, ['_', ...extraArgs])];
}

export function axisSweep(op: OpInfo, extra: (s: Shape, axis: number) => TypeofRequest[] = () => []): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES) {
    for (const axis of range(-s.length - 1, s.length)) out.push(call(op.name, [tensor(s)], { axis }), ...extra(s, axis));
  }
  out.push(call(op.name, ['_'], { axis: 0 }));
  return out;
}
