// Mutations of the quantization family's imperative twins (see mutation.ts):
// relations/imperative/qnn.ts.
import type { Mutation } from './mutation.js';

const QNN = 'relations/imperative/qnn.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'qnn-axis-scalar-data-not-zero',
    file: QNN,
    find: 'return rank > 0 ? axis + rank : 0;',
    replace: 'return axis + rank;',
    ops: ['qnn.quantize', 'qnn.dequantize'],
    what: 'a dropped special case: a negative axis of a rank-0 data is not taken as 0 (so it is out of range)',
  },
  {
    id: 'qnn-channels-unchecked',
    file: QNN,
    find: 'const e = t.shape.length === 0 ? null : qnnChannels(r, t.shape[0]!, dim, name, pending);',
    replace: 'const e = null;',
    ops: ['qnn.quantize', 'qnn.dequantize'],
    what: 'a dropped check: a per-axis scale of the wrong length is accepted',
  },
  {
    id: 'quantize-keeps-data-dtype',
    file: QNN,
    find: "const built = tensorType(data.shape, getString(attrs, 'out_dtype'));",
    replace: 'const built = tensorType(data.shape, data.dtype);',
    ops: ['qnn.quantize'],
    what: "a dropped attribute: the result keeps data's dtype instead of out_dtype",
  },
  {
    id: 'dequantize-vector-1-per-axis',
    file: QNN,
    find: "single: (shape) => shape.length === 0 || (shape.length === 1 && shape[0]!.kind === 'int' && shape[0]!.value === 1),",
    replace: 'single: (shape) => shape.length === 0,',
    ops: ['qnn.dequantize'],
    what: 'a wrong case split: a (1,) scale is taken as per axis, so it must match the axis dim',
  },
  {
    id: 'qnn-zero-point-dtype-unchecked',
    file: QNN,
    find: "qnnDtypeError(r, zp, (d) => d === 'int32',",
    replace: "qnnDtypeError(r, zp, (d) => d !== 'bool',",
    ops: ['qnn.quantize', 'qnn.dequantize'],
    what: 'a weakened check: a zero point of another integer dtype than int32 is accepted',
  },
];
