// Reference executors for relations/nn-norm.rules: fast_softmax, lrn, l2_normalize and
// nll_loss, computed on concrete tensors after TOPI (python/tvm/topi/nn/softmax.py,
// local_response_norm.py, l2_normalize.py, loss.py). Output shapes come out of the
// computation, never from the relations.
import type { AttrJs } from '../../../relations/imperative/solve-one.js';
import type { Executor, Stricter } from '../executor.js';
import { asTensor, build, fitDtype, forEachIndex, isFloatDtype, isIntDtype, refuse } from '../tensor.js';
import { int, str } from './conv.js';
import { axisIndex, softmaxAlong } from './nn.js';

const lrn: Executor = ([x], attrs) => {
  const data = asTensor(x, 'data');
  const axis = axisIndex(int(attrs, 'axis'), data.rank);
  const size = int(attrs, 'size');
  const [bias, alpha, beta] = ['bias', 'alpha', 'beta'].map((n) => int(attrs, n)) as [number, number, number];
  const half = Math.floor(size / 2);
  return data.map((v, idx) => {
    let sq = 0;
    for (let k = idx[axis]! - half; k <= idx[axis]! - half + size - 1; k++) {
      if (k < 0 || k >= data.shape[axis]!) continue;
      const at = [...idx];
      at[axis] = k;
      sq += data.get(at) ** 2;
    }
    return fitDtype(v / (bias + (alpha / size) * sq) ** beta, data.dtype);
  });
};

const l2Normalize: Executor = ([x], attrs) => {
  const data = asTensor(x, 'data');
  const axes = ((attrs.axis as readonly AttrJs[] | undefined) ?? []).map((a) => axisIndex(a as number, data.rank));
  const eps = int(attrs, 'eps');
  return data.map((v, idx) => {
    // the sum of squares over the axes, the other indices fixed
    let sq = 0;
    forEachIndex(
      axes.map((a) => data.shape[a]!),
      (sub) => {
        const at = [...idx];
        axes.forEach((a, i) => {
          at[a] = sub[i]!;
        });
        sq += data.get(at) ** 2;
      },
    );
    return fitDtype(v / Math.sqrt(Math.max(sq, eps)), data.dtype);
  });
};

const nllLoss: Executor = ([p, t, w], attrs) => {
  const preds = asTensor(p, 'predictions');
  const targets = asTensor(t, 'targets');
  const weights = asTensor(w, 'weights');
  if (preds.rank < 2 || weights.rank !== 1 || targets.rank !== preds.rank - 1) refuse('nll_loss takes (N, C, d...), (N, d...) and (C)');
  if (!isFloatDtype(preds.dtype) || preds.dtype !== weights.dtype || !isIntDtype(targets.dtype))
    refuse('TVM requires float predictions and weights of one dtype and int targets');
  const c = preds.shape[1]!;
  if (weights.shape[0] !== c) refuse(`${weights.shape[0]} weights for ${c} classes`);
  if (targets.shape.some((d, i) => d !== preds.shape[i === 0 ? 0 : i + 1]))
    refuse('the targets do not index the predictions (TOPI reads predictions[n, target, ...] at every target position)');
  const ignore = int(attrs, 'ignore_index');
  // a class index is data: it is taken modulo C
  const cls = (v: number) => ((Math.trunc(v) % c) + c) % c;
  const loss = build(targets.shape, preds.dtype, (idx) => {
    if (targets.get(idx) === ignore || c === 0) return 0;
    const k = cls(targets.get(idx));
    return fitDtype(-preds.get([idx[0]!, k, ...idx.slice(1)]) * weights.get([k]), preds.dtype);
  });
  const reduction = str(attrs, 'reduction') || 'mean';
  if (reduction === 'none') return loss;
  let total = 0;
  let weight = 0;
  forEachIndex(targets.shape, (idx) => {
    total += loss.get(idx);
    if (targets.get(idx) !== ignore && c > 0) weight += weights.get([cls(targets.get(idx))]);
  });
  return build([], preds.dtype, () => fitDtype(reduction === 'sum' ? total : weight === 0 ? 0 : total / weight, preds.dtype));
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  'nn.fast_softmax': ([x], attrs) => softmaxAlong(asTensor(x, 'data'), int(attrs, 'axis'), false),
  'nn.lrn': lrn,
  'nn.l2_normalize': l2Normalize,
  'nn.nll_loss': nllLoss,
};

/** None of these relations rejects a call its executor runs. */
export const STRICTER: Readonly<Record<string, Stricter>> = {};
