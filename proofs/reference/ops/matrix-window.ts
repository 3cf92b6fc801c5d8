// Reference executors for relations/matrix.rules and relations/window.rules: trilu
// (zero outside the triangle of each matrix in the last two axes), matrix_set_diag
// (diagonals k1..k2 of each matrix read from diagonal, aligned as the attributes say)
// and sliding_window (every window position, window elements last).
//
// They refuse what has no meaning: trilu of data of rank < 2 or with a k that is not
// an integer scalar; matrix_set_diag with k1 > k2, a diagonal outside the matrices,
// input of rank < 2 or a diagonal not shaped as TensorFlow's MatrixSetDiagV3 (where
// the operator comes from) requires, or of another dtype; sliding_window with an axis out of range, window_shape or
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

const matrixSetDiag: Executor = (args, attrs) => {
  const [input, diagonal] = winArgs(args, ['input', 'diagonal']) as [NDArray, NDArray];
  const [k1, k2] = [Number(attrs['k1'] ?? 0), Number(attrs['k2'] ?? 0)];
  if (k1 > k2) refuse(`k1 ${k1} > k2 ${k2}`);
  if (input.rank < 2) refuse(`input of rank ${input.rank} has no matrices`);
  if (diagonal.dtype !== input.dtype) refuse('diagonal and input differ in dtype');
  const [m, n] = input.shape.slice(-2) as [number, number];
  if (k1 <= -m || k2 >= n) refuse(`diagonals ${k1}..${k2} are not all inside ${m}x${n} matrices`);
  /** The number of elements of diagonal d. */
  const lengthOf = (d: number): number => Math.min(m + Math.min(d, 0), n - Math.max(d, 0));
  let longest = 0;
  for (let d = k1; d <= k2; d++) longest = Math.max(longest, lengthOf(d));
  const batch = input.shape.slice(0, -2);
  const expected = [...batch, ...(k1 === k2 ? [] : [k2 - k1 + 1]), longest];
  if (diagonal.rank !== expected.length || diagonal.shape.some((x, i) => x !== expected[i]))
    refuse(`diagonal [${diagonal.shape.join(', ')}] is not [${expected.join(', ')}]`);
  const rightAligned = (d: number): boolean => (d >= 0 ? attrs['super_diag_right_align'] !== false : attrs['sub_diag_right_align'] === true);
  return input.map((x, idx) => {
    const [i, j] = idx.slice(-2) as [number, number];
    const d = j - i;
    if (d < k1 || d > k2) return x;
    const at = (rightAligned(d) ? longest - lengthOf(d) : 0) + j - Math.max(d, 0);
    return diagonal.get([...idx.slice(0, -2), ...(k1 === k2 ? [] : [k2 - d]), at]);
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
  matrix_set_diag: matrixSetDiag,
  sliding_window: slidingWindow,
};

/** The relations reject exactly what the executors refuse (see the header). */
export const STRICTER: Readonly<Record<string, Stricter>> = {};
