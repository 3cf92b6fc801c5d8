// Cross-check sweep cases for relations/nn-norm.rules: lrn, l2_normalize, nll_loss
// (nn.fast_softmax shares nn.softmax's relation and its cases in nn.ts).
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, axisSweep, range, ALL_SHAPES, type Shape, type CaseGenerator } from '../case-kit.js';

const T1 = tuple([tensor([3])]);

function lrn(op: OpInfo): TypeofRequest[] {
  return [
    ...axisSweep(op),
    call(op.name, [tensor([1, 4, 3, 3])], { size: 3, axis: 1, bias: 1, alpha: 0.0001, beta: 0.5 }),
    call(op.name, [tensor(['n', '_', 3, 3], 'float16')], { size: 1, axis: 3 }),
    call(op.name, [T1]),
  ];
}

function l2Normalize(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES) {
    const n = s.length;
    out.push(call(op.name, [tensor(s)], { eps: 0.001 }));
    for (const a of range(-n - 1, n)) out.push(call(op.name, [tensor(s)], { eps: 0.001, axis: [a] }));
    if (n >= 2) out.push(call(op.name, [tensor(s)], { eps: 0.001, axis: [0, n - 1] }), call(op.name, [tensor(s)], { eps: 0.001, axis: [1, n] }));
  }
  out.push(call(op.name, ['_'], { eps: 0.1, axis: [0] }), call(op.name, [T1], { eps: 0.1 }), call(op.name, [tensor(['_', 3])], { eps: 0.1, axis: [1] }));
  return out;
}

function nllLoss(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const cases: [Shape, Shape, Shape][] = [
    [[4, 10], [4], [10]],
    [[2, 3, 5, 6], [2, 5, 6], [3]],
    [[2, 3, 5, 6], [2, 6, 5], [3]],
    [[2, 3, 5], [3, 5], [3]],
    [[2, 3], [2], [4]],
    [['n', 3], ['n'], [3]],
    [['n', 'c', 'h'], ['n', 'h'], ['c']],
    [[2, 3], [2], [3, 1]],
    [[2, 3], [2, 1], [3]],
    [[3], [], [3]],
    [['_', 3], [2], [3]],
    [[2, '_'], ['_'], [4]],
    [[2, 3, '?'], [2, 5], ['?']],
  ];
  for (const [p, t, w] of cases)
    for (const reduction of ['mean', 'sum', 'none']) out.push(call(op.name, [tensor(p), tensor(t, 'int32'), tensor(w)], { reduction }));
  out.push(
    call(op.name, [tensor([2, 3]), tensor([2], 'float32'), tensor([3])]),
    call(op.name, [tensor([2, 3], 'int32'), tensor([2], 'int64'), tensor([3], 'int32')]),
    call(op.name, [tensor([2, 3], 'float16'), tensor([2], 'int64'), tensor([3])]),
    call(op.name, [tensor([2, 3]), tensor([2], 'int32'), tensor([3])], { reduction: 'none', ignore_index: 1 }),
    call(op.name, ['_', tensor([2], 'int32'), tensor([3])]),
    call(op.name, [tensor([2, 3]), '_', tensor([3])]),
    call(op.name, [tensor([2, 3]), tensor([2], 'int32'), '_']),
    call(op.name, ['_', tensor([2], 'int32'), tensor([3, 3])]),
    call(op.name, [tensor([3]), '_', '_']),
    call(op.name, [T1, '_', '_']),
    call(op.name, ['_', T1, '_']),
    call(op.name, ['_', '_', T1]),
  );
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  LRN: lrn,
  L2Normalize: l2Normalize,
  NLLLoss: nllLoss,
};
