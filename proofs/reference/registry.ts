// Operator name → reference executor, from every family file in ops/.
import type { Executor, Stricter } from './executor.js';
import * as conv from './ops/conv.js';
import * as creation from './ops/creation.js';
import * as elemwise from './ops/elemwise.js';
import * as indexing from './ops/indexing.js';
import * as nn from './ops/nn.js';
import * as reduce from './ops/reduce.js';
import * as shape from './ops/shape.js';

const FAMILIES = [elemwise, reduce, nn, conv, shape, creation, indexing];

const EXECUTORS: ReadonlyMap<string, Executor> = new Map(FAMILIES.flatMap((f) => Object.entries(f.EXECUTORS)));
const STRICTER: ReadonlyMap<string, Stricter> = new Map(FAMILIES.flatMap((f) => Object.entries(f.STRICTER)));

/** The reference executor of an operator, or undefined. */
export function executorFor(op: string): Executor | undefined {
  return EXECUTORS.get(op);
}

/** Why the relation of `op` rejects some calls the executor runs, and which calls; or undefined. */
export function stricterFor(op: string): Stricter | undefined {
  return STRICTER.get(op);
}

export function executorNames(): string[] {
  return [...EXECUTORS.keys()];
}
