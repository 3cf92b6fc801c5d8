// Mutations of relations/imperative/matrix.ts and relations/imperative/window.ts
// (see mutation.ts).
import type { Mutation } from './mutation.js';

const MATRIX = 'relations/imperative/matrix.ts';
const WINDOW = 'relations/imperative/window.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'matrix-set-diag-band-rows-dropped',
    file: MATRIX,
    find: 'return [...s.slice(0, -2), ...(k1 === k2 ? [] : [intDim(k2 - k1 + 1)]), longest];',
    replace: 'return [...s.slice(0, -2), ...(k1 === k2 ? [] : [intDim(k2 - k1)]), longest];',
    ops: ['matrix_set_diag'],
    what: 'an off-by-one: a band of diagonals k1..k2 expects k2 - k1 rows in diagonal',
  },
  {
    id: 'matrix-set-diag-longest-uses-k2',
    file: MATRIX,
    find: 'dimAdd(nv, dimConst(Math.min(-k1, 0)))',
    replace: 'dimAdd(nv, dimConst(Math.min(-k2, 0)))',
    ops: ['matrix_set_diag'],
    what: "a swapped attribute: the longest diagonal's column bound read from k2 instead of k1",
  },
  {
    id: 'matrix-set-diag-k-order-unchecked',
    file: MATRIX,
    find: 'if (k1 > k2) return r.fail(`k1 ${k1} must not exceed k2 ${k2}`);',
    replace: 'if (k1 > k2 + 1) return r.fail(`k1 ${k1} must not exceed k2 ${k2}`);',
    ops: ['matrix_set_diag'],
    what: 'a weakened check: k1 = k2 + 1 accepted',
  },
  {
    id: 'trilu-vector-accepted',
    file: MATRIX,
    find: "if (data !== 'wait' && data.shape.length < 2) return",
    replace: "if (data !== 'wait' && data.shape.length < 1) return",
    ops: ['trilu'],
    what: 'an off-by-one: a 1-D data is accepted',
  },
  {
    id: 'trilu-k-rank-unchecked',
    file: MATRIX,
    find: "if (k !== 'wait' && k.shape.length !== 0) return",
    replace: "if (k !== 'wait' && k.shape.length > 1) return",
    ops: ['trilu'],
    what: 'a weakened check: a (1,) k is accepted',
  },
  {
    id: 'sliding-window-count-off-by-one',
    file: WINDOW,
    find: 'dAdd(dDiv(dSub(d, windows[i]!), strides[i]!), 1)',
    replace: 'dDiv(dSub(d, windows[i]!), strides[i]!)',
    ops: ['sliding_window'],
    what: 'an off-by-one: the number of window positions misses the first',
  },
  {
    id: 'sliding-window-overlong-accepted',
    file: WINDOW,
    find: "const c = r.require(intDim(windows[i]!), '<=', d,",
    replace: "const c = r.require(intDim(0), '<=', d,",
    ops: ['sliding_window'],
    what: 'a dropped check: a window longer than its dim is accepted',
  },
];
