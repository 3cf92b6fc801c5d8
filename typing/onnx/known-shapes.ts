// How much of a value's shape is known, the way the demo and `bench:onnx` count it:
// exact (every dim an integer), symbolic (every dim known, some as a symbolic
// expression of the graph's dim_params), or unknown (no type, an unknown rank, or a dim
// left unknown). A value whose shape is exact or symbolic is "fully known".
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
