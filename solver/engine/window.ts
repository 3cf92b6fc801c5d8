// Which facts one run of a join plan reads, as one value (datafrog's `stable`/`recent`
// split): the facts of a snapshot are stamped with the round that added them, and a run
// reads them by stamp. Either every fact of the snapshot (the naive strategy), or the
// semi-naive split around one scan, the delta scan: it reads the facts stamped since
// the plan last ran, the scans before it only older facts, the scans after it every fact;
// so each derivation that uses a new fact is found once. Every stamp of a snapshot is
// below its `end` (the stamp its next round's facts get). A solver's PlanClock, below,
// knows when each plan last ran, and so gives the windows of its next runs.

import { NEVER, type Stamp } from '../store/ids.js';

export type ScanWindow =
  | { readonly kind: 'all'; readonly end: Stamp }
  | { readonly kind: 'delta'; readonly scan: number; readonly since: Stamp; readonly end: Stamp };

/** Every fact of the snapshot whose next stamp is `end`. */
function allFacts(end: Stamp): ScanWindow {
  return { kind: 'all', end };
}

/**
 * A run that reads every fact of the snapshot: naive, or a plan's first semi-naive run
 * (as the delta window of its first scan from the beginning, to keep that scan's join order).
 */
export function everyFact(naive: boolean, end: Stamp): ScanWindow {
  return naive ? allFacts(end) : deltaAt(0, NEVER, end);
}

/** The semi-naive window: scan number `scan` reads the facts stamped in [since, end). */
function deltaAt(scan: number, since: Stamp, end: Stamp): ScanWindow {
  return { kind: 'delta', scan, since, end };
}

/** The first stamp scan number `scanNo` reads. */
export function readsFrom(w: ScanWindow, scanNo: number): Stamp {
  return w.kind === 'delta' && scanNo === w.scan ? w.since : NEVER;
}

/** The stamp scan number `scanNo` reads up to (excluded). */
export function readsTo(w: ScanWindow, scanNo: number): Stamp {
  return w.kind === 'delta' && scanNo < w.scan ? w.since : w.end;
}

/** The join order of `plan` for window `w`: the variant that puts the delta scan first, when it has one. */
export function joinOrder<S>(plan: { readonly steps: readonly S[]; readonly variants: readonly (readonly S[] | null)[] }, w: ScanWindow): readonly S[] {
  return (w.kind === 'delta' ? plan.variants[w.scan] : null) ?? plan.steps;
}

/**
 * When each plan last ran (its stamp then: every fact stamped before it has been joined by
 * it), and so the windows of its next run: a plan's windows come from its own clock, so a
 * run cannot read from another plan's stamp. Plans are shared by every solver over them;
 * each solver keeps its own clock (a fork copies its parent's).
 */
export class PlanClock {
  private readonly lastRun: Int32Array;

  constructor(plans: number, from?: PlanClock) {
    this.lastRun = new Int32Array(plans);
    if (from !== undefined) this.lastRun.set(from.lastRun);
  }

  /** The stamp of the plan's last run; NEVER when it never ran. */
  lastRunOf(plan: number): Stamp {
    return this.lastRun[plan]! as Stamp;
  }

  /** The window of a run of the plan for the facts its scan number `scan` got since it last ran. */
  newFactsAt(plan: number, scan: number, end: Stamp): ScanWindow {
    return deltaAt(scan, this.lastRunOf(plan), end);
  }

  /** Notes that the plan ran over the snapshot whose next stamp is `end`. */
  ran(plan: number, end: Stamp): void {
    this.lastRun[plan] = end;
  }
}
