// Operator name → reference executor, from every family file in ops/.
import type { Executor, Stricter } from './executor.js';
import * as bits from './ops/bits.js';
import * as bitserial from './ops/bitserial.js';
import * as collapse from './ops/collapse.js';
import * as conv from './ops/conv.js';
import * as convTranspose from './ops/conv-transpose.js';
import * as creation from './ops/creation.js';
import * as deformableConv from './ops/deformable-conv.js';
import * as elemwise from './ops/elemwise.js';
import * as image from './ops/image.js';
import * as indexing from './ops/indexing.js';
import * as meta from './ops/meta.js';
import * as coordinates from './ops/coordinates.js';
import * as nn from './ops/nn.js';
import * as nnNorm from './ops/nn-norm.js';
import * as nnSpatial from './ops/nn-spatial.js';
import * as qnn from './ops/qnn.js';
import * as reduce from './ops/reduce.js';
import * as scan from './ops/scan.js';
import * as sparse from './ops/sparse.js';
import * as indexTensors from './ops/index-tensors.js';
import * as layoutTransform from './ops/layout-transform.js';
import * as shape from './ops/shape.js';
import * as vision from './ops/vision.js';
import * as matrixWindow from './ops/matrix-window.js';

const FAMILIES = [
  elemwise,
  reduce,
  nn,
  conv,
  shape,
  creation,
  indexing,
  image,
  nnSpatial,
  nnNorm,
  convTranspose,
  deformableConv,
  vision,
  bits,
  scan,
  meta,
  qnn,
  coordinates,
  matrixWindow,
  collapse,
  bitserial,
  sparse,
  indexTensors,
  layoutTransform,
];

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
