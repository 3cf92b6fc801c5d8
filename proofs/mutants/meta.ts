// Mutations of relations/imperative/meta.ts (see mutation.ts).
import type { Mutation } from './mutation.js';

const META = 'relations/imperative/meta.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'shape-of-rank0-scalar',
    file: META,
    find: 'tensorType([intDim(data.shape.length)], dtype)',
    replace: 'tensorType(data.shape.length === 0 ? [] : [intDim(data.shape.length)], dtype)',
    ops: ['shape_of'],
    what: "TVM's relation copied: a rank-0 input gives a rank-0 shape instead of the empty vector its compute returns",
  },
  {
    id: 'ndarray-size-vector',
    file: META,
    find: "return r.assign(out, tensorType([], dtype), 'the result') ?? 'done';",
    replace: "return r.assign(out, tensorType([intDim(1)], dtype), 'the result') ?? 'done';",
    ops: ['ndarray_size'],
    what: "an older TVM's shape: the size as a (1,) vector instead of a scalar",
  },
  {
    id: 'checkpoint-rejects-tuples',
    file: META,
    find: "if (data.kind !== 'tensor' && data.kind !== 'tuple' && data.kind !== 'hole') return",
    replace: "if (data.kind !== 'tensor' && data.kind !== 'hole') return",
    ops: ['annotation.checkpoint'],
    what: 'a wrong check: a tuple argument is rejected',
  },
];
