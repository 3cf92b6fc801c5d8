// Reference executors for relations/bitserial.rules: nn.bitpack, nn.bitserial_conv2d and
// nn.bitserial_dense computed on concrete tensors, after TOPI's bitpack and bit-serial
// computes (python/tvm/topi/nn/bitserial_util.py, bitserial_conv2d.py,
// bitserial_dense.py). The output sizes come out of the loops: bit planes are pushed
// per word, windows counted while they fit.
//
// Like TOPI, they refuse data or weights whose dtype is not an integer dtype (there
// are no bits to mask), a pack type other than uint8/16/32/64, a packed axis that is
// not a whole number of words, axes out of range, and weights other than the
// unpacked ones (4-D in kernel_layout, or (units, k)) that do not fit the data and
// the attributes.
import { type Attrs, type Executor, type Stricter, dtypeOutsideTable, emptyResult } from '../executor.js';
import { type NDArray, asTensor, build, fitDtype, isIntDtype, refuse, type Value } from '../tensor.js';
import { countWindows, fromCanon, int, padding, str, toCanon } from './conv.js';

const WORD_BITS: Readonly<Record<string, number>> = { uint8: 8, uint16: 16, uint32: 32, uint64: 64 };

function wordBits(attrs: Attrs, name: string): number {
  const width = WORD_BITS[str(attrs, name)];
  return width ?? refuse(`cannot pack into ${str(attrs, name) || 'nothing'}: TOPI packs into uint8, uint16, uint32 or uint64`);
}

function packable(v: Value | undefined, what: string): NDArray {
  const t = asTensor(v, what);
  if (!isIntDtype(t.dtype)) refuse(`${what} of dtype ${t.dtype} has no bits to pack`);
  return t;
}

/** Bit `b` of an integer value (two's complement). */
const bit = (x: number, b: number): number => (Math.trunc(x) >> b) & 1;

const bitpack: Executor = (args, attrs) => {
  const data = packable(args[0], 'data');
  const width = wordBits(attrs, 'pack_type');
  const bits = int(attrs, 'bits');
  const packAxis = int(attrs, 'pack_axis');
  const bitAxis = int(attrs, 'bit_axis');
  if (packAxis < 0 || packAxis >= data.rank) refuse(`pack_axis ${packAxis} is not an axis of a rank-${data.rank} tensor`);
  if (bitAxis < 0 || bitAxis > data.rank) refuse(`bit_axis ${bitAxis} is not a position in a rank-${data.rank + 1} result`);
  if (data.shape[packAxis]! % width !== 0) refuse(`axis ${packAxis} of size ${data.shape[packAxis]} is not a whole number of ${width}-bit words`);
  // the result without its bit axis: one word per `width` elements along the pack axis
  const words = data.shape.map((d, i) => (i === packAxis ? d / width : d));
  const planes: NDArray[] = [];
  for (let b = 0; b < bits; b++) {
    planes.push(
      build(words, str(attrs, 'pack_type'), (idx) => {
        let word = 0;
        for (let k = 0; k < width; k++) {
          const src = idx.map((x, i) => (i === packAxis ? x * width + k : x));
          word = word * 2 + bit(data.get(src), b);
        }
        return word;
      }),
    );
  }
  const shape = [...words];
  shape.splice(bitAxis, 0, bits);
  return build(shape, str(attrs, 'pack_type'), (idx) => planes[idx[bitAxis]!]!.get(idx.filter((_, i) => i !== bitAxis)));
};

/** One bit-serial product of a data value and a weight value: the sum over bit pairs of their products, each shifted by both bit positions; unipolar weights count a 0 bit as -1. */
function bitProduct(x: number, w: number, dataBits: number, weightBits: number, unipolar: boolean): number {
  let s = 0;
  for (let b1 = 0; b1 < dataBits; b1++) {
    for (let b2 = 0; b2 < weightBits; b2++) {
      const wb = bit(w, b2);
      s += bit(x, b1) * (unipolar ? 2 * wb - 1 : wb) * 2 ** (b1 + b2);
    }
  }
  return s;
}

function pair(v: unknown, what: string): [number, number] {
  if (typeof v === 'number') return [v, v];
  if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'number') return [v[0], v[0]];
  if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number')) return v as [number, number];
  return refuse(`${what} must be an int or a pair`);
}

const bitserialConv2d: Executor = (args, attrs) => {
  wordBits(attrs, 'pack_dtype');
  const data = toCanon(packable(args[0], 'data'), str(attrs, 'data_layout'), 'NCHW', 'data');
  const weight = toCanon(packable(args[1], 'weight'), str(attrs, 'kernel_layout'), 'OIHW', 'weight');
  const [n, c, h, w] = data.shape as [number, number, number, number];
  const [o, i, kh, kw] = weight.shape as [number, number, number, number];
  const [kh0, kw0] = pair(attrs['kernel_size'], 'kernel_size');
  if (o !== int(attrs, 'channels') || i !== c || kh !== kh0 || kw !== kw0)
    refuse(
      `the weight (O, I, KH, KW) = (${o}, ${i}, ${kh}, ${kw}) does not fit ${c} input channels, channels = ${String(attrs['channels'])} and kernel_size = [${kh0}, ${kw0}]`,
    );
  const [sh, sw] = pair(attrs['strides'], 'strides');
  const pad = padding(attrs['padding'], 2);
  const oh = countWindows(h + pad.before[0]! + pad.after[0]!, kh, sh);
  const ow = countWindows(w + pad.before[1]! + pad.after[1]!, kw, sw);
  const [ab, wb, unipolar] = [int(attrs, 'activation_bits'), int(attrs, 'weight_bits'), attrs['unipolar'] !== false];
  const dtype = str(attrs, 'out_dtype');
  const out = build([n, o, oh, ow], dtype, ([b, f, y, x]) => {
    let s = 0;
    for (let cc = 0; cc < c; cc++) {
      for (let di = 0; di < kh; di++) {
        for (let dj = 0; dj < kw; dj++) {
          const [py, px] = [y! * sh - pad.before[0]! + di, x! * sw - pad.before[1]! + dj];
          if (py < 0 || py >= h || px < 0 || px >= w) continue;
          s += bitProduct(data.get([b!, cc, py, px]), weight.get([f!, cc, di, dj]), ab, wb, unipolar);
        }
      }
    }
    return fitDtype(s, dtype);
  });
  return fromCanon(out, str(attrs, 'data_layout'), 'NCHW');
};

const bitserialDense: Executor = (args, attrs) => {
  wordBits(attrs, 'pack_dtype');
  const data = packable(args[0], 'data');
  const weight = packable(args[1], 'weight');
  if (data.rank === 0) refuse('data must have an axis to contract');
  const k = data.shape[data.rank - 1]!;
  const units = int(attrs, 'units');
  if (weight.rank !== 2 || weight.shape[0] !== units || weight.shape[1] !== k)
    refuse(`the weight (${weight.shape.join(', ')}) is not (units, k) = (${units}, ${k})`);
  const [db, wb, unipolar] = [int(attrs, 'data_bits'), int(attrs, 'weight_bits'), attrs['unipolar'] !== false];
  const dtype = str(attrs, 'out_dtype') || data.dtype;
  return build([...data.shape.slice(0, -1), units], dtype, (idx) => {
    let s = 0;
    for (let j = 0; j < k; j++) s += bitProduct(data.get([...idx.slice(0, -1), j]), weight.get([idx[idx.length - 1]!, j]), db, wb, unipolar);
    return fitDtype(s, dtype);
  });
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  'nn.bitpack': bitpack,
  'nn.bitserial_conv2d': bitserialConv2d,
  'nn.bitserial_dense': bitserialDense,
};

const OUTSIDE_TABLE = 'integer dtypes outside the table int8-int64, uint8-uint64 (e.g. int4) are rejected by the relation; the reference packs their bits';

/** Beyond what the executors refuse (see the header), the relations reject dtypes outside their table, and bitserial_conv2d an empty result. */
export const STRICTER: Readonly<Record<string, Stricter>> = {
  'nn.bitpack': { reason: OUTSIDE_TABLE, covers: dtypeOutsideTable },
  'nn.bitserial_conv2d': {
    reason: `${OUTSIDE_TABLE}; a padded input smaller than the kernel (no window fits: an empty result here) is rejected as well`,
    covers: (args, attrs, result) => dtypeOutsideTable(args, attrs) || emptyResult(args, attrs, result),
  },
  'nn.bitserial_dense': { reason: OUTSIDE_TABLE, covers: dtypeOutsideTable },
};
