// Relation name (as used in the catalogue) → hand-coded relation.

import type { RelationFn } from './relation.js';
import { broadcastCompareRel, broadcastRel, whereRel } from './broadcast.js';
import { conv2dRel } from './conv.js';
import { castRel, identityRel } from './elemwise.js';
import { batchFlattenRel, batchMatmulRel, batchNormRel, biasAddRel, denseRel, layerNormRel, softmaxRel } from './nn.js';
import { globalPool2dRel, pool2dRel } from './pooling.js';
import { reduceRel } from './reduce.js';
import { concatenateRel, expandDimsRel, reshapeRel, splitRel, squeezeRel, takeRel, transposeRel } from './transform.js';

const RELATIONS: ReadonlyMap<string, RelationFn> = new Map<string, RelationFn>([
  ['Broadcast', broadcastRel],
  ['BroadcastCompare', broadcastCompareRel],
  ['Where', whereRel],
  ['Identity', identityRel],
  ['Cast', castRel],
  ['Conv2D', conv2dRel],
  ['Pool2D', pool2dRel],
  ['GlobalPool2D', globalPool2dRel],
  ['BatchNorm', batchNormRel],
  ['BiasAdd', biasAddRel],
  ['Dense', denseRel],
  ['BatchMatmul', batchMatmulRel],
  ['BatchFlatten', batchFlattenRel],
  ['Softmax', softmaxRel],
  ['LayerNorm', layerNormRel],
  ['Reshape', reshapeRel],
  ['Transpose', transposeRel],
  ['Concatenate', concatenateRel],
  ['Split', splitRel],
  ['ExpandDims', expandDimsRel],
  ['Squeeze', squeezeRel],
  ['Reduce', reduceRel],
  ['Take', takeRel],
]);

/** The imperative relation with this name (`Conv2D`), or undefined. */
export function imperativeRelation(name: string): RelationFn | undefined {
  return RELATIONS.get(name);
}

export function imperativeRelationNames(): string[] {
  return [...RELATIONS.keys()];
}
