// Tensor creation: zeros/ones/full and their _like forms, arange, meshgrid.
// Names, argument order, attributes and defaults follow TVM's Python API (tvm.relay.*).
import type { OpInfo } from '../schema.js';

export const CREATION_OPS: readonly OpInfo[] = [];
