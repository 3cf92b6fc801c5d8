// Every mutation, by family: the twins' (one file per family) and the rules' (rules.ts).
import type { Mutation } from './mutation.js';
import { MUTATIONS as bits } from './bits.js';
import { MUTATIONS as bitserial } from './bitserial.js';
import { MUTATIONS as collapse } from './collapse.js';
import { MUTATIONS as conv } from './conv.js';
import { MUTATIONS as convTranspose } from './conv-transpose.js';
import { MUTATIONS as creation } from './creation.js';
import { MUTATIONS as deformableConv } from './deformable-conv.js';
import { MUTATIONS as elemwise } from './elemwise.js';
import { MUTATIONS as image } from './image.js';
import { MUTATIONS as indexing } from './indexing.js';
import { MUTATIONS as matrixWindow } from './matrix-window.js';
import { MUTATIONS as meta } from './meta.js';
import { MUTATIONS as coordinates } from './coordinates.js';
import { MUTATIONS as nn } from './nn.js';
import { MUTATIONS as nnNorm } from './nn-norm.js';
import { MUTATIONS as nnSpatial } from './nn-spatial.js';
import { MUTATIONS as qnn } from './qnn.js';
import { MUTATIONS as reduce } from './reduce.js';
import { MUTATIONS as scan } from './scan.js';
import { MUTATIONS as sparse } from './sparse.js';
import { MUTATIONS as indexTensors } from './index-tensors.js';
import { MUTATIONS as layoutTransform } from './layout-transform.js';
import { MUTATIONS as shape } from './shape.js';
import { MUTATIONS as vision } from './vision.js';
import { MUTATIONS as rules } from './rules.js';

export const FAMILIES: Readonly<Record<string, readonly Mutation[]>> = {
  elemwise,
  reduce,
  nn,
  conv,
  shape,
  creation,
  indexing,
  image,
  'nn-spatial': nnSpatial,
  'nn-norm': nnNorm,
  'conv-transpose': convTranspose,
  'deformable-conv': deformableConv,
  vision,
  bits,
  scan,
  meta,
  qnn,
  coordinates,
  'matrix-window': matrixWindow,
  collapse,
  bitserial,
  sparse,
  'index-tensors': indexTensors,
  'layout-transform': layoutTransform,
};

/** Which side a mutation breaks: an imperative twin, or a rule file. */
export type MutantSide = 'twins' | 'rules';

export function allMutations(): { family: string; side: MutantSide; mutation: Mutation }[] {
  return [
    ...Object.entries(FAMILIES).flatMap(([family, ms]) => ms.map((mutation) => ({ family, side: 'twins' as const, mutation }))),
    ...rules.map((mutation) => ({ family: 'rules', side: 'rules' as const, mutation })),
  ];
}
