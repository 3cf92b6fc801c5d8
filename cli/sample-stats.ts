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

export interface PairedRatio {
  readonly median: number;
  /** The first and third quartiles (nearest rank). */
  readonly q1: number;
  readonly q3: number;
}

/**
 * `a[i] / b[i]` sample by sample, summarized: for two commands timed in alternation, each
 * pair close in time, so a slow spell of the machine falls on both (the ratio of the
 * medians mixes samples from different spells). Pairs beyond the shorter list are ignored.
 */
export function pairedRatio(a: readonly number[], b: readonly number[]): PairedRatio {
  const n = Math.min(a.length, b.length);
  const ratios = Array.from({ length: n }, (_, i) => a[i]! / b[i]!).sort((x, y) => x - y);
  const rank = (q: number) => (n === 0 ? NaN : ratios[Math.round(q * (n - 1))]!);
  return { median: median(ratios), q1: rank(0.25), q3: rank(0.75) };
}
