// Mutations of the bit-level family's imperative twins (see mutation.ts):
// relations/imperative/bits.ts.
import type { Mutation } from './mutation.js';

const BITS = 'relations/imperative/bits.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'bitwise-float-accepted',
    file: BITS,
    find: "if (typeof x.dtype === 'string' && !INT_DTYPES.has(x.dtype)) return r.fail",
    replace: "if (x.dtype === 'handle') return r.fail",
    ops: ['bitwise_and', 'left_shift', 'bitwise_not'],
    what: 'a dropped check: bit operations on float and bool tensors are accepted',
  },
  {
    id: 'bitwise-broadcast-bool-result',
    file: BITS,
    find: 'broadcastRelation(false, intOperand)',
    replace: 'broadcastRelation(true, intOperand)',
    ops: ['bitwise_or', 'right_shift'],
    what: 'a wrong dtype: the binary bit operators return bool, as comparisons do',
  },
  {
    id: 'fixed-point-any-int',
    file: BITS,
    find: "return data.dtype === 'int32' ? 'done'",
    replace: "return data.dtype !== 'float32' ? 'done'",
    ops: ['fixed_point_multiply'],
    what: 'a weakened check: fixed_point_multiply accepts every dtype but float32',
  },
  {
    id: 'reinterpret-width-unchecked',
    file: BITS,
    find: 'if (from !== width) return r.fail',
    replace: 'if (from === undefined) return r.fail',
    ops: ['reinterpret'],
    what: 'a dropped check: a reinterpretation that changes the bit width is accepted',
  },
  {
    id: 'reinterpret-keeps-dtype',
    file: BITS,
    find: "return r.assign(out, tensorType(data.shape, dtype), 'the result') ?? 'done';",
    replace: "return r.assign(out, tensorType(data.shape, data.dtype), 'the result') ?? 'done';",
    ops: ['reinterpret'],
    what: "a wrong dtype: reinterpret returns data's dtype",
  },
];
