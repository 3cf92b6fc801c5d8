// Reference executors for relations/conv-transpose.rules: the transposed convolution of
// ops/conv.ts (a scatter of every input element through the kernel, after TOPI's
// conv1d_transpose.py / conv3d_transpose.py) for 1 and 3 spatial axes.
import type { Executor, Stricter } from '../executor.js';
import { convTranspose } from './conv.js';

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  'nn.conv1d_transpose': convTranspose(1),
  'nn.conv3d_transpose': convTranspose(3),
};

/** None of these relations rejects a call its executor runs. */
export const STRICTER: Readonly<Record<string, Stricter>> = {};
