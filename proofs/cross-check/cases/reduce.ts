// Cross-check sweep cases for the reduce family (declared in relations/reduce.rules).
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import type { AttrJs } from '../../../relations/imperative/solve-one.js';
import { call, tensor, tuple, combos, range, shapesOfRank, type Attrs, type CaseGenerator } from '../case-kit.js';

/**
 * Reduce and ArgReduce: shapes of rank 0-4, every axis in and out of range, None, [],
 * lists (in order, reversed, repeated), keepdims x exclude (for the operators that
 * have exclude), and the operator's own extra bool attribute (unbiased,
 * select_last_index) on a subset.
 */
function reduce(op: OpInfo): TypeofRequest[] {
  const has = (name: string) => op.attrs.some((a) => a.name === name);
  const extra = op.attrs.find((a) => a.type === 'bool' && a.name !== 'keepdims' && a.name !== 'exclude')?.name;
  const flags = combos(has('exclude') ? { keepdims: [false, true], exclude: [false, true] } : { keepdims: [false, true] });
  const out: TypeofRequest[] = [];
  const withAxis = (a: Attrs, axis: AttrJs | undefined): Attrs => (axis === undefined ? a : { ...a, axis });
  // every other shape of rank 0-4, without the second rank-4 one (the sweep stays under 20 s)
  for (const s of shapesOfRank([0, 1, 2, 3, 4]).filter((_, i) => i % 2 === 0 && i !== 12)) {
    const axes: (AttrJs | undefined)[] = [undefined, null, [], ...range(-s.length - 1, s.length)];
    if (s.length >= 1) axes.push([0], [-1, 5]);
    if (s.length >= 2) axes.push([0, -1], [1, 0], [0, 0], [1, 1 - s.length]);
    if (s.length >= 1) axes.push(range(0, s.length - 1)); // every axis: with exclude, nothing is reduced
    for (const axis of axes) for (const a of flags) out.push(call(op.name, [tensor(s)], withAxis(a, axis)));
    if (extra !== undefined) for (const axis of [undefined, -1, [0, -1]]) out.push(call(op.name, [tensor(s)], withAxis({ [extra]: true }, axis)));
  }
  // unknown and partial data, dtypes, tuples
  const ex = has('exclude') ? [{ exclude: true }, { axis: 0, exclude: true }] : [];
  for (const a of [{ axis: 1 }, {}, { axis: [0, 0] }, ...ex]) out.push(call(op.name, ['_'], a));
  for (const a of [{ axis: 1 }, { axis: -1, keepdims: true }, {}, { axis: 3 }])
    out.push(call(op.name, [tensor([2, '_', 'n'])], a), call(op.name, [tensor(['?', 3, '?'])], a));
  for (const d of ['int32', 'bool', 'float16']) out.push(call(op.name, [tensor([2, 3], d)], { axis: 0 }));
  out.push(call(op.name, [tuple([tensor([2, 3])])], { axis: 0 }), call(op.name, [tuple([tensor(['_', 3])])]));
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  Reduce: reduce,
  ArgReduce: reduce,
  Variance: reduce,
  MeanVariance: reduce,
};
