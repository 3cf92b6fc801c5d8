// "did you mean ...?" suggestions by edit distance. Bounded: a name longer than
// MAX_SUGGEST_LENGTH gets no suggestion, and a candidate whose length alone puts it
// out of reach is skipped, so a huge unknown name costs no more than a short one.

/** Names longer than this get no suggestion (no real name is that long; the distance is quadratic). */
export const MAX_SUGGEST_LENGTH = 100;

/** Edit distance where inserting, deleting, replacing or swapping two adjacent characters costs 1. */
export function editDistance(a: string, b: string): number {
  const n = b.length;
  // three rolling rows: the one before the previous (for swaps), the previous, the current
  let before: number[] = new Array<number>(n + 1).fill(0);
  let prev: number[] = Array.from({ length: n + 1 }, (_, j) => j);
  let cur: number[] = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, before[j - 2]! + 1);
      cur[j] = v;
    }
    [before, prev, cur] = [prev, cur, before];
  }
  return prev[n]!;
}

/** The closest candidate within a distance proportional to the name's length, if any. */
export function closest(name: string, candidates: Iterable<string>): string | null {
  if (name.length > MAX_SUGGEST_LENGTH) return null;
  let best: string | null = null;
  let bestD = Math.max(1, Math.floor(name.length / 3)) + 1;
  const lower = name.toLowerCase();
  for (const c of candidates) {
    // the distance is at least the difference in length
    if (Math.abs(c.length - name.length) >= bestD) continue;
    const d = editDistance(lower, c.toLowerCase());
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
