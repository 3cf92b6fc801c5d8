// The machinery of `shapelog check`: random case edits, shrinking, the harness
// finding and shrinking a planted disagreement, the reference check's verdicts,
// and the command's output and exit codes.
import { spawnSync } from 'node:child_process';
import test from 'ava';
import { parseArg, printArg } from '../proofs/cross-check/arg-model.js';
import { answers, classify, crashAnswer, disagreementKind, isCrash } from '../proofs/cross-check/compare.js';
import { applyEdit } from '../proofs/cross-check/edits.js';
import { casesToCheck, checkOp } from '../proofs/cross-check/harness.js';
import { caseSize, shrinkCase } from '../proofs/cross-check/shrink.js';
import { referenceCheck } from '../proofs/reference/check.js';
import { allOps } from '../relations/catalogue.js';
import type { TypeofRequest } from '../typing/typeof.js';

test('argument types round-trip through the edit model', (t) => {
  for (const text of ['_', 'Tensor[(1, n, 3), float32]', 'Tensor[(_, ?), int32]', '(Tensor[(2), float32], _)', 'Tensor[(), bool]']) {
    t.is(printArg(parseArg(printArg(parseArg(text)))), printArg(parseArg(text)));
  }
  t.deepEqual(parseArg('Tensor[(2, n, _), float16]'), { kind: 'tensor', dims: [2, 'n', '_'], dtype: 'float16' });
});

test('the primes edit gives each distinct dim >= 2 its own prime, consistently, and can carry attributes along', (t) => {
  const c: TypeofRequest = { op: 'nn.dense', attrs: { units: 4 }, args: ['Tensor[(2, 3), float32]', 'Tensor[(4, 3), float32]'] };
  const e = applyEdit(c, { kind: 'primes', attrs: true, offset: 0 });
  const [a, b] = e.args.map(parseArg) as unknown as [{ dims: number[] }, { dims: number[] }];
  t.is(a.dims[1], b.dims[1]); // both 3s became the same prime
  const primes = new Set([a.dims[0], a.dims[1], b.dims[0]]);
  t.is(primes.size, 3);
  for (const p of primes) t.true([7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47].includes(p!));
  t.is(e.attrs!['units'], b.dims[0]); // units follows the weight's 4
  const one = applyEdit({ op: 'add', args: ['Tensor[(1, 3), float32]', '_'] }, { kind: 'primes', attrs: false, offset: 0 });
  t.is((parseArg(one.args[0]!) as unknown as { dims: number[] }).dims[0], 1); // 1 stays 1
});

test('the symbol, unknown and dtype edits', (t) => {
  const c: TypeofRequest = { op: 'add', args: ['Tensor[(2, 3), float32]', 'Tensor[(3), float32]'] };
  t.deepEqual(applyEdit(c, { kind: 'symbol', pick: 1, name: 'n' }).args, ['Tensor[(2, n), float32]', 'Tensor[(n), float32]']);
  t.deepEqual(applyEdit(c, { kind: 'unknown-arg', pick: 1 }).args, ['Tensor[(2, 3), float32]', '_']);
  t.deepEqual(applyEdit(c, { kind: 'unknown-dim', pick: 0, dim: 1, any: true }).args, ['Tensor[(2, ?), float32]', 'Tensor[(3), float32]']);
  t.deepEqual(applyEdit(c, { kind: 'dtype', pick: 1, dtype: 'int32' }).args, ['Tensor[(2, 3), float32]', 'Tensor[(3), int32]']);
  t.deepEqual(applyEdit(c, { kind: 'rank', pick: 0, dim: 0, drop: true }).args, ['Tensor[(3), float32]', 'Tensor[(3), float32]']);
});

test('shrinking finds the smallest case that still fails', (t) => {
  // fails when some tensor has a dim >= 5 and the call has axis = 1
  const fails = (c: TypeofRequest): boolean =>
    c.attrs?.['axis'] === 1 &&
    c.args.some((a) => {
      const p = parseArg(a);
      return p.kind === 'tensor' && p.dims.some((d) => typeof d === 'number' && d >= 5);
    });
  const big: TypeofRequest = { op: 'nn.softmax', attrs: { axis: 1, extra: [3, 4] }, args: ['Tensor[(7, 9, n), float16]', 'Tensor[(2), float32]'] };
  t.true(fails(big));
  const small = shrinkCase(big, fails);
  t.deepEqual(small, { op: 'nn.softmax', attrs: { axis: 1 }, args: ['Tensor[(5), float32]', '_'] });
  t.true(caseSize(small) < caseSize(big));
});

test('the harness finds a planted disagreement and shrinks it', (t) => {
  // the real answers, except that the imperative side gets broadcasting of a 5 wrong
  const planted = (c: TypeofRequest) => {
    const a = answers(c);
    if ('type' in a.relay && /[( ]5[,)]/.test(a.relay.type)) return { ...a, relay: { ...a.relay, type: a.relay.type.replace(/([( ])5([,)])/, '$16$2') } };
    return a;
  };
  const r = checkOp('add', { random: 20, seed: 3, reference: false, answer: planted });
  t.true(r.disagree > 0);
  t.is(r.agree + r.disagree, r.cases);
  const c = r.counterexamples[0]!;
  t.truthy(c);
  t.is(c.kind, 'rules type / relay type');
  // minimal: a 5 against a scalar
  const line = JSON.parse(c.line) as TypeofRequest;
  t.true(caseSize(line) <= caseSize(JSON.parse(c.found) as TypeofRequest));
  t.deepEqual([...line.args].sort(), ['Tensor[(), float32]', 'Tensor[(5), float32]']);
});

test('random cases are deterministic per seed and differ between seeds', (t) => {
  const a = casesToCheck('nn.conv2d', { random: 30, seed: 5 }).random;
  t.deepEqual(a, casesToCheck('nn.conv2d', { random: 30, seed: 5 }).random);
  t.notDeepEqual(a, casesToCheck('nn.conv2d', { random: 30, seed: 6 }).random);
  t.is(a.length, 30);
});

test('--depth keeps only sweep cases whose tensors have small ranks', (t) => {
  const all = casesToCheck('transpose', {}).sweep;
  const low = casesToCheck('transpose', { depth: 1 }).sweep;
  t.true(low.length > 0 && low.length < all.length);
  for (const c of low)
    for (const a of c.args) {
      const p = parseArg(a);
      if (p.kind === 'tensor') t.true(p.dims.length <= 1);
    }
});

test('the reference check: agree, unsound, stricter, skipped', (t) => {
  const c: TypeofRequest = { op: 'add', args: ['Tensor[(2, 3), float32]', 'Tensor[(3), float32]'] };
  t.is(referenceCheck(c, { type: 'Tensor[(2, 3), float32]', args: c.args as string[] }).kind, 'agree');
  t.is(referenceCheck(c, { type: 'Tensor[(2, 4), float32]', args: c.args as string[] }).kind, 'unsound');
  t.is(referenceCheck(c, { error: 'no' }).kind, 'stricter');
  const bad: TypeofRequest = { op: 'add', args: ['Tensor[(2, 3), float32]', 'Tensor[(4), float32]'] };
  t.is(referenceCheck(bad, { type: 'Tensor[(2, 3), float32]', args: bad.args as string[] }).kind, 'unsound');
  t.is(referenceCheck(bad, { error: 'cannot broadcast' }).kind, 'agree');
  t.is(referenceCheck({ op: 'add', args: ['Tensor[(n, 3), float32]', '_'] }, { error: 'x' }).kind, 'skipped');
  t.is(referenceCheck({ op: 'add', args: ['Tensor[(9), float32]', 'Tensor[(9), float32]'] }, { error: 'x' }).kind, 'skipped');
});

const cli = (args: string[]) => spawnSync(process.execPath, ['bin/shapelog.js', ...args], { encoding: 'utf8' });

test('shapelog check --json: one entry per operator asked, with the documented fields; exit 0', (t) => {
  const p = cli(['check', '--ops', 'add,nn.softmax', '--random', '5', '--seed', '1', '--json']);
  t.is(p.status, 0, p.stderr);
  const out = JSON.parse(p.stdout) as { seed: number; ops: { op: string; cases: number; agree: number; disagree: number; counterexamples: unknown[] }[] };
  t.is(out.seed, 1);
  t.deepEqual(
    out.ops.map((o) => o.op),
    ['add', 'nn.softmax'],
  );
  for (const o of out.ops) {
    t.true(o.cases > 5);
    t.is(o.agree, o.cases);
    t.is(o.disagree, 0);
    t.deepEqual(o.counterexamples, []);
  }
});

test('shapelog check: a table and a summary line; bad usage exits 2 with a suggestion', (t) => {
  const p = cli(['check', '--ops', 'reshape', '--depth', '1', '--seed', '2']);
  t.is(p.status, 0, p.stderr);
  t.regex(p.stdout, /^operator\s+cases\s+agree\s+disagree/m);
  t.regex(p.stdout, /^reshape\s+\d+\s+\d+\s+0/m);
  t.regex(p.stdout, /1 operators, \d+ cases .*0 disagree/);
  const bad = cli(['check', '--ops', 'nn.conv2', '--random', '1']);
  t.is(bad.status, 2);
  t.regex(bad.stderr, /unknown operator 'nn.conv2'; did you mean 'nn.conv2d'/);
  t.is(cli(['check', '--random', '-3']).status, 2);
  const help = cli(['check', '--help']);
  t.is(help.status, 0);
  t.regex(help.stdout, /--random <n>/);
});

test('every catalogued operator is listed by `shapelog check --json` when --ops is absent', (t) => {
  const p = cli(['check', '--depth', '0', '--no-reference', '--json', '--seed', '1']);
  t.true(p.status === 0 || p.status === 1, p.stderr);
  const out = JSON.parse(p.stdout) as { ops: { op: string }[] };
  t.deepEqual(
    out.ops.map((o) => o.op),
    allOps().map((o) => o.name),
  );
});

test('a crash never agrees: not with a refusal, not with another crash', (t) => {
  const crash = crashAnswer(new Error('boom'));
  t.true(isCrash(crash));
  t.false(isCrash({ error: 'crash: a message that merely looks like one' }));
  t.is(classify(crash, crashAnswer(new Error('boom'))).kind, 'disagree');
  t.is(classify(crash, { error: 'refused' }).kind, 'disagree');
  t.is(classify({ error: 'refused' }, crash).kind, 'disagree');
  t.is(disagreementKind(crash, crash), 'rules crash / relay crash');
  // through the harness: an operator whose both strategies throw has no agreeing case
  const r = checkOp('add', { reference: false, answer: () => ({ rules: crashAnswer(new Error('x')), relay: crashAnswer(new Error('x')) }) });
  t.is(r.agree, 0);
  t.is(r.disagree, r.cases);
});

test('a stricter rejection is expected only when the STRICTER entry covers that very call', (t) => {
  // the kernel does not fit the padded input: the executor's loops count no window (covered)
  const small: TypeofRequest = { op: 'nn.conv2d', args: ['Tensor[(1, 3, 5, 5), float32]', 'Tensor[(4, 3, 7, 7), float32]'] };
  const covered = referenceCheck(small, { error: 'too small' });
  t.like(covered, { kind: 'stricter' });
  t.regex((covered as { expected: string | null }).expected ?? '', /smaller than the dilated kernel/);
  // an ordinary convolution rejected: conv2d is marked stricter, but not about this call
  const fits: TypeofRequest = { op: 'nn.conv2d', args: ['Tensor[(1, 3, 5, 5), float32]', 'Tensor[(4, 3, 3, 3), float32]'] };
  t.like(referenceCheck(fits, { error: 'made up' }), { kind: 'stricter', expected: null });
  // reductions: duplicate axes are covered, a single axis is not
  const x = 'Tensor[(2, 3), float32]';
  t.not((referenceCheck({ op: 'sum', attrs: { axis: [1, -1] }, args: [x] }, { error: 'dup' }) as { expected: string | null }).expected, null);
  t.like(referenceCheck({ op: 'sum', attrs: { axis: [1] }, args: [x] }, { error: 'made up' }), { kind: 'stricter', expected: null });
  // and the harness counts an uncovered rejection as unexpected
  const r = checkOp('nn.conv2d', { depth: 4, answer: (c) => ({ ...answers(c), rules: { error: 'refuses everything' } }) });
  t.true(r.reference!.stricterUnexpected > 0);
});

test('a reduction of a rank-0 input refuses a named axis, as TVM does', (t) => {
  t.like(referenceCheck({ op: 'sum', attrs: { axis: -1 }, args: ['Tensor[(), float32]'] }, { error: 'out of range' }), { kind: 'agree' });
  t.like(referenceCheck({ op: 'sum', attrs: { axis: [] }, args: ['Tensor[(), float32]'] }, { type: 'Tensor[(), float32]', args: ['Tensor[(), float32]'] }), {
    kind: 'agree',
  });
});

test('nn.batch_norm on a rank-0 input: both strategies refuse axis -1, neither crashes (found by the crash rule)', (t) => {
  const a = answers({ op: 'nn.batch_norm', attrs: { axis: -1 }, args: ['Tensor[(), float32]', '_', '_', '_', '_'] });
  t.false(isCrash(a.rules) || isCrash(a.relay), JSON.stringify(a));
  t.true('error' in a.rules && 'error' in a.relay);
});
