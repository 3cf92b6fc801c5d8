// Einsum (its equation parsed once, relations/onnx/einsum-equation.ts, into the term the
// rules read) and Upsample 7 (scales as a float attribute). Expected shapes are written
// from the operators' specification; onnxruntime runs each model as a second oracle
// (without it, the hand-written expectations still hold).
import test from 'ava';
import { encodeModel } from '../frontends/onnx/encode.js';
import type { OnnxDim, OnnxGraph, OnnxNode } from '../frontends/onnx/model.js';
import { parseEinsum } from '../relations/onnx/einsum-equation.js';
import { typeGraph } from '../typing/onnx/graph-types.js';
import { loadRuntime, runOnRuntime, stopRuntime } from '../proofs/onnx-cross-check/runtime.js';
import { graph, node, tensor, value } from './onnx-subgraph-models.js';

test('an Einsum equation parses into operand and output subscripts; the implicit output is written out', (t) => {
  t.deepEqual(parseEinsum('ij,jk->ik'), {
    operands: [
      ['i', 'j'],
      ['j', 'k'],
    ],
    output: ['i', 'k'],
  });
  t.deepEqual(parseEinsum('...ii ->...i'), { operands: [['ellipsis', 'i', 'i']], output: ['ellipsis', 'i'] });
  // implicit: the letters that occur once, alphabetically, after the ellipsis
  t.deepEqual(parseEinsum('kj,ji'), {
    operands: [
      ['k', 'j'],
      ['j', 'i'],
    ],
    output: ['i', 'k'],
  });
  t.deepEqual(parseEinsum('...j,jB'), {
    operands: [
      ['ellipsis', 'j'],
      ['j', 'B'],
    ],
    output: ['ellipsis', 'B'],
  });
  t.deepEqual(parseEinsum('->'), { operands: [[]], output: [] });
  t.is(parseEinsum('i.j->i'), `Einsum equation "i.j->i": operand 0 "i.j" has '.' (a subscript is a letter or "...")`);
  t.is(parseEinsum('ij->ik'), `Einsum equation "ij->ik": the output's 'k' is in no operand`);
  t.is(parseEinsum('ij->ii'), `Einsum equation "ij->ii": the output has 'i' twice`);
});

const einsum = (equation: string, shapes: OnnxDim[][]): OnnxGraph =>
  graph(
    'einsum',
    shapes.map((s, i) => value(`x${i}`, tensor('float32', s))),
    [value('y', null)],
    [
      {
        ...node(
          'Einsum',
          shapes.map((_, i) => `x${i}`),
          ['y'],
          { equation },
        ),
        name: 'e',
      },
    ],
  );
const upsample = (scales: number[], shape: OnnxDim[]): OnnxGraph => {
  const n: OnnxNode = { ...node('Upsample', ['x'], ['y'], { mode: 'nearest' }), name: 'u' };
  const attrs = new Map(n.attrs).set('scales', { kind: 'floats', value: scales });
  return graph('upsample', [value('x', tensor('float32', shape))], [value('y', null)], [{ ...n, attrs }]);
};

const typeOf = (g: OnnxGraph, opset: number) => {
  const typed = typeGraph(g, new Map([['', opset]]));
  const y = typed.outputs[0]!.type;
  const errors = typed.diagnostics.map((d) => d.message);
  return errors.length > 0 ? errors : y?.kind === 'tensor' ? y.shape : y;
};

const EINSUM: readonly [string, OnnxDim[][], OnnxDim[] | string][] = [
  [
    'ij,jk->ik',
    [
      [2, 3],
      [3, 4],
    ],
    [2, 4],
  ],
  [
    'bij,bjk->bik',
    [
      [5, 2, 3],
      [5, 3, 4],
    ],
    [5, 2, 4],
  ],
  ['ij->ji', [[3, 4]], [4, 3]],
  ['...ii ->...i', [[3, 5, 5]], [3, 5]],
  ['->', [[]], []],
  [
    'ij,jk',
    [
      [2, 3],
      [3, 4],
    ],
    [2, 4],
  ],
  ['i,i', [[7], [7]], []],
  [
    '...ij,...jk->...ik',
    [
      [6, 1, 2, 3],
      [1, 4, 3, 5],
    ],
    [6, 4, 2, 5],
  ],
  [
    '...ij,jk->...ik',
    [
      [6, 2, 3],
      [3, 5],
    ],
    [6, 2, 5],
  ],
  [
    'ij,jk->ik',
    [
      ['n', 3],
      [3, 'm'],
    ],
    ['n', 'm'],
  ],
];

test("Einsum: the output subscripts take their operands' dims, ellipses broadcast", (t) => {
  for (const [eq, shapes, want] of EINSUM) t.deepEqual(typeOf(einsum(eq, shapes), 12), want, eq);
});

test('Einsum: errors name the node', (t) => {
  t.deepEqual(
    typeOf(
      einsum('ij,jk->ik', [
        [2, 3],
        [4, 5],
      ]),
      12,
    ),
    ['node 0 (Einsum "e"): Einsum: subscript "j" stands for dims 3 and 4'],
  );
  // onnxruntime and ONNX's inference refuse ellipses of different ranks (numpy would broadcast them)
  t.deepEqual(
    typeOf(
      einsum('...ij,...jk->...ik', [
        [6, 1, 2, 3],
        [4, 3, 5],
      ]),
      12,
    ),
    ['node 0 (Einsum "e"): Einsum: operands 0 and 1 have ellipses of 2 and 1 dims'],
  );
  t.deepEqual(typeOf(einsum('ijk->i', [[2, 3]]), 12), ['node 0 (Einsum "e"): Einsum: operand 0 has rank 2, its subscripts ["i", "j", "k"] need 3']);
  t.deepEqual(typeOf(einsum('ij->ik', [[2, 3]]), 12), [`node 0 (Einsum "e"): Einsum equation "ij->ik": the output's 'k' is in no operand`]);
});

test('Upsample 7: floor(dim * scale) per axis, an integral scale also on a symbolic dim', (t) => {
  t.deepEqual(typeOf(upsample([1, 1, 2, 3], [1, 2, 4, 5]), 7), [1, 2, 8, 15]);
  t.deepEqual(typeOf(upsample([1, 1, 1.5, 2.5], [1, 2, 5, 5]), 7), [1, 2, 7, 12]);
  // Upsample's scales are at least 1 (onnxruntime refuses such a model too)
  t.deepEqual(typeOf(upsample([1, 1, 1, 0.5], [1, 2, 5, 5]), 7), ['node 0 (Upsample "u"): Upsample: a scale is at least 1 (got 0.5)']);
  t.deepEqual(typeOf(upsample([1, 2], ['n', 4]), 7), ['n', 8]);
  t.deepEqual(typeOf(upsample([1, 2], [3, 4, 5]), 7), ['node 0 (Upsample "u"): Upsample: 2 scales for a rank-3 input']);
});

test.serial('onnxruntime runs the Einsum and Upsample 7 models to the same shapes', async (t) => {
  const rt = await loadRuntime();
  if (!rt.ok) {
    t.deepEqual(
      typeOf(
        einsum('ij,jk->ik', [
          [2, 3],
          [3, 4],
        ]),
        12,
      ),
      [2, 4],
    );
    return;
  }
  try {
    const cases: [OnnxGraph, number][] = [
      ...EINSUM.filter(([, shapes]) => shapes.every((s) => s.every((d) => typeof d === 'number'))).map(
        ([eq, shapes]) => [einsum(eq, shapes), 12] as [OnnxGraph, number],
      ),
      [upsample([1, 1, 2, 3], [1, 2, 4, 5]), 7],
      [upsample([1, 1, 1.5, 2.5], [1, 2, 5, 5]), 7],
    ];
    for (const [g, opset] of cases) {
      const ran = await runOnRuntime(encodeModel(g, new Map([['', opset]]), 7), g, ['y']);
      t.deepEqual(
        'outputs' in ran ? ran.outputs[0]?.shape : ran,
        typeOf(g, opset),
        JSON.stringify(g.nodes[0]!.attrs.get('equation') ?? g.nodes[0]!.attrs.get('scales')),
      );
    }
  } finally {
    stopRuntime();
  }
});
