// A float value as an exact fraction of integers, for values that drive shapes (Resize
// scales such as 0.8): the shortest decimal that reads back as the same float (float32
// or float64), then numerator / power of ten, reduced. Rules compute with the fraction
// exactly (floor(4 * 4/5) = 3), never with binary floating point.

const MAX_DIGITS = 9;

function gcd(a: number, b: number): number {
  while (b !== 0) {
    // not `[a, b] = [b, a % b]`: in code not yet optimized, that builds an array per step
    const r = a % b;
    a = b;
    b = r;
  }
  return Math.abs(a);
}

/** [numerator, denominator] of `x`, or null when it is not finite or needs more than MAX_DIGITS decimals. */
export function exactFraction(x: number, float32: boolean): readonly [number, number] | null {
  if (!Number.isFinite(x)) return null;
  const same = (y: number) => (float32 ? Math.fround(y) === Math.fround(x) : y === x);
  for (let digits = 0; digits <= MAX_DIGITS; digits++) {
    const scale = 10 ** digits;
    const n = Math.round(x * scale);
    if (!Number.isSafeInteger(n) || !same(n / scale)) continue;
    const g = gcd(n, scale) || 1;
    return [n / g, scale / g];
  }
  return null;
}
