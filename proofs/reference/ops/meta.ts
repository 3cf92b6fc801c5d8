// Reference executors for relations/meta.rules: shape_of and ndarray_size read the
// concrete shape, annotation.checkpoint returns its argument (a tensor or a tuple).
import { type Executor, type Stricter, dtypeOutsideTable } from '../executor.js';
import { type Value, asTensor, build, refuse } from '../tensor.js';

function metaData(args: readonly Value[]): Value {
  if (args.length !== 1) refuse(`expected 1 argument, got ${args.length}`);
  return args[0]!;
}

/** The vector of data's dims (empty for a scalar, as TVM's compute gives). */
const shapeOf: Executor = (args, attrs) => {
  const x = asTensor(metaData(args), 'data');
  return build([x.rank], String(attrs['dtype'] ?? 'int32'), ([i]) => x.shape[i!]!);
};

const ndarraySize: Executor = (args, attrs) => {
  const x = asTensor(metaData(args), 'data');
  return build([], String(attrs['dtype'] ?? 'int32'), () => x.size);
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  shape_of: shapeOf,
  ndarray_size: ndarraySize,
  'annotation.checkpoint': (args) => metaData(args),
};

const OUTSIDE_TABLE =
  'dtypes outside the table bool, int8-int64, uint8-uint64, float16/32/64, bfloat16 (e.g. int4) are rejected by the relation; the reference builds them';

/** Beyond what the executors refuse, the relations reject dtypes outside their table. */
export const STRICTER: Readonly<Record<string, Stricter>> = {
  shape_of: { reason: OUTSIDE_TABLE, covers: dtypeOutsideTable },
  ndarray_size: { reason: OUTSIDE_TABLE, covers: dtypeOutsideTable },
};
