// Indexing: gather, scatter_elements, one_hot, sequence_mask, topk.
// Names, argument order, attributes and defaults follow TVM's Python API (tvm.relay.*).
import type { OpInfo } from '../schema.js';

export const INDEXING_OPS: readonly OpInfo[] = [];
