// Indexing: gather, scatter_elements, one_hot, sequence_mask, topk.
//
// Deviations from TVM: (listed per relation below)

import type { RelationFn } from './relation.js';

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {};
