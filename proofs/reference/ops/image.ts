// Reference executors for the image family (relations/image.rules): each operator
// computed on concrete tensors after TVM's TOPI computes (python/tvm/topi/image/
// resize.py, grid_sample.py, dilation2d.py; topi/nn/upsampling.py). Output sizes come
// out of the loops (sizes as attributes say, windows counted while they fit), never
// from the relations' formulas.
import type { AttrJs } from '../../../relations/imperative/solve-one.js';
import { type Attrs, type Executor, type Stricter, emptyResult } from '../executor.js';
import { NDArray, asTensor, build, fitDtype, refuse, type Value } from '../tensor.js';
import { countWindows, fromCanon, int, padding, str, toCanon } from './conv.js';
import { nearbyint, taps, type SampleOptions } from './nn.js';

function ints(attrs: Attrs, name: string, n: number): number[] {
  const v = attrs[name] as readonly AttrJs[];
  if (!Array.isArray(v) || v.length !== n || !v.every((x) => typeof x === 'number')) refuse(`${name} must be a list of ${n} ints`);
  return v as number[];
}

function perAxis(attrs: Attrs, name: string, n: number): number[] {
  const v = attrs[name];
  return typeof v === 'number' ? Array.from({ length: n }, () => v) : ints(attrs, name, n);
}

/** Samples the spatial axes (2.. of a canonical NC... tensor) to `sizes`, separably. */
function resampleNd(data: NDArray, sizes: readonly number[], o: SampleOptions, dtype: string): NDArray {
  const nd = data.rank - 2;
  if (sizes.some((s) => s < 0)) refuse(`negative output size [${sizes.join(', ')}]`);
  const inSizes = data.shape.slice(2);
  const shape = [data.shape[0]!, data.shape[1]!, ...sizes];
  if (shape.reduce((a, b) => a * b, 1) > 0 && inSizes.some((s) => s === 0)) refuse(`cannot sample an empty input of size [${inSizes.join(', ')}]`);
  return build(shape, dtype, (idx) => {
    const perAxisTaps = Array.from({ length: nd }, (_, k) => taps(idx[k + 2]!, inSizes[k]!, sizes[k]!, o));
    let s = 0;
    const walk = (k: number, src: number[], w: number): void => {
      if (k === nd) {
        s += w * data.get(src);
        return;
      }
      for (const [i, wt] of perAxisTaps[k]!) walk(k + 1, [...src, i], w * wt);
    };
    walk(0, [idx[0]!, idx[1]!], 1);
    return fitDtype(s, dtype);
  });
}

function samplingOptions(attrs: Attrs): SampleOptions {
  return {
    method: str(attrs, 'method'),
    mode: str(attrs, 'coordinate_transformation_mode'),
    rounding: str(attrs, 'rounding_method'),
    cubicAlpha: int(attrs, 'cubic_alpha'),
    cubicExclude: int(attrs, 'cubic_exclude') !== 0,
  };
}

function resize(canon: string): Executor {
  return ([x], attrs) => {
    const layout = str(attrs, 'layout') || canon;
    const data = toCanon(asTensor(x, 'data'), layout, canon, 'data');
    const out = resampleNd(data, ints(attrs, 'size', canon.length - 2), samplingOptions(attrs), str(attrs, 'out_dtype') || data.dtype);
    return fromCanon(out, layout, canon);
  };
}

const upsampling3d: Executor = ([x], attrs) => {
  const layout = str(attrs, 'layout') || 'NCDHW';
  const data = toCanon(asTensor(x, 'data'), layout, 'NCDHW', 'data');
  // TOPI: each output size is round(in * scale)
  const sizes = ['scale_d', 'scale_h', 'scale_w'].map((name, k) => nearbyint(data.shape[k + 2]! * int(attrs, name)));
  const method = str(attrs, 'method') === 'trilinear' ? 'linear' : 'nearest_neighbor';
  const o: SampleOptions = { method, mode: str(attrs, 'coordinate_transformation_mode'), rounding: '', cubicAlpha: -0.5, cubicExclude: false };
  return fromCanon(resampleNd(data, sizes, o, data.dtype), layout, 'NCDHW');
};

const affineGrid: Executor = ([x], attrs) => {
  const theta = asTensor(x, 'data');
  if (theta.rank !== 3 || theta.shape[1] !== 2 || theta.shape[2] !== 3) refuse(`the affine matrices must be (N, 2, 3), got (${theta.shape.join(', ')})`);
  const [h, w] = ints(attrs, 'target_shape', 2) as [number, number];
  // the target grid spans [-1, 1] on each axis (a single row or column sits at -1)
  const at = (i: number, n: number) => (n > 1 ? -1 + (2 * i) / (n - 1) : -1);
  return build([theta.shape[0]!, 2, h, w], theta.dtype, ([n, k, i, j]) => {
    const gx = at(j!, w);
    const gy = at(i!, h);
    return fitDtype(theta.get([n!, k!, 0]) * gx + theta.get([n!, k!, 1]) * gy + theta.get([n!, k!, 2]), theta.dtype);
  });
};

/** Bilinear read of data[n, c] at (y, x) in pixels; a pixel outside the image reads `outside`. */
export function bilinear(data: NDArray, n: number, c: number, y: number, x: number, outside: number): number {
  const [, , h, w] = data.shape as [number, number, number, number];
  const y0 = Math.floor(y);
  const x0 = Math.floor(x);
  let s = 0;
  for (const [yy, wy] of [
    [y0, 1 - (y - y0)],
    [y0 + 1, y - y0],
  ] as const) {
    for (const [xx, wx] of [
      [x0, 1 - (x - x0)],
      [x0 + 1, x - x0],
    ] as const) {
      const v = yy >= 0 && yy < h && xx >= 0 && xx < w ? data.get([n, c, yy, xx]) : outside;
      s += wy * wx * v;
    }
  }
  return s;
}

const gridSample: Executor = ([x, g], attrs) => {
  const data = asTensor(x, 'data');
  const grid = asTensor(g, 'grid');
  if (data.rank !== 4 || grid.rank !== 4) refuse('grid_sample takes a 4-D image and a 4-D grid');
  if (grid.shape[1] !== 2) refuse(`the grid must hold (x, y) pairs, got ${grid.shape[1]} coordinates`);
  const [n, c, h, w] = data.shape as [number, number, number, number];
  // TOPI reads grid[b] for every batch b of the data
  if (grid.shape[0]! < n) refuse(`the grid has ${grid.shape[0]} batches for ${n} images`);
  const align = attrs.align_corners !== false;
  const unnormalise = (v: number, size: number) => (align ? ((v + 1) * (size - 1)) / 2 : ((v + 1) * size - 1) / 2);
  return build([n, c, grid.shape[2]!, grid.shape[3]!], data.dtype, ([b, ch, i, j]) => {
    const gx = unnormalise(grid.get([b!, 0, i!, j!]), w);
    const gy = unnormalise(grid.get([b!, 1, i!, j!]), h);
    return fitDtype(bilinear(data, b!, ch!, gy, gx, 0), data.dtype);
  });
};

const cropAndResize: Executor = ([x, bx, bi], attrs) => {
  const layout = str(attrs, 'layout') || 'NCHW';
  const data = toCanon(asTensor(x, 'data'), layout, 'NCHW', 'data');
  const boxes = asTensor(bx, 'boxes');
  const indices = asTensor(bi, 'box_indices');
  if (boxes.rank !== 2 || boxes.shape[1]! < 4) refuse(`boxes must be (B, 4), got (${boxes.shape.join(', ')})`);
  if (indices.rank !== 1 || indices.shape[0]! < boxes.shape[0]!) refuse(`box_indices (${indices.shape.join(', ')}) must hold one image index per box`);
  const [ch, cw] = ints(attrs, 'crop_size', 2) as [number, number];
  const [batch, , h, w] = data.shape as [number, number, number, number];
  const extrapolation = int(attrs, 'extrapolation_value');
  const dtype = str(attrs, 'out_dtype') || data.dtype;
  const coord = (lo: number, hi: number, i: number, n: number, size: number) =>
    n > 1 ? lo * (size - 1) + (i * (hi - lo) * (size - 1)) / (n - 1) : 0.5 * (lo + hi) * (size - 1);
  const out = build([boxes.shape[0]!, data.shape[1]!, ch, cw], dtype, ([b, c, i, j]) => {
    // an image index is data: it is taken modulo the batch (an empty batch has nothing to read)
    if (batch === 0) return extrapolation;
    const img = ((Math.trunc(indices.get([b!])) % batch) + batch) % batch;
    const y = coord(boxes.get([b!, 0]), boxes.get([b!, 2]), i!, ch, h);
    const xx = coord(boxes.get([b!, 1]), boxes.get([b!, 3]), j!, cw, w);
    if (y < 0 || y > h - 1 || xx < 0 || xx > w - 1) return extrapolation;
    return fitDtype(bilinear(data, img, c!, y, xx, 0), dtype);
  });
  return fromCanon(out, layout, 'NCHW');
};

const dilation2d: Executor = ([x, wt], attrs) => {
  const layout = str(attrs, 'data_layout') || 'NCHW';
  const data = toCanon(asTensor(x, 'data'), layout, 'NCHW', 'data');
  const weight = toCanon(asTensor(wt, 'weight'), str(attrs, 'kernel_layout') || 'IHW', 'IHW', 'weight');
  const [n, c, h, w] = data.shape as [number, number, number, number];
  // TOPI reads weight[c] for every data channel c
  if (weight.shape[0]! < c) refuse(`the weight has ${weight.shape[0]} channels for ${c} data channels`);
  const strides = perAxis(attrs, 'strides', 2);
  const dilations = perAxis(attrs, 'dilations', 2);
  const pad = padding(attrs.padding, 2);
  const kh = weight.shape[1]!;
  const kw = weight.shape[2]!;
  const extent = (k: number, d: number) => (k - 1) * d + 1;
  const oh = countWindows(h + pad.before[0]! + pad.after[0]!, extent(kh, dilations[0]!), strides[0]!);
  const ow = countWindows(w + pad.before[1]! + pad.after[1]!, extent(kw, dilations[1]!), strides[1]!);
  const dtype = str(attrs, 'out_dtype') || data.dtype;
  const out = build([n, c, oh, ow], dtype, ([b, ch, i, j]) => {
    let best = -Infinity;
    for (let p = 0; p < kh; p++) {
      for (let q = 0; q < kw; q++) {
        const y = i! * strides[0]! + p * dilations[0]! - pad.before[0]!;
        const xx = j! * strides[1]! + q * dilations[1]! - pad.before[1]!;
        const v = y >= 0 && y < h && xx >= 0 && xx < w ? data.get([b!, ch!, y, xx]) : 0;
        best = Math.max(best, v + weight.get([ch!, p, q]));
      }
    }
    return fitDtype(best, dtype);
  });
  return fromCanon(out, layout, 'NCHW');
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  'image.resize1d': resize('NCW'),
  'image.resize3d': resize('NCDHW'),
  'nn.upsampling3d': upsampling3d,
  'image.affine_grid': affineGrid,
  'image.grid_sample': gridSample,
  'image.crop_and_resize': cropAndResize,
  'image.dilation2d': dilation2d,
};

/** Why each relation rejects some calls its executor runs. */
const shapeOf = (v: Value | undefined): readonly number[] | null => (v instanceof NDArray ? v.shape : null);
/** A scale the relations accept: a positive int, or a multiple of 1/8 in (0, 32]. */
const acceptedScale = (v: number) => (Number.isInteger(v) && v > 0) || (v > 0 && v <= 32 && Number.isInteger(v * 8));
const CHANNEL_AXIS: Readonly<Record<string, number>> = { NCHW: 1, NHWC: 3, IHW: 0, HWI: 2 };

export const STRICTER: Readonly<Record<string, Stricter>> = {
  'nn.upsampling3d': {
    reason:
      'a scale must be a positive int or a multiple of 1/8 in (0, 32] (floats are data in the rules); the computation also runs with scale 0 (empty output) and other fractions',
    covers: (_args, attrs) => ['scale_d', 'scale_h', 'scale_w'].some((n) => !acceptedScale(Number(attrs[n] ?? 1))),
  },
  'image.grid_sample': {
    reason:
      "the grid must have the data's batch size: the computation only needs at least as many grids as images (it ignores the rest), which is surely a mistake in the program",
    covers: (args) => shapeOf(args[1])?.[0] !== shapeOf(args[0])?.[0],
  },
  'image.crop_and_resize': {
    reason:
      'boxes must be (B, 4) and box_indices (B): the computation reads 4 coordinates and one index per box and ignores any extra ones, which is surely a mistake in the program',
    covers: (args) => {
      const boxes = shapeOf(args[1]);
      const indices = shapeOf(args[2]);
      return boxes === null || indices === null || boxes.length !== 2 || boxes[1] !== 4 || indices.length !== 1 || indices[0] !== boxes[0];
    },
  },
  'image.dilation2d': {
    reason:
      "the weight's channels must equal the data's (the computation ignores extra weight channels, while TVM's type would take its channel count from the weight) and the padded input must hold the dilated window (the computation then gives an empty result, TVM a zero or negative size)",
    covers: (args, attrs, result) => {
      const data = shapeOf(args[0]);
      const weight = shapeOf(args[1]);
      const c = data?.[CHANNEL_AXIS[String(attrs['data_layout'] ?? 'NCHW')] ?? 1];
      const wc = weight?.[CHANNEL_AXIS[String(attrs['kernel_layout'] ?? 'IHW')] ?? 0];
      return c !== wc || emptyResult(args, attrs, result);
    },
  },
};
