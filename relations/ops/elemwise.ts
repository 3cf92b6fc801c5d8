// Elementwise operators: binary with broadcasting (arithmetic, comparisons, logical), where, unary math, cast.
// Names, argument order, attributes and defaults follow TVM's Python API (tvm.relay.*).
import { type OpInfo, TENSOR, broadcastOp, compareOp, spec } from '../schema.js';

export const ELEMWISE_OPS: readonly OpInfo[] = [
  broadcastOp('add', 'elementwise a + b with broadcasting'),
  broadcastOp('subtract', 'elementwise a - b with broadcasting'),
  broadcastOp('multiply', 'elementwise a * b with broadcasting'),
  broadcastOp('divide', 'elementwise a / b with broadcasting'),
  broadcastOp('power', 'elementwise a ** b with broadcasting'),
  broadcastOp('maximum', 'elementwise max(a, b) with broadcasting'),
  broadcastOp('minimum', 'elementwise min(a, b) with broadcasting'),
  compareOp('equal', 'elementwise a == b with broadcasting; bool result'),
  compareOp('less', 'elementwise a < b with broadcasting; bool result'),
  compareOp('greater', 'elementwise a > b with broadcasting; bool result'),
  { name: 'where', relation: 'Where', args: ['condition', 'x', 'y'], attrs: [], result: TENSOR, doc: 'select from x where condition is non-zero, else from y (all three broadcast)' },
  {
    name: 'cast',
    relation: 'Cast',
    args: ['data'],
    attrs: [spec('dtype', 'string', 'required', 'the target dtype', { format: 'dtype' })],
    result: TENSOR,
    doc: 'convert to another dtype',
  },
];
