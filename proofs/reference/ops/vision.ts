// Reference executors for relations/vision.rules, computed on concrete tensors after
// TOPI's vision operators (python/tvm/topi/vision/reorg.py, rcnn/roi_align.py,
// rcnn/roi_pool.py, rcnn/proposal.py, ssd/multibox.py, nms.py). Output sizes come out of
// the loops: regions counted from the rois, boxes counted while they are generated,
// proposals pushed per image.
import type { AttrJs } from '../../../relations/imperative/solve-one.js';
import type { Attrs, Executor, Stricter } from '../executor.js';
import { NDArray, asTensor, build, fitDtype, refuse, type Value } from '../tensor.js';
import { fromCanon, int, str, toCanon } from './conv.js';

function numbers(attrs: Attrs, name: string): number[] {
  const v = attrs[name] as readonly AttrJs[];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number')) refuse(`${name} must be a list of numbers`);
  return v as number[];
}

const yoloReorg: Executor = ([x], attrs) => {
  const data = asTensor(x, 'data');
  if (data.rank !== 4) refuse('reorg takes a 4-D map');
  const s = int(attrs, 'stride');
  const [n, c, h, w] = data.shape as [number, number, number, number];
  if (h % s !== 0 || w % s !== 0) refuse(`a ${h} x ${w} map cannot be cut into ${s} x ${s} blocks`);
  return build([n, c * s * s, h / s, w / s], data.dtype, ([b, k, y, xx]) => {
    const block = Math.floor(k! / c);
    return data.get([b!, k! % c, y! * s + Math.floor(block / s), xx! * s + (block % s)]);
  });
};

/** Bilinear read of data[n, c] (canonical NCHW) at (y, x), clamped to the map. */
function bilinear(data: NDArray, n: number, c: number, y: number, x: number): number {
  const [, , h, w] = data.shape as [number, number, number, number];
  const cy = Math.min(Math.max(y, 0), h - 1);
  const cx = Math.min(Math.max(x, 0), w - 1);
  const y0 = Math.floor(cy);
  const x0 = Math.floor(cx);
  const y1 = Math.min(y0 + 1, h - 1);
  const x1 = Math.min(x0 + 1, w - 1);
  const ty = cy - y0;
  const tx = cx - x0;
  return (
    (1 - ty) * ((1 - tx) * data.get([n, c, y0, x0]) + tx * data.get([n, c, y0, x1])) +
    ty * ((1 - tx) * data.get([n, c, y1, x0]) + tx * data.get([n, c, y1, x1]))
  );
}

/** A region pooling: `cell` reduces one bin of one region of image n, channel c. */
function roiOp(
  cell: (data: NDArray, n: number, c: number, box: readonly number[], bin: readonly [number, number, number, number], attrs: Attrs) => number,
): Executor {
  return ([x, r], attrs) => {
    const layout = str(attrs, 'layout') || 'NCHW';
    const data = toCanon(asTensor(x, 'data'), layout, 'NCHW', 'data');
    const rois = asTensor(r, 'rois');
    if (rois.rank !== 2 || rois.shape[1] !== 5) refuse('rois must be (R, 5)');
    const [ph, pw] = numbers(attrs, 'pooled_size') as [number, number];
    const scale = int(attrs, 'spatial_scale');
    const [batch, , h, w] = data.shape as [number, number, number, number];
    const out = build([rois.shape[0]!, data.shape[1]!, ph, pw], data.dtype, ([k, c, i, j]) => {
      // the batch index is data: taken modulo the batch (an empty map reads nothing)
      if (batch === 0 || h === 0 || w === 0) return 0;
      const n = ((Math.trunc(rois.get([k!, 0])) % batch) + batch) % batch;
      const box = [1, 2, 3, 4].map((q) => rois.get([k!, q]) * scale);
      const bh = Math.max(box[3]! - box[1]!, 1) / ph;
      const bw = Math.max(box[2]! - box[0]!, 1) / pw;
      return fitDtype(cell(data, n, c!, box, [box[1]! + i! * bh, box[0]! + j! * bw, bh, bw], attrs), data.dtype);
    });
    return fromCanon(out, layout, 'NCHW');
  };
}

const roiAlign = roiOp((data, n, c, _box, [y0, x0, bh, bw], attrs) => {
  const ratio = int(attrs, 'sample_ratio');
  const sy = ratio > 0 ? ratio : Math.max(1, Math.ceil(bh));
  const sx = ratio > 0 ? ratio : Math.max(1, Math.ceil(bw));
  const samples: number[] = [];
  for (let a = 0; a < sy; a++) for (let b = 0; b < sx; b++) samples.push(bilinear(data, n, c, y0 + ((a + 0.5) * bh) / sy, x0 + ((b + 0.5) * bw) / sx));
  return str(attrs, 'mode') === 'max' ? Math.max(...samples) : samples.reduce((s, v) => s + v, 0) / samples.length;
});

const roiPool = roiOp((data, n, c, _box, [y0, x0, bh, bw]) => {
  const [, , h, w] = data.shape as [number, number, number, number];
  let best = -Infinity;
  for (let y = Math.max(Math.floor(y0), 0); y < Math.min(Math.ceil(y0 + bh), h); y++) {
    for (let x = Math.max(Math.floor(x0), 0); x < Math.min(Math.ceil(x0 + bw), w); x++) best = Math.max(best, data.get([n, c, y, x]));
  }
  return best === -Infinity ? 0 : best;
});

const multiboxPrior: Executor = ([x], attrs) => {
  const data = asTensor(x, 'data');
  if (data.rank !== 4) refuse('multibox_prior takes a 4-D map');
  const sizes = numbers(attrs, 'sizes');
  const ratios = numbers(attrs, 'ratios');
  // TOPI pairs every size with ratios[0] and sizes[0] with every other ratio: both are read
  if (sizes.length === 0 || ratios.length === 0) refuse('TOPI reads sizes[0] and ratios[0]: neither may be empty');
  const [stepY, stepX] = numbers(attrs, 'steps') as [number, number];
  const [offY, offX] = numbers(attrs, 'offsets') as [number, number];
  const [, , h, w] = data.shape as [number, number, number, number];
  const dy = stepY > 0 ? stepY : 1 / h;
  const dx = stepX > 0 ? stepX : 1 / w;
  const boxes: number[][] = [];
  for (let i = 0; i < h; i++) {
    for (let j = 0; j < w; j++) {
      const cy = (i + offY) * dy;
      const cx = (j + offX) * dx;
      // every size with the first ratio, then the first size with every other ratio
      const shapes = [...sizes.map((s) => [s, ratios[0]!]), ...ratios.slice(1).map((r) => [sizes[0]!, r])];
      for (const [s, r] of shapes) {
        const bw = (((s! * h) / w) * Math.sqrt(r!)) / 2;
        const bh = s! / Math.sqrt(r!) / 2;
        const box = [cx - bw, cy - bh, cx + bw, cy + bh];
        boxes.push(attrs.clip === true ? box.map((v) => Math.min(Math.max(v, 0), 1)) : box);
      }
    }
  }
  return build([1, boxes.length, 4], data.dtype, ([, k, q]) => fitDtype(boxes[k!]![q!]!, data.dtype));
};

/** Intersection over union of two (x1, y1, x2, y2) boxes. */
function iou(a: readonly number[], b: readonly number[]): number {
  const w = Math.max(0, Math.min(a[2]!, b[2]!) - Math.max(a[0]!, b[0]!));
  const h = Math.max(0, Math.min(a[3]!, b[3]!) - Math.max(a[1]!, b[1]!));
  const inter = w * h;
  const area = (q: readonly number[]) => Math.max(0, q[2]! - q[0]!) * Math.max(0, q[3]! - q[1]!);
  const union = area(a) + area(b) - inter;
  return union > 0 ? inter / union : 0;
}

const nonMaxSuppression: Executor = ([x, vc, , mo, th], attrs) => {
  const data = asTensor(x, 'data');
  const counts = asTensor(vc, 'valid_count');
  if (data.rank !== 3 || counts.rank !== 1) refuse('non_max_suppression takes (B, N, K) boxes and (B) counts');
  const [b, n, k] = data.shape as [number, number, number];
  // TOPI reads valid_count[i] for every batch i, and each box's coordinates, score and id
  if (counts.shape[0]! < b) refuse(`${counts.shape[0]} valid counts for ${b} batches`);
  const [cs, si, ii] = ['coord_start', 'score_index', 'id_index'].map((a) => int(attrs, a)) as [number, number, number];
  if (cs + 4 > k || si >= k || ii >= k) refuse(`boxes of ${k} values do not hold what TOPI reads`);
  const maxOut = mo !== undefined && !Array.isArray(mo) && (mo as NDArray).size === 1 ? Math.trunc((mo as NDArray).data[0]!) : -1;
  const threshold = th !== undefined && !Array.isArray(th) && (th as NDArray).size === 1 ? (th as NDArray).data[0]! : 0.5;
  const topK = int(attrs, 'top_k');
  const kept: number[][] = [];
  for (let i = 0; i < b; i++) {
    const valid = Math.max(0, Math.min(n, Math.trunc(counts.get([i]))));
    let order = Array.from({ length: valid }, (_, j) => j).sort((p, q) => data.get([i, q, si]) - data.get([i, p, si]));
    if (topK > 0) order = order.slice(0, topK);
    const box = (j: number) => [0, 1, 2, 3].map((c) => data.get([i, j, cs + c]));
    const keep: number[] = [];
    for (const j of order) {
      if (maxOut >= 0 && keep.length >= maxOut) break;
      const sameClass = (q: number) => attrs.force_suppress === true || ii < 0 || data.get([i, q, ii]) === data.get([i, j, ii]);
      if (keep.every((q) => !sameClass(q) || iou(box(q), box(j)) < threshold)) keep.push(j);
    }
    kept.push(keep);
  }
  if (attrs.return_indices !== false) {
    return [build([b, n], 'int32', ([i, j]) => kept[i!]![j!] ?? -1), build([b, 1], 'int32', ([i]) => kept[i!]!.length)];
  }
  return build([b, n, k], data.dtype, ([i, j, c]) => (j! < kept[i!]!.length ? data.get([i!, kept[i!]![j!]!, c!]) : -1));
};

const multiboxTransformLoc: Executor = ([c, l, a], attrs) => {
  const cls = asTensor(c, 'cls_prob');
  const loc = asTensor(l, 'loc_pred');
  const anchor = asTensor(a, 'anchor');
  if (cls.rank !== 3 || loc.rank !== 2 || anchor.rank !== 3) refuse('multibox_transform_loc takes (B, C, N), (B, 4N) and (1, N, 4)');
  const [b, classes, n] = cls.shape as [number, number, number];
  // TOPI reads anchor[0, i, 0..3], loc_pred[b, 4i..4i+3] and cls_prob[b, :, i]
  if (anchor.shape[0]! < 1 || anchor.shape[1]! < n || anchor.shape[2]! < 4 || loc.shape[0]! < b || loc.shape[1]! < 4 * n)
    refuse('the anchors or offsets do not cover what TOPI reads');
  const [v0, v1, v2, v3] = numbers(attrs, 'variances') as [number, number, number, number];
  const first = attrs.keep_background === true ? 0 : 1;
  const threshold = int(attrs, 'threshold');
  const clip = (v: number) => (attrs.clip === false ? v : Math.min(Math.max(v, 0), 1));
  const rows: number[][][] = [];
  for (let i = 0; i < b; i++) {
    const batch: number[][] = [];
    for (let j = 0; j < n; j++) {
      let best = -1;
      let score = -Infinity;
      for (let k = first; k < classes; k++) if (cls.get([i, k, j]) > score) [best, score] = [k, cls.get([i, k, j])];
      const [l0, t0, r0, b0] = [0, 1, 2, 3].map((q) => anchor.get([0, j, q])) as [number, number, number, number];
      const [aw, ah, ax, ay] = [r0 - l0, b0 - t0, (l0 + r0) / 2, (t0 + b0) / 2];
      const [px, py, pw, ph] = [0, 1, 2, 3].map((q) => loc.get([i, 4 * j + q])) as [number, number, number, number];
      const [ox, oy, ow, oh] = [px * v0 * aw + ax, py * v1 * ah + ay, (Math.exp(pw * v2) * aw) / 2, (Math.exp(ph * v3) * ah) / 2];
      const valid = best >= 0 && score >= threshold;
      batch.push([valid ? best - first : -1, valid ? score : -1, clip(ox - ow), clip(oy - oh), clip(ox + ow), clip(oy + oh)]);
    }
    rows.push(batch);
  }
  return [
    build([b, n, 6], cls.dtype, ([i, j, q]) => fitDtype(rows[i!]![j!]![q!]!, cls.dtype)),
    build([b], 'int32', ([i]) => rows[i!]!.filter((r) => r[0]! >= 0).length),
  ];
};

/** A Faster R-CNN anchor of the given ratio and scale, centred in the first stride x stride cell: (x1, y1, x2, y2). */
function anchorBox(stride: number, ratio: number, scale: number): number[] {
  const ws = Math.round(Math.sqrt((stride * stride) / ratio));
  const [w, h] = [ws * scale, Math.round(ws * ratio) * scale];
  const centre = (stride - 1) / 2;
  return [centre - (w - 1) / 2, centre - (h - 1) / 2, centre + (w - 1) / 2, centre + (h - 1) / 2];
}

/** An anchor moved by its four predicted deltas: corner offsets (iou_loss) or centre shifts and log-size changes. */
function decode(a: readonly number[], d: readonly number[], iouLoss: boolean): number[] {
  if (iouLoss) return a.map((v, i) => v + d[i]!);
  const [w, h] = [a[2]! - a[0]! + 1, a[3]! - a[1]! + 1];
  const [cx, cy] = [a[0]! + (w - 1) / 2 + d[0]! * w, a[1]! + (h - 1) / 2 + d[1]! * h];
  const [pw, ph] = [Math.exp(d[2]!) * w, Math.exp(d[3]!) * h];
  return [cx - (pw - 1) / 2, cy - (ph - 1) / 2, cx + (pw - 1) / 2, cy + (ph - 1) / 2];
}

/**
 * vision.proposal: for each image, every anchor at every map position decoded by its
 * deltas, clipped to the image, scored -1 when smaller than rpn_min_size, ranked,
 * cut to rpn_pre_nms_top_n, suppressed greedily, then rpn_post_nms_top_n rows written.
 * The values follow the Faster R-CNN recipe, not TOPI's bit for bit (the check
 * compares the type of the result, whose row count comes out of the loop).
 */
const proposal: Executor = ([c, bb, ii], attrs) => {
  const [cls, bbox, info] = [asTensor(c, 'cls_prob'), asTensor(bb, 'bbox_pred'), asTensor(ii, 'im_info')];
  if (cls.rank !== 4 || bbox.rank !== 4 || info.rank !== 2) refuse('proposal takes 4-D scores and deltas and 2-D image information');
  if (info.shape[1] !== 3) refuse('im_info must hold (height, width, scale) per image');
  const [batch, c2, h, w] = cls.shape as [number, number, number, number];
  const [scales, ratios] = [numbers(attrs, 'scales'), numbers(attrs, 'ratios')];
  const anchors = c2 / 2;
  if (!Number.isInteger(anchors) || anchors > scales.length * ratios.length)
    refuse(`${c2} score channels are not 2 per anchor of the ${scales.length * ratios.length} scale-ratio pairs`);
  if (bbox.shape[0]! < batch || bbox.shape[1]! < 4 * anchors || bbox.shape[2]! < h || bbox.shape[3]! < w)
    refuse('bbox_pred has no 4 deltas per anchor, position and image');
  if (info.shape[0]! < batch) refuse('im_info has no row per image');
  const [stride, pre, post, minSize] = [
    int(attrs, 'feature_stride'),
    int(attrs, 'rpn_pre_nms_top_n'),
    int(attrs, 'rpn_post_nms_top_n'),
    int(attrs, 'rpn_min_size'),
  ];
  const threshold = Number(attrs['threshold']);
  const rows: number[][] = [];
  for (let b = 0; b < batch; b++) {
    const [imH, imW, imScale] = [info.get([b, 0]), info.get([b, 1]), info.get([b, 2])];
    const found: { score: number; box: number[] }[] = [];
    for (let k = 0; k < anchors; k++) {
      const base = anchorBox(stride, ratios[Math.floor(k / scales.length)]!, scales[k % scales.length]!);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const shifted = base.map((v, i) => v + (i % 2 === 0 ? x : y) * stride);
          const raw = decode(
            shifted,
            [0, 1, 2, 3].map((j) => bbox.get([b, 4 * k + j, y, x])),
            attrs['iou_loss'] === true,
          );
          const box = raw.map((v, i) => Math.min(Math.max(v, 0), (i % 2 === 0 ? imW : imH) - 1));
          const small = box[2]! - box[0]! + 1 < minSize * imScale || box[3]! - box[1]! + 1 < minSize * imScale;
          found.push({ score: small ? -1 : cls.get([b, anchors + k, y, x]), box });
        }
      }
    }
    const ranked = found.map((f, i) => ({ ...f, i })).sort((p, q) => q.score - p.score || p.i - q.i);
    const kept: number[][] = [];
    for (const cand of pre > 0 ? ranked.slice(0, pre) : ranked) {
      if (kept.length < post && kept.every((k) => iou(k, cand.box) < threshold)) kept.push(cand.box);
    }
    // the rows past the kept boxes repeat them in order (zeros when none is kept)
    for (let j = 0; j < post; j++) rows.push([b, ...(kept.length > 0 ? kept[j % kept.length]! : [0, 0, 0, 0])]);
  }
  return build([rows.length, 5], cls.dtype, ([r, q]) => fitDtype(rows[r!]![q!]!, cls.dtype));
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  'vision.yolo_reorg': yoloReorg,
  'vision.roi_align': roiAlign,
  'vision.roi_pool': roiPool,
  'vision.multibox_prior': multiboxPrior,
  'vision.non_max_suppression': nonMaxSuppression,
  'vision.multibox_transform_loc': multiboxTransformLoc,
  'vision.proposal': proposal,
};

/** Why each relation rejects some calls its executor runs. */
const dims = (v: Value | undefined): readonly number[] => (v instanceof NDArray ? v.shape : []);

export const STRICTER: Readonly<Record<string, Stricter>> = {
  'vision.proposal': {
    reason:
      "cls_prob must have 2 channels per scale-ratio pair, bbox_pred 4 per pair with cls_prob's batch and map size, and im_info cls_prob's batch, with at least one scale and one ratio: the computation reads only the anchors cls_prob counts and the first rows and positions of bbox_pred and im_info, ignoring the rest, which is surely a mistake in the program",
    covers: (args, attrs) => {
      const [cls, bbox, info] = [dims(args[0]), dims(args[1]), dims(args[2])];
      const pairs = (attrs['scales'] as readonly AttrJs[]).length * (attrs['ratios'] as readonly AttrJs[]).length;
      return pairs === 0 || cls[1] !== 2 * pairs || bbox[1] !== 4 * pairs || [0, 2, 3].some((i) => bbox[i] !== cls[i]) || info[0] !== cls[0];
    },
  },
  'vision.non_max_suppression': {
    reason:
      'valid_count must have exactly one count per batch: the computation reads the first B counts and ignores any others, which is surely a mistake in the program',
    covers: (args) => {
      const counts = dims(args[1]);
      return counts.length !== 1 || counts[0] !== dims(args[0])[0];
    },
  },
  'vision.multibox_transform_loc': {
    reason:
      "anchor must be (1, N, 4) and loc_pred must have cls_prob's batch: the computation reads anchor[0], 4 coordinates per anchor and the first B rows of loc_pred, ignoring the rest, which is surely a mistake in the program",
    covers: (args) => {
      const [cls, loc, anchor] = [dims(args[0]), dims(args[1]), dims(args[2])];
      return anchor[0] !== 1 || anchor[2] !== 4 || anchor[1] !== cls[2] || loc[0] !== cls[0] || loc[1] !== 4 * cls[2]!;
    },
  },
};
