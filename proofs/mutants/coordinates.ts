// Mutations of relations/imperative/coordinates.ts (see mutation.ts).
import type { Mutation } from './mutation.js';

const ND = 'relations/imperative/coordinates.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'gather-nd-batch-dims-ignored',
    file: ND,
    find: 'shape: [...indices.shape.slice(1), ...data.shape.slice(m + b)]',
    replace: 'shape: [...indices.shape.slice(1), ...data.shape.slice(m)]',
    ops: ['gather_nd'],
    what: 'a dropped attribute: the slice dims after the coordinates ignore batch_dims',
  },
  {
    id: 'gather-nd-rank-bound-off-by-one',
    file: ND,
    find: 'if (m + b > data.shape.length)\n    return',
    replace: 'if (m + b > data.shape.length + 1)\n    return',
    ops: ['gather_nd'],
    what: "an off-by-one: coordinate vectors one longer than data's rank are accepted",
  },
  {
    id: 'scatter-nd-trailing-dims-unchecked',
    file: ND,
    find: "ndSameDims(r, updates.shape.slice(k), data.shape.slice(m), 'updates and data in a trailing dim', pending);",
    replace: 'null;',
    ops: ['scatter_nd'],
    what: "a dropped check: updates whose trailing dims differ from data's are accepted",
  },
  {
    id: 'reverse-sequence-seq-axis-as-batch',
    file: ND,
    find: 'const [x, y] = [lengths.shape[0]!, data.shape[batch]!];',
    replace: "const [x, y] = [lengths.shape[0]!, data.shape[ndAxis(r, getInt(attrs, 'seq_axis'), data.shape.length, 'seq_axis') as number]!];",
    ops: ['reverse_sequence'],
    what: 'a swapped axis: seq_lengths is checked against the sequence axis instead of the batch axis',
  },
  {
    id: 'nd-indices-dtype-unchecked',
    file: ND,
    find: "if (t === 'wait' || typeof t.dtype !== 'string' || ND_INT_DTYPES.has(t.dtype)) return null;",
    replace: 'return null;',
    ops: ['gather_nd', 'scatter_nd', 'reverse_sequence'],
    what: 'a dropped check: float indices (and float seq_lengths) are accepted',
  },
];
