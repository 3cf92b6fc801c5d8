// Reference executors for relations/nn-spatial.rules: dilate, mirror_pad,
// space_to_batch_nd, batch_to_space_nd, global pool 1d and correlation, computed on
// concrete tensors after TOPI (python/tvm/topi/nn/dilate.py, pad.py's mirror_pad,
// space_to_batch_nd.py, batch_to_space_nd.py, correlation.py). Output sizes come out
// of the loops (positions counted while they fit, elements moved one by one), never
// from the relations' formulas.
import type { AttrJs } from '../../../relations/imperative/solve-one.js';
import { type Attrs, type Executor, type Stricter, emptyResult } from '../executor.js';
import { type NDArray, asTensor, build, fitDtype, forEachIndex, refuse } from '../tensor.js';
import { int, str } from './conv.js';

function ints(attrs: Attrs, name: string): number[] {
  const v = attrs[name] as readonly AttrJs[];
  if (!Array.isArray(v)) refuse(`${name} must be a list`);
  const flat = v.flatMap((x) => (Array.isArray(x) ? x : [x]));
  if (!flat.every((x) => typeof x === 'number')) refuse(`${name} must hold ints`);
  return flat as number[];
}

const dilate: Executor = ([x], attrs) => {
  const data = asTensor(x, 'data');
  const strides = ints(attrs, 'strides');
  if (strides.length !== data.rank) refuse(`strides need one entry per axis of a rank ${data.rank} tensor`);
  // the last element of each axis lands at (d - 1) * s: the axis holds one more position
  const shape = data.shape.map((d, i) => (d === 0 ? 0 : (d - 1) * strides[i]! + 1));
  const fill = int(attrs, 'dilation_value');
  return build(shape, data.dtype, (idx) =>
    idx.every((j, i) => j % strides[i]! === 0) ? data.get(idx.map((j, i) => j / strides[i]!)) : fitDtype(fill, data.dtype),
  );
};

const mirrorPad: Executor = ([x], attrs) => {
  const data = asTensor(x, 'data');
  const pw = ints(attrs, 'pad_width');
  if (pw.length !== 2 * data.rank) refuse('pad_width needs a pair per axis');
  const reflect = str(attrs, 'mode') === 'REFLECT';
  const shape = data.shape.map((d, i) => d + pw[2 * i]! + pw[2 * i + 1]!);
  const source = (j: number, d: number, before: number): number => {
    const s = j - before;
    const m = s < 0 ? (reflect ? -s : -s - 1) : s >= d ? (reflect ? 2 * d - s - 2 : 2 * d - s - 1) : s;
    if (m < 0 || m >= d) refuse(`mirroring reads position ${m} of an axis of size ${d}`);
    return m;
  };
  return build(shape, data.dtype, (idx) => data.get(idx.map((j, i) => source(j, data.shape[i]!, pw[2 * i]!))));
};

/** Row-major offsets of every block position: [offset per axis] in order. */
function blockOffsets(blocks: readonly number[]): number[][] {
  const out: number[][] = [];
  forEachIndex(blocks, (idx) => out.push(idx));
  return out;
}

const spaceToBatch: Executor = ([x], attrs) => {
  const data = asTensor(x, 'data');
  const blocks = ints(attrs, 'block_shape');
  const pads = ints(attrs, 'paddings');
  const m = blocks.length;
  if (pads.length !== 2 * m || data.rank <= m) refuse('space_to_batch_nd needs a pair per block axis and rank > M');
  const padded = blocks.map((_, i) => data.shape[i + 1]! + pads[2 * i]! + pads[2 * i + 1]!);
  if (padded.some((p, i) => p % blocks[i]! !== 0)) refuse('a padded spatial size is not divisible by its block (TOPI reshapes into blocks)');
  const offsets = blockOffsets(blocks);
  const n = data.shape[0]!;
  const shape = [n * offsets.length, ...padded.map((p, i) => p / blocks[i]!), ...data.shape.slice(m + 1)];
  const fill = int(attrs, 'pad_value');
  return build(shape, data.dtype, ([b, ...rest]) => {
    const off = offsets[Math.floor(b! / n)]!;
    const src = [b! % n];
    for (let i = 0; i < m; i++) {
      const pos = rest[i]! * blocks[i]! + off[i]! - pads[2 * i]!;
      if (pos < 0 || pos >= data.shape[i + 1]!) return fitDtype(fill, data.dtype);
      src.push(pos);
    }
    return data.get([...src, ...rest.slice(m)]);
  });
};

const batchToSpace: Executor = ([x], attrs) => {
  const data = asTensor(x, 'data');
  const blocks = ints(attrs, 'block_shape');
  const crops = ints(attrs, 'crops');
  const m = blocks.length;
  if (crops.length !== 2 * m || data.rank <= m) refuse('batch_to_space_nd needs a pair per block axis and rank > M');
  const offsets = blockOffsets(blocks);
  if (data.shape[0]! % offsets.length !== 0) refuse(`the batch ${data.shape[0]} cannot be split into ${offsets.length} blocks`);
  const n = data.shape[0]! / offsets.length;
  const full = blocks.map((b, i) => data.shape[i + 1]! * b);
  const sizes = full.map((f, i) => f - crops[2 * i]! - crops[2 * i + 1]!);
  if (sizes.some((s) => s < 0)) refuse('the crops are larger than the rebuilt axis');
  return build([n, ...sizes, ...data.shape.slice(m + 1)], data.dtype, ([b, ...rest]) => {
    const pos = rest.slice(0, m).map((j, i) => j + crops[2 * i]!);
    const off = pos.map((p, i) => p % blocks[i]!);
    const flat = off.reduce((acc, o, i) => acc * blocks[i]! + o, 0);
    return data.get([flat * n + b!, ...pos.map((p, i) => Math.floor(p / blocks[i]!)), ...rest.slice(m)]);
  });
};

function globalPool1d(reduce: (values: number[]) => number): Executor {
  return ([x], attrs) => {
    const data = asTensor(x, 'data');
    if (data.rank !== 3) refuse('global pooling 1d takes a 3-D tensor');
    const w = (str(attrs, 'layout') || 'NCW').indexOf('W');
    const shape = [...data.shape];
    shape[w] = 1;
    return build(shape, data.dtype, (idx) => {
      const values = Array.from({ length: data.shape[w]! }, (_, k) => data.get(idx.map((j, i) => (i === w ? k : j))));
      return fitDtype(reduce(values), data.dtype);
    });
  };
}

const correlation: Executor = ([x1, x2], attrs) => {
  const a = asTensor(x1, 'data1');
  const b = asTensor(x2, 'data2');
  if (a.rank !== 4 || b.shape.join() !== a.shape.join() || a.dtype !== b.dtype) refuse("TOPI's correlation asserts two 4-D maps of one shape and dtype");
  const [k, md, s1, s2, p] = ['kernel_size', 'max_displacement', 'stride1', 'stride2', 'padding'].map((n) => int(attrs, n)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (k % 2 === 0) refuse("TOPI's correlation asserts an odd kernel_size");
  const [n, c, h, w] = a.shape as [number, number, number, number];
  const radius = (k - 1) / 2;
  const border = md + radius;
  const reach = Math.floor(md / s2);
  // positions whose patch and every displaced patch stay inside the padded map
  const count = (size: number) => {
    let q = 0;
    while (q * s1 + 2 * border < size + 2 * p) q++;
    return q;
  };
  const at = (t: NDArray, nn: number, cc: number, y: number, xx: number) => (y >= p && y < h + p && xx >= p && xx < w + p ? t.get([nn, cc, y - p, xx - p]) : 0);
  const span = 2 * reach + 1;
  const multiply = attrs.is_multiply !== false;
  return build([n, span * span, count(h), count(w)], a.dtype, ([nn, d, i, j]) => {
    const y1 = i! * s1 + border;
    const x1 = j! * s1 + border;
    const y2 = y1 + (Math.floor(d! / span) - reach) * s2;
    const x2 = x1 + ((d! % span) - reach) * s2;
    let s = 0;
    for (let cc = 0; cc < c; cc++) {
      for (let dy = -radius; dy <= radius; dy++) {
        for (let dx = -radius; dx <= radius; dx++) {
          const u = at(a, nn!, cc, y1 + dy, x1 + dx);
          const v = at(b, nn!, cc, y2 + dy, x2 + dx);
          s += multiply ? u * v : Math.abs(u - v);
        }
      }
    }
    return fitDtype(s / (k * k * c || 1), a.dtype);
  });
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  'nn.dilate': dilate,
  'nn.mirror_pad': mirrorPad,
  'nn.space_to_batch_nd': spaceToBatch,
  'nn.batch_to_space_nd': batchToSpace,
  'nn.global_avg_pool1d': globalPool1d((vs) => vs.reduce((s, v) => s + v, 0) / vs.length),
  'nn.global_max_pool1d': globalPool1d((vs) => Math.max(...vs)),
  'nn.correlation': correlation,
};

/** Why each relation rejects some calls its executor runs. */
export const STRICTER: Readonly<Record<string, Stricter>> = {
  'nn.dilate': {
    reason: "an empty axis with a stride > 1 is rejected: TVM's type says 1 - stride (negative), while the computation simply has nothing to place",
    covers: emptyResult,
  },
  'nn.correlation': {
    reason: "a padded map not larger than twice the border is rejected (TVM's formula gives a size <= 0; the computation produces an empty map)",
    covers: emptyResult,
  },
};
