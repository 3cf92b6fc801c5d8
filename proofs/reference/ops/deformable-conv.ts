// Reference executor for relations/deformable-conv.rules: nn.deformable_conv2d computed
// on concrete tensors after TOPI's deformable_conv2d_nchw (python/tvm/topi/nn/
// deformable_conv2d.py): every kernel tap reads the data bilinearly at its position
// moved by the offset of its deformable group. Output sizes come out of the loops
// (windows counted while they fit).
import { type Attrs, type Executor, type Stricter, emptyResult } from '../executor.js';
import { NDArray, asTensor, build, fitDtype, refuse, type Value } from '../tensor.js';
import { countWindows, int, padding, str } from './conv.js';
import { bilinear } from './image.js';

function pair(v: unknown, what: string): [number, number] {
  if (typeof v === 'number') return [v, v];
  if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number')) return v as [number, number];
  return refuse(`${what} must be an int or a pair`);
}

/** Bilinear read of data[n, c] at (y, x): 0 a pixel or more outside the image, and each neighbour outside it reads 0. */
function sample(data: NDArray, n: number, c: number, y: number, x: number): number {
  const [, , h, w] = data.shape as [number, number, number, number];
  return y <= -1 || y >= h || x <= -1 || x >= w ? 0 : bilinear(data, n, c, y, x, 0);
}

const deformableConv2d: Executor = ([x, o, wt], attrs) => {
  const data = asTensor(x, 'data');
  const offset = asTensor(o, 'offset');
  const weight = asTensor(wt, 'weight');
  if (data.rank !== 4 || offset.rank !== 4 || weight.rank !== 4) refuse('deformable_conv2d takes 4-D data, offset and weight');
  const [n, c, h, w] = data.shape as [number, number, number, number];
  const [f, ci, kh, kw] = weight.shape as [number, number, number, number];
  const groups = int(attrs, 'groups');
  const dg = int(attrs, 'deformable_groups');
  if (c % groups !== 0 || f % groups !== 0 || ci !== c / groups)
    refuse(`the weight (${weight.shape.join(', ')}) does not fit ${c} channels in ${groups} groups`);
  if (c % dg !== 0) refuse(`${c} channels cannot be split into ${dg} deformable groups`);
  if (typeof attrs.channels === 'number' && attrs.channels !== f) refuse(`channels = ${attrs.channels} but the weight has ${f} filters`);
  const [sh, sw] = pair(attrs.strides, 'strides');
  const [dh, dw] = pair(attrs.dilation, 'dilation');
  const pad = padding(attrs.padding, 2);
  const oh = countWindows(h + pad.before[0]! + pad.after[0]!, (kh - 1) * dh + 1, sh);
  const ow = countWindows(w + pad.before[1]! + pad.after[1]!, (kw - 1) * dw + 1, sw);
  if (offset.shape.join() !== [n, 2 * kh * kw * dg, oh, ow].join())
    refuse(`the offset (${offset.shape.join(', ')}) has no (dy, dx) per tap, deformable group and output position`);
  const dtype = str(attrs, 'out_dtype') || data.dtype;
  const perGroup = c / groups;
  const perDg = c / dg;
  return build([n, f, oh, ow], dtype, ([b, ff, y, xx]) => {
    let s = 0;
    const g = Math.floor(ff! / (f / groups));
    for (let cc = g * perGroup; cc < (g + 1) * perGroup; cc++) {
      const base = Math.floor(cc / perDg) * 2 * kh * kw;
      for (let i = 0; i < kh; i++) {
        for (let j = 0; j < kw; j++) {
          const tap = base + 2 * (i * kw + j);
          const py = y! * sh - pad.before[0]! + i * dh + offset.get([b!, tap, y!, xx!]);
          const px = xx! * sw - pad.before[1]! + j * dw + offset.get([b!, tap + 1, y!, xx!]);
          s += sample(data, b!, cc, py, px) * weight.get([ff!, cc - g * perGroup, i, j]);
        }
      }
    }
    return fitDtype(s, dtype);
  });
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  'nn.deformable_conv2d': deformableConv2d,
};

/** Why the relation rejects some calls its executor runs. */
/** kernel_size is given and the weight's spatial dims (OIHW, or HWIO) are not it. */
const kernelDiffers = (weight: Value | undefined, attrs: Attrs): boolean => {
  const k = attrs['kernel_size'];
  if (!Array.isArray(k) || !(weight instanceof NDArray)) return false;
  const spatial = attrs['kernel_layout'] === 'HWIO' ? weight.shape.slice(0, 2) : weight.shape.slice(2, 4);
  return spatial.some((d, i) => d !== k[i]);
};

export const STRICTER: Readonly<Record<string, Stricter>> = {
  'nn.deformable_conv2d': {
    reason:
      "a padded input smaller than the dilated kernel is rejected (TVM's formula gives a size <= 0; the loops give an empty output); a weight whose kernel differs from kernel_size is rejected, as TVM's relation does (the loops would use the weight's own kernel)",
    covers: (args, attrs, result) => emptyResult(args, attrs, result) || kernelDiffers(args[2], attrs),
  },
};
