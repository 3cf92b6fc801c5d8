// Mutations of relations/imperative/collapse.ts (see mutation.ts).
import type { Mutation } from './mutation.js';

const BL = 'relations/imperative/collapse.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'collapse-sum-like-direction-swapped',
    file: BL,
    find: "export const collapseSumLikeRel: RelationFn = likeRelation('collapse_type', false);",
    replace: "export const collapseSumLikeRel: RelationFn = likeRelation('collapse_type', true);",
    ops: ['collapse_sum_like'],
    what: 'a swapped direction: data must broadcast to collapse_type instead of the other way round',
  },
  {
    id: 'broadcast-like-dtype-unchecked',
    file: BL,
    find: 'const de = blDtypes(r, data, other, name);',
    replace: 'const de = null;',
    ops: ['broadcast_to_like', 'collapse_sum_like'],
    what: 'a dropped check: operands of two dtypes are accepted',
  },
  {
    id: 'collapse-sum-to-keeps-data-shape',
    file: BL,
    find: "return r.assign(out, tensorType(shape, data.dtype), 'the result') ?? 'done';",
    replace: "return r.assign(out, tensorType(data.shape, data.dtype), 'the result') ?? 'done';",
    ops: ['collapse_sum_to'],
    what: "a wrong shape: the result keeps data's shape instead of the target shape",
  },
];
