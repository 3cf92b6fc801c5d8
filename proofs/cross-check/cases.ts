// Call cases for the cross-check: for each catalogued operator, a bounded and
// deterministic sweep of argument types and attributes, by family (cases/*.ts;
// the shared kit is case-kit.ts).
import { allOps } from '../../relations/catalogue.js';
import type { TypeofRequest } from '../../typing/typeof.js';
import type { CaseGenerator } from './case-kit.js';
import { GENERATORS as ELEMWISE } from './cases/elemwise.js';
import { GENERATORS as NN } from './cases/nn.js';
import { GENERATORS as CONV } from './cases/conv.js';
import { GENERATORS as SHAPE } from './cases/shape.js';
import { GENERATORS as REDUCE } from './cases/reduce.js';
import { GENERATORS as CREATION } from './cases/creation.js';
import { GENERATORS as INDEXING } from './cases/indexing.js';
import { GENERATORS as IMAGE } from './cases/image.js';
import { GENERATORS as NN_SPATIAL } from './cases/nn-spatial.js';
import { GENERATORS as NN_NORM } from './cases/nn-norm.js';
import { GENERATORS as CONV_TRANSPOSE } from './cases/conv-transpose.js';
import { GENERATORS as DEFORMABLE_CONV } from './cases/deformable-conv.js';
import { GENERATORS as VISION } from './cases/vision.js';
import { GENERATORS as BITS } from './cases/bits.js';
import { GENERATORS as SCAN } from './cases/scan.js';
import { GENERATORS as META } from './cases/meta.js';
import { GENERATORS as QNN } from './cases/qnn.js';
import { GENERATORS as COORDINATES } from './cases/coordinates.js';
import { GENERATORS as MATRIX } from './cases/matrix.js';
import { GENERATORS as WINDOW } from './cases/window.js';
import { GENERATORS as COLLAPSE } from './cases/collapse.js';
import { GENERATORS as BITSERIAL } from './cases/bitserial.js';
import { GENERATORS as SPARSE } from './cases/sparse.js';
import { GENERATORS as INDEX_TENSORS } from './cases/index-tensors.js';
import { GENERATORS as LAYOUT_TRANSFORM } from './cases/layout-transform.js';

const BY_RELATION: ReadonlyMap<string, CaseGenerator> = new Map([
  ...Object.entries(ELEMWISE),
  ...Object.entries(NN),
  ...Object.entries(CONV),
  ...Object.entries(SHAPE),
  ...Object.entries(REDUCE),
  ...Object.entries(CREATION),
  ...Object.entries(INDEXING),
  ...Object.entries(IMAGE),
  ...Object.entries(NN_SPATIAL),
  ...Object.entries(NN_NORM),
  ...Object.entries(CONV_TRANSPOSE),
  ...Object.entries(DEFORMABLE_CONV),
  ...Object.entries(VISION),
  ...Object.entries(BITS),
  ...Object.entries(SCAN),
  ...Object.entries(META),
  ...Object.entries(QNN),
  ...Object.entries(COORDINATES),
  ...Object.entries(MATRIX),
  ...Object.entries(WINDOW),
  ...Object.entries(COLLAPSE),
  ...Object.entries(BITSERIAL),
  ...Object.entries(SPARSE),
  ...Object.entries(INDEX_TENSORS),
  ...Object.entries(LAYOUT_TRANSFORM),
]);

/** The call cases of one catalogued operator, in a fixed order. */
export function casesFor(opName: string): TypeofRequest[] {
  const op = allOps().find((o) => o.name === opName);
  if (op === undefined) throw new Error(`unknown operator '${opName}'`);
  const gen = BY_RELATION.get(op.relation);
  if (gen === undefined) throw new Error(`no case generator for relation ${op.relation} (${op.name})`);
  return gen(op);
}

/** Whether the operator's relation has a sweep generator. */
export function hasCaseGenerator(opName: string): boolean {
  const op = allOps().find((o) => o.name === opName);
  return op !== undefined && BY_RELATION.has(op.relation);
}

/** The names of every catalogued operator, in catalogue order. */
export function opNames(): string[] {
  return allOps().map((o) => o.name);
}
