// Reductions: sum, mean, max, min, prod, all, any, argmax/argmin, variance/std, logsumexp.
// Names, argument order, attributes and defaults follow TVM's Python API (tvm.relay.*).
import { type OpInfo, reduceOp } from '../schema.js';

export const REDUCE_OPS: readonly OpInfo[] = [
  reduceOp('sum', 'sum over axes'),
  reduceOp('mean', 'mean over axes'),
];
