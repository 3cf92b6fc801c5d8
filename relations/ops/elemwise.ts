// Elementwise operators: binary with broadcasting (arithmetic, comparisons, logical), where, unary math, cast.
// Names, argument order, attributes and defaults follow TVM's Python API (tvm.relay.*).
// TVM sources: src/relay/op/tensor/unary.cc (IdentityRel), binary.cc (BroadcastRel,
// BroadcastCompRel), transform.cc (CastRel, CastLikeRel, WhereRel), type_relations.cc.
import { type OpInfo, TENSOR, broadcastOp, compareOp, spec } from '../schema.js';

// ─── Shared documentation ────────────────────────────────────────────────────

const BCAST_FORMULA = 'numpy broadcasting: shapes aligned at the right; per dimension 1 → the other, equal → it; the result has the operands\' (common) dtype';
const BCAST_BACKWARDS = 'the dtype of either operand from the other (both must be equal)';
const BCAST_DEVIATIONS = [
  'symbolic dimensions that are neither provably equal nor provably incompatible (n vs 5, n vs m) leave the result dimension undetermined instead of failing as TVM does (wait, three-valued)',
  'a dimension hole against a dimension provably different from 1 gives that dimension, against 1 the hole itself; while any dimension is undecided there is no partial result, but a provable clash in other dimensions is reported at once (TVM has no dimension holes)',
];
const COMPARE_FORMULA = 'numpy broadcasting of the two shapes (as add); the result dtype is bool';
const BCAST_EXAMPLE = { args: ['Tensor[(1, 64, 56, 56), float32]', 'Tensor[(64, 1, 1), float32]'] };
const BOOL_EXAMPLE = { args: ['Tensor[(1, 128), bool]', 'Tensor[(12, 1, 128), bool]'] };
const INT_EXAMPLE = { args: ['Tensor[(8, 128), int32]', 'Tensor[(1), int32]'] };

function bop(name: string, doc: string, example = BCAST_EXAMPLE, extra: string[] = []): OpInfo {
  return { ...broadcastOp(name, doc), formula: BCAST_FORMULA, backwards: BCAST_BACKWARDS, deviations: [...BCAST_DEVIATIONS, ...extra], example };
}

function cop(name: string, doc: string): OpInfo {
  return { ...compareOp(name, doc), formula: COMPARE_FORMULA, backwards: BCAST_BACKWARDS, deviations: BCAST_DEVIATIONS, example: { args: ['Tensor[(1, 12, 128, 128), float32]', 'Tensor[(1), float32]'] } };
}

const UNARY_DEVIATIONS = ['a non-tensor argument (a tuple) is an error; TVM\'s IdentityRel returns the argument type whatever it is'];

/** A unary elementwise op typed by TVM's IdentityRel (result type = argument type). */
function uop(name: string, doc: string, dtype = 'float32'): OpInfo {
  return {
    name,
    relation: 'Identity',
    args: ['data'],
    attrs: [],
    result: TENSOR,
    doc,
    formula: 'the result has the type of data (same shape, same dtype)',
    backwards: 'data\'s type from the result\'s (they are unified)',
    deviations: UNARY_DEVIATIONS,
    example: { args: [`Tensor[(1, 768, 128), ${dtype}]`] },
  };
}

export const ELEMWISE_OPS: readonly OpInfo[] = [
  bop('add', 'elementwise a + b with broadcasting'),
  bop('subtract', 'elementwise a - b with broadcasting'),
  bop('multiply', 'elementwise a * b with broadcasting'),
  bop('divide', 'elementwise a / b with broadcasting'),
  bop('power', 'elementwise a ** b with broadcasting'),
  bop('maximum', 'elementwise max(a, b) with broadcasting'),
  bop('minimum', 'elementwise min(a, b) with broadcasting'),
  bop('floor_divide', 'elementwise floor(a / b) with broadcasting', INT_EXAMPLE),
  bop('floor_mod', 'elementwise a - floor(a / b) * b with broadcasting (sign of b)', INT_EXAMPLE),
  bop('mod', 'elementwise truncated remainder a % b (sign of a) with broadcasting', INT_EXAMPLE),
  bop('logical_and', 'elementwise a && b with broadcasting; the result keeps the operands\' dtype', BOOL_EXAMPLE, ['the operands are not required to be bool (as in TVM\'s BroadcastRel)']),
  bop('logical_or', 'elementwise a || b with broadcasting; the result keeps the operands\' dtype', BOOL_EXAMPLE, ['the operands are not required to be bool (as in TVM\'s BroadcastRel)']),
  bop('logical_xor', 'elementwise a != b (as truth values) with broadcasting; the result keeps the operands\' dtype', BOOL_EXAMPLE, ['the operands are not required to be bool (as in TVM\'s BroadcastRel)']),
  cop('equal', 'elementwise a == b with broadcasting; bool result'),
  cop('not_equal', 'elementwise a != b with broadcasting; bool result'),
  cop('less', 'elementwise a < b with broadcasting; bool result'),
  cop('less_equal', 'elementwise a <= b with broadcasting; bool result'),
  cop('greater', 'elementwise a > b with broadcasting; bool result'),
  cop('greater_equal', 'elementwise a >= b with broadcasting; bool result'),
  {
    name: 'where',
    relation: 'Where',
    args: ['condition', 'x', 'y'],
    attrs: [],
    result: TENSOR,
    doc: 'select from x where condition is non-zero, else from y (all three broadcast)',
    formula: 'broadcast(condition, broadcast(x, y)); the result has x\'s dtype',
    backwards: 'the dtype of x or y from the other (they must be equal); nothing about condition',
    deviations: [...BCAST_DEVIATIONS, 'the condition\'s dtype is not constrained (as in TVM\'s WhereRel)'],
    example: { args: ['Tensor[(1, 1, 128, 128), bool]', 'Tensor[(1, 12, 128, 128), float32]', 'Tensor[(1), float32]'] },
  },
  uop('exp', 'elementwise e ** x'),
  uop('log', 'elementwise natural logarithm'),
  uop('log2', 'elementwise base-2 logarithm'),
  uop('sqrt', 'elementwise square root'),
  uop('rsqrt', 'elementwise 1 / sqrt(x)'),
  uop('tanh', 'elementwise hyperbolic tangent'),
  uop('sigmoid', 'elementwise 1 / (1 + e ** -x)'),
  uop('negative', 'elementwise -x'),
  uop('abs', 'elementwise |x|'),
  uop('floor', 'elementwise round towards -infinity'),
  uop('ceil', 'elementwise round towards +infinity'),
  uop('round', 'elementwise round to the nearest integer (halves to even)'),
  uop('trunc', 'elementwise round towards zero'),
  uop('sign', 'elementwise -1, 0 or 1'),
  uop('erf', 'elementwise Gauss error function'),
  uop('cos', 'elementwise cosine'),
  uop('sin', 'elementwise sine'),
  uop('logical_not', 'elementwise !x; the result keeps the input dtype', 'bool'),
  {
    name: 'cast',
    relation: 'Cast',
    args: ['data'],
    attrs: [spec('dtype', 'string', 'required', 'the target dtype', { format: 'dtype' })],
    result: TENSOR,
    doc: 'convert to another dtype',
    formula: 'the shape of data, the dtype given by the attribute',
    deviations: ['only the dtypes bool, int8-int64, uint8-uint64, float16, float32, float64 and bfloat16 are accepted as targets (e.g. "int4" or the vector type "float32x4" are rejected)'],
    example: { attrs: { dtype: 'float16' }, args: ['Tensor[(1, 3, 224, 224), float32]'] },
  },
  {
    name: 'cast_like',
    relation: 'CastLike',
    args: ['data', 'dtype_like'],
    attrs: [],
    result: TENSOR,
    doc: 'convert data to the dtype of dtype_like',
    formula: 'the shape of data, the dtype of dtype_like (dtype_like\'s shape is irrelevant)',
    deviations: [],
    example: { args: ['Tensor[(1, 768), float32]', 'Tensor[(1), float16]'] },
  },
];
