// Reference executors for relations/matrix.rules and relations/window.rules: trilu
// (zero outside the triangle of each matrix in the last two axes) and sliding_window
// (every window position, window elements last).
//
// They refuse what has no meaning: trilu of data of rank < 2 or with a k that is not
// an integer scalar; sliding_window with an axis out of range, window_shape or
// strides not covering exactly the dims from axis on, or a window longer than its
// dim (there is no position for it).
import type { Executor, Stricter } from '../executor.js';
import { type NDArray, type Value, asTensor, build, isIntDtype, refuse } from '../tensor.js';

function winArgs(args: readonly Value[], names: readonly string[]): NDArray[] {
  if (args.length !== names.length) refuse(`expected ${names.length} arguments (${names.join(', ')}), got ${args.length}`);
  return names.map((n, i) => asTensor(args[i], n));
}

const trilu: Executor = (args, attrs) => {
  const [data, k] = winArgs(args, ['data', 'k']) as [NDArray, NDArray];
  if (data.rank < 2) refuse(`data of rank ${data.rank} has no matrices`);
  if (k.rank !== 0 || !isIntDtype(k.dtype)) refuse('k must be an integer scalar');
  const offset = k.data[0]!;
  const upper = attrs['upper'] !== false;
  return data.map((x, idx) => {
    const [i, j] = [idx[data.rank - 2]!, idx[data.rank - 1]!];
    return (upper ? j - i >= offset : j - i <= offset) ? x : 0;
  });
};

const slidingWindow: Executor = (args, attrs) => {
  const [data] = winArgs(args, ['data']) as [NDArray];
  const axis = Number(attrs['axis']);
  const windows = (attrs['window_shape'] as number[] | undefined) ?? [];
  const strides = (attrs['strides'] as number[] | undefined) ?? [];
  if (!(axis >= 0 && axis < data.rank)) refuse(`axis ${axis} is out of range for rank ${data.rank}`);
  const covered = data.shape.slice(axis);
  if (windows.length !== covered.length || strides.length !== covered.length) refuse('window_shape and strides must cover the dims from axis on');
  if (windows.some((w, i) => w > covered[i]!)) refuse('a window is longer than its dim');
  const counts = covered.map((d, i) => Math.floor((d - windows[i]!) / strides[i]!) + 1);
  const n = covered.length;
  return build([...data.shape.slice(0, axis), ...counts, ...windows], data.dtype, (idx) => {
    const lead = idx.slice(0, axis);
    const at = idx.slice(axis, axis + n).map((p, i) => p * strides[i]! + idx[axis + n + i]!);
    return data.get([...lead, ...at]);
  });
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  trilu,
  sliding_window: slidingWindow,
};

/** The relations reject exactly what the executors refuse (see the header). */
export const STRICTER: Readonly<Record<string, Stricter>> = {};
