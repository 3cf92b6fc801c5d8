// Cross-check sweep cases for relations/window.rules: sliding_window over every shape
// with every axis, windows that fit, fill or overflow their dims, strides of 1-3,
// lists of the wrong length, unknown and symbolic dims, tuples.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, ALL_SHAPES, range, type CaseGenerator } from '../case-kit.js';

function slidingWindow(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES) {
    for (const axis of range(0, s.length)) {
      const n = s.length - axis;
      const ones = Array<number>(n).fill(1);
      out.push(call(op.name, [tensor(s)], { axis, window_shape: ones, strides: ones }));
      out.push(call(op.name, [tensor(s)], { axis, window_shape: Array<number>(n).fill(2), strides: range(1, n).map((i) => (i % 3) + 1) }));
      out.push(call(op.name, [tensor(s)], { axis, window_shape: Array<number>(n).fill(3), strides: Array<number>(n).fill(2) }));
      out.push(call(op.name, [tensor(s)], { axis, window_shape: [...ones, 1], strides: [...ones, 1] }));
    }
  }
  out.push(
    call(op.name, [tensor([4, 5])], { axis: 0, window_shape: [2, 2], strides: [1] }),
    call(op.name, [tensor([4, 5])], { axis: 1, window_shape: [6], strides: [1] }),
  );
  out.push(
    call(op.name, [tensor(['n', 5])], { axis: 0, window_shape: [2, 3], strides: [2, 2] }),
    call(op.name, [tensor(['_', 5])], { axis: 0, window_shape: [2, 3], strides: [1, 1] }),
  );
  out.push(
    call(op.name, [tensor(['_', 5])], { axis: 1, window_shape: [3], strides: [1] }),
    call(op.name, [tensor(['?', 7])], { axis: 0, window_shape: [2, 3], strides: [1, 3] }),
  );
  out.push(call(op.name, ['_'], { axis: 0, window_shape: [2], strides: [1] }), call(op.name, ['_'], { axis: 0, window_shape: [2], strides: [1, 1] }));
  out.push(call(op.name, [tuple([tensor([4])])], { axis: 0, window_shape: [2], strides: [1] }), call(op.name, [tensor([4])], { axis: 0, window_shape: [2] }));
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  SlidingWindow: slidingWindow,
};
