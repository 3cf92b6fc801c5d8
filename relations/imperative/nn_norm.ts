// Normalisation and loss relations of the nn family beyond nn.ts, after TVM's
// src/relay/op/nn/nn.cc: LRN and L2Normalize (IdentityRel) and NLLLossRel.
// (nn.fast_softmax uses Softmax from nn.ts.)
//
//   LRN(data; axis): result := data; axis in [-rank, rank).
//   L2Normalize(data; axis): result := data; every axis in [-rank, rank).
//   NLLLoss(predictions (N, C, d...), targets (N, d...), weights (C); reduction):
//     result targets.shape with reduction "none", else a scalar; dtype predictions'.
//     predictions and weights of one float dtype, targets of an int dtype.
//
// Deviations from TVM (stricter):
//  - LRN, L2Normalize: axes out of range are errors (IdentityRel ignores them);
//  - NLLLoss: targets must have the predictions' shape without axis 1 (TVM compares
//    only the ranks), predictions need rank >= 2. Each argument's own errors come
//    before waiting for another argument; dims are compared with `require` (holes
//    pending, undecided symbolic sizes residual).

import type { IDim, IType, TensorType } from './types.js';
import type { RelationFn, RelError, Reporter } from './relation.js';
import { Pending, expectTensor, finish, getInt, getInts, getString, normAxis } from './common.js';
import { isError } from './relation.js';
import { isIntDtype, printDim, printType, tensorType } from './types.js';

/** data's type as the result, once every axis is in range. */
function identityOverAxes(axesOf: (attrs: Parameters<RelationFn>[2]) => readonly number[]): RelationFn {
  return (args, out, attrs, r) => {
    const data = expectTensor(r, args[0]!, 'data');
    if (data === 'wait' || isError(data)) return data;
    for (const a of axesOf(attrs)) {
      const n = normAxis(r, a, data.shape.length, 'axis');
      if (isError(n)) return n;
    }
    return r.assign(out, data, 'the result') ?? 'done';
  };
}

export const lrnRel = identityOverAxes((attrs) => [getInt(attrs, 'axis')]);
export const l2NormalizeRel = identityOverAxes((attrs) => getInts(attrs, 'axis'));

const FLOATS = new Set(['float16', 'float32', 'float64', 'bfloat16']);

/** A tensor argument (null while a hole) with its own checks: rank bounds and dtype kind. */
function lossArg(r: Reporter, t: IType, name: string, check: (t: TensorType) => string | null): TensorType | null | RelError {
  if (t.kind === 'hole') return null;
  if (t.kind !== 'tensor') return r.fail(`${name} must be a tensor, got ${printType(t)}`);
  const problem = check(t);
  return problem === null ? t : r.fail(`${name} ${problem}, got ${printType(t)}`);
}

export const nllLossRel: RelationFn = (args, out, attrs, r) => {
  const preds = lossArg(r, args[0]!, 'predictions', (t) =>
    t.shape.length < 2 ? 'must have rank >= 2 (N, C, ...)' : typeof t.dtype === 'string' && !FLOATS.has(t.dtype) ? 'must be of a float dtype' : null,
  );
  if (isError(preds)) return preds;
  const targets = lossArg(r, args[1]!, 'targets', (t) => (typeof t.dtype === 'string' && !isIntDtype(t.dtype) ? 'must be of an int dtype' : null));
  if (isError(targets)) return targets;
  const weights = lossArg(r, args[2]!, 'weights', (t) => (t.shape.length !== 1 ? 'must have rank 1' : null));
  if (isError(weights)) return weights;
  if (preds !== null && targets !== null && preds.shape.length !== targets.shape.length + 1)
    return r.fail(`predictions ${printType(preds)} must have one more axis than targets ${printType(targets)}`);
  if (preds !== null && weights !== null && typeof preds.dtype === 'string' && typeof weights.dtype === 'string' && preds.dtype !== weights.dtype)
    return r.fail(`weights have dtype ${weights.dtype}, predictions ${preds.dtype}`);
  // every pair of known arguments is compared before waiting for the third
  const pending = new Pending();
  const pairs: [IDim, IDim][] = [];
  if (preds !== null && weights !== null) pairs.push([weights.shape[0]!, preds.shape[1]!]);
  if (preds !== null && targets !== null)
    pairs.push([targets.shape[0]!, preds.shape[0]!], ...targets.shape.slice(1).map((d, i): [IDim, IDim] => [d, preds.shape[i + 2]!]));
  for (const [a, b] of pairs) {
    const e = pending.check(
      r.require(a, '==', b, `${printDim(a)} does not match predictions dim ${printDim(b)} (predictions ${printType(preds!)})`),
      'some dims are not known yet',
    );
    if (e) return e;
  }
  if (preds === null || targets === null || weights === null) return r.wait('the predictions, targets and weights are not all known yet');
  const built = tensorType(getString(attrs, 'reduction') === 'none' ? targets.shape : [], preds.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  LRN: lrnRel,
  L2Normalize: l2NormalizeRel,
  NLLLoss: nllLossRel,
};
