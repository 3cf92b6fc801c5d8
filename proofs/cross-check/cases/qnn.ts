// Cross-check sweep cases for the quantization family (relations/qnn.rules): data of
// rank 0-4 against scalar, single and per-axis scales and zero points, every axis in
// and out of range, wrong dtypes, unknown and partial arguments, tuples.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, ALL_SHAPES, range, type CaseGenerator, type Shape } from '../case-kit.js';

function qnnOp(op: OpInfo): TypeofRequest[] {
  const quantize = op.name === 'qnn.quantize';
  const dataDtype = quantize ? 'float32' : 'int8';
  const data = (s: Shape, d = dataDtype): string => tensor(s, d);
  const scale = (s: Shape, d = 'float32'): string => tensor(s, d);
  const zp = (s: Shape, d = 'int32'): string => tensor(s, d);
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES) {
    out.push(call(op.name, [data(s), scale([]), zp([])]), call(op.name, [data(s), scale([1]), zp([])]));
    for (const axis of range(-s.length - 1, s.length)) {
      const c = s.length > 0 ? s[(axis + s.length) % s.length]! : 1;
      out.push(call(op.name, [data(s), scale([c]), zp([c])], { axis }), call(op.name, [data(s), scale([]), zp([3])], { axis }));
    }
  }
  // per-axis parameters of another size, of rank 2, with holes; backwards through data
  out.push(call(op.name, [data([2, 3]), scale([2]), zp([3])], { axis: 1 }), call(op.name, [data([2, 3]), scale([1, 3]), zp([])], { axis: 1 }));
  out.push(call(op.name, [data([2, 3]), scale(['_']), zp([])], { axis: 1 }), call(op.name, [data([2, '_']), scale([3]), zp(['_'])]));
  out.push(call(op.name, [data(['n', 3]), scale(['n']), zp(['n'])], { axis: 0 }), call(op.name, [data(['n', 3]), scale([4]), zp([])], { axis: 0 }));
  out.push(call(op.name, [data([2, '?']), scale([5]), zp([])]), call(op.name, [data([2, 3]), scale([1]), zp([1])], { axis: 7 }));
  // dtypes of data, scale and zero point; out_dtype
  for (const d of ['float32', 'float16', 'int8', 'uint8', 'int16', 'int32', 'int64', 'bool']) out.push(call(op.name, [data([2, 3], d), scale([]), zp([])]));
  out.push(call(op.name, [data([2, 3]), scale([], 'float16'), zp([])]), call(op.name, [data([2, 3]), scale([]), zp([], 'int8')]));
  for (const out_dtype of quantize ? ['uint8', 'int16', 'uint16', 'int32', 'float32'] : ['float16', 'int8'])
    out.push(call(op.name, [data([2, 3]), scale([]), zp([])], { out_dtype }));
  // unknown arguments (the dtype checks do not wait for the others), tuples
  out.push(
    call(op.name, ['_', scale([]), zp([])]),
    call(op.name, [data([2, 3]), '_', zp([])]),
    call(op.name, ['_', scale([], 'int32'), '_']),
    call(op.name, ['_', '_', zp([2, 2])]),
  );
  out.push(
    call(op.name, [tuple([data([3])]), scale([]), zp([])]),
    call(op.name, [data([3]), tuple([scale([])]), zp([])]),
    call(op.name, [data([3]), scale([]), tuple([zp([])])]),
  );
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  Quantize: qnnOp,
  Dequantize: qnnOp,
};
