// Tensor creation: zeros/ones/full(_like), arange, meshgrid.
//
// Deviations from TVM: (listed per relation below)

import type { RelationFn } from './relation.js';

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {};
