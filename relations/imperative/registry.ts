// Relation name (as used in the catalogue) → hand-coded relation. Each family
// file exports its relations as RELATIONS; a new family file is added here.

import type { RelationFn } from './relation.js';
import { RELATIONS as BITS } from './bits.js';
import { RELATIONS as BITSERIAL } from './bitserial.js';
import { RELATIONS as BROADCAST } from './broadcast.js';
import { RELATIONS as COLLAPSE } from './collapse.js';
import { RELATIONS as CONV } from './conv.js';
import { RELATIONS as CONV_TRANSPOSE } from './conv_transpose.js';
import { RELATIONS as CREATION } from './creation.js';
import { RELATIONS as DEFORMABLE_CONV } from './deformable_conv.js';
import { RELATIONS as ELEMWISE } from './elemwise.js';
import { RELATIONS as IMAGE } from './image.js';
import { RELATIONS as INDEXING } from './indexing.js';
import { RELATIONS as INDEX_TENSORS } from './index_tensors.js';
import { RELATIONS as LAYOUT_TRANSFORM } from './layout_transform.js';
import { RELATIONS as MATRIX } from './matrix.js';
import { RELATIONS as META } from './meta.js';
import { RELATIONS as COORDINATES } from './coordinates.js';
import { RELATIONS as NN } from './nn.js';
import { RELATIONS as NN_NORM } from './nn_norm.js';
import { RELATIONS as NN_SPATIAL } from './nn_spatial.js';
import { RELATIONS as POOLING } from './pooling.js';
import { RELATIONS as QNN } from './qnn.js';
import { RELATIONS as REDUCE } from './reduce.js';
import { RELATIONS as SCAN } from './scan.js';
import { RELATIONS as SPARSE } from './sparse.js';
import { RELATIONS as TRANSFORM } from './transform.js';
import { RELATIONS as VISION } from './vision.js';
import { RELATIONS as WINDOW } from './window.js';

const FAMILIES: readonly Readonly<Record<string, RelationFn>>[] = [
  BITS,
  BITSERIAL,
  BROADCAST,
  COLLAPSE,
  CONV,
  CONV_TRANSPOSE,
  COORDINATES,
  CREATION,
  DEFORMABLE_CONV,
  ELEMWISE,
  IMAGE,
  INDEXING,
  INDEX_TENSORS,
  LAYOUT_TRANSFORM,
  MATRIX,
  META,
  NN,
  NN_NORM,
  NN_SPATIAL,
  POOLING,
  QNN,
  REDUCE,
  SCAN,
  SPARSE,
  TRANSFORM,
  VISION,
  WINDOW,
];

const RELATIONS: ReadonlyMap<string, RelationFn> = (() => {
  const all = new Map<string, RelationFn>();
  for (const family of FAMILIES) {
    for (const [name, fn] of Object.entries(family)) {
      if (all.has(name)) throw new Error(`internal: relation ${name} is defined by two imperative files`);
      all.set(name, fn);
    }
  }
  return all;
})();

/** The imperative relation with this name (`Conv2D`), or undefined. */
export function imperativeRelation(name: string): RelationFn | undefined {
  return RELATIONS.get(name);
}
