// Cross-check sweep cases for the reduce family (relations/ops/reduce.ts).
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../solver/infer/typeof.js';
import type { AttrJs } from '../../../relations/imperative/solve-one.js';
import { call, tensor, combos, range, shapesOfRank, type CaseGenerator } from '../case-kit.js';

function reduce(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([0, 1, 2, 3, 4]).filter((_, i) => i % 2 === 0)) {
    const axes: AttrJs[] = [null, [], ...range(-s.length, s.length)];
    if (s.length >= 2) axes.push([0, -1], [1, 0], [0, 0]);
    for (const axis of axes) for (const a of combos({ keepdims: [false, true], exclude: [false, true] })) out.push(call(op.name, [tensor(s)], axis === null ? a : { ...a, axis }));
  }
  out.push(call(op.name, ['_'], { axis: 1 }));
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  Reduce: reduce,
};
