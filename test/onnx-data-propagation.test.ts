// Data propagation on small known tensors (relations/onnx/*.rules): the values a
// condition or a pads tensor is computed from in exported models (Silero VAD: Equal,
// Not, Cast to bool; ConstantOfShape, Slice with a step of -1, Transpose, Reshape).
// Every expected value is written by hand from ONNX's definition of the operator
// (numpy semantics, row-major), not computed by the code under test.
import test from 'ava';
import type { OnnxGraph, OnnxNode, OnnxTensor } from '../frontends/onnx/model.js';
import { typeGraph } from '../typing/onnx/graph-types.js';
import { graph, node, tensor, value } from './onnx-subgraph-models.js';

const OPSETS = new Map([['', 17]]);
// PyTorch's "slice to the start" end, -9223372036854775807 (INT64_MIN + 1), read as a double: it rounds to -2^63
const HUGE_NEGATIVE_END = -(2 ** 63);

const int64s = (name: string, dims: number[], values: number[]): OnnxTensor => ({ name, dtype: 'int64', dims, values, external: false });

/** The type (dtype, shape, values) of each node output of a one-graph model. */
function valuesOf(g: OnnxGraph): Map<string, unknown> {
  const typed = typeGraph(g, OPSETS);
  return new Map(typed.values.map((v) => [v.name, v.type]));
}

/** ConstantOfShape with its value attribute an int64 tensor [v]. */
const constantOfShape = (input: string, output: string, v: number): OnnxNode => ({
  ...node('ConstantOfShape', [input], [output]),
  attrs: new Map([['value', { kind: 'tensor', value: int64s('value', [1], [v]) }]]),
});

const known = (dtype: string, shape: number[], values: number[]) => ({ kind: 'tensor', dtype, shape, values });

test('Equal, Not and Cast to bool compute 0/1 values; a cast from bool keeps them', (t) => {
  const g = graph(
    'conditions',
    [],
    [value('c', null)],
    [
      node('Equal', ['a', 'b'], ['eq']),
      node('Equal', ['a', 'two'], ['eq_scalar']),
      node('Not', ['eq'], ['ne']),
      node('Cast', ['a'], ['truthy'], { to: 9 }),
      node('Cast', ['ne'], ['back'], { to: 7 }),
    ],
    [int64s('a', [3], [0, 2, -1]), int64s('b', [3], [0, 5, -1]), int64s('two', [], [2])],
  );
  const v = valuesOf(g);
  t.deepEqual(v.get('eq'), known('bool', [3], [1, 0, 1]));
  t.deepEqual(v.get('eq_scalar'), known('bool', [3], [0, 1, 0]));
  t.deepEqual(v.get('ne'), known('bool', [3], [0, 1, 0]));
  t.deepEqual(v.get('truthy'), known('bool', [3], [0, 1, 1]));
  t.deepEqual(v.get('back'), known('int64', [3], [0, 1, 0]));
});

test('ConstantOfShape fills its integer value; Slice reads any rank with any steps; Transpose permutes the values', (t) => {
  const iota = int64s('iota', [2, 3], [0, 1, 2, 3, 4, 5]);
  const g = graph(
    'views',
    [],
    [value('c', null)],
    [
      constantOfShape('shape23', 'sevens', 7),
      node('Slice', ['iota', 'minus1', 'huge_neg', 'zero', 'minus1'], ['rows_reversed']),
      node('Slice', ['iota', 'zero', 'three', 'one', 'two'], ['every_other_column']),
      node('Transpose', ['iota'], ['t'], { perm: [1, 0] }),
      node('Transpose', ['iota'], ['t_default']),
      node('Transpose', ['cube'], ['t3'], { perm: [2, 0, 1] }),
    ],
    [
      iota,
      int64s('shape23', [2], [2, 3]),
      int64s('minus1', [1], [-1]),
      int64s('huge_neg', [1], [HUGE_NEGATIVE_END]),
      int64s('zero', [1], [0]),
      int64s('one', [1], [1]),
      int64s('two', [1], [2]),
      int64s('three', [1], [3]),
      int64s('cube', [2, 1, 2], [0, 1, 2, 3]),
    ],
  );
  const v = valuesOf(g);
  t.deepEqual(v.get('sevens'), known('int64', [2, 3], [7, 7, 7, 7, 7, 7]));
  t.deepEqual(v.get('rows_reversed'), known('int64', [2, 3], [3, 4, 5, 0, 1, 2]));
  t.deepEqual(v.get('every_other_column'), known('int64', [2, 2], [0, 2, 3, 5]));
  t.deepEqual(v.get('t'), known('int64', [3, 2], [0, 3, 1, 4, 2, 5]));
  t.deepEqual(v.get('t_default'), known('int64', [3, 2], [0, 3, 1, 4, 2, 5]));
  // out[k][i][j] = in[i][j][k]
  t.deepEqual(v.get('t3'), known('int64', [2, 2, 1], [0, 2, 1, 3]));
});

test("Silero VAD's reflect padding: the pads computed from constants reach Pad, which then has a shape", (t) => {
  // pads = Cast(Reshape(Transpose(Slice(Reshape(Concat([0, 64], ConstantOfShape([2])), [-1, 2]), -1, -inf, 0, -1)), [-1]))
  const g = graph(
    'pads',
    [value('x', tensor('float32', [1, 512]))],
    [value('y', null)],
    [
      constantOfShape('two', 'zeros', 0),
      node('Concat', ['begin', 'zeros'], ['flat'], { axis: 0 }),
      node('Reshape', ['flat', 'pairs'], ['paired']),
      node('Slice', ['paired', 'minus1', 'huge_neg', 'zero', 'minus1'], ['reversed']),
      node('Transpose', ['reversed'], ['transposed'], { perm: [1, 0] }),
      node('Reshape', ['transposed', 'minus1'], ['pads_i']),
      node('Cast', ['pads_i'], ['pads'], { to: 7 }),
      node('Pad', ['x', 'pads'], ['y'], { mode: 'reflect' }),
    ],
    [
      int64s('two', [1], [2]),
      int64s('begin', [2], [0, 64]),
      int64s('pairs', [2], [-1, 2]),
      int64s('minus1', [1], [-1]),
      int64s('huge_neg', [1], [HUGE_NEGATIVE_END]),
      int64s('zero', [1], [0]),
    ],
  );
  const v = valuesOf(g);
  t.deepEqual(v.get('reversed'), known('int64', [2, 2], [0, 0, 0, 64]));
  t.deepEqual(v.get('pads'), known('int64', [4], [0, 0, 0, 64]));
  t.deepEqual(v.get('y'), { kind: 'tensor', dtype: 'float32', shape: [1, 576] });
});

test('Concat keeps values only where they join end to end (nothing but 1s before the axis)', (t) => {
  const g = graph(
    'concat',
    [],
    [value('c', null)],
    [node('Concat', ['col', 'col'], ['side_by_side'], { axis: 1 }), node('Concat', ['row', 'row'], ['stacked'], { axis: 1 })],
    [int64s('col', [2, 1], [1, 2]), int64s('row', [1, 2], [1, 2])],
  );
  const v = valuesOf(g);
  t.deepEqual(v.get('side_by_side'), { kind: 'tensor', dtype: 'int64', shape: [2, 2] });
  t.deepEqual(v.get('stacked'), known('int64', [1, 4], [1, 2, 1, 2]));
});
