// Sliding windows after TVM's SlidingWindowRel (src/relay/op/tensor/transform.cc):
// SlidingWindow.
//
//   SlidingWindow(data; axis, window_shape, strides): Tensor[data.shape[:axis] ++
//     [(data.shape[axis + i] - window_shape[i]) / strides[i] + 1] ++ window_shape,
//     data.dtype] (floor division).
//
// Deviations from TVM: axis < rank; window_shape and strides have rank - axis
// entries; a window longer than its dim is an error (a residual assumption when
// symbolic and undecided). The relation waits while a covered dim is a hole.

import type { IDim } from './types.js';
import type { RelationFn } from './relation.js';
import { dAdd, dDiv, dSub, expectTensor, getInt, getInts } from './common.js';
import { isError } from './relation.js';
import { intDim, printDim, printType, tensorType } from './types.js';

export const slidingWindowRel: RelationFn = (args, out, attrs, r) => {
  const windows = getInts(attrs, 'window_shape');
  const strides = getInts(attrs, 'strides');
  if (strides.length !== windows.length) return r.fail(`strides [${strides.join(', ')}] must have as many entries as window_shape [${windows.join(', ')}]`);
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const axis = getInt(attrs, 'axis');
  const rank = data.shape.length;
  if (axis >= rank) return r.fail(`axis ${axis} is out of range for ${printType(data)}`);
  if (windows.length !== rank - axis)
    return r.fail(`window_shape [${windows.join(', ')}] must have ${rank - axis} entries (the dims of data from axis ${axis} on)`);
  const covered = data.shape.slice(axis);
  for (const [i, d] of covered.entries()) {
    const c = r.require(intDim(windows[i]!), '<=', d, `a window of ${windows[i]} is longer than its dim ${printDim(d)}`);
    if (isError(c)) return c;
  }
  if (covered.some((d) => d.kind === 'hole')) return r.wait('dims covered by the window are not known yet');
  const counts: IDim[] = covered.map((d, i) => dAdd(dDiv(dSub(d, windows[i]!), strides[i]!), 1));
  return r.assign(out, tensorType([...data.shape.slice(0, axis), ...counts, ...windows.map(intDim)], data.dtype), 'the result') ?? 'done';
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  SlidingWindow: slidingWindowRel,
};
