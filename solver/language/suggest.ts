// "did you mean ...?" suggestions by edit distance.

export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[n]!;
}

/** The closest candidate within a distance proportional to the name's length, if any. */
export function closest(name: string, candidates: Iterable<string>): string | null {
  let best: string | null = null;
  let bestD = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const c of candidates) {
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

export function didYouMean(name: string, candidates: Iterable<string>): string {
  const c = closest(name, candidates);
  return c === null ? '' : `; did you mean '${c}'?`;
}
