// Reference executors for the conv family (relations/ops/conv.ts): each operator
// computed on concrete tensors, element by element.
import type { Executor } from '../executor.js';

export const EXECUTORS: Readonly<Record<string, Executor>> = {};

/**
 * Operators whose relation deliberately rejects calls the executor can run,
 * with the reason (e.g. a zero-size output): such divergences are expected.
 */
export const STRICTER: Readonly<Record<string, string>> = {};
