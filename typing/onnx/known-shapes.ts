// How much of a value's shape is known, the way the demo, `bench:onnx` and `shapelog bench
// MODEL.onnx` count it: exact (every dim an integer), symbolic (every dim known, some as a
// symbolic expression of the graph's dim_params), or unknown (no type, an unknown rank, or
// a dim left unknown). A value whose shape is exact or symbolic is "fully known".
import type { ValueType } from './value-terms.js';

export type ShapeKnowledge = 'exact' | 'symbolic' | 'unknown';

export function shapeKnowledge(t: ValueType | null): ShapeKnowledge {
  if (t === null || t.kind !== 'tensor' || t.shape === null || t.shape.some((d) => d === null)) return 'unknown';
  return t.shape.every((d) => typeof d === 'number') ? 'exact' : 'symbolic';
}

/** How many of `types` are exact, symbolic and unknown. */
export function countKnowledge(types: readonly (ValueType | null)[]): Record<ShapeKnowledge, number> {
  const counts = { exact: 0, symbolic: 0, unknown: 0 };
  for (const t of types) counts[shapeKnowledge(t)]++;
  return counts;
}

/** A dim as printed in JSON: an integer, a symbolic dim's text, or null (unknown). */
export type DimJson = number | string | null;

/** The names a symbolic dim is made of (`("p2o.D.1" - 1) / 4 + 1` -> p2o.D.1; a name printed alone is not quoted, fullyKnownShape looks it up whole). */
function namesIn(dim: string): string[] {
  return [...dim.matchAll(/"([^"]+)"|([A-Za-z_][A-Za-z0-9_.]*)/g)].map((m) => m[1] ?? m[2]!);
}

/**
 * Is every dim of `shape` known: an integer, or a symbolic dim made only of `params` (the
 * graph inputs' dim_params and the names of their anonymous dims, input-dims.ts's
 * graphInputDims)? Judges ONNX's own inference (whose unknown dims get names such as
 * `unk__3`) and shapelog's alike.
 */
export function fullyKnownShape(shape: readonly DimJson[] | null | undefined, params: ReadonlySet<string>): boolean {
  return shape?.every((d) => typeof d === 'number' || (typeof d === 'string' && (params.has(d) || namesIn(d).every((n) => params.has(n))))) ?? false;
}
