// Every operator family, in catalogue order. One file per family; a new family
// file is added here.
import type { OpInfo } from '../schema.js';
import { CONV_OPS } from './conv.js';
import { CREATION_OPS } from './creation.js';
import { ELEMWISE_OPS } from './elemwise.js';
import { INDEXING_OPS } from './indexing.js';
import { NN_OPS } from './nn.js';
import { REDUCE_OPS } from './reduce.js';
import { SHAPE_OPS } from './shape.js';

export const ALL_OPS: readonly OpInfo[] = [...ELEMWISE_OPS, ...REDUCE_OPS, ...NN_OPS, ...CONV_OPS, ...SHAPE_OPS, ...CREATION_OPS, ...INDEXING_OPS];
