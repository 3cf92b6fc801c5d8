// Reference executors for the conv family (declared in relations/conv.rules): each operator
// computed on concrete tensors, element by element, after TVM's TOPI computes
// (python/tvm/topi/nn/conv1d.py, conv2d.py, conv3d.py, conv2d_transpose.py,
// pooling via topi::nn::pool_impl_nd and adaptive_pool_impl). Output sizes come
// out of the loops (windows counted while they fit, scatter extents), never
// from the relations' formulas.
import type { AttrJs } from '../../../relations/imperative/solve-one.js';
import type { Attrs, Executor, Stricter } from '../executor.js';
import { layoutView, packedIndex, packedShape, primalIndex, primalShape, withSubExtents } from '../../../relations/layout.js';
import { NDArray, asTensor, build, forEachIndex, refuse, type Value } from '../tensor.js';

// ─── Attributes and layouts ──────────────────────────────────────────────────

const CANON = ['NCW', 'NCHW', 'NCDHW'];

export function int(attrs: Attrs, name: string): number {
  const v = attrs[name];
  if (typeof v !== 'number') refuse(`attribute ${name} must be a number`);
  return v;
}

export function str(attrs: Attrs, name: string): string {
  const v = attrs[name];
  return typeof v === 'string' ? v : '';
}

/** An int or a list as `nd` values (one value is repeated). */
function perAxis(v: AttrJs | undefined, nd: number, what: string): number[] {
  const xs = typeof v === 'number' ? [v] : Array.isArray(v) ? (v as AttrJs[]) : null;
  if (xs === null || !xs.every((x) => typeof x === 'number')) refuse(`${what} must be an int or a list of ints`);
  const ns = xs as number[];
  if (ns.length === 1) return Array.from({ length: nd }, () => ns[0]!);
  if (ns.length !== nd) refuse(`${what} needs ${nd} values, got ${ns.length}`);
  return ns;
}

/** Padding before and after each spatial axis: 1, nd or 2 * nd values. */
export function padding(v: AttrJs | undefined, nd: number): { before: number[]; after: number[] } {
  const xs = typeof v === 'number' ? [v] : Array.isArray(v) ? (v as number[]) : refuse('padding must be an int or a list');
  if (xs.length === 1) return { before: Array(nd).fill(xs[0]), after: Array(nd).fill(xs[0]) };
  if (xs.length === nd) return { before: [...xs], after: [...xs] };
  if (xs.length === 2 * nd) return { before: xs.slice(0, nd), after: xs.slice(nd) };
  return refuse(`padding needs 1, ${nd} or ${2 * nd} values, got ${xs.length}`);
}

/** Refuses unless `layout` is a permutation of `canon` (no sub-axes). */
function perm(layout: string, canon: string, what: string): void {
  const view = layoutView(layout, canon);
  if (typeof view === 'string' || view.subs.length > 0) refuse(`${what} ${layout} is not a permutation of ${canon}`);
}

/** The tensor with its axes reordered into canonical order; with `packed`, sub-axes (`NCHW4c`) are merged into their primal axes. */
export function toCanon(t: NDArray, layout: string, canon: string, what: string, packed = false): NDArray {
  if (!packed) perm(layout, canon, what);
  const parsed = layoutView(layout, canon);
  if (typeof parsed === 'string') return refuse(`${what}: ${parsed}`);
  if (t.rank !== parsed.axes.length) refuse(`${what} must have rank ${parsed.axes.length} (layout ${layout}), got ${t.rank}`);
  const view = withSubExtents(parsed, t.shape);
  return build(primalShape(view, t.shape), t.dtype, (idx) => t.get(packedIndex(view, idx)));
}

/** A canonical tensor placed into `layout` (with `packed`, split by its sub-axes: each factor, or the extent in `subExtents`, a shape in the layout, must divide its axis). */
export function fromCanon(t: NDArray, layout: string, canon: string, packed = false, subExtents: readonly number[] = []): NDArray {
  if (!packed) perm(layout, canon, 'layout');
  const parsed = layoutView(layout, canon);
  if (typeof parsed === 'string') return refuse(parsed);
  const view = subExtents.length === 0 ? parsed : withSubExtents(parsed, subExtents);
  const shape = packedShape(view, t.shape);
  if (typeof shape === 'string') return refuse(shape);
  return build(shape, t.dtype, (idx) => t.get(primalIndex(view, idx)));
}

/** The tensor itself, after refusing a packed layout whose sub-axes do not have their factors as extents (a bijective layout: convolutions). */
function bijective(t: NDArray, layout: string, canon: string, what: string): NDArray {
  const view = layoutView(layout, canon);
  if (typeof view === 'string') return refuse(`${what}: ${view}`);
  if (t.rank !== view.axes.length) refuse(`${what} must have rank ${view.axes.length} (layout ${layout}), got ${t.rank}`);
  for (const sub of view.subs)
    if (t.shape[sub.at] !== sub.factor) refuse(`${what}: the sub-axis at ${sub.at} has extent ${t.shape[sub.at]}, layout ${layout} says ${sub.factor}`);
  return t;
}

/** How many windows of extent `extent` fit at stride `stride` into `length` (counted). */
export function countWindows(length: number, extent: number, stride: number): number {
  let n = 0;
  while (n * stride + extent <= length) n++;
  return n;
}

// ─── Convolution ─────────────────────────────────────────────────────────────

function conv(nd: number): Executor {
  return (args, attrs) => {
    const canon = CANON[nd - 1]!;
    const kcanon = `OI${canon.slice(2)}`;
    // packed layouts (NCHW4c, OIHW4o4i) as TOPI's packed convolutions read them: a
    // sub-axis holds exactly its factor's elements
    const data = toCanon(bijective(asTensor(args[0], 'data'), str(attrs, 'data_layout'), canon, 'data'), str(attrs, 'data_layout'), canon, 'data', true);
    const weight = toCanon(
      bijective(asTensor(args[1], 'weight'), str(attrs, 'kernel_layout'), kcanon, 'weight'),
      str(attrs, 'kernel_layout'),
      kcanon,
      'weight',
      true,
    );
    const outLayout = str(attrs, 'out_layout') || str(attrs, 'data_layout');
    if (typeof layoutView(outLayout, canon) === 'string') refuse(`out_layout ${outLayout} is not a layout of ${canon}`);
    const strides = perAxis(attrs.strides, nd, 'strides');
    const dilation = perAxis(attrs.dilation, nd, 'dilation');
    const pad = padding(attrs.padding, nd);
    const g = int(attrs, 'groups');
    const [N, C, ...X] = data.shape as number[];
    const [O, I, ...K] = weight.shape as number[];
    if (attrs.kernel_size !== null && attrs.kernel_size !== undefined) {
      const ks = perAxis(attrs.kernel_size, nd, 'kernel_size');
      if (ks.some((k, i) => k !== K[i])) refuse(`kernel_size ${ks} does not match the weight`);
    }
    const channels = attrs.channels === null || attrs.channels === undefined ? null : int(attrs, 'channels');
    // TVM's depthwise weight with a channel multiplier: (C, multiplier, k...), groups = C
    const depthwise = nd > 1 && g > 1 && g === C && O === C && channels !== null && channels === C * I! && I! > 1;
    let outC: number;
    let inputChannel: (oc: number, j: number) => number;
    let weightAt: (oc: number, j: number) => [number, number];
    let perOut: number;
    if (depthwise) {
      outC = channels!;
      perOut = 1;
      inputChannel = (oc) => Math.floor(oc / I!);
      weightAt = (oc) => [Math.floor(oc / I!), oc % I!];
    } else {
      if (C! % g !== 0 || O! % g !== 0) refuse(`channels ${C} and ${O} must be divisible by groups ${g}`);
      if (I !== C! / g) refuse(`the weight has ${I} input channels, the data ${C} / ${g} groups`);
      if (channels !== null && channels !== O) refuse(`channels ${channels} does not match the weight's ${O}`);
      outC = O!;
      perOut = I!;
      const og = O! / g;
      inputChannel = (oc, j) => Math.floor(oc / og) * I! + j;
      weightAt = (oc, j) => [oc, j];
    }
    const extents = K.map((k, i) => (k - 1) * dilation[i]! + 1);
    const outSp = X.map((x, i) => countWindows(x + pad.before[i]! + pad.after[i]!, extents[i]!, strides[i]!));
    const dtype = str(attrs, 'out_dtype') || data.dtype;
    const out = build([N!, outC, ...outSp], dtype, (idx) => {
      const [n, oc, ...o] = idx as number[];
      let acc = 0;
      for (let j = 0; j < perOut; j++) {
        const ic = inputChannel(oc!, j);
        const [wo, wi] = weightAt(oc!, j);
        forEachIndex(K, (t) => {
          const pos = t.map((tk, i) => o[i]! * strides[i]! + tk * dilation[i]! - pad.before[i]!);
          if (pos.every((p, i) => p >= 0 && p < X[i]!)) acc += data.get([n!, ic, ...pos]) * weight.get([wo, wi, ...t]);
        });
      }
      return acc;
    });
    return fromCanon(out, outLayout, canon, true);
  };
}

export function convTranspose(nd: number): Executor {
  return (args, attrs) => {
    const canon = CANON[nd - 1]!;
    const kcanon = `IO${canon.slice(2)}`;
    const strides = perAxis(attrs.strides, nd, 'strides');
    const dilation = perAxis(attrs.dilation, nd, 'dilation');
    const outPad = perAxis(attrs.output_padding, nd, 'output_padding');
    if (outPad.some((p, i) => p >= strides[i]! && p >= dilation[i]!)) refuse('output_padding must be smaller than the stride or the dilation');
    // packed layouts (NCHW4c, OIHW4o4i) as TOPI's packed convolutions read them: a
    // sub-axis holds exactly its factor's elements
    const data = toCanon(bijective(asTensor(args[0], 'data'), str(attrs, 'data_layout'), canon, 'data'), str(attrs, 'data_layout'), canon, 'data', true);
    const weight = toCanon(
      bijective(asTensor(args[1], 'weight'), str(attrs, 'kernel_layout'), kcanon, 'weight'),
      str(attrs, 'kernel_layout'),
      kcanon,
      'weight',
      true,
    );
    const outLayout = str(attrs, 'out_layout') || str(attrs, 'data_layout');
    if (typeof layoutView(outLayout, canon) === 'string') refuse(`out_layout ${outLayout} is not a layout of ${canon}`);
    const pad = padding(attrs.padding, nd);
    const g = int(attrs, 'groups');
    const [N, C, ...X] = data.shape as number[];
    const [I, O, ...K] = weight.shape as number[];
    if (I !== C || C! % g !== 0) refuse(`the weight's ${I} input channels must be the data's ${C}, divisible by groups ${g}`);
    if (attrs.kernel_size !== null && attrs.kernel_size !== undefined && perAxis(attrs.kernel_size, nd, 'kernel_size').some((k, i) => k !== K[i]))
      refuse('kernel_size does not match the weight');
    const outC = O! * g;
    if (attrs.channels !== null && attrs.channels !== undefined && int(attrs, 'channels') !== outC) refuse(`channels does not match the weight's ${O} x ${g}`);
    if (X.some((x) => x === 0) || K.some((k) => k === 0)) refuse('transposed convolution of an empty input or with an empty kernel');
    // the extent of the full (uncropped) output: the furthest position any tap reaches
    const full = X.map((x, i) => {
      let far = -1;
      for (let p = 0; p < x; p++) for (let t = 0; t < K[i]!; t++) far = Math.max(far, p * strides[i]! + t * dilation[i]!);
      return far + 1;
    });
    const buffer = new NDArray([N!, outC, ...full], data.dtype);
    const cg = C! / g;
    forEachIndex(data.shape, (di) => {
      const [n, c, ...p] = di as number[];
      const grp = Math.floor(c! / cg);
      forEachIndex([O!, ...K], (wi) => {
        const [o, ...t] = wi as number[];
        const at = [n!, grp * O! + o!, ...p.map((pp, i) => pp * strides[i]! + t[i]! * dilation[i]!)];
        buffer.set(at, buffer.get(at) + data.get([n!, c!, ...p]) * weight.get([c!, o!, ...t]));
      });
    });
    const outSp = full.map((f, i) => f - pad.before[i]! - pad.after[i]! + outPad[i]!);
    if (outSp.some((s) => s < 0)) refuse('the padding is larger than the transposed output');
    const out = build([N!, outC, ...outSp], str(attrs, 'out_dtype') || data.dtype, (idx) => {
      const [n, c, ...o] = idx as number[];
      const src = o.map((x, i) => x + pad.before[i]!);
      return src.every((s, i) => s < full[i]!) ? buffer.get([n!, c!, ...src]) : 0;
    });
    return fromCanon(out, outLayout, canon);
  };
}

// ─── Pooling ─────────────────────────────────────────────────────────────────

function pool(nd: number, kind: 'max' | 'avg'): Executor {
  return (args, attrs) => {
    const canon = CANON[nd - 1]!;
    const layout = str(attrs, 'layout');
    const packed = asTensor(args[0], 'data');
    const data = toCanon(packed, layout, canon, 'data', true);
    const size = perAxis(attrs.pool_size, nd, 'pool_size');
    const strides = perAxis(attrs.strides, nd, 'strides');
    const dilation = perAxis(attrs.dilation, nd, 'dilation');
    const pad = padding(attrs.padding, nd);
    const ceil = attrs.ceil_mode === true;
    const includePad = attrs.count_include_pad === true;
    const [N, C, ...X] = data.shape as number[];
    // ceil_mode: TVM pads the end by stride - 1 more, so a last partial window is kept
    const padded = X.map((x, i) => x + pad.before[i]! + pad.after[i]! + (ceil ? strides[i]! - 1 : 0));
    const extents = size.map((k, i) => (k - 1) * dilation[i]! + 1);
    const outSp = padded.map((l, i) => countWindows(l, extents[i]!, strides[i]!));
    const out = build([N!, C!, ...outSp], data.dtype, (idx) => {
      const [n, c, ...o] = idx as number[];
      let best = -Infinity;
      let sum = 0;
      let count = 0;
      forEachIndex(size, (t) => {
        const pos = t.map((tk, i) => o[i]! * strides[i]! + tk * dilation[i]! - pad.before[i]!);
        const inside = pos.every((p, i) => p >= 0 && p < X[i]!);
        const inPadding = pos.every((p, i) => p >= -pad.before[i]! && p < X[i]! + pad.after[i]!);
        if (inside) {
          const v = data.get([n!, c!, ...pos]);
          best = Math.max(best, v);
          sum += v;
        }
        if (inside || (includePad && inPadding)) count++;
      });
      return kind === 'max' ? best : count === 0 ? 0 : sum / count;
    });
    return fromCanon(out, layout, canon, true, packed.shape);
  };
}

function globalPool(kind: 'max' | 'avg'): Executor {
  return (args, attrs) => {
    const layout = str(attrs, 'layout');
    const packed = asTensor(args[0], 'data');
    const data = toCanon(packed, layout, 'NCHW', 'data', true);
    const [N, C, H, W] = data.shape as number[];
    const out = build([N!, C!, 1, 1], data.dtype, ([n, c]) => {
      let best = -Infinity;
      let sum = 0;
      for (let h = 0; h < H!; h++)
        for (let w = 0; w < W!; w++) {
          const v = data.get([n!, c!, h, w]);
          best = Math.max(best, v);
          sum += v;
        }
      return kind === 'max' ? best : H! * W! === 0 ? 0 : sum / (H! * W!);
    });
    return fromCanon(out, layout, 'NCHW', true, packed.shape);
  };
}

function adaptivePool(nd: number, kind: 'max' | 'avg'): Executor {
  return (args, attrs) => {
    const canon = CANON[nd - 1]!;
    const layout = str(attrs, 'layout');
    const data = toCanon(asTensor(args[0], 'data'), layout, canon, 'data');
    const [N, C, ...X] = data.shape as number[];
    const wanted = attrs.output_size === null || attrs.output_size === undefined ? X : perAxis(attrs.output_size, nd, 'output_size');
    // the windows of each axis, by TVM's start/end formula
    const windows = X.map((x, i) => {
      const ws: [number, number][] = [];
      for (let k = 0; k < wanted[i]!; k++) ws.push([Math.floor((k * x) / wanted[i]!), Math.ceil(((k + 1) * x) / wanted[i]!)]);
      return ws;
    });
    const out = build([N!, C!, ...windows.map((w) => w.length)], data.dtype, (idx) => {
      const [n, c, ...o] = idx as number[];
      const ranges = o.map((k, i) => windows[i]![k]!);
      let best = -Infinity;
      let sum = 0;
      let count = 0;
      forEachIndex(
        ranges.map(([s, e]) => Math.max(0, e - s)),
        (t) => {
          const v = data.get([n!, c!, ...t.map((tk, i) => ranges[i]![0] + tk)]);
          best = Math.max(best, v);
          sum += v;
          count++;
        },
      );
      return kind === 'max' ? best : count === 0 ? 0 : sum / count;
    });
    return fromCanon(out, layout, canon);
  };
}

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  'nn.conv1d': conv(1),
  'nn.conv2d': conv(2),
  'nn.contrib_conv2d_NCHWc': conv(2),
  'nn.conv3d': conv(3),
  'nn.conv2d_transpose': convTranspose(2),
  'nn.max_pool1d': pool(1, 'max'),
  'nn.max_pool2d': pool(2, 'max'),
  'nn.max_pool3d': pool(3, 'max'),
  'nn.avg_pool1d': pool(1, 'avg'),
  'nn.avg_pool2d': pool(2, 'avg'),
  'nn.avg_pool3d': pool(3, 'avg'),
  'nn.global_avg_pool2d': globalPool('avg'),
  'nn.global_max_pool2d': globalPool('max'),
  'nn.adaptive_avg_pool1d': adaptivePool(1, 'avg'),
  'nn.adaptive_avg_pool2d': adaptivePool(2, 'avg'),
  'nn.adaptive_avg_pool3d': adaptivePool(3, 'avg'),
  'nn.adaptive_max_pool1d': adaptivePool(1, 'max'),
  'nn.adaptive_max_pool2d': adaptivePool(2, 'max'),
  'nn.adaptive_max_pool3d': adaptivePool(3, 'max'),
};

/** Whether some spatial axis of the (canonical) result counted no window: the padded input was smaller than the dilated kernel or window. */
const noWindow =
  (nd: number, outLayout: (attrs: Attrs) => string) =>
  (_args: readonly Value[], attrs: Attrs, result: Value): boolean =>
    toCanon(asTensor(result, 'result'), outLayout(attrs), CANON[nd - 1]!, 'result', true)
      .shape.slice(2)
      .some((d) => d === 0);

const smallConv = (nd: number): Stricter => ({
  reason: 'the relation rejects a padded input smaller than the dilated kernel (TVM and the loops give a zero-size output)',
  covers: noWindow(nd, (a) => str(a, 'out_layout') || str(a, 'data_layout')),
});
/** Whether, on some spatial axis, the padded input (before ceil_mode's extension) is smaller than the dilated window. */
const windowLargerThanInput =
  (nd: number) =>
  (args: readonly Value[], attrs: Attrs): boolean => {
    const data = toCanon(asTensor(args[0], 'data'), str(attrs, 'layout'), CANON[nd - 1]!, 'data', true);
    const size = perAxis(attrs.pool_size, nd, 'pool_size');
    const dilation = perAxis(attrs.dilation, nd, 'dilation');
    const pad = padding(attrs.padding, nd);
    return data.shape.slice(2).some((x, i) => x + pad.before[i]! + pad.after[i]! < (size[i]! - 1) * dilation[i]! + 1);
  };

/** Whether the pool's layout splits a spatial axis (NCHW4h): TVM rejects it too, the loops would run. */
const splitsSpatial =
  (nd: number) =>
  (_args: readonly Value[], attrs: Attrs): boolean => {
    const view = layoutView(str(attrs, 'layout'), CANON[nd - 1]!);
    return typeof view !== 'string' && view.subs.some((sub) => sub.of >= 2);
  };
const SPLIT_REASON = 'the relation rejects a layout that splits a spatial axis (such as NCHW4h), as TVM does; the loops could pool it';

const smallPool = (nd: number): Stricter => ({
  reason: `the relation rejects a padded input smaller than the dilated window: without ceil_mode TVM and the loops give a zero-size output; with ceil_mode, when the extension by stride - 1 lets one window fit, TVM and the loops give one window (a deviation from TVM); ${SPLIT_REASON}`,
  covers: (args, attrs) => splitsSpatial(nd)(args, attrs) || windowLargerThanInput(nd)(args, attrs),
});
const splitGlobalPool: Stricter = { reason: SPLIT_REASON, covers: splitsSpatial(2) };

/**
 * Operators whose relation deliberately rejects calls the executor can run,
 * with the reason and the calls it covers (here: a zero-size output).
 */
export const STRICTER: Readonly<Record<string, Stricter>> = {
  'nn.conv1d': smallConv(1),
  'nn.conv2d': smallConv(2),
  'nn.contrib_conv2d_NCHWc': smallConv(2),
  'nn.conv3d': smallConv(3),
  'nn.max_pool1d': smallPool(1),
  'nn.max_pool2d': smallPool(2),
  'nn.max_pool3d': smallPool(3),
  'nn.avg_pool1d': smallPool(1),
  'nn.avg_pool2d': smallPool(2),
  'nn.avg_pool3d': smallPool(3),
  'nn.global_avg_pool2d': splitGlobalPool,
  'nn.global_max_pool2d': splitGlobalPool,
};
