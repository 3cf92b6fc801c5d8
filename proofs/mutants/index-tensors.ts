// Mutations of the index-tensors family's imperative twins (see mutation.ts):
// relations/imperative/index_tensors.ts.
import type { Mutation } from './mutation.js';

const INDEX_TENSORS = 'relations/imperative/index_tensors.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'strided-set-result-of-v',
    file: INDEX_TENSORS,
    find: "return r.assign(out, args[0]!, 'the result') ?? 'done';",
    replace: "return r.assign(out, args[1]!, 'the result') ?? 'done';",
    ops: ['strided_set'],
    what: "a swapped argument: the result takes v's type instead of data's",
  },
  {
    id: 'adv-index-rest-off-by-one',
    file: INDEX_TENSORS,
    find: 'const built = [...shape, ...data.shape.slice(indices.length)];',
    replace: 'const built = [...shape, ...data.shape.slice(indices.length - 1)];',
    ops: ['adv_index'],
    what: 'an off-by-one: the last indexed axis of data kept in the result',
  },
  {
    id: 'adv-index-too-many-accepted',
    file: INDEX_TENSORS,
    find: "if (data !== 'wait' && indices.length > data.shape.length)\n    return",
    replace: "if (data !== 'wait' && indices.length > data.shape.length + 1)\n    return",
    ops: ['adv_index'],
    what: 'an off-by-one: one index more than data has axes accepted',
  },
  {
    id: 'adv-index-first-index-shape-only',
    file: INDEX_TENSORS,
    find: 'for (const t of known.slice(1)) {\n    const b = broadcastShapes(r, shape, t.shape);',
    replace: 'for (const t of known.slice(1, 1)) {\n    const b = broadcastShapes(r, shape, t.shape);',
    ops: ['adv_index'],
    what: "a dropped fold: the result takes the first index's shape instead of the broadcast of all",
  },
];
