// Which facts one run of a join plan reads, as one value (datafrog's `stable`/`recent`
// split): the facts of a snapshot are stamped with the round that added them, and a run
// reads them by stamp. Either every fact of the snapshot (the naive strategy), or the
// semi-naive split around one scan, the delta scan: it reads the facts stamped since
// the plan last ran, the scans before it only older facts, the scans after it every fact;
// so each derivation that uses a new fact is found once. Every stamp of a snapshot is
// below its `end` (the stamp its next round's facts get).

export type ScanWindow =
  | { readonly kind: 'all'; readonly end: number }
  | { readonly kind: 'delta'; readonly scan: number; readonly since: number; readonly end: number };

/** Every fact of the snapshot whose next stamp is `end`. */
export function allFacts(end: number): ScanWindow {
  return { kind: 'all', end };
}

/** The semi-naive window: scan number `scan` reads the facts stamped in [since, end). */
export function deltaAt(scan: number, since: number, end: number): ScanWindow {
  return { kind: 'delta', scan, since, end };
}

/** The first stamp scan number `scanNo` reads. */
export function readsFrom(w: ScanWindow, scanNo: number): number {
  return w.kind === 'delta' && scanNo === w.scan ? w.since : 0;
}

/** The stamp scan number `scanNo` reads up to (excluded). */
export function readsTo(w: ScanWindow, scanNo: number): number {
  return w.kind === 'delta' && scanNo < w.scan ? w.since : w.end;
}

/** The join order of `plan` for window `w`: the variant that puts the delta scan first, when it has one. */
export function joinOrder<S>(plan: { readonly steps: readonly S[]; readonly variants: readonly (readonly S[] | null)[] }, w: ScanWindow): readonly S[] {
  return (w.kind === 'delta' ? plan.variants[w.scan] : null) ?? plan.steps;
}
