// Mutations of the normalisation and loss twins (relations/imperative/nn_norm.ts; see mutation.ts).
import type { Mutation } from './mutation.js';

const file = 'relations/imperative/nn_norm.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'lrn-axis-unchecked',
    file,
    find: "export const lrnRel = identityOverAxes((attrs) => [getInt(attrs, 'axis')]);",
    replace: 'export const lrnRel = identityOverAxes(() => []);',
    ops: ['nn.lrn'],
    what: 'a dropped check: an axis out of range accepted',
  },
  {
    id: 'l2-normalize-first-axis-only',
    file,
    find: "export const l2NormalizeRel = identityOverAxes((attrs) => getInts(attrs, 'axis'));",
    replace: "export const l2NormalizeRel = identityOverAxes((attrs) => getInts(attrs, 'axis').slice(0, 1));",
    ops: ['nn.l2_normalize'],
    what: 'a dropped check: only the first axis checked',
  },
  {
    id: 'nll-loss-none-is-scalar',
    file,
    find: "const built = tensorType(getString(attrs, 'reduction') === 'none' ? targets.shape : [], preds.dtype);",
    replace: "const built = tensorType(getString(attrs, 'reduction') === 'mean' ? [] : targets.shape, preds.dtype);",
    ops: ['nn.nll_loss'],
    what: "a wrong choice: reduction 'sum' keeps the targets' shape",
  },
  {
    id: 'nll-loss-weights-vs-batch',
    file,
    find: 'if (preds !== null && weights !== null) pairs.push([weights.shape[0]!, preds.shape[1]!]);',
    replace: 'if (preds !== null && weights !== null) pairs.push([weights.shape[0]!, preds.shape[0]!]);',
    ops: ['nn.nll_loss'],
    what: 'a swapped axis: the weights compared with the batch instead of the classes',
  },
];
