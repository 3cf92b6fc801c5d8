// What one round derives, buffered: writes are applied together at the end of the
// round (commit.ts), so every rule in a round reads the same snapshot.
import type { Plan, Step } from './plan.js';

export interface UnifyRequest {
  readonly a: number;
  readonly b: number;
  readonly plan: Plan;
  readonly premises: readonly number[];
}

export interface Wait {
  readonly plan: Plan;
  /** The join order that was running (the plan's steps or one of its variants). */
  readonly steps: readonly Step[];
  /** Index of the step that could not be decided, or -1 for the head. */
  readonly step: number;
  readonly vals: Int32Array;
  /** The demand fact the plan was running for, if it computes a demanded copy (else 0). */
  readonly demand: number;
  /** The facts matched so far by the waiting rule instance. */
  readonly premises: readonly number[];
}

export class RoundBuffer {
  /** New facts by relation, distinct and absent from the snapshot. */
  readonly facts = new Map<string, number[]>();
  readonly seen = new Set<number>();
  /** Flat provenance records: fact, rule, premise count, premises... */
  readonly provenance: number[] = [];
  readonly unifications: UnifyRequest[] = [];
  count = 0;

  add(rel: string, fact: number, rule: number, premises: Int32Array, premiseCount: number): void {
    this.seen.add(fact);
    let list = this.facts.get(rel);
    if (!list) this.facts.set(rel, (list = []));
    list.push(fact);
    this.provenance.push(fact, rule, premiseCount);
    for (let i = 0; i < premiseCount; i++) this.provenance.push(premises[i]!);
    this.count++;
  }
}
