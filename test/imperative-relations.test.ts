// The imperative (Relay-style) relations, the operator catalogue, and the types
// and union-find they run on.
//
// Every expected type below was worked out by hand from TVM's formulas (noted
// next to the case), not produced by running the code. Expected types are
// written as Relay text and compared after canonicalisation (`canon`), so a
// symbolic expected size such as `(h - 1) / 2 + 1` compares equal to the same
// expression in dims.ts's canonical form.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { allOps, checkAttrs, findOp, lookupOp, attrValueText } from '../relations/catalogue.js';
import { dependencies, makeInstance, runInstance } from '../relations/imperative/instance.js';
import { imperativeRelation } from '../relations/imperative/registry.js';
import { type AttrJs, attrs, typeofOp } from '../relations/imperative/solve-one.js';
import { parseType } from '../relations/imperative/type-text.js';
import { type IType, TypeSolverState, intDim, printType, tensorType } from '../relations/imperative/types.js';
import { dimVar } from '../solver/terms/dims.js';

// ─── Helpers ─────────────────────────────────────────────────────────────────

function parse(state: TypeSolverState, text: string): IType {
  const p = parseType(text, state);
  if (!p.ok) throw new Error(p.message);
  return p.type;
}

/** Relay text in canonical form (symbolic sizes normalised by dims.ts). */
function canon(text: string): string {
  return printType(parse(new TypeSolverState(), text));
}

interface Expect {
  readonly type: string;
  readonly args?: readonly string[];
  readonly residuals?: readonly string[];
}

function ok(t: ExecutionContext, op: string, a: Record<string, AttrJs>, args: readonly string[], want: Expect, out?: string): void {
  const r = typeofOp(op, attrs(a), args, out === undefined ? {} : { out });
  if ('error' in r) {
    t.fail(`${op} failed: ${r.error}`);
    return;
  }
  t.is(r.type, canon(want.type), `result of ${op}`);
  if (want.args !== undefined) t.deepEqual(r.args, want.args.map(canon), `arguments of ${op}`);
  t.deepEqual(r.residuals, want.residuals ?? [], `residuals of ${op}`);
}

/** The call fails; the message names the op and contains every fragment. */
function bad(t: ExecutionContext, op: string, a: Record<string, AttrJs>, args: readonly string[], ...fragments: readonly string[]): void {
  const r = typeofOp(op, attrs(a), args);
  if (!('error' in r)) {
    t.fail(`${op} should fail, got ${r.type}`);
    return;
  }
  t.true(r.error.includes(op), `error names the op: ${r.error}`);
  for (const f of fragments) t.true(r.error.includes(f), `error contains ${JSON.stringify(f)}: ${r.error}`);
}

const F = (shape: string) => `Tensor[(${shape}), float32]`;

// ─── Types, printing, parsing ────────────────────────────────────────────────

test('printType uses Relay syntax; holes print as _', (t) => {
  const s = new TypeSolverState();
  t.is(printType(tensorType([1, 3], 'float32')), 'Tensor[(1, 3), float32]');
  t.is(printType(tensorType([5], 'float32')), 'Tensor[(5), float32]');
  t.is(printType(tensorType([], 'float32')), 'float32');
  t.is(printType(tensorType([{ kind: 'any' }, 3], 'int8')), 'Tensor[(?, 3), int8]');
  t.is(printType(tensorType([s.freshDim(), 3], s.freshDtype())), 'Tensor[(_, 3), _]');
  t.is(printType(tensorType([], s.freshDtype())), 'Tensor[(), _]');
  t.is(printType(s.freshType()), '_');
  t.is(printType({ kind: 'tuple', fields: [tensorType([2], 'bool')] }), '(Tensor[(2), bool],)');
  t.is(
    printType({ kind: 'func', typeParams: [], params: [tensorType([], 'float32')], ret: { kind: 'call', name: 'List', args: [{ kind: 'var', name: 'A' }] } }),
    'fn (float32) -> List[A]',
  );
  t.is(printType(tensorType([{ kind: 'sym', dim: dimVar('n') }, 3], 'float32')), 'Tensor[(n, 3), float32]');
});

test('type text round-trips through the parser', (t) => {
  for (const text of [
    'Tensor[(1, 3, 224, 224), float32]',
    'Tensor[(5), float32]',
    'float32',
    'Tensor[(?, 3), int64]',
    'Tensor[(n, 2*n + 1), float32]',
    '(Tensor[(1), bool], float32)',
    '(float32,)',
    '()',
    'fn (Tensor[(3), float32]) -> float32',
    'List[Tensor[(3), float32]]',
    '_',
    'Tensor[(_, 3), _]',
  ]) {
    t.is(canon(text), text);
  }
  t.is(canon('Tensor[(3,), float32]'), 'Tensor[(3), float32]');
  t.is(canon('Tensor[(), float32]'), 'float32');
  t.is(canon('Tensor[(n * 2 + 1 - 1), float32]'), 'Tensor[(2*n), float32]');
  t.is(canon('Tensor[(2 * 3), float32]'), 'Tensor[(6), float32]');
  t.false(parseType('Tensor[(1, 2), float33]', new TypeSolverState()).ok);
  t.false(parseType('Tensor[(1, 2) float32]', new TypeSolverState()).ok);
  t.false(parseType('Tensor[(0 - 3), float32]', new TypeSolverState()).ok);
});

// ─── Unification ─────────────────────────────────────────────────────────────

test('unify: equal ints, different ints, holes, Any', (t) => {
  const s = new TypeSolverState();
  t.true(s.unify(parse(s, F('1, 3')), parse(s, F('1, 3'))).ok);
  const clash = s.unify(parse(s, F('1, 3')), parse(s, F('1, 4')));
  t.false(clash.ok);
  if (!clash.ok) t.is(clash.message, 'dimension 1: 3 vs 4');
  const h = parse(s, 'Tensor[(_, 3), _]');
  t.true(s.unify(h, parse(s, F('7, 3'))).ok);
  t.is(printType(s.resolve(h)), F('7, 3'));
  const v = s.version;
  const withAny = parse(s, 'Tensor[(?, _), float32]');
  t.true(s.unify(withAny, parse(s, F('5, ?'))).ok);
  t.is(printType(s.resolve(withAny)), 'Tensor[(?, _), float32]', 'Any binds nothing, on either side');
  t.is(s.version, v);
});

test('unify: symbolic sizes are decided, or recorded as residual assumptions', (t) => {
  const s = new TypeSolverState();
  t.true(s.unify(parse(s, F('n, 3')), parse(s, F('3, 3'))).ok);
  t.deepEqual(
    s.residuals.map((r) => r.text),
    ['n = 3'],
  );
  t.true(s.unify(parse(s, F('2*n')), parse(s, F('n + n'))).ok, 'canonical forms are equal');
  const never = s.unify(parse(s, F('n + 1')), parse(s, F('n')));
  t.false(never.ok, 'n + 1 is never n');
  const never2 = s.unify(parse(s, F('n + 5')), parse(s, F('3')));
  t.false(never2.ok, 'n + 5 >= 5 is never 3');
  // two different size variables are independent sizes: a clash, as in the rule engine
  const vars = s.unify(parse(s, F('n')), parse(s, F('m')));
  t.false(vars.ok);
  if (!vars.ok) t.regex(vars.message, /n vs m \(different size variables\)/);
  // ... while a variable against an expression over another is compared numerically
  t.true(s.unify(parse(s, F('n')), parse(s, F('2*m'))).ok);
  t.deepEqual(
    s.residuals.map((r) => r.text),
    ['n = 3', 'n = 2*m'],
  );
});

test('unify: dtype, rank and kind clashes; failures are atomic', (t) => {
  const s = new TypeSolverState();
  const dt = s.unify(parse(s, F('3')), parse(s, 'Tensor[(3), int32]'));
  t.false(dt.ok);
  if (!dt.ok) t.is(dt.message, 'dtype float32 vs int32');
  const rank = s.unify(parse(s, F('1, 3')), parse(s, F('3')));
  t.false(rank.ok);
  if (!rank.ok) t.is(rank.message, 'rank 2 vs 1');
  t.false(s.unify(parse(s, F('3')), parse(s, `(${F('3')},)`)).ok);
  // The first field would bind the hole, the second clashes: nothing is kept.
  const a = parse(s, `(Tensor[(_), float32], ${F('2')})`);
  const before = s.version;
  t.false(s.unify(a, parse(s, `(${F('9')}, ${F('3')})`)).ok);
  t.is(printType(s.resolve(a)), `(Tensor[(_), float32], ${F('2')})`);
  t.is(s.version, before);
  const x = s.freshType();
  t.false(s.unify(x, { kind: 'tuple', fields: [x] }).ok, 'occurs check');
});

// ─── The catalogue ───────────────────────────────────────────────────────────

test('lookupOp suggests the closest operator', (t) => {
  const found = lookupOp('nn.conv2d');
  t.true(found.ok);
  if (found.ok) {
    t.is(found.op.relation, 'Conv2D');
    t.deepEqual(found.op.args, ['data', 'weight']);
  }
  t.deepEqual(lookupOp('nn.conv3x3'), { ok: false, message: "unknown operator 'nn.conv3x3'; did you mean 'nn.conv3d'?" });
  t.deepEqual(lookupOp('conv2d'), { ok: false, message: "unknown operator 'conv2d'; did you mean 'nn.conv2d'?" });
  t.deepEqual(lookupOp('nn.sofmax'), { ok: false, message: "unknown operator 'nn.sofmax'; did you mean 'nn.softmax'?" });
  t.deepEqual(lookupOp('frobnicate'), { ok: false, message: "unknown operator 'frobnicate'" });
});

test('the catalogue: relation names, arguments, result arity, defaults type-check', (t) => {
  t.is(findOp('add')?.relation, 'Broadcast');
  t.is(findOp('minimum')?.relation, 'Broadcast');
  t.is(findOp('less')?.relation, 'BroadcastCompare');
  t.is(findOp('nn.relu')?.relation, 'Identity');
  t.deepEqual(findOp('nn.batch_norm')?.args, ['data', 'gamma', 'beta', 'moving_mean', 'moving_var']);
  t.deepEqual(findOp('nn.batch_norm')?.result, { kind: 'tuple', size: 3 });
  t.is(findOp('split')?.result.kind, 'depends');
  t.deepEqual(findOp('where')?.args, ['condition', 'x', 'y']);
  t.deepEqual(findOp('take')?.args, ['data', 'indices']);
  for (const op of allOps()) {
    t.truthy(imperativeRelation(op.relation), `${op.name}: relation ${op.relation} exists`);
    const checked = checkAttrs(op, []);
    const missing = op.attrs.filter((a) => a.default === 'required').map((a) => a.name);
    t.is(checked.errors.length, missing.length, `${op.name}: only required attributes are missing`);
  }
});

test('checkAttrs fills defaults exactly as the Python API', (t) => {
  const conv = checkAttrs(findOp('nn.conv2d')!, []);
  t.deepEqual(conv.errors, []);
  const text = Object.fromEntries([...conv.values].map(([k, v]) => [k, attrValueText(v)]));
  t.deepEqual(text, {
    strides: '[1, 1]',
    padding: '[0, 0]',
    dilation: '[1, 1]',
    groups: '1',
    channels: 'None',
    kernel_size: 'None',
    data_layout: '"NCHW"',
    kernel_layout: '"OIHW"',
    out_layout: '""',
    out_dtype: '""',
  });
  const bm = checkAttrs(findOp('nn.batch_matmul')!, []);
  t.is(attrValueText(bm.values.get('transpose_a')!), 'False');
  t.is(attrValueText(bm.values.get('transpose_b')!), 'True');
  const bn = checkAttrs(findOp('nn.batch_norm')!, []);
  t.is(attrValueText(bn.values.get('axis')!), '1');
  t.is(attrValueText(bn.values.get('epsilon')!), '0.00001');
  const take = checkAttrs(findOp('take')!, []);
  t.is(attrValueText(take.values.get('mode')!), '"clip"');
  t.is(attrValueText(take.values.get('axis')!), 'None');
});

test('checkAttrs rejects unknown, duplicate, missing and ill-typed attributes', (t) => {
  const conv = findOp('nn.conv2d')!;
  const msgs = (a: Record<string, AttrJs>) => checkAttrs(conv, attrs(a)).errors.map((e) => e.message);
  t.deepEqual(msgs({ stride: [2, 2] }), ["nn.conv2d has no attribute 'stride'; did you mean 'strides'?"]);
  t.deepEqual(msgs({ strides: [1, 1, 1] }), ['nn.conv2d: strides must be a list of 2 ints (got [1, 1, 1])']);
  t.deepEqual(msgs({ strides: 'two' }), ['nn.conv2d: strides must be an int or a list of 2 ints (got "two")']);
  t.deepEqual(msgs({ strides: [-1, 1] }), ['nn.conv2d: strides must be >= 1 (got [-1, 1])']);
  t.deepEqual(msgs({ padding: [1, 1, 1] }), ['nn.conv2d: padding must be a list of 1, 2 or 4 ints (got [1, 1, 1])']);
  t.deepEqual(msgs({ groups: 1.5 }), ['nn.conv2d: groups must be an int (got 1.5)']);
  t.deepEqual(msgs({ out_dtype: 'float33' }), ['nn.conv2d: out_dtype must be a dtype such as "float32", or "" (got "float33")']);
  t.deepEqual(msgs({ strides: 2 }), [], 'an int is expanded by the Python API');
  const dup = checkAttrs(conv, [...attrs({ groups: 1 }), ...attrs({ groups: 2 })]);
  t.deepEqual(
    dup.errors.map((e) => e.message),
    ["nn.conv2d: attribute 'groups' is given twice"],
  );
  t.deepEqual(
    checkAttrs(findOp('reshape')!, []).errors.map((e) => e.message),
    ["reshape: missing required attribute 'newshape' (an int or a list of ints)"],
  );
  t.deepEqual(
    checkAttrs(findOp('nn.relu')!, attrs({ alpha: 1 })).errors.map((e) => e.message),
    ["nn.relu has no attribute 'alpha' (it takes no attributes)"],
  );
  t.deepEqual(
    checkAttrs(findOp('sum')!, attrs({ keepdims: 1 })).errors.map((e) => e.message),
    ['sum: keepdims must be True or False (got 1)'],
  );
  t.deepEqual(
    checkAttrs(findOp('take')!, attrs({ mode: 'bogus' })).errors.map((e) => e.message),
    ['take: mode must be one of "clip", "wrap", "fast" (got "bogus")'],
  );
});

test('typeofOp reports catalogue errors and arity errors', (t) => {
  t.deepEqual(typeofOp('nn.conv3x3', [], []), { error: "unknown operator 'nn.conv3x3'; did you mean 'nn.conv3d'?" });
  t.deepEqual(typeofOp('add', [], [F('3')]), { error: 'add takes 2 arguments (lhs, rhs), got 1' });
  bad(t, 'nn.conv2d', { stride: [2, 2] }, [F('1, 3, 224, 224'), '_'], "has no attribute 'stride'", "did you mean 'strides'?");
  bad(t, 'nn.conv2d', { strides: [-2, 2] }, [F('1, 3, 224, 224'), '_'], 'strides', '>= 1');
});

// ─── Broadcast, comparisons, where, identity, cast ───────────────────────────

test('broadcast: numpy rules aligned at the right', (t) => {
  // (1, 3, 224, 224) with (3, 1, 1): 224|1 → 224, 224|1 → 224, 3|3 → 3, 1 → 1.
  ok(t, 'add', {}, [F('1, 3, 224, 224'), F('3, 1, 1')], { type: F('1, 3, 224, 224') });
  // (4, 1) with (1, 5) → (4, 5).
  for (const op of ['subtract', 'multiply', 'divide', 'power', 'maximum', 'minimum']) ok(t, op, {}, [F('4, 1'), F('1, 5')], { type: F('4, 5') });
  // A scalar broadcasts with anything.
  ok(t, 'multiply', {}, [F('2, 3'), 'float32'], { type: F('2, 3') });
  ok(t, 'add', {}, ['float32', 'float32'], { type: 'float32' });
  // Any: 1|? → ?, ?|3 → 3.
  ok(t, 'add', {}, ['Tensor[(1, ?), float32]', 'Tensor[(?, 3), float32]'], { type: 'Tensor[(?, 3), float32]' });
});

test('comparisons broadcast and return bool', (t) => {
  for (const op of ['equal', 'less', 'greater']) {
    ok(t, op, {}, ['Tensor[(2, 3), int32]', 'Tensor[(3), int32]'], { type: 'Tensor[(2, 3), bool]' });
  }
});

test('broadcast errors: incompatible shapes, different dtypes, non-tensors', (t) => {
  bad(t, 'add', {}, [F('2, 3'), F('4, 3')], 'cannot broadcast', '(2, 3)', '(4, 3)', '2 vs 4');
  bad(t, 'add', {}, [F('3'), 'Tensor[(3), int32]'], 'dtypes', 'float32 vs int32');
  bad(t, 'less', {}, [`(${F('3')},)`, F('3')], 'lhs must be a tensor');
});

test('broadcast infers dtype and dimension holes where the answer is forced', (t) => {
  // rhs dtype: unified with lhs'.
  ok(t, 'add', {}, [F('3'), 'Tensor[(3), _]'], { type: F('3'), args: [F('3'), F('3')] });
  // _ vs 4: the result is 4 whether _ is 1 or 4; _ itself stays unknown.
  ok(t, 'add', {}, ['Tensor[(_, 3), float32]', F('4, 3')], { type: F('4, 3'), args: ['Tensor[(_, 3), float32]', F('4, 3')] });
  // _ vs 1: the result is the hole itself.
  ok(t, 'add', {}, ['Tensor[(_, 3), float32]', F('1, 3')], { type: 'Tensor[(_, 3), float32]' });
  // Unknown argument: nothing is inferred, no error.
  ok(t, 'add', {}, ['_', F('3')], { type: '_', args: ['_', F('3')] });
});

test('broadcast with symbolic sizes: decided, waits, or clashes', (t) => {
  ok(t, 'add', {}, [F('n, 3'), F('1, 3')], { type: F('n, 3') });
  ok(t, 'add', {}, [F('n, 3'), F('n, 1')], { type: F('n, 3') });
  ok(t, 'add', {}, [F('2*n'), F('n + n')], { type: F('2*n') });
  // n vs 5: n might be 1 (result 5) or 5: undecided, so no result, an error.
  bad(t, 'add', {}, [F('n'), F('5')], 'cannot infer the result type', 'n', '5');
  // n + 2 and n + 3 are both >= 2 and never equal.
  bad(t, 'add', {}, [F('n + 2'), F('n + 3')], 'cannot broadcast');
});

test('where broadcasts condition, x and y; the result has x dtype', (t) => {
  // x (1, 4) with y () → (1, 4); condition (3, 1) with (1, 4) → (3, 4).
  ok(t, 'where', {}, ['Tensor[(3, 1), bool]', F('1, 4'), 'float32'], { type: F('3, 4') });
  ok(t, 'where', {}, ['Tensor[(2), int32]', 'Tensor[(2), int64]', 'Tensor[(2), int64]'], { type: 'Tensor[(2), int64]' });
  bad(t, 'where', {}, ['Tensor[(2), bool]', F('2'), 'Tensor[(2), int32]'], 'dtypes of x and y');
});

test('nn.relu is the identity; cast changes the dtype', (t) => {
  ok(t, 'nn.relu', {}, [F('1, 64, 56, 56')], { type: F('1, 64, 56, 56') });
  ok(t, 'nn.relu', {}, [F('n, ?')], { type: F('n, ?') });
  bad(t, 'nn.relu', {}, [`(${F('3')}, ${F('3')})`], 'data must be a tensor');
  ok(t, 'cast', { dtype: 'int8' }, [F('2, 3')], { type: 'Tensor[(2, 3), int8]' });
  bad(t, 'cast', { dtype: 'float33' }, [F('2, 3')], 'dtype', 'float32');
  bad(t, 'cast', {}, [F('2, 3')], "missing required attribute 'dtype'");
});

// ─── nn.conv2d ───────────────────────────────────────────────────────────────

test('conv2d: ResNet stem infers the weight from channels and kernel_size', (t) => {
  // out = floor((224 + 3 + 3 - 7) / 2) + 1 = floor(223 / 2) + 1 = 112; weight (channels, C / groups, kh, kw) = (64, 3, 7, 7).
  ok(t, 'nn.conv2d', { channels: 64, kernel_size: [7, 7], strides: [2, 2], padding: [3, 3] }, [F('1, 3, 224, 224'), '_'], {
    type: F('1, 64, 112, 112'),
    args: [F('1, 3, 224, 224'), F('64, 3, 7, 7')],
  });
  // Same with ints for strides/kernel_size (the Python API expands them) and a 1-value padding.
  ok(t, 'nn.conv2d', { channels: 64, kernel_size: 7, strides: 2, padding: 3 }, [F('1, 3, 224, 224'), '_'], {
    type: F('1, 64, 112, 112'),
    args: [F('1, 3, 224, 224'), F('64, 3, 7, 7')],
  });
});

test('conv2d: from a given weight, with strides, 4-value padding and dilation', (t) => {
  // (56 + 1 + 1 - 3) / 2 + 1 = 27 + 1 = 28; channels from the weight's O = 128.
  ok(t, 'nn.conv2d', { strides: [2, 2], padding: [1, 1] }, [F('1, 64, 56, 56'), F('128, 64, 3, 3')], { type: F('1, 128, 28, 28') });
  // padding (top, left, bottom, right) = (1, 2, 3, 4): H = 10 + 1 + 3 - 3 + 1 = 12, W = 10 + 2 + 4 - 3 + 1 = 14.
  ok(t, 'nn.conv2d', { padding: [1, 2, 3, 4] }, [F('1, 3, 10, 10'), F('8, 3, 3, 3')], { type: F('1, 8, 12, 14') });
  // padding [2] on all sides with a 5x5 kernel keeps 32: 32 + 4 - 5 + 1 = 32.
  ok(t, 'nn.conv2d', { padding: [2], channels: 16, kernel_size: [5, 5] }, [F('1, 3, 32, 32'), '_'], {
    type: F('1, 16, 32, 32'),
    args: [F('1, 3, 32, 32'), F('16, 3, 5, 5')],
  });
  // dilation 2 on a 3x3 kernel: dk = (3 - 1) * 2 + 1 = 5; 32 - 5 + 1 = 28.
  ok(t, 'nn.conv2d', { dilation: [2, 2] }, [F('1, 3, 32, 32'), F('8, 3, 3, 3')], { type: F('1, 8, 28, 28') });
  // out_dtype for mixed precision: int8 in, int32 out; (8 - 3) + 1 = 6.
  ok(t, 'nn.conv2d', { out_dtype: 'int32' }, ['Tensor[(1, 3, 8, 8), int8]', 'Tensor[(4, 3, 3, 3), int8]'], { type: 'Tensor[(1, 4, 6, 6), int32]' });
});

test('conv2d: depthwise and grouped convolutions', (t) => {
  // MobileNet depthwise: groups = C = channels = 32: weight (32, 32 / 32, 3, 3) = (32, 1, 3, 3); (112 + 2 - 3) + 1 = 112.
  ok(t, 'nn.conv2d', { channels: 32, kernel_size: [3, 3], padding: [1, 1], groups: 32 }, [F('1, 32, 112, 112'), '_'], {
    type: F('1, 32, 112, 112'),
    args: [F('1, 32, 112, 112'), F('32, 1, 3, 3')],
  });
  // Strided depthwise from a given weight: (112 + 2 - 3) / 2 + 1 = 55 + 1 = 56.
  ok(t, 'nn.conv2d', { strides: [2, 2], padding: [1, 1], groups: 32 }, [F('1, 32, 112, 112'), F('32, 1, 3, 3')], { type: F('1, 32, 56, 56') });
  // TVM's depthwise convention with a channel multiplier: weight (C, channels / C, kh, kw) = (8, 2, 3, 3); 10 - 3 + 1 = 8.
  ok(t, 'nn.conv2d', { channels: 16, kernel_size: [3, 3], groups: 8 }, [F('1, 8, 10, 10'), F('8, 2, 3, 3')], { type: F('1, 16, 8, 8') });
  // ... but without the weight, (8, 2, 3, 3) and (16, 1, 3, 3) are both possible: nothing is inferred.
  ok(t, 'nn.conv2d', { channels: 16, kernel_size: [3, 3], groups: 8 }, [F('1, 8, 10, 10'), '_'], { type: '_', args: [F('1, 8, 10, 10'), '_'] });
  // Grouped: weight (128, 64 / 4, 3, 3) = (128, 16, 3, 3); 56 + 2 - 3 + 1 = 56.
  ok(t, 'nn.conv2d', { channels: 128, kernel_size: [3, 3], padding: [1, 1], groups: 4 }, [F('1, 64, 56, 56'), '_'], {
    type: F('1, 128, 56, 56'),
    args: [F('1, 64, 56, 56'), F('128, 16, 3, 3')],
  });
  bad(t, 'nn.conv2d', { channels: 8, kernel_size: [1, 1], groups: 4 }, [F('1, 6, 8, 8'), '_'], 'input channels 6', 'groups = 4');
  bad(t, 'nn.conv2d', { channels: 6, kernel_size: [1, 1], groups: 4 }, [F('1, 8, 8, 8'), '_'], 'channels = 6', 'groups = 4');
});

test('conv2d: NHWC data with HWIO weights, and out_layout', (t) => {
  // weight HWIO = (kh, kw, C, channels) = (3, 3, 32, 64); 56 + 2 - 3 + 1 = 56.
  ok(t, 'nn.conv2d', { channels: 64, kernel_size: [3, 3], padding: [1, 1], data_layout: 'NHWC', kernel_layout: 'HWIO' }, [F('1, 56, 56, 32'), '_'], {
    type: F('1, 56, 56, 64'),
    args: [F('1, 56, 56, 32'), F('3, 3, 32, 64')],
  });
  // From a given HWIO weight: (224 + 6 - 7) / 2 + 1 = 112.
  ok(t, 'nn.conv2d', { strides: [2, 2], padding: [3, 3], data_layout: 'NHWC', kernel_layout: 'HWIO' }, [F('1, 224, 224, 3'), F('7, 7, 3, 64')], {
    type: F('1, 112, 112, 64'),
  });
  // NCHW in, NHWC out.
  ok(t, 'nn.conv2d', { strides: [2, 2], padding: [3, 3], out_layout: 'NHWC' }, [F('1, 3, 224, 224'), F('64, 3, 7, 7')], { type: F('1, 112, 112, 64') });
  // packed layouts (TVM's BijectiveLayout): C = 1 * 16 reads the OIHW weight's I = 16; the
  // 4 output channels do not split by 16 (TVM floors 4 / 16 = 0 silently)
  bad(t, 'nn.conv2d', { data_layout: 'NCHW16c' }, [F('1, 1, 8, 8, 16'), F('4, 16, 3, 3')], 'out_layout "NCHW16c"', 'not divisible by the factor 16');
  ok(t, 'nn.conv2d', { data_layout: 'NCHW16c' }, [F('1, 1, 8, 8, 16'), F('32, 16, 3, 3')], { type: F('1, 2, 6, 6, 16') });
});

test('conv2d errors name the constraint', (t) => {
  bad(t, 'nn.conv2d', {}, [F('1, 3, 224, 224'), F('64, 4, 7, 7')], "weight's input channels", '4 vs 3');
  bad(t, 'nn.conv2d', { channels: 32 }, [F('1, 3, 224, 224'), F('64, 3, 3, 3')], 'channels', '64 vs 32');
  bad(t, 'nn.conv2d', { kernel_size: [5, 5] }, [F('1, 3, 224, 224'), F('64, 3, 3, 3')], 'kernel_size', '3 vs 5');
  bad(t, 'nn.conv2d', {}, [F('1, 3, 2, 2'), F('8, 3, 3, 3')], 'padded input height 2', 'kernel height 3');
  bad(t, 'nn.conv2d', {}, [F('1, 3, 224'), F('8, 3, 3, 3')], 'data must have rank 4');
  bad(t, 'nn.conv2d', { channels: 64, kernel_size: [7, 7] }, [F('1, 3, 224, 224'), F('64, 3, 5, 5')], 'weight', 'dimension 2: 5 vs 7');
});

test('conv2d with symbolic sizes', (t) => {
  // The batch flows through.
  ok(t, 'nn.conv2d', { channels: 64, kernel_size: [7, 7], strides: [2, 2], padding: [3, 3] }, [F('n, 3, 224, 224'), '_'], { type: F('n, 64, 112, 112') });
  // H = floor((h + 6 - 7) / 2) + 1, assuming h + 6 >= 7.
  ok(t, 'nn.conv2d', { channels: 64, kernel_size: [7, 7], strides: [2, 2], padding: [3, 3] }, [F('1, 3, h, h'), '_'], {
    type: F('1, 64, (h - 1) / 2 + 1, (h - 1) / 2 + 1'),
    residuals: ['h >= 1'],
  });
  // The weight's I = 3 against the data's c: a residual, not a silent pass.
  ok(t, 'nn.conv2d', {}, [F('1, c, 8, 8'), F('4, 3, 3, 3')], { type: F('1, 4, 6, 6'), residuals: ['c = 3'] });
  // Backwards: the data's unknown channels are the weight's I (groups = 1).
  ok(t, 'nn.conv2d', {}, ['Tensor[(1, _, 8, 8), float32]', F('4, 3, 3, 3')], { type: F('1, 4, 6, 6'), args: [F('1, 3, 8, 8'), F('4, 3, 3, 3')] });
});

// ─── Pooling ─────────────────────────────────────────────────────────────────

test('max_pool2d and avg_pool2d, with and without ceil_mode', (t) => {
  // ResNet: floor((112 + 2 - 3) / 2) + 1 = 55 + 1 = 56; ceil: floor((111 + 1) / 2) + 1 = 57.
  ok(t, 'nn.max_pool2d', { pool_size: [3, 3], strides: [2, 2], padding: [1, 1] }, [F('1, 64, 112, 112')], { type: F('1, 64, 56, 56') });
  ok(t, 'nn.max_pool2d', { pool_size: [3, 3], strides: [2, 2], padding: [1, 1], ceil_mode: true }, [F('1, 64, 112, 112')], { type: F('1, 64, 57, 57') });
  // floor((7 - 2) / 2) + 1 = 3; ceil: floor((5 + 1) / 2) + 1 = 4.
  ok(t, 'nn.avg_pool2d', { pool_size: [2, 2], strides: [2, 2] }, [F('1, 3, 7, 7')], { type: F('1, 3, 3, 3') });
  ok(t, 'nn.avg_pool2d', { pool_size: [2, 2], strides: [2, 2], ceil_mode: true }, [F('1, 3, 7, 7')], { type: F('1, 3, 4, 4') });
  // 4-value padding (0, 0, 1, 1): (7 + 0 + 1 - 2) / 2 + 1 = 4.
  ok(t, 'nn.avg_pool2d', { pool_size: [2, 2], strides: [2, 2], padding: [0, 0, 1, 1] }, [F('1, 3, 7, 7')], { type: F('1, 3, 4, 4') });
  // Defaults: pool 1, stride 1: the identity on shapes.
  ok(t, 'nn.max_pool2d', {}, [F('2, 3, 5, 7')], { type: F('2, 3, 5, 7') });
  // NHWC: H and W are axes 1 and 2.
  ok(t, 'nn.max_pool2d', { pool_size: [3, 3], strides: [2, 2], padding: [1, 1], layout: 'NHWC' }, [F('1, 112, 112, 64')], { type: F('1, 56, 56, 64') });
  // dilation 2 on a 3-window: dk = 5; 10 - 5 + 1 = 6.
  ok(t, 'nn.max_pool2d', { pool_size: [3, 3], dilation: [2, 2] }, [F('1, 1, 10, 10')], { type: F('1, 1, 6, 6') });
  // Symbolic: floor((h - 2) / 2) + 1.
  ok(t, 'nn.avg_pool2d', { pool_size: [2, 2], strides: [2, 2] }, [F('1, 64, h, 8')], { type: F('1, 64, (h - 2) / 2 + 1, 4'), residuals: ['h >= 2'] });
  bad(t, 'nn.max_pool2d', { pool_size: [3, 3] }, [F('1, 1, 2, 2')], 'pool window');
  bad(t, 'nn.max_pool2d', { pool_size: [0, 3] }, [F('1, 1, 2, 2')], 'pool_size', '>= 1');
  bad(t, 'nn.max_pool2d', { layout: 'NCHW' }, [F('1, 2, 2')], 'layout "NCHW" has 4 axes', 'rank 3');
});

test('global_avg_pool2d sets H and W to 1', (t) => {
  ok(t, 'nn.global_avg_pool2d', {}, [F('1, 2048, 7, 7')], { type: F('1, 2048, 1, 1') });
  ok(t, 'nn.global_avg_pool2d', { layout: 'NHWC' }, [F('n, 7, 7, 2048')], { type: F('n, 1, 1, 2048') });
});

// ─── Normalisation, bias, dense, matmul, flatten, softmax ────────────────────

test('batch_norm returns a 3-tuple and assigns gamma, beta, mean, var', (t) => {
  const vec = F('64');
  ok(t, 'nn.batch_norm', {}, [F('1, 64, 56, 56'), '_', '_', '_', '_'], {
    type: `(${F('1, 64, 56, 56')}, ${vec}, ${vec})`,
    args: [F('1, 64, 56, 56'), vec, vec, vec, vec],
  });
  ok(t, 'nn.batch_norm', { axis: 3 }, [F('1, 56, 56, 64'), '_', '_', '_', '_'], { type: `(${F('1, 56, 56, 64')}, ${vec}, ${vec})` });
  ok(t, 'nn.batch_norm', { axis: -1 }, [F('1, 56, 56, 64'), '_', '_', '_', '_'], { type: `(${F('1, 56, 56, 64')}, ${vec}, ${vec})` });
  bad(t, 'nn.batch_norm', { axis: -2 }, [F('1, 56, 56, 64'), '_', '_', '_', '_'], 'axis = -2', 'out of range');
  bad(t, 'nn.batch_norm', {}, [F('1, 64, 56, 56'), F('32'), '_', '_', '_'], 'gamma', '32 vs 64');
});

test('bias_add assigns the bias; layer_norm assigns gamma and beta', (t) => {
  ok(t, 'nn.bias_add', {}, [F('1, 64, 56, 56'), '_'], { type: F('1, 64, 56, 56'), args: [F('1, 64, 56, 56'), F('64')] });
  ok(t, 'nn.bias_add', { axis: -1 }, [F('2, 10'), '_'], { type: F('2, 10'), args: [F('2, 10'), F('10')] });
  bad(t, 'nn.bias_add', { axis: 4 }, [F('1, 64, 56, 56'), '_'], 'axis = 4', 'out of range');
  bad(t, 'nn.bias_add', {}, [F('1, 64, 56, 56'), F('32')], 'bias', '32 vs 64');
  ok(t, 'nn.layer_norm', {}, [F('2, 5, 16'), '_', '_'], { type: F('2, 5, 16'), args: [F('2, 5, 16'), F('16'), F('16')] });
  ok(t, 'nn.layer_norm', { axis: 1 }, [F('2, 5, 16'), '_', '_'], { type: F('2, 5, 16'), args: [F('2, 5, 16'), F('5'), F('5')] });
});

test('dense: units assigns the weight; the reduction dims must agree', (t) => {
  // weight (units, K) = (1000, 2048); result (1, 1000).
  ok(t, 'nn.dense', { units: 1000 }, [F('1, 2048'), '_'], { type: F('1, 1000'), args: [F('1, 2048'), F('1000, 2048')] });
  ok(t, 'nn.dense', {}, [F('4, 128'), F('10, 128')], { type: F('4, 10') });
  ok(t, 'nn.dense', {}, [F('2, 5, 16'), F('8, 16')], { type: F('2, 5, 8') });
  ok(t, 'nn.dense', {}, [F('n, 128'), F('10, 128')], { type: F('n, 10') });
  bad(t, 'nn.dense', {}, [F('4, 128'), F('10, 64')], 'reduction dimensions differ', '64 vs 128');
  bad(t, 'nn.dense', { units: 10 }, [F('4, 128'), F('10, 64')], 'weight', '64 vs 128');
  bad(t, 'nn.dense', {}, [F('4, 128'), F('10, 2, 64')], 'weight must have rank 2');
  // Without units or weight: nothing yet.
  ok(t, 'nn.dense', {}, [F('4, 128'), '_'], { type: '_', args: [F('4, 128'), '_'] });
});

test('batch_matmul: NT by default, transposes, batch broadcasting', (t) => {
  // a (B, M, K) = (2, 3, 4); b (B, N, K) = (2, 5, 4) → (2, 3, 5).
  ok(t, 'nn.batch_matmul', {}, [F('2, 3, 4'), F('2, 5, 4')], { type: F('2, 3, 5') });
  ok(t, 'nn.batch_matmul', { transpose_b: false }, [F('2, 3, 4'), F('2, 4, 5')], { type: F('2, 3, 5') });
  ok(t, 'nn.batch_matmul', { transpose_a: true, transpose_b: false }, [F('2, 4, 3'), F('2, 4, 5')], { type: F('2, 3, 5') });
  ok(t, 'nn.batch_matmul', {}, [F('1, 3, 4'), F('7, 5, 4')], { type: F('7, 3, 5') });
  ok(t, 'nn.batch_matmul', {}, [F('b, m, 64'), F('b, n, 64')], { type: F('b, m, n') });
  bad(t, 'nn.batch_matmul', {}, [F('2, 3, 4'), F('2, 5, 6')], 'reduction dimensions differ');
  bad(t, 'nn.batch_matmul', {}, [F('2, 3, 4'), F('3, 5, 4')], 'batch dimensions');
  bad(t, 'nn.batch_matmul', {}, [F('3, 4'), F('3, 5, 4')], 'tensor_a must have rank 3');
});

test('batch_flatten and softmax', (t) => {
  // 512 * 7 * 7 = 25088.
  ok(t, 'nn.batch_flatten', {}, [F('1, 512, 7, 7')], { type: F('1, 25088') });
  ok(t, 'nn.batch_flatten', {}, [F('n, c, 7, 7')], { type: F('n, 49*c') });
  ok(t, 'nn.batch_flatten', {}, [F('1, ?, 7')], { type: F('1, ?') });
  ok(t, 'nn.batch_flatten', {}, [F('5')], { type: F('5, 1') });
  ok(t, 'nn.softmax', {}, [F('2, 10')], { type: F('2, 10') });
  ok(t, 'nn.softmax', { axis: 0 }, [F('2, 10')], { type: F('2, 10') });
  bad(t, 'nn.softmax', { axis: 2 }, [F('2, 10')], 'axis = 2', 'out of range');
});

// ─── reshape ─────────────────────────────────────────────────────────────────

test('reshape: every special value, per the examples of TVM', (t) => {
  const x = F('2, 3, 4');
  const cases: [number[], string][] = [
    [[4, 0, 2], '4, 3, 2'], // 0 copies dim 1
    [[2, 0, 0], '2, 3, 4'],
    [[6, 1, -1], '6, 1, 4'], // 24 / 6 / 1
    [[3, -1, 8], '3, 1, 8'],
    [[-1], '24'],
    [[-2], '2, 3, 4'],
    [[2, -2], '2, 3, 4'],
    [[-2, 1, 1], '2, 3, 4, 1, 1'],
    [[-3, 4], '6, 4'],
    [[0, -3], '2, 12'],
    [[-3, -2], '6, 4'],
    [[-4, 1, 2, -2], '1, 2, 3, 4'],
    [[2, -4, -1, 3, -2], '2, 1, 3, 4'],
    // Deviation from TVM: -1 after -2 is inferred at its output position.
    [[-2, -1], '2, 3, 4, 1'],
  ];
  for (const [newshape, want] of cases) ok(t, 'reshape', { newshape }, [x], { type: F(want) });
  ok(t, 'reshape', { newshape: [-3, -3] }, [F('2, 3, 4, 5')], { type: F('6, 20') });
  ok(t, 'reshape', { newshape: 24 }, [x], { type: F('24') });
});

test('reshape with symbolic and dynamic sizes', (t) => {
  ok(t, 'reshape', { newshape: [0, -1] }, [F('n, 3, 4')], { type: F('n, 12') });
  ok(t, 'reshape', { newshape: [-1] }, [F('n, 4')], { type: F('4*n') });
  ok(t, 'reshape', { newshape: [-1, 4] }, [F('n, 2, 2')], { type: F('n, 4') });
  ok(t, 'reshape', { newshape: [-1, 12] }, [F('?, 3, 4')], { type: F('?, 12') });
  // -1 = floor(4n / 8) = n / 2, assuming 8 divides 4n: (4n) % 8 = 4*(n % 2) = 0.
  ok(t, 'reshape', { newshape: [8, -1] }, [F('n, 4')], { type: F('8, n / 2'), residuals: ['4*(n % 2) = 0'] });
});

test('reshape errors: sizes, -1, -4, malformed newshape', (t) => {
  bad(t, 'reshape', { newshape: [5, 5] }, [F('2, 3, 4')], 'newshape [5, 5]', '25 elements', '24');
  bad(t, 'reshape', { newshape: [-1, -1] }, [F('2, 3, 4')], 'at most one -1');
  bad(t, 'reshape', { newshape: [5, -1] }, [F('2, 3, 4')], 'cannot infer -1', 'not divisible by 5');
  bad(t, 'reshape', { newshape: [-4, -1, -1] }, [F('2, 3, 4')], 'cannot both be -1');
  bad(t, 'reshape', { newshape: [-4, 5, -1, -2] }, [F('2, 3, 4')], 'cannot be split by 5');
  bad(t, 'reshape', { newshape: [-4, 2] }, [F('2, 3, 4')], 'followed by two sizes');
  bad(t, 'reshape', { newshape: [0, 0, 0, 0] }, [F('2, 3, 4')], 'rank 3');
  bad(t, 'reshape', { newshape: [-5] }, [F('2, 3, 4')], 'newshape', '>= -4');
});

// ─── transpose, concatenate, split, expand_dims, squeeze ─────────────────────

test('transpose', (t) => {
  ok(t, 'transpose', {}, [F('1, 2, 3')], { type: F('3, 2, 1') });
  ok(t, 'transpose', { axes: [0, 2, 1] }, [F('1, 2, 3')], { type: F('1, 3, 2') });
  ok(t, 'transpose', { axes: [-1, 0, 1] }, [F('n, 2, 3')], { type: F('3, n, 2') });
  bad(t, 'transpose', { axes: [0, 0, 1] }, [F('1, 2, 3')], 'axes', 'twice');
  bad(t, 'transpose', { axes: [1, 0] }, [F('1, 2, 3')], 'axes [1, 0]', 'rank 3');
  bad(t, 'transpose', { axes: [0, 1, 3] }, [F('1, 2, 3')], 'axes = 3', 'out of range');
});

test('concatenate', (t) => {
  ok(t, 'concatenate', { axis: 1 }, [`(${F('1, 2, 3')}, ${F('1, 4, 3')})`], { type: F('1, 6, 3') });
  ok(t, 'concatenate', { axis: -2 }, [`(${F('1, 2, 3')}, ${F('1, 4, 3')}, ${F('1, 1, 3')})`], { type: F('1, 7, 3') });
  ok(t, 'concatenate', { axis: 0 }, [`(${F('?, 3')}, ${F('2, 3')})`], { type: F('?, 3') });
  ok(t, 'concatenate', { axis: 0 }, [`(${F('n, 3')}, ${F('m, 3')})`], { type: F('n + m, 3') });
  // Non-axis dims are unified: the hole in the second tensor becomes 1.
  ok(t, 'concatenate', { axis: 1 }, [`(${F('1, 2')}, Tensor[(_, 3), float32])`], { type: F('1, 5'), args: [`(${F('1, 2')}, ${F('1, 3')})`] });
  bad(t, 'concatenate', { axis: 1 }, [`(${F('1, 2, 3')}, ${F('1, 4, 5')})`], 'dimension 2', '5 vs 3');
  bad(t, 'concatenate', { axis: 0 }, [`(${F('1, 2')}, Tensor[(1, 2), int32])`], 'same dtype');
  bad(t, 'concatenate', { axis: 0 }, [`(${F('1, 2')}, ${F('2')})`], 'same rank');
  bad(t, 'concatenate', { axis: 2 }, [`(${F('1, 2')}, ${F('1, 2')})`], 'axis = 2', 'out of range');
  bad(t, 'concatenate', { axis: 0 }, [F('1, 2')], 'tuple of tensors');
  bad(t, 'concatenate', {}, [`(${F('1, 2')},)`], "missing required attribute 'axis'");
});

test('split by sections and by indices', (t) => {
  ok(t, 'split', { indices_or_sections: 3, axis: 1 }, [F('2, 9')], { type: `(${F('2, 3')}, ${F('2, 3')}, ${F('2, 3')})` });
  // indices [2, 5] on 9: sizes 2, 3, 9 - 5 = 4.
  ok(t, 'split', { indices_or_sections: [2, 5], axis: 1 }, [F('2, 9')], { type: `(${F('2, 2')}, ${F('2, 3')}, ${F('2, 4')})` });
  ok(t, 'split', { indices_or_sections: [1], axis: -1 }, [F('3, 4')], { type: `(${F('3, 1')}, ${F('3, 3')})` });
  ok(t, 'split', { indices_or_sections: 2 }, [F('?, 4')], { type: `(${F('?, 4')}, ${F('?, 4')})` });
  // Symbolic: n / 2 each, assuming n % 2 = 0.
  ok(t, 'split', { indices_or_sections: 2 }, [F('n, 4')], { type: `(${F('n / 2, 4')}, ${F('n / 2, 4')})`, residuals: ['n % 2 = 0'] });
  bad(t, 'split', { indices_or_sections: 2, axis: 1 }, [F('2, 9')], 'cannot be split into 2 equal sections');
  bad(t, 'split', { indices_or_sections: [5, 2], axis: 1 }, [F('2, 9')], 'strictly increasing');
  bad(t, 'split', { indices_or_sections: [2, 9], axis: 1 }, [F('2, 9')], 'last index 9', 'less than dimension 9');
  bad(t, 'split', { indices_or_sections: 0 }, [F('2, 9')], 'indices_or_sections', '>= 1');
  bad(t, 'split', { indices_or_sections: 3, axis: 2 }, [F('2, 9')], 'axis = 2');
});

test('expand_dims', (t) => {
  ok(t, 'expand_dims', { axis: 0 }, [F('2, 3')], { type: F('1, 2, 3') });
  ok(t, 'expand_dims', { axis: -1 }, [F('2, 3')], { type: F('2, 3, 1') });
  ok(t, 'expand_dims', { axis: -3 }, [F('2, 3')], { type: F('1, 2, 3') });
  ok(t, 'expand_dims', { axis: 1, num_newaxis: 2 }, [F('2, 3')], { type: F('2, 1, 1, 3') });
  ok(t, 'expand_dims', { axis: 2 }, [F('2, 3')], { type: F('2, 3, 1') });
  bad(t, 'expand_dims', { axis: 3 }, [F('2, 3')], 'axis = 3', 'out of range');
  bad(t, 'expand_dims', { axis: 0, num_newaxis: -1 }, [F('2, 3')], 'num_newaxis', '>= 0');
});

test('squeeze', (t) => {
  ok(t, 'squeeze', {}, [F('1, 3, 1, 4')], { type: F('3, 4') });
  ok(t, 'squeeze', { axis: [0] }, [F('1, 3, 1, 4')], { type: F('3, 1, 4') });
  ok(t, 'squeeze', { axis: [-2] }, [F('1, 3, 1, 4')], { type: F('1, 3, 4') });
  ok(t, 'squeeze', { axis: [0, 2] }, [F('1, 3, 1, 4')], { type: F('3, 4') });
  // A squeezed hole must be 1; a squeezed symbolic size gives a residual.
  ok(t, 'squeeze', { axis: [0] }, ['Tensor[(_, 3), float32]'], { type: F('3'), args: [F('1, 3')] });
  ok(t, 'squeeze', { axis: [0] }, [F('n, 3')], { type: F('3'), residuals: ['n = 1'] });
  // axis None: n + 1 >= 1 ... is it 1? undecided: no result.
  bad(t, 'squeeze', {}, [F('1, n, 3')], 'axis = None cannot squeeze', 'whether n is 1 cannot be decided');
  ok(t, 'squeeze', {}, [F('1, n + 2, 3')], { type: F('n + 2, 3') });
  bad(t, 'squeeze', { axis: [1] }, [F('1, 3, 1, 4')], 'cannot squeeze axis 1', '3 vs 1');
  bad(t, 'squeeze', { axis: [0, 0] }, [F('1, 3')], 'twice');
  bad(t, 'squeeze', {}, [F('1, ?')], 'dynamic dimension');
});

// ─── reductions, take ────────────────────────────────────────────────────────

test('sum and mean: axis, keepdims, exclude', (t) => {
  const x = F('2, 3, 4');
  for (const op of ['sum', 'mean']) {
    ok(t, op, {}, [x], { type: 'float32' });
    ok(t, op, { axis: 1 }, [x], { type: F('2, 4') });
    ok(t, op, { axis: [0, 2], keepdims: true }, [x], { type: F('1, 3, 1') });
    ok(t, op, { axis: [-1] }, [x], { type: F('2, 3') });
    // exclude: reduce every axis but 1.
    ok(t, op, { axis: [1], exclude: true }, [x], { type: F('3') });
    ok(t, op, { axis: [1], exclude: true, keepdims: true }, [x], { type: F('1, 3, 1') });
    // TVM: an empty axis list reduces every axis.
    ok(t, op, { axis: [] }, [x], { type: 'float32' });
    ok(t, op, { axis: [0] }, [F('n, m')], { type: F('m') });
    bad(t, op, { axis: [0, 0] }, [x], 'twice');
    bad(t, op, { axis: 3 }, [x], 'axis = 3', 'out of range');
    bad(t, op, { exclude: true }, [x], 'exclude', 'explicit axis');
  }
});

test('take: flattened, along an axis, with batch_dims', (t) => {
  ok(t, 'take', {}, [F('5, 4'), 'Tensor[(3), int32]'], { type: F('3') });
  ok(t, 'take', { axis: 0 }, [F('5, 4'), 'Tensor[(3), int32]'], { type: F('3, 4') });
  ok(t, 'take', { axis: 1 }, [F('5, 4'), 'Tensor[(2, 2), int64]'], { type: F('5, 2, 2') });
  ok(t, 'take', { axis: -1, mode: 'wrap' }, [F('5, 4'), 'int32'], { type: F('5') });
  // data[:1] + indices[1:] + data[2:] = (2) + (3) + (4).
  ok(t, 'take', { axis: 1, batch_dims: 1 }, [F('2, 5, 4'), 'Tensor[(2, 3), int64]'], { type: F('2, 3, 4') });
  bad(t, 'take', { axis: 1, batch_dims: 1 }, [F('2, 5, 4'), 'Tensor[(7, 3), int64]'], 'batch dimension 0', '7 vs 2');
  bad(t, 'take', { axis: 0 }, [F('5, 4'), F('3')], 'integer dtype');
  bad(t, 'take', { axis: 2 }, [F('5, 4'), 'Tensor[(3), int32]'], 'axis = 2', 'out of range');
  bad(t, 'take', { mode: 'bogus' }, [F('5, 4'), 'Tensor[(3), int32]'], 'mode');
});

// ─── The relation interface (for a queue solver) ─────────────────────────────

test('instances: dependencies, wait, partial results, done', (t) => {
  const s = new TypeSolverState();
  const data = s.freshType();
  const out = s.freshType();
  const made = makeInstance('nn.conv2d', attrs({ channels: 64, kernel_size: [7, 7], strides: [2, 2], padding: [3, 3] }), [data, s.freshType()], out);
  t.true(made.ok);
  if (!made.ok) return;
  const inst = made.instance;
  t.is(dependencies(s, inst).length, 3);
  const first = runInstance(s, inst);
  t.is(first.result, 'wait');
  t.false(first.progressed);
  t.is(first.waitReason, 'the type of data is not known yet');

  // The data arrives with an unknown height: everything else is inferred.
  const h = s.freshDim();
  t.true(s.unify(data, tensorType([1, 3, h, 224], 'float32')).ok);
  const second = runInstance(s, inst);
  t.is(second.result, 'wait');
  t.true(second.progressed);
  t.is(printType(s.resolve(out)), 'Tensor[(1, 64, _, 112), float32]');
  t.is(printType(s.resolve(inst.args[1]!)), F('64, 3, 7, 7'));
  t.true(dependencies(s, inst).includes(h.id));
  // Re-running without news binds nothing.
  t.false(runInstance(s, inst).progressed);

  // The height arrives: (224 + 6 - 7) / 2 + 1 = 112.
  t.true(s.unifyDim(h, intDim(224)).ok);
  const third = runInstance(s, inst);
  t.is(third.result, 'done');
  t.is(printType(s.resolve(out)), F('1, 64, 112, 112'));
  t.deepEqual(dependencies(s, inst), []);
});

test('instances report attribute and arity errors with spans', (t) => {
  const s = new TypeSolverState();
  const made = makeInstance('nn.dense', attrs({ unit: 3 }), [s.freshType()], s.freshType());
  t.false(made.ok);
  if (made.ok) return;
  t.deepEqual(
    made.errors.map((e) => e.message),
    ["nn.dense has no attribute 'unit'; did you mean 'units'?", 'nn.dense takes 2 arguments (data, weight), got 1'],
  );
});

test('a given result type is checked, and can inform the arguments', (t) => {
  const r = typeofOp('nn.relu', [], ['_'], { out: F('3, 3') });
  t.deepEqual(r, { type: F('3, 3'), args: [F('3, 3')], residuals: [] });
  const bad2 = typeofOp('add', [], [F('3'), F('3')], { out: F('4') });
  t.true('error' in bad2 && bad2.error.includes('the result has type Tensor[(4), float32], expected Tensor[(3), float32]'));
});
