// Every mutation, by family.
import type { Mutation } from './mutation.js';
import { MUTATIONS as bits } from './bits.js';
import { MUTATIONS as collapse } from './collapse.js';
import { MUTATIONS as conv } from './conv.js';
import { MUTATIONS as creation } from './creation.js';
import { MUTATIONS as elemwise } from './elemwise.js';
import { MUTATIONS as indexing } from './indexing.js';
import { MUTATIONS as matrixWindow } from './matrix-window.js';
import { MUTATIONS as meta } from './meta.js';
import { MUTATIONS as coordinates } from './coordinates.js';
import { MUTATIONS as nn } from './nn.js';
import { MUTATIONS as qnn } from './qnn.js';
import { MUTATIONS as reduce } from './reduce.js';
import { MUTATIONS as scan } from './scan.js';
import { MUTATIONS as shape } from './shape.js';

export const FAMILIES: Readonly<Record<string, readonly Mutation[]>> = { elemwise, reduce, nn, conv, shape, creation, indexing, bits, scan, meta, qnn, coordinates, 'matrix-window': matrixWindow, collapse };

export function allMutations(): { family: string; mutation: Mutation }[] {
  return Object.entries(FAMILIES).flatMap(([family, ms]) => ms.map((mutation) => ({ family, mutation })));
}
