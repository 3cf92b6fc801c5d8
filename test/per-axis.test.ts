// Per-axis attributes that differ between axes (issue 10, point 7): a rule that reads
// one axis's stride, dilation, padding, kernel size, window or scale for another is
// caught by the sweep alone. Each per-axis rule mutation of proofs/mutants/rules.ts is
// planted in a library of its own and must make the rules disagree with the twins
// on the operator's sweep; and the calls of the issue type as TVM types them.
import test from 'ava';
import { checkOp } from '../proofs/cross-check/harness.js';
import { answersWith, plantedLibrary } from '../proofs/cross-check/versions.js';
import { MUTATIONS } from '../proofs/mutants/rules.js';
import { typeofCall, type TypeofRequest } from '../typing/typeof.js';
import { applyEdit } from '../proofs/cross-check/edits.js';

const PER_AXIS = [
  'rules-conv2d-width-uses-height-dilation',
  'rules-conv2d-fast-width-uses-height-dilation',
  'rules-conv2d-width-uses-height-stride',
  'rules-conv2d-fast-width-uses-height-stride',
  'rules-conv2d-width-uses-height-padding',
  'rules-conv2d-width-uses-height-kernel',
  'rules-conv3d-depth-stride-swapped',
  'rules-conv2d-transpose-output-padding-swapped',
  'rules-conv2d-transpose-stride-swapped',
  'rules-pool2d-width-uses-height-window',
  'rules-pool3d-stride-swapped',
  'rules-upsampling-scales-swapped',
  'rules-resize2d-size-swapped',
  'rules-pad-after-ignored',
  'rules-strided-slice-axes-index',
  'rules-bitserial-conv2d-width-uses-height-stride',
  'rules-bitserial-conv2d-width-uses-height-padding',
  'rules-bitserial-conv2d-width-uses-height-kernel',
];

for (const id of PER_AXIS) {
  test(`the sweep alone catches ${id}`, (t) => {
    const m = MUTATIONS.find((x) => x.id === id);
    if (m === undefined) return t.fail(`no rule mutation ${id}`);
    const library = plantedLibrary(m.file.replace(/^relations\//, ''), m.find, m.replace);
    const disagree = m.ops.reduce((n, op) => n + checkOp(op, { reference: false, answer: answersWith(library), keep: 0 }).disagree, 0);
    t.true(disagree > 0, `${id} survives the sweep of ${m.ops.join(', ')}`);
  });
}

test('nn.conv2d with a dilation or a stride that differs between axes, by both strategies', (t) => {
  const data = 'Tensor[(1, 3, 8, 8), float32]';
  const weight = 'Tensor[(4, 3, 3, 3), float32]';
  const cases: [TypeofRequest, string][] = [
    [{ op: 'nn.conv2d', attrs: { dilation: [1, 2] }, args: [data, weight] }, 'Tensor[(1, 4, 6, 4), float32]'],
    [{ op: 'nn.conv2d', attrs: { strides: [1, 2] }, args: [data, weight] }, 'Tensor[(1, 4, 6, 3), float32]'],
    [{ op: 'nn.conv2d', attrs: { dilation: [1, 2], channels: 4, kernel_size: [3, 3] }, args: [data, '_'] }, 'Tensor[(1, 4, 6, 4), float32]'],
    [{ op: 'nn.conv2d', attrs: { strides: [2, 1], channels: 4, kernel_size: [3, 3] }, args: [data, '_'] }, 'Tensor[(1, 4, 3, 6), float32]'],
  ];
  for (const [c, want] of cases) {
    for (const strategy of ['rules', 'relay'] as const) {
      const a = typeofCall(c, strategy);
      t.is('type' in a ? a.type : a.error, want, `${strategy}: ${JSON.stringify(c)}`);
    }
  }
});

test('the spread edit makes a list attribute differ between axes, pairs included', (t) => {
  const c: TypeofRequest = { op: 'nn.conv2d', attrs: { strides: [1, 1], channels: 4 }, args: ['_', '_'] };
  t.deepEqual(applyEdit(c, { kind: 'spread', pick: 0, step: 1 }).attrs, { strides: [1, 2], channels: 4 });
  const p: TypeofRequest = {
    op: 'nn.pad',
    attrs: {
      pad_width: [
        [1, 1],
        [1, 1],
        [0, 0],
      ],
    },
    args: ['_'],
  };
  t.deepEqual(applyEdit(p, { kind: 'spread', pick: 0, step: 2 }).attrs, {
    pad_width: [
      [1, 1],
      [3, 3],
      [4, 4],
    ],
  });
  // nothing to spread: the case is unchanged
  const u: TypeofRequest = { op: 'add', args: ['_', '_'] };
  t.is(applyEdit(u, { kind: 'spread', pick: 0, step: 1 }), u);
});
