// Reference executors for the nn family (declared in relations/nn.rules): each operator
// computed on concrete tensors, element by element. Formulas follow TVM's TOPI
// computes (python/tvm/topi/nn/*.py, topi/image/resize.py) and the inference
// forms of the normalisations (src/relay/transforms/simplify_inference.cc);
// output shapes come out of the loops, never from the relations.
import type { AttrJs } from '../../../relations/imperative/solve-one.js';
import type { Attrs, Executor, Stricter } from '../executor.js';
import { NDArray, asTensor, build, fitDtype, forEachIndex, refuse, rng } from '../tensor.js';

// ─── Small helpers ───────────────────────────────────────────────────────────

function int(attrs: Attrs, name: string): number {
  const v = attrs[name];
  if (typeof v !== 'number') refuse(`attribute ${name} must be a number`);
  return v;
}

function bool(attrs: Attrs, name: string): boolean {
  return attrs[name] === true;
}

function str(attrs: Attrs, name: string): string {
  const v = attrs[name];
  return typeof v === 'string' ? v : '';
}

/** axis in [-rank, rank) → index; refuses otherwise. */
export function axisIndex(axis: number, rank: number, what = 'axis'): number {
  if (axis < -rank || axis >= rank) refuse(`${what} ${axis} is out of range for rank ${rank}`);
  return axis < 0 ? axis + rank : axis;
}

function sameDtype(tensors: readonly NDArray[], what: string): void {
  if (tensors.some((t) => t.dtype !== tensors[0]!.dtype)) refuse(`${what}: TVM's compute needs one dtype, got ${tensors.map((t) => t.dtype).join(', ')}`);
}

/** A 1-D tensor of `n` elements, or a refusal naming it. */
function vector(t: NDArray, n: number, what: string): NDArray {
  if (t.rank !== 1 || t.shape[0] !== n) refuse(`${what} must have shape (${n}), got (${t.shape.join(', ')})`);
  return t;
}

/** The flat offsets of `t` grouped by their index outside `axes` (each group is normalised / reduced together). */
function groups(shape: readonly number[], key: (index: number[]) => string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const strides: number[] = [];
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i]!;
  }
  forEachIndex(shape, (idx) => {
    const k = key(idx);
    const off = idx.reduce((a, x, i) => a + x * strides[i]!, 0);
    const g = out.get(k);
    if (g === undefined) out.set(k, [off]);
    else g.push(off);
  });
  return out;
}

/** (x - mean) / sqrt(var + eps) over each group of offsets; gamma/beta applied by the caller. */
function normalise(data: NDArray, groupsOf: Map<string, number[]>, eps: number): Float64Array {
  const out = new Float64Array(data.size);
  for (const offs of groupsOf.values()) {
    const mean = offs.reduce((a, o) => a + data.data[o]!, 0) / offs.length;
    const variance = offs.reduce((a, o) => a + (data.data[o]! - mean) ** 2, 0) / offs.length;
    for (const o of offs) out[o] = (data.data[o]! - mean) / Math.sqrt(variance + eps);
  }
  return out;
}

/** gamma[c] * x + beta[c] with c the index along `axis` (each optional). */
function affine(data: NDArray, normed: Float64Array, axis: number, gamma: NDArray | null, beta: NDArray | null): NDArray {
  return data.map((_, idx) => {
    const c = idx[axis]!;
    const x = normed[data.offset(idx)]!;
    return fitDtype((gamma ? gamma.data[c]! : 1) * x + (beta ? beta.data[c]! : 0), data.dtype);
  });
}

/** Round half to even (std::nearbyint in the default rounding mode). */
export function nearbyint(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

export function softmaxAlong(data: NDArray, axisAttr: number, log: boolean): NDArray {
  const axis = axisIndex(axisAttr, data.rank);
  const g = groups(data.shape, (idx) => idx.filter((_, i) => i !== axis).join(','));
  const out = new NDArray(data.shape, data.dtype);
  for (const offs of g.values()) {
    const m = Math.max(...offs.map((o) => data.data[o]!));
    const sum = offs.reduce((a, o) => a + Math.exp(data.data[o]! - m), 0);
    for (const o of offs) out.data[o] = log ? data.data[o]! - m - Math.log(sum) : Math.exp(data.data[o]! - m) / sum;
  }
  return out;
}

/** Row-major product of two matrices given as accessors; `out[i][j] = sum_k a(i, k) * b(k, j)`. */
function dot(k: number, a: (kk: number) => number, b: (kk: number) => number): number {
  let s = 0;
  for (let kk = 0; kk < k; kk++) s += a(kk) * b(kk);
  return s;
}

// ─── Layouts and sampling (resize2d, upsampling) ─────────────────────────────

/** Positions of N, C, H, W in the layout. */
function layoutPositions(layout: string): [number, number, number, number] {
  if (layout === 'NCHW') return [0, 1, 2, 3];
  if (layout === 'NHWC') return [0, 3, 1, 2];
  return refuse(`layout ${layout} is not supported by the reference executor`);
}

export interface SampleOptions {
  readonly method: string;
  readonly mode: string;
  readonly rounding: string;
  readonly cubicAlpha: number;
  readonly cubicExclude: boolean;
}

/** The input coordinate of output coordinate `x` (TOPI's coordinate transformations). */
function inputCoord(x: number, inSize: number, outSize: number, mode: string): number {
  const scale = inSize / outSize;
  switch (mode) {
    case 'half_pixel':
      return (x + 0.5) * scale - 0.5;
    case 'align_corners':
      return outSize > 1 ? (x * (inSize - 1)) / (outSize - 1) : 0;
    case 'asymmetric':
      return x * scale;
    case 'pytorch_half_pixel':
      return outSize > 1 ? (x + 0.5) * scale - 0.5 : 0;
    case 'tf_half_pixel_for_nn':
      return (x + 0.5) * scale;
    default:
      return refuse(`coordinate_transformation_mode ${mode} is not supported`);
  }
}

function roundIndex(x: number, rounding: string, mode: string): number {
  const r = rounding !== '' ? rounding : mode === 'align_corners' ? 'round' : 'floor';
  switch (r) {
    case 'round':
      return Math.sign(x) * Math.round(Math.abs(x));
    case 'round_prefer_floor':
      return Math.ceil(x - 0.5);
    case 'round_prefer_ceil':
      return Math.floor(x + 0.5);
    case 'floor':
      return Math.floor(x);
    case 'ceil':
      return Math.ceil(x);
    default:
      return refuse(`rounding_method ${r} is not supported`);
  }
}

/** (index, weight) pairs along one dimension for output coordinate `x`. */
export function taps(x: number, inSize: number, outSize: number, o: SampleOptions): [number, number][] {
  const clamp = (i: number) => Math.min(Math.max(i, 0), inSize - 1);
  const c = inputCoord(x, inSize, outSize, o.mode);
  if (o.method === 'nearest_neighbor') return [[clamp(roundIndex(c, o.rounding, o.mode)), 1]];
  const f = Math.floor(c);
  const t = c - f;
  if (o.method === 'linear')
    return [
      [clamp(f), 1 - t],
      [clamp(f + 1), t],
    ];
  if (o.method === 'cubic') {
    const a = o.cubicAlpha;
    const w = (d: number) => {
      const z = Math.abs(d);
      if (z <= 1) return (a + 2) * z ** 3 - (a + 3) * z ** 2 + 1;
      if (z < 2) return a * z ** 3 - 5 * a * z ** 2 + 8 * a * z - 4 * a;
      return 0;
    };
    let pairs: [number, number][] = [-1, 0, 1, 2].map((k) => [f + k, w(t - k)]);
    if (o.cubicExclude) {
      pairs = pairs.map(([i, wt]) => [i, i < 0 || i >= inSize ? 0 : wt]);
      const total = pairs.reduce((s, [, wt]) => s + wt, 0);
      if (total !== 0) pairs = pairs.map(([i, wt]) => [i, wt / total]);
    }
    return pairs.map(([i, wt]) => [clamp(i), wt]);
  }
  return refuse(`method ${o.method} is not supported`);
}

/** Samples a 4-D image to (outH, outW): the output is built by looping over its own positions. */
function resample(data: NDArray, layout: string, outH: number, outW: number, o: SampleOptions, dtype: string): NDArray {
  if (data.rank !== 4) refuse(`the data must have rank 4, got ${data.rank}`);
  const [pn, pc, ph, pw] = layoutPositions(layout);
  const inH = data.shape[ph]!;
  const inW = data.shape[pw]!;
  const shape: number[] = [...data.shape];
  shape[ph] = outH;
  shape[pw] = outW;
  if (outH < 0 || outW < 0) refuse(`negative output size ${outH} x ${outW}`);
  const elements = shape.reduce((a, b) => a * b, 1);
  if (elements > 0 && inH * inW === 0) refuse(`cannot sample a ${inH} x ${inW} image`);
  return build(shape, dtype, (idx) => {
    const th = taps(idx[ph]!, inH, outH, o);
    const tw = taps(idx[pw]!, inW, outW, o);
    let s = 0;
    for (const [y, wy] of th) {
      for (const [x, wx] of tw) {
        const src: number[] = [];
        src[pn] = idx[pn]!;
        src[pc] = idx[pc]!;
        src[ph] = y;
        src[pw] = x;
        s += wy * wx * data.get(src);
      }
    }
    return fitDtype(s, dtype);
  });
}

// ─── The operators ───────────────────────────────────────────────────────────

const relu: Executor = ([x]) => asTensor(x, 'data').map((v) => Math.max(v, 0));

const leakyRelu: Executor = ([x], attrs) => {
  const alpha = int(attrs, 'alpha');
  const data = asTensor(x, 'data');
  return data.map((v) => fitDtype(v >= 0 ? v : alpha * v, data.dtype));
};

const prelu: Executor = ([x, a], attrs) => {
  const data = asTensor(x, 'data');
  const alpha = asTensor(a, 'alpha');
  // TOPI's prelu indexes x.shape[axis] (a negative axis counts from the end there)
  const axis = axisIndex(int(attrs, 'axis'), data.rank);
  vector(alpha, data.shape[axis]!, 'alpha');
  sameDtype([data, alpha], 'nn.prelu');
  return data.map((v, idx) => (v >= 0 ? v : fitDtype(alpha.data[idx[axis]!]! * v, data.dtype)));
};

const biasAdd: Executor = ([x, b], attrs) => {
  const data = asTensor(x, 'data');
  const bias = asTensor(b, 'bias');
  const axis = axisIndex(int(attrs, 'axis'), data.rank);
  vector(bias, data.shape[axis]!, 'bias');
  sameDtype([data, bias], 'nn.bias_add');
  return data.map((v, idx) => fitDtype(v + bias.data[idx[axis]!]!, data.dtype));
};

const dense: Executor = ([x, w], attrs) => {
  const data = asTensor(x, 'data');
  const weight = asTensor(w, 'weight');
  if (data.rank < 1) refuse('data must have rank >= 1');
  if (weight.rank !== 2) refuse(`the weight must be 2-D, got rank ${weight.rank}`);
  const k = data.shape[data.rank - 1]!;
  if (weight.shape[1] !== k) refuse(`the reduction dims differ: ${k} vs ${weight.shape[1]}`);
  const units = attrs.units;
  if (typeof units === 'number' && units !== weight.shape[0]) refuse(`units = ${units} but the weight has ${weight.shape[0]} rows`);
  const dtype = str(attrs, 'out_dtype') || data.dtype;
  const shape = [...data.shape.slice(0, -1), weight.shape[0]!];
  return build(shape, dtype, (idx) => {
    const pre = idx.slice(0, -1);
    const j = idx[idx.length - 1]!;
    return fitDtype(
      dot(
        k,
        (kk) => data.get([...pre, kk]),
        (kk) => weight.get([j, kk]),
      ),
      dtype,
    );
  });
};

const matmul: Executor = ([xa, xb], attrs) => {
  const a = asTensor(xa, 'tensor_a');
  const b = asTensor(xb, 'tensor_b');
  const ta = bool(attrs, 'transpose_a');
  const tb = bool(attrs, 'transpose_b');
  if (b.rank !== 2) refuse(`tensor_b must be 2-D, got rank ${b.rank}`);
  if (a.rank < (ta ? 2 : 1)) refuse(`tensor_a has rank ${a.rank}`);
  const r = a.rank;
  const k = a.shape[ta ? r - 2 : r - 1]!;
  const bk = b.shape[tb ? 1 : 0]!;
  const n = b.shape[tb ? 0 : 1]!;
  if (bk !== k) refuse(`the reduction dims differ: ${k} vs ${bk}`);
  const units = attrs.units;
  if (typeof units === 'number' && units !== n) refuse(`units = ${units} but tensor_b has ${n} units`);
  const dtype = str(attrs, 'out_dtype') || a.dtype;
  // rows of A: every index of A with the reduction axis removed
  const shape = ta ? [...a.shape.slice(0, -2), a.shape[r - 1]!, n] : [...a.shape.slice(0, -1), n];
  return build(shape, dtype, (idx) => {
    const j = idx[idx.length - 1]!;
    const row = idx.slice(0, -1);
    const aAt = (kk: number) => (ta ? a.get([...row.slice(0, -1), kk, row[row.length - 1]!]) : a.get([...row, kk]));
    const bAt = (kk: number) => (tb ? b.get([j, kk]) : b.get([kk, j]));
    return fitDtype(dot(k, aAt, bAt), dtype);
  });
};

const batchMatmul: Executor = ([xa, xb], attrs) => {
  const a = asTensor(xa, 'tensor_a');
  const b = asTensor(xb, 'tensor_b');
  if (a.rank !== 3 || b.rank !== 3) refuse('batch_matmul takes 3-D tensors');
  const ta = attrs.transpose_a === true;
  const tb = attrs.transpose_b !== false;
  const [ba, m, k] = ta ? [a.shape[0]!, a.shape[2]!, a.shape[1]!] : [a.shape[0]!, a.shape[1]!, a.shape[2]!];
  const [bb, kb, n] = tb ? [b.shape[0]!, b.shape[2]!, b.shape[1]!] : [b.shape[0]!, b.shape[1]!, b.shape[2]!];
  if (k !== kb) refuse(`the reduction dims differ: ${k} vs ${kb}`);
  if (ba !== bb && ba !== 1 && bb !== 1) refuse(`the batch dims do not broadcast: ${ba} vs ${bb}`);
  const batch = ba === 1 ? bb : ba;
  const dtype = str(attrs, 'out_dtype') || a.dtype;
  return build([batch, m, n], dtype, ([i, p, q]) => {
    const ia = ba === 1 ? 0 : i!;
    const ib = bb === 1 ? 0 : i!;
    const aAt = (kk: number) => (ta ? a.get([ia, kk, p!]) : a.get([ia, p!, kk]));
    const bAt = (kk: number) => (tb ? b.get([ib, q!, kk]) : b.get([ib, kk, q!]));
    return fitDtype(dot(k, aAt, bAt), dtype);
  });
};

const batchFlatten: Executor = ([x]) => {
  const data = asTensor(x, 'data');
  if (data.rank < 1) refuse('batch_flatten needs rank >= 1');
  const rest = data.shape.slice(1).reduce((a, b) => a * b, 1);
  // the elements in row-major order, rows by the first dim
  return new NDArray([data.shape[0]!, rest], data.dtype, Float64Array.from(data.data));
};

const batchNorm: Executor = (args, attrs) => {
  const data = asTensor(args[0], 'data');
  const axis = axisIndex(int(attrs, 'axis'), data.rank);
  const c = data.shape[axis]!;
  const [gamma, beta, mean, variance] = ['gamma', 'beta', 'moving_mean', 'moving_var'].map((n, i) => vector(asTensor(args[i + 1], n), c, n)) as [
    NDArray,
    NDArray,
    NDArray,
    NDArray,
  ];
  sameDtype([data, gamma, beta, mean, variance], 'nn.batch_norm');
  const eps = int(attrs, 'epsilon');
  const out = data.map((v, idx) => {
    const ch = idx[axis]!;
    const x = (v - mean.data[ch]!) / Math.sqrt(variance.data[ch]! + eps);
    return fitDtype((attrs.scale !== false ? gamma.data[ch]! : 1) * x + (attrs.center !== false ? beta.data[ch]! : 0), data.dtype);
  });
  return [out, mean, variance];
};

/** layer_norm, instance_norm, group_norm: normalise groups of elements, then gamma/beta along the channel axis. */
function normOp(name: string, keyOf: (data: NDArray, axis: number, attrs: Attrs) => (idx: number[]) => string): Executor {
  return (args, attrs) => {
    const data = asTensor(args[0], 'data');
    const axis = axisIndex(int(attrs, 'axis'), data.rank);
    const c = data.shape[axis]!;
    const gamma = vector(asTensor(args[1], 'gamma'), c, 'gamma');
    const beta = vector(asTensor(args[2], 'beta'), c, 'beta');
    sameDtype([data, gamma, beta], name);
    const normed = normalise(data, groups(data.shape, keyOf(data, axis, attrs)), int(attrs, 'epsilon'));
    return affine(data, normed, axis, attrs.scale !== false ? gamma : null, attrs.center !== false ? beta : null);
  };
}

/** layer_norm: each line along axis on its own. */
const layerNorm = normOp('nn.layer_norm', (_d, axis) => (idx) => idx.filter((_, i) => i !== axis).join(','));

/** instance_norm: over every axis except the batch (0) and the channel axis (SimplifyInference). */
const instanceNorm = normOp('nn.instance_norm', (_d, axis) => (idx) => `${idx[0]}|${idx[axis]}`);

/** group_norm: the channel axis split into num_groups groups; a group with every later axis, per index of the earlier axes. */
const groupNorm = normOp('nn.group_norm', (data, axis, attrs) => {
  const g = int(attrs, 'num_groups');
  const c = data.shape[axis]!;
  if (g < 1 || c % g !== 0) refuse(`${c} channels cannot be split into ${g} groups (the computation reshapes to (${g}, C / ${g}))`);
  const per = c / g;
  return (idx) => `${idx.slice(0, axis).join(',')}|${Math.floor(idx[axis]! / per)}`;
});

const dropout: Executor = ([x], attrs) => {
  const data = asTensor(x, 'data');
  const rate = int(attrs, 'rate');
  const next = rng(7);
  const mask = data.map(() => (next() < rate ? 0 : 1));
  const keep = rate < 1 ? 1 / (1 - rate) : 0;
  const out = data.map((v, idx) => fitDtype(v * mask.get(idx) * keep, data.dtype));
  return [out, mask];
};

const upsampling: Executor = ([x], attrs) => {
  const data = asTensor(x, 'data');
  if (data.rank !== 4) refuse(`the data must have rank 4, got ${data.rank}`);
  const layout = str(attrs, 'layout') || 'NCHW';
  const [, , ph, pw] = layoutPositions(layout);
  // TOPI: the output size is round(in * scale) (tvm::round of a constant is nearbyint)
  const outH = nearbyint(data.shape[ph]! * int(attrs, 'scale_h'));
  const outW = nearbyint(data.shape[pw]! * int(attrs, 'scale_w'));
  const method = str(attrs, 'method').replace(/^bi/, '');
  const mode = bool(attrs, 'align_corners') ? 'align_corners' : 'asymmetric';
  return resample(data, layout, outH, outW, { method, mode, rounding: '', cubicAlpha: -0.5, cubicExclude: false }, data.dtype);
};

const resize2d: Executor = ([x], attrs) => {
  const data = asTensor(x, 'data');
  const size = attrs.size as readonly AttrJs[];
  if (!Array.isArray(size) || size.length !== 2) refuse('size must be a list of 2 ints');
  const options: SampleOptions = {
    method: str(attrs, 'method'),
    mode: str(attrs, 'coordinate_transformation_mode'),
    rounding: str(attrs, 'rounding_method'),
    cubicAlpha: int(attrs, 'cubic_alpha'),
    cubicExclude: int(attrs, 'cubic_exclude') !== 0,
  };
  return resample(data, str(attrs, 'layout') || 'NCHW', size[0] as number, size[1] as number, options, str(attrs, 'out_dtype') || data.dtype);
};

/** The data as (N, C, H, W) accessors over its layout. */
function nchwView(
  data: NDArray,
  layout: string,
): { dims: [number, number, number, number]; at: (n: number, c: number, h: number, w: number) => number; pos: [number, number, number, number] } {
  if (data.rank !== 4) refuse(`the data must have rank 4, got ${data.rank}`);
  const pos = layoutPositions(layout);
  const dims = pos.map((p) => data.shape[p]!) as [number, number, number, number];
  const at = (n: number, c: number, h: number, w: number) => {
    const idx: number[] = [];
    [n, c, h, w].forEach((v, i) => {
      idx[pos[i]!] = v;
    });
    return data.get(idx);
  };
  return { dims, at, pos };
}

/** A tensor in the layout, built from a function of (n, c, h, w). */
function buildNchw(dims: readonly number[], pos: readonly number[], dtype: string, f: (n: number, c: number, h: number, w: number) => number): NDArray {
  const shape: number[] = [];
  dims.forEach((d, i) => {
    shape[pos[i]!] = d;
  });
  return build(shape, dtype, (idx) => f(idx[pos[0]!]!, idx[pos[1]!]!, idx[pos[2]!]!, idx[pos[3]!]!));
}

const depthToSpace: Executor = ([x], attrs) => {
  const data = asTensor(x, 'data');
  const {
    dims: [n, c, h, w],
    at,
    pos,
  } = nchwView(data, str(attrs, 'layout') || 'NCHW');
  const b = int(attrs, 'block_size');
  if (b < 1 || c % (b * b) !== 0) refuse(`${c} channels cannot be split into ${b} x ${b} blocks`);
  const oc = c / (b * b);
  // TOPI: "DCR" is depth-column-row; every other mode ("CDR" in TVM's docs, "CRD" from ONNX) column-row-depth
  const crd = (str(attrs, 'mode') || 'DCR') !== 'DCR';
  // every output element comes from exactly one input element
  return buildNchw([n, oc, h * b, w * b], pos, data.dtype, (nn, cc, y, xx) => {
    const i = y % b;
    const j = xx % b;
    const src = crd ? cc * b * b + i * b + j : (i * b + j) * oc + cc;
    return at(nn, src, Math.floor(y / b), Math.floor(xx / b));
  });
};

const spaceToDepth: Executor = ([x], attrs) => {
  const data = asTensor(x, 'data');
  const {
    dims: [n, c, h, w],
    at,
    pos,
  } = nchwView(data, str(attrs, 'layout') || 'NCHW');
  const b = int(attrs, 'block_size');
  if (b < 1 || h % b !== 0 || w % b !== 0) refuse(`a ${h} x ${w} image cannot be cut into ${b} x ${b} blocks`);
  return buildNchw([n, c * b * b, h / b, w / b], pos, data.dtype, (nn, cc, y, xx) => {
    const block = Math.floor(cc / c);
    return at(nn, cc % c, y * b + Math.floor(block / b), xx * b + (block % b));
  });
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  'nn.relu': relu,
  'nn.softmax': ([x], attrs) => softmaxAlong(asTensor(x, 'data'), int(attrs, 'axis'), false),
  'nn.log_softmax': ([x], attrs) => softmaxAlong(asTensor(x, 'data'), int(attrs, 'axis'), true),
  'nn.bias_add': biasAdd,
  'nn.dense': dense,
  'nn.matmul': matmul,
  'nn.batch_matmul': batchMatmul,
  'nn.batch_flatten': batchFlatten,
  'nn.batch_norm': batchNorm,
  'nn.layer_norm': layerNorm,
  'nn.group_norm': groupNorm,
  'nn.instance_norm': instanceNorm,
  'nn.leaky_relu': leakyRelu,
  'nn.prelu': prelu,
  'nn.dropout': dropout,
  'nn.upsampling': upsampling,
  'nn.depth_to_space': depthToSpace,
  'nn.space_to_depth': spaceToDepth,
  'image.resize2d': resize2d,
};

/** Whether an upsampling scale is one the relation takes: a positive int, or a multiple of 1/8 in (0, 32]. */
const knownScale = (s: AttrJs | undefined): boolean => typeof s === 'number' && s > 0 && (Number.isInteger(s) || (s <= 32 && Number.isInteger(s * 8)));

/**
 * Operators whose relation deliberately rejects calls the executor can run,
 * with the reason and the calls it covers: only those divergences are expected.
 */
export const STRICTER: Readonly<Record<string, Stricter>> = {
  'nn.batch_norm': {
    reason: "as TVM's BatchNormRel, -1 is the only negative axis accepted; the computation would take any axis in [-rank, rank)",
    covers: (_args, attrs) => typeof attrs['axis'] === 'number' && attrs['axis'] < -1,
  },
  'nn.prelu': {
    reason: "as TVM's PReluRel, a negative axis is rejected; TOPI's compute would count it from the end",
    covers: (_args, attrs) => typeof attrs['axis'] === 'number' && attrs['axis'] < 0,
  },
  'nn.upsampling': {
    reason:
      'a scale must be a positive int or a multiple of 1/8 in (0, 32] (floats are data in the rules); the computation also runs with scale 0 (empty output) and other fractions',
    covers: (_args, attrs) => !knownScale(attrs['scale_h']) || !knownScale(attrs['scale_w']),
  },
};
