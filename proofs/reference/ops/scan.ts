// Reference executors for the scan family (relations/scan.rules): cumsum and
// cumprod, sort and argsort, searchsorted, each computed on concrete tensors.
//
// Like TVM's computes (not its relations), they refuse an axis out of range (a
// scalar has no axis to sort or scan along), indices of a non-integer dtype, a
// sorted_sequence that is a scalar or whose leading dims differ from the values'.
import { type Executor, type Stricter, dtypeOutsideTable } from '../executor.js';
import { type NDArray, type Value, asTensor, build, fitDtype, isIntDtype, refuse } from '../tensor.js';

function scanArgs(args: readonly Value[], names: readonly string[]): NDArray[] {
  if (args.length !== names.length) refuse(`expected ${names.length} arguments (${names.join(', ')}), got ${args.length}`);
  return names.map((n, i) => asTensor(args[i], n));
}

function scanAxis(axis: unknown, rank: number): number {
  const a = Number(axis);
  if (!Number.isInteger(a) || a < -rank || a >= rank) refuse(`axis ${String(axis)} is out of range for rank ${rank}`);
  return a < 0 ? a + rank : a;
}

/** The elements of the line through `idx` along `axis`. */
const line = (t: NDArray, idx: readonly number[], axis: number): number[] =>
  Array.from({ length: t.shape[axis]! }, (_, j) => t.get(idx.map((x, d) => (d === axis ? j : x))));

/** cumsum / cumprod: `step` folds, `unit` starts; over the flattened data without an axis. */
function scan(step: (acc: number, x: number) => number, unit: number): Executor {
  return (args, attrs) => {
    const [x] = scanArgs(args, ['data']) as [NDArray];
    const given = String(attrs['dtype'] ?? '');
    const dtype = given === '' ? x.dtype : given;
    const exclusive = attrs['exclusive'] === true;
    const flat = attrs['axis'] === undefined || attrs['axis'] === null;
    const data = flat ? build([x.size], x.dtype, ([i]) => x.data[i!]!) : x;
    const axis = flat ? 0 : scanAxis(attrs['axis'], x.rank);
    return build(data.shape, dtype, (idx) => {
      const upto = exclusive ? idx[axis]! : idx[axis]! + 1;
      return line(data, idx, axis)
        .slice(0, upto)
        .reduce((acc, v) => fitDtype(step(acc, v), dtype), unit);
    });
  };
}

/** The positions of a line in sort order (ties keep their order). */
function order(values: readonly number[], ascend: boolean): number[] {
  return values.map((_, j) => j).sort((a, b) => (ascend ? values[a]! - values[b]! : values[b]! - values[a]!) || a - b);
}

const sort: Executor = (args, attrs) => {
  const [x] = scanArgs(args, ['data']) as [NDArray];
  const axis = scanAxis(attrs['axis'] ?? -1, x.rank);
  const ascend = attrs['is_ascend'] !== false;
  return build(x.shape, x.dtype, (idx) => {
    const l = line(x, idx, axis);
    return l[order(l, ascend)[idx[axis]!]!]!;
  });
};

const argsort: Executor = (args, attrs) => {
  const [x] = scanArgs(args, ['data']) as [NDArray];
  const dtype = String(attrs['dtype'] ?? 'int32');
  if (!isIntDtype(dtype)) refuse(`indices of dtype ${dtype} cannot hold positions`);
  const axis = scanAxis(attrs['axis'] ?? -1, x.rank);
  const ascend = attrs['is_ascend'] !== false;
  return build(x.shape, dtype, (idx) => order(line(x, idx, axis), ascend)[idx[axis]!]!);
};

const searchsorted: Executor = (args, attrs) => {
  const [seq, values] = scanArgs(args, ['sorted_sequence', 'values']) as [NDArray, NDArray];
  const dtype = String(attrs['dtype'] ?? 'int32');
  if (!isIntDtype(dtype)) refuse(`indices of dtype ${dtype} cannot hold positions`);
  if (values.rank === 0) refuse('values must have rank >= 1');
  if (seq.rank === 0) refuse('sorted_sequence must have rank >= 1: there is no sequence to search');
  if (seq.rank > 1 && seq.rank !== values.rank) refuse(`sorted_sequence of rank ${seq.rank} does not match values of rank ${values.rank}`);
  if (seq.rank > 1 && seq.shape.slice(0, -1).some((d, i) => d !== values.shape[i])) refuse('sorted_sequence and values differ in a leading dim');
  const right = attrs['right'] === true;
  const inner = seq.rank - 1;
  return build(values.shape, dtype, (idx) => {
    const v = values.get(idx);
    const row = line(seq, seq.rank === 1 ? [0] : [...idx.slice(0, -1), 0], inner).sort((a, b) => a - b);
    return row.filter((s) => (right ? s <= v : s < v)).length;
  });
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  cumsum: scan((acc, x) => acc + x, 0),
  cumprod: scan((acc, x) => acc * x, 1),
  sort,
  argsort,
  searchsorted,
};

const OUTSIDE_TABLE =
  'dtypes outside the table bool, int8-int64, uint8-uint64, float16/32/64, bfloat16 (e.g. int4) are rejected by the relation; the reference computes in them';

/** Beyond what the executors refuse (see the header), the relations reject dtypes outside their table. */
export const STRICTER: Readonly<Record<string, Stricter>> = {
  cumsum: { reason: OUTSIDE_TABLE, covers: dtypeOutsideTable },
  cumprod: { reason: OUTSIDE_TABLE, covers: dtypeOutsideTable },
  argsort: { reason: OUTSIDE_TABLE, covers: dtypeOutsideTable },
  searchsorted: { reason: OUTSIDE_TABLE, covers: dtypeOutsideTable },
};
