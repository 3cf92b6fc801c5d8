// Where a command's time goes, by phase (`shapelog infer --stats`): reading the file,
// parsing or decoding it, loading the relation library, solving, printing. Each layer
// times its own phase with `timed`; a phase inside another (the library loaded while a
// program is parsed, a solve inside typing) counts for itself only, so the phases add up
// to at most the command's time and the rest is what no phase claims. One ledger per
// process: a command runs once.

export type Phase = 'read' | 'parse' | 'library' | 'solve' | 'print';

const spent = new Map<Phase, number>();
/** The phases running now, innermost last, each with when it started and the time its inner phases took. */
const running: { phase: Phase; started: number; inner: number }[] = [];

/** Runs `f`, adding its time (less that of phases inside it) to `phase`. */
export function timed<T>(phase: Phase, f: () => T): T {
  const frame = { phase, started: performance.now(), inner: 0 };
  running.push(frame);
  try {
    return f();
  } finally {
    running.pop();
    const total = performance.now() - frame.started;
    spent.set(phase, (spent.get(phase) ?? 0) + total - frame.inner);
    const outer = running.at(-1);
    if (outer !== undefined) outer.inner += total;
  }
}

/** Milliseconds spent in each phase so far (phases never entered are absent). */
export function phaseTimes(): ReadonlyMap<Phase, number> {
  return new Map(spent);
}
