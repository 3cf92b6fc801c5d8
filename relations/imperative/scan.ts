// Scan and sort relations after TVM's ScanopRel (src/relay/op/tensor/transform.cc),
// SortRel, ArgsortRel and SearchSortedRel (src/relay/op/algorithm/): Scan (cumsum,
// cumprod), Sort, Argsort, SearchSorted.
//
//   Scan(data; axis, dtype, exclusive): Tensor[data.shape, dtype] with an axis;
//     Tensor[(prod(data.shape),), dtype] without one; dtype "" = data's dtype.
//   Sort(data; axis, is_ascend): data's type.
//   Argsort(data; axis, is_ascend, dtype): Tensor[data.shape, dtype].
//   SearchSorted(sorted_sequence, values; right, dtype): Tensor[values.shape,
//     dtype]; values has rank >= 1; sorted_sequence is 1-D or has values' rank
//     and its leading dims.
//
// Deviations from TVM:
//  - Scan, Sort, Argsort: the axis must be in [-rank, rank) (TVM's relations do
//    not check it; the computes fail). Scan of a rank-0 tensor without an axis
//    gives shape (1,) (TVM reads data.shape[0]). Without an axis the relation
//    waits until every dim of data is known (the rules multiply them then).
//  - Argsort, SearchSorted: dtype must be an integer dtype.
//  - SearchSorted: sorted_sequence must have rank >= 1; undecided symbolic leading
//    dims are residual assumptions; a hole among them makes the relation wait
//    (the result is assigned already).

import type { TensorType } from './types.js';
import type { RelationFn, RelError, Reporter } from './relation.js';
import { Pending, dProduct, expectTensor, finish, getInt, getIntOrNull, getString } from './common.js';
import { isError } from './relation.js';
import { printDim, printType, tensorType } from './types.js';
import { SCALAR_DTYPES } from '../dtypes.js';

const SCAN_INT_DTYPES: ReadonlySet<string> = new Set(['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64']);

function checkAxis(r: Reporter, data: TensorType, axis: number): RelError | null {
  const rank = data.shape.length;
  if (axis >= -rank && axis < rank) return null;
  return r.fail(`axis ${axis} is out of range for a tensor of rank ${rank}`);
}

function checkIntDtype(r: Reporter, dtype: string): RelError | null {
  return SCAN_INT_DTYPES.has(dtype) ? null : r.fail(`dtype ${dtype} is not an integer dtype (int8-int64, uint8-uint64)`);
}

/** cumsum, cumprod. */
export const scanRel: RelationFn = (args, out, attrs, r) => {
  const given = getString(attrs, 'dtype');
  if (given !== '' && !SCALAR_DTYPES.has(given)) return r.fail(`dtype ${given} is not supported (the scalar dtypes bool, intN, uintN, floatN, bfloat16 are)`);
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const dtype = given === '' ? data.dtype : given;
  const axis = getIntOrNull(attrs, 'axis');
  if (axis !== null) {
    const e = checkAxis(r, data, axis);
    if (e) return e;
    return r.assign(out, tensorType(data.shape, dtype), 'the result') ?? 'done';
  }
  if (data.shape.some((d) => d.kind === 'hole')) return r.wait('the dims of data are not known yet');
  return r.assign(out, tensorType([dProduct(data.shape)], dtype), 'the result') ?? 'done';
};

export const sortRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const e = checkAxis(r, data, getInt(attrs, 'axis'));
  if (e) return e;
  return r.assign(out, tensorType(data.shape, data.dtype), 'the result') ?? 'done';
};

export const argsortRel: RelationFn = (args, out, attrs, r) => {
  const dtype = getString(attrs, 'dtype');
  const de = checkIntDtype(r, dtype);
  if (de) return de;
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const e = checkAxis(r, data, getInt(attrs, 'axis'));
  if (e) return e;
  return r.assign(out, tensorType(data.shape, dtype), 'the result') ?? 'done';
};

export const searchSortedRel: RelationFn = (args, out, attrs, r) => {
  const dtype = getString(attrs, 'dtype');
  const de = checkIntDtype(r, dtype);
  if (de) return de;
  const seq = expectTensor(r, args[0]!, 'sorted_sequence');
  const values = expectTensor(r, args[1]!, 'values');
  if (isError(seq)) return seq;
  if (isError(values)) return values;
  if (values !== 'wait' && values.shape.length === 0) return r.fail('values must have rank >= 1');
  if (seq !== 'wait' && seq.shape.length === 0) return r.fail('sorted_sequence must have rank >= 1');
  if (seq === 'wait' || values === 'wait') return r.wait('the types of sorted_sequence and values are not known yet');
  const rank = values.shape.length;
  if (seq.shape.length > 1 && seq.shape.length !== rank) {
    return r.fail(`sorted_sequence ${printType(seq)} must be 1-D or have the rank of values ${printType(values)}`);
  }
  const pending = new Pending();
  if (seq.shape.length > 1) {
    for (let i = 0; i < rank - 1; i++) {
      const [x, y] = [seq.shape[i]!, values.shape[i]!];
      const e = pending.check(
        r.require(x, '==', y, `sorted_sequence and values differ in leading dim ${i}: ${printDim(x)} vs ${printDim(y)}`),
        'leading dims not known yet',
      );
      if (e) return e;
    }
  }
  const built = tensorType(values.shape, dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Scan: scanRel,
  Sort: sortRel,
  Argsort: argsortRel,
  SearchSorted: searchSortedRel,
};
