// Small ONNX models with subgraphs (If, Loop, Scan, SequenceMap) for the subgraph typing
// tests, as OnnxGraph values: frontends/onnx/encode.ts writes them, so the same model is
// typed by shapelog, run by onnxruntime and inferred by ONNX's own shape inference.
import type { OnnxAttr, OnnxDim, OnnxGraph, OnnxNode, OnnxTensor, OnnxType, OnnxValueInfo } from '../frontends/onnx/model.js';

export const tensor = (dtype: string, shape: OnnxDim[] | null): OnnxType => ({ kind: 'tensor', dtype, shape });
export const value = (name: string, type: OnnxType | null): OnnxValueInfo => ({ name, type });
export const scalar = (name: string, dtype: string, v: number): OnnxTensor => ({ name, dtype, dims: [], values: [v], external: false });
export const ints = (name: string, vs: number[]): OnnxTensor => ({ name, dtype: 'int64', dims: [vs.length], values: vs, external: false });

type AttrSpec = number | string | number[] | OnnxGraph;

function attr(v: AttrSpec): OnnxAttr {
  if (typeof v === 'number') return { kind: 'int', value: v };
  if (typeof v === 'string') return { kind: 'string', value: v };
  if (Array.isArray(v)) return { kind: 'ints', value: v };
  return { kind: 'graph', value: v };
}

let counter = 0;
export function node(opType: string, inputs: string[], outputs: string[], attrs: Record<string, AttrSpec> = {}): OnnxNode {
  return {
    name: `${opType.toLowerCase()}_${counter++}`,
    opType,
    domain: '',
    inputs,
    outputs,
    attrs: new Map(Object.entries(attrs).map(([k, v]) => [k, attr(v)])),
    index: 0,
  };
}

export function graph(name: string, inputs: OnnxValueInfo[], outputs: OnnxValueInfo[], nodes: OnnxNode[], initializers: OnnxTensor[] = []): OnnxGraph {
  return { name, inputs, outputs, valueInfo: [], initializers, nodes: nodes.map((n, index) => ({ ...n, index })) };
}

const f32 = (shape: OnnxDim[] | null) => tensor('float32', shape);

/** If: then x + x ([2, 3]), else concat(x, x) ([4, 3]); cond a graph input. */
export const ifDiffering = graph(
  'if_differing',
  [value('cond', tensor('bool', [])), value('x', f32([2, 3]))],
  [value('y', null)],
  [
    node('If', ['cond'], ['y'], {
      then_branch: graph('then', [], [value('t', null)], [node('Add', ['x', 'x'], ['t'])]),
      else_branch: graph('else', [], [value('e', null)], [node('Concat', ['x', 'x'], ['e'], { axis: 0 })]),
    }),
  ],
);

/** If whose branches differ in rank: then [2, 3], else [6]. */
export const ifRanks = graph(
  'if_ranks',
  [value('cond', tensor('bool', [])), value('x', f32([2, 3]))],
  [value('y', null)],
  [
    node('If', ['cond'], ['y'], {
      then_branch: graph('then', [], [value('t', null)], [node('Identity', ['x'], ['t'])]),
      else_branch: graph('else', [], [value('e', null)], [node('Reshape', ['x', 'six'], ['e'])], [ints('six', [6])]),
    }),
  ],
);

/** Loop, M = 3, no cond: acc += x (x from the outer graph); scan output acc * acc per iteration. */
export const loopFor = graph(
  'loop_for',
  [value('x', f32([2]))],
  [value('acc', null), value('squares', null)],
  [
    node('Loop', ['m', '', 'x'], ['acc', 'squares'], {
      body: graph(
        'body',
        [value('i', tensor('int64', [])), value('c', tensor('bool', [])), value('a', null)],
        [value('c_out', null), value('a_out', null), value('sq', null)],
        [node('Identity', ['c'], ['c_out']), node('Add', ['a', 'x'], ['a_out']), node('Mul', ['a', 'a'], ['sq'])],
      ),
    }),
  ],
  [scalar('m', 'int64', 3)],
);

/** Loop, M = 3, cond the constant true passed through: a carried value that doubles its first dim. */
export const loopGrowing = graph(
  'loop_growing',
  [value('v', f32([1, 2]))],
  [value('w', null), value('rows', null)],
  [
    node('Loop', ['m', 'yes', 'v'], ['w', 'rows'], {
      body: graph(
        'body',
        [value('i', tensor('int64', [])), value('c', tensor('bool', [])), value('a', null)],
        [value('c_out', null), value('a_out', null), value('r', null)],
        [node('Identity', ['c'], ['c_out']), node('Concat', ['a', 'a'], ['a_out'], { axis: 0 }), node('Shape', ['a'], ['r'])],
      ),
    }),
  ],
  [scalar('m', 'int64', 3), scalar('yes', 'bool', 1)],
);

/** Loop whose cond is computed (i < 1): the trip count is not known. */
export const loopWhile = graph(
  'loop_while',
  [value('x', f32([2]))],
  [value('out', null), value('xs', null)],
  [
    node('Loop', ['m', 'yes', 'x'], ['out', 'xs'], {
      body: graph(
        'body',
        [value('i', tensor('int64', [])), value('c', tensor('bool', [])), value('a', null)],
        [value('c_out', null), value('a_out', null), value('s', null)],
        [node('Less', ['i', 'one'], ['c_out']), node('Identity', ['a'], ['a_out']), node('Identity', ['a'], ['s'])],
        [scalar('one', 'int64', 1)],
      ),
    }),
  ],
  [scalar('m', 'int64', 5), scalar('yes', 'bool', 1)],
);

/** Scan (opset 9+): a running sum over the rows of x [3, 2], each row also scanned out. */
export const scanRows = graph(
  'scan_rows',
  [value('init', f32([2])), value('x', f32([3, 2]))],
  [value('sum', null), value('rows', null)],
  [
    node('Scan', ['init', 'x'], ['sum', 'rows'], {
      num_scan_inputs: 1,
      body: graph(
        'body',
        [value('s', null), value('row', null)],
        [value('s_out', null), value('row_out', null)],
        [node('Add', ['s', 'row'], ['s_out']), node('Identity', ['row'], ['row_out'])],
      ),
    }),
  ],
);

/** Scan over axis 1 of x [2, 5], scanned out on axis 1, and a second output on axis -1 of a rank-2 slice. */
export const scanAxes = graph(
  'scan_axes',
  [value('init', f32([2])), value('x', f32([2, 5]))],
  [value('sum', null), value('cols', null), value('outer', null)],
  [
    node('Scan', ['init', 'x'], ['sum', 'cols', 'outer'], {
      num_scan_inputs: 1,
      scan_input_axes: [1],
      scan_output_axes: [1, -1],
      body: graph(
        'body',
        [value('s', null), value('col', null)],
        [value('s_out', null), value('col_out', null), value('o', null)],
        [node('Add', ['s', 'col'], ['s_out']), node('Identity', ['col'], ['col_out']), node('Unsqueeze', ['col', 'zero'], ['o'])],
        [ints('zero', [0])],
      ),
    }),
  ],
);

/** SequenceMap over a sequence of float[N] and a tensor float[N]: their sum, one per element. */
export const sequenceMap = graph(
  'sequence_map',
  [value('xs', { kind: 'sequence', elem: f32(['N']) }), value('y', f32(['N']))],
  [value('zs', null)],
  [
    node('SequenceMap', ['xs', 'y'], ['zs'], {
      body: graph('body', [value('a', null), value('b', null)], [value('z', null)], [node('Add', ['a', 'b'], ['z'])]),
    }),
  ],
);

/** Subgraphs two deep: an If whose then branch runs a Loop (M = 2) adding x (from the main graph) twice; its else branch is x. */
export const ifLoop = graph(
  'if_loop',
  [value('cond', tensor('bool', [])), value('x', f32([2]))],
  [value('y', null)],
  [
    node('If', ['cond'], ['y'], {
      then_branch: graph(
        'then',
        [],
        [value('looped', null)],
        [
          node('Loop', ['two', '', 'x'], ['looped'], {
            body: graph(
              'body',
              [value('i', tensor('int64', [])), value('c', tensor('bool', [])), value('a', null)],
              [value('c_out', null), value('a_out', null)],
              [node('Identity', ['c'], ['c_out']), node('Add', ['a', 'x'], ['sum']), node('Identity', ['sum'], ['a_out'])],
            ),
          }),
        ],
        [scalar('two', 'int64', 2)],
      ),
      else_branch: graph('else', [], [value('same', null)], [node('Identity', ['x'], ['same'])]),
    }),
  ],
);

/** A Loop whose body adds a [3] to its carried [2]: an error inside the body. */
export const loopBadBody = graph(
  'loop_bad_body',
  [value('x', f32([2])), value('z', f32([3]))],
  [value('y', null)],
  [
    {
      ...node('Loop', ['m', '', 'x'], ['y'], {
        body: graph(
          'body',
          [value('i', tensor('int64', [])), value('c', tensor('bool', [])), value('a', null)],
          [value('c_out', null), value('a_out', null)],
          [node('Identity', ['c'], ['c_out']), { ...node('Add', ['a', 'z'], ['a_out']), name: 'bad_add' }],
        ),
      }),
      name: 'L',
    },
  ],
  [scalar('m', 'int64', 2)],
);

/** An error in the main graph before a Loop (x + z), then loopGrowing's doubling Loop. */
export const errorThenLoop = graph(
  'error_then_loop',
  [value('v', f32([1, 2])), value('z', f32([3]))],
  [value('bad', null), value('w', null)],
  [node('Add', ['z', 'v'], ['bad']), ...loopGrowing.nodes.map((n) => ({ ...n, outputs: n.outputs.slice(0, 1).map(() => 'w') }))],
  [scalar('m', 'int64', 3), scalar('yes', 'bool', 1)],
);

/**
 * If conditions computed from shapes, as exported models write them (Silero VAD's
 * decoder): x is [2, 3, 1]; `x.shape[-1] == 1` picks Squeeze(x, -1) = [2, 3] over
 * Identity(x), and its negation (Not) picks Identity(x) = [2, 3, 1] over Unsqueeze(x, 0).
 * The two branches of each differ in rank, so only the branch taken gives a shape.
 */
export const ifShapeCondition = graph(
  'if_shape_condition',
  [value('x', f32([2, 3, 1]))],
  [value('squeezed', null), value('kept', null)],
  [
    node('Shape', ['x'], ['s']),
    node('Gather', ['s', 'last'], ['d']),
    node('Equal', ['d', 'one'], ['is_one']),
    node('If', ['is_one'], ['squeezed'], {
      then_branch: graph('then', [], [value('sq', null)], [node('Squeeze', ['x', 'last'], ['sq'])]),
      else_branch: graph('else', [], [value('id', null)], [node('Identity', ['x'], ['id'])]),
    }),
    node('Not', ['is_one'], ['not_one']),
    node('If', ['not_one'], ['kept'], {
      then_branch: graph('then', [], [value('un', null)], [node('Unsqueeze', ['x', 'zero'], ['un'])]),
      else_branch: graph('else', [], [value('id2', null)], [node('Identity', ['x'], ['id2'])]),
    }),
  ],
  [ints('last', [-1]), ints('one', [1]), ints('zero', [0])],
);

/**
 * An If whose condition is the constant false (a cast of 0 to bool); its then branch, not
 * taken, adds a [3] to x [N]: an error once N is fixed to 2 (`--shape x=2`), as Silero's
 * 8 kHz branch fails for a 16 kHz input. onnxruntime loads it (N is symbolic) and runs it.
 */
export const ifUntakenError = graph(
  'if_untaken_error',
  [value('x', f32(['N'])), value('z', f32([3]))],
  [value('y', null)],
  [
    node('Cast', ['zero'], ['no'], { to: 9 }),
    node('If', ['no'], ['y'], {
      then_branch: graph('then', [], [value('bad', null)], [{ ...node('Add', ['x', 'z'], ['bad']), name: 'bad_add' }]),
      else_branch: graph('else', [], [value('ok', null)], [node('Identity', ['x'], ['ok'])]),
    }),
  ],
  [scalar('zero', 'int64', 0)],
);

/**
 * Scan 8 (opset 8): no sequence_lens, a state [2, 4] and a scan input [2, 3, 4], both with
 * the batch axis first; the body adds each [4] slice to its [4] state and emits the new
 * state twice over ([8]): final state [2, 4], scan output [2, 3, 8].
 */
export const scanBatched = graph(
  'scan_batched',
  [value('init', f32([2, 4])), value('x', f32([2, 3, 4]))],
  [value('final', null), value('ys', null)],
  [
    node('Scan', ['', 'init', 'x'], ['final', 'ys'], {
      num_scan_inputs: 1,
      body: graph(
        'body',
        [value('s', null), value('xi', null)],
        [value('s_out', null), value('y', null)],
        [node('Add', ['s', 'xi'], ['s_out']), node('Concat', ['s_out', 's_out'], ['y'], { axis: 0 })],
      ),
    }),
  ],
);
