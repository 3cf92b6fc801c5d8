// Summaries of timing samples: the median (the mean of the middle two for an even count),
// minimum and maximum. Shared by `shapelog bench` and the benchmarks in bench/.

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/** Median, min and max of a non-empty list (NaN for an empty one). */
export function spread(xs: readonly number[]): Spread {
  if (xs.length === 0) return { median: NaN, min: NaN, max: NaN };
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
}
