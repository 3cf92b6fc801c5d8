// The relation library as a whole: at least 70 operators, each with rules, an
// imperative twin, a sweep generator, a reference executor and documentation;
// every documented example types the same way under both strategies; the
// generated docs are current; the mutations are well-formed; and bad input
// gets a clear error naming the operator, the attribute and the constraint.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { hasCaseGenerator } from '../proofs/cross-check/cases.js';
import { classify } from '../proofs/cross-check/compare.js';
import { occurrences } from '../proofs/mutants/main.js';
import { allMutations } from '../proofs/mutants/all.js';
import { executorFor } from '../proofs/reference/registry.js';
import { allOps, findOp } from '../relations/catalogue.js';
import { imperativeRelation } from '../relations/imperative/registry.js';
import { render } from '../scripts/relations-doc.js';
import { typeofCall, type TypeofRequest } from '../typing/typeof.js';

test('the catalogue has at least 70 operators, with unique names', (t) => {
  const names = allOps().map((o) => o.name);
  t.true(names.length >= 70, `${names.length} operators`);
  t.is(new Set(names).size, names.length);
});

const REQUIRED = `exp log sqrt rsqrt tanh sigmoid negative abs floor ceil round sign erf add subtract multiply divide equal less greater
  logical_and logical_or logical_xor where cast cast_like reshape reverse_reshape reshape_like transpose squeeze expand_dims concatenate
  stack split take strided_slice tile repeat reverse nn.pad broadcast_to zeros ones full zeros_like ones_like full_like arange one_hot
  sequence_mask meshgrid sum mean max min prod all any argmax argmin variance std logsumexp nn.conv1d nn.conv2d nn.conv3d
  nn.conv2d_transpose nn.max_pool1d nn.max_pool2d nn.max_pool3d nn.avg_pool1d nn.avg_pool2d nn.avg_pool3d nn.global_avg_pool2d
  nn.global_max_pool2d nn.adaptive_avg_pool2d nn.adaptive_max_pool2d nn.dense nn.matmul nn.batch_matmul nn.batch_norm nn.layer_norm
  nn.group_norm nn.instance_norm nn.bias_add nn.softmax nn.log_softmax nn.relu nn.leaky_relu nn.prelu nn.dropout nn.batch_flatten
  nn.upsampling nn.depth_to_space nn.space_to_depth image.resize2d slice_like gather scatter_elements topk
  tan atan acos asin acosh asinh atanh cosh sinh log10 fast_exp fast_tanh fast_erf isnan isfinite isinf clip copy reinterpret
  left_shift right_shift bitwise_and bitwise_or bitwise_xor bitwise_not fixed_point_multiply scatter_nd gather_nd cumsum cumprod
  sort argsort searchsorted reverse_sequence trilu shape_of ndarray_size sliding_window collapse_sum_like collapse_sum_to
  broadcast_to_like mean_variance mean_std qnn.quantize qnn.dequantize annotation.checkpoint
  nn.bitpack nn.bitserial_conv2d nn.bitserial_dense vision.proposal
  matrix_set_diag unravel_index sparse_to_dense sparse_reshape strided_set adv_index`.split(/\s+/);

test('every operator the issue names is catalogued', (t) => {
  const missing = REQUIRED.filter((n) => findOp(n) === undefined);
  t.deepEqual(missing, []);
});

for (const op of allOps()) {
  test(`${op.name}: twin, sweep, executor, docs and an example both strategies type alike`, (t) => {
    t.truthy(imperativeRelation(op.relation), `no imperative relation ${op.relation}`);
    t.true(hasCaseGenerator(op.name), 'no sweep generator');
    t.truthy(executorFor(op.name), 'no reference executor');
    t.true(op.doc.length > 0);
    t.truthy(op.formula, 'no formula');
    t.truthy(op.example, 'no example');
    if (op.example === undefined) return;
    const req: TypeofRequest = { op: op.name, args: op.example.args, ...(op.example.attrs !== undefined ? { attrs: op.example.attrs } : {}) };
    const rules = typeofCall(req, 'rules');
    const relay = typeofCall(req, 'relay');
    t.true('type' in rules, `the example is rejected: ${JSON.stringify(rules)}`);
    t.is(classify(rules, relay).kind, 'agree', `${JSON.stringify(rules)} vs ${JSON.stringify(relay)}`);
  });
}

test('docs/relations.md is generated from the current catalogue and rules (npm run docs:relations)', (t) => {
  t.is(readFileSync(new URL('../docs/relations.md', import.meta.url), 'utf8'), render());
});

test('at least 30 mutations on each side, well-formed: unique ids, text found exactly once in an imperative twin or a rule file, known operators', (t) => {
  const all = allMutations();
  t.true(all.filter((m) => m.side === 'twins').length >= 30, `${all.length} mutations`);
  t.true(all.filter((m) => m.side === 'rules').length >= 30, `${all.filter((m) => m.side === 'rules').length} rule mutations`);
  t.is(new Set(all.map((m) => m.mutation.id)).size, all.length);
  for (const { side, mutation: m } of all) {
    t.regex(m.file, side === 'twins' ? /^relations\/imperative\/[a-z_]+\.ts$/ : /^relations\/[a-z_-]+\.rules$/, m.id);
    t.is(occurrences(readFileSync(new URL(`../${m.file}`, import.meta.url), 'utf8'), m.find), 1, `${m.id}: its text must occur once in ${m.file}`);
    t.not(m.find, m.replace, m.id);
    t.true(m.ops.length > 0 && m.ops.every((o) => findOp(o) !== undefined), `${m.id}: unknown ops ${m.ops.join(', ')}`);
  }
});

// ─── bad input ───────────────────────────────────────────────────────────────

const BAD: { req: TypeofRequest; words: RegExp[] }[] = [
  { req: { op: 'nn.conv3x3', args: ['_'] }, words: [/unknown operator 'nn.conv3x3'/, /did you mean/] },
  { req: { op: 'nn.conv2d', attrs: { strides: [-1, 1] }, args: ['Tensor[(1, 3, 5, 5), float32]', '_'] }, words: [/nn\.conv2d/, /strides/, />= 1/] },
  { req: { op: 'nn.conv2d', attrs: { strides: 'two' }, args: ['Tensor[(1, 3, 5, 5), float32]', '_'] }, words: [/nn\.conv2d/, /strides/, /must be/] },
  {
    req: { op: 'nn.conv2d', attrs: { stride: [2, 2] }, args: ['Tensor[(1, 3, 5, 5), float32]', '_'] },
    words: [/nn\.conv2d/, /stride/, /did you mean 'strides'/],
  },
  { req: { op: 'nn.softmax', attrs: { axis: 5 }, args: ['Tensor[(2, 3), float32]'] }, words: [/nn\.softmax/, /axis/, /5/, /rank 2/] },
  { req: { op: 'reshape', attrs: { newshape: [7] }, args: ['Tensor[(2, 3), float32]'] }, words: [/reshape/, /7/, /6/] },
  { req: { op: 'nn.conv2d', args: ['Tensor[(1, 3, 5, 5, 5), float32]', 'Tensor[(4, 3, 3, 3), float32]'] }, words: [/nn\.conv2d/, /rank/] },
  { req: { op: 'strided_slice', attrs: { begin: [0], end: [2], strides: [0] }, args: ['Tensor[(4), float32]'] }, words: [/strided_slice/, /strides/] },
  { req: { op: 'expand_dims', attrs: { axis: 4 }, args: ['Tensor[(2, 3), float32]'] }, words: [/expand_dims/, /axis/] },
  { req: { op: 'cast', attrs: { dtype: 'float33' }, args: ['Tensor[(2, 3), float32]'] }, words: [/cast/, /dtype/] },
];

for (const { req, words } of BAD) {
  test(`bad input gets a clear error from both strategies: ${JSON.stringify(req)}`, (t) => {
    for (const strategy of ['rules', 'relay'] as const) {
      const a = typeofCall(req, strategy);
      t.true('error' in a, `${strategy}: ${JSON.stringify(a)}`);
      if (!('error' in a)) continue;
      for (const w of words) t.regex(a.error, w, `${strategy}: ${a.error}`);
      t.notRegex(a.error, /internal|TypeError|undefined|at .*\.ts:\d+/, strategy);
    }
  });
}
