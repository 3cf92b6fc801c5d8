// The prover (proofs/prove/): the assumption context of dims.ts, path
// conditions, a proof on a real operator, a planted twin bug that shows only for
// dims above 100 (caught by the prover, missed by the concrete sweep), and the
// command's exit codes on bad input.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import test from 'ava';
import { answers, type Answers } from '../proofs/cross-check/compare.js';
import { checkOp } from '../proofs/cross-check/harness.js';
import { PathContext, fromComparison } from '../proofs/prove/conditions.js';
import { combosFor } from '../proofs/prove/combos.js';
import { proveCombo } from '../proofs/prove/prover.js';
import { proveOp } from '../proofs/prove/run.js';
import { parseType } from '../relations/imperative/type-text.js';
import { dimOf, dimValue, printType, TypeSolverState } from '../relations/imperative/types.js';
import { dimAdd, dimCompare, dimConst, dimVar, withDimAssumptions } from '../solver/terms/dims.js';
import type { TypeofRequest } from '../typing/typeof.js';

const n = dimVar('n');

test('dimCompare consults an assumption context only on questions it cannot decide, and is unchanged without one', (t) => {
  const asked: string[] = [];
  const ctx = {
    decide: (a: typeof n, b: typeof n, op: string) => {
      asked.push(`${a.key} ${op} ${b.key}`);
      return true;
    },
  };
  t.is(dimCompare(n, dimConst(1), '=='), undefined);
  t.is(
    withDimAssumptions(ctx, () => dimCompare(n, dimConst(1), '==')),
    true,
  );
  t.is(
    withDimAssumptions(ctx, () => dimCompare(dimAdd(n, dimConst(1)), dimConst(0), '>')),
    true,
  ); // decided without asking
  t.deepEqual(asked, ['n == 1']);
  t.is(dimCompare(n, dimConst(1), '=='), undefined); // restored
});

test('a path context decides shifted facts and records what it cannot decide', (t) => {
  const ctx = new PathContext([fromComparison(n, '>=', dimConst(1))]);
  withDimAssumptions(ctx, () => {
    t.is(dimCompare(dimAdd(n, dimConst(2)), dimConst(3), '>='), true);
    t.is(dimCompare(n, dimConst(0), '=='), false);
    t.is(dimCompare(n, dimConst(5), '<'), undefined);
  });
  t.deepEqual([...ctx.open.keys()], ['-n + 4 >= 0']); // n < 5, as `4 - n >= 0`
});

const budget = () => ({ maxDepth: 12, smtMs: 2000, deadline: Date.now() + 60_000 });

test('the prover proves nn.dense at rank 2 for every size, splitting on the reduction dims', async (t) => {
  const combo = combosFor('nn.dense', 2).find(
    (c) => Object.keys(c.attrs).length === 0 && c.args.every((a) => a.kind === 'tensor' && a.rank === 2 && a.dtype === 'float32'),
  );
  t.truthy(combo);
  const v = await proveCombo(combo!, budget());
  t.is(v.kind, 'proved', JSON.stringify(v));
  t.true(v.branches >= 2); // d1 == d3 and d1 != d3
});

/** The real twin, except that its result's first dim is one too large when that dim exceeds 100 (asked through dimCompare, as a twin would). */
function plantedAnswers(c: TypeofRequest): Answers {
  const real = answers(c);
  if ('error' in real.relay) return real;
  const p = parseType(real.relay.type, new TypeSolverState());
  if (!p.ok || p.type.kind !== 'tensor' || p.type.shape.length === 0) return real;
  const first = dimValue(p.type.shape[0]!);
  if (first === null || dimCompare(first, dimConst(100), '>') !== true) return real;
  const type = printType({ ...p.type, shape: [dimOf(dimAdd(first, dimConst(1))), ...p.type.shape.slice(1)] });
  return { rules: real.rules, relay: { ...real.relay, type } };
}

test('a twin wrong only for dims above 100 passes the concrete sweep and is caught by the prover', async (t) => {
  const sweep = checkOp('nn.relu', { reference: false, answer: plantedAnswers });
  t.is(sweep.disagree, 0);
  const proof = await proveOp('nn.relu', { rank: 2, timeout: 60, answers: plantedAnswers });
  t.true(proof.counterexamples.length > 0);
  const cex = proof.counterexamples[0]!;
  t.true(cex.sizes['d0']! > 100, JSON.stringify(cex.sizes));
  t.regex(cex.line, /^echo '\{"op":"nn.relu".*\| shapelog typeof +# rules: Tensor\[\(1\d\d/);
  t.not(JSON.stringify(cex.rules), JSON.stringify(cex.relay));
  // the real twin is proved on the same combinations
  const real = await proveOp('nn.relu', { rank: 2, timeout: 60 });
  t.is(real.counterexamples.length, 0);
  t.is(real.proved, real.combos);
});

const bin = join(import.meta.dirname, '..', 'bin', 'shapelog.js');
const prove = (...args: string[]) => spawnSync(process.execPath, [bin, 'prove', ...args], { encoding: 'utf8', timeout: 60_000 });

test('shapelog prove: bad input is a clear error with exit 2; a proof exits 0 with JSON', (t) => {
  for (const [args, message] of [
    [['--ops', 'nn.conv2x'], /unknown operator/],
    [['--ops', 'nn.conv2d', '--rank', '2'], /no arguments of rank <= 2/],
    [['--timeout', '0'], /--timeout must be positive|positive number/],
  ] as const) {
    const r = prove(...args);
    t.is(r.status, 2, r.stderr);
    t.regex(r.stderr, message);
    t.notRegex(r.stderr, /at .*\.ts:\d+/); // no stack trace
  }
  const r = prove('--ops', 'nn.relu', '--rank', '1', '--timeout', '60', '--json');
  t.is(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout) as { ops: { op: string; combos: number; proved: number; counterexamples: unknown[]; unknown: number }[] };
  t.is(report.ops[0]!.op, 'nn.relu');
  t.is(report.ops[0]!.proved, report.ops[0]!.combos);
});

// The budgeted subset CI runs (the whole library is `npm run prove`): a few
// operators of different families at rank <= 2. A counterexample fails the test;
// under a loaded machine combinations may stay unknown ('time budget'), never
// anything else.
test('CI subset: add, nn.dense, sum, transpose and concatenate at rank <= 2 have no counterexample', async (t) => {
  const cache = new Map();
  for (const op of ['add', 'nn.dense', 'sum', 'transpose', 'concatenate']) {
    const r = await proveOp(op, { rank: 2, timeout: 15, cache });
    t.deepEqual(r.counterexamples, [], op);
    t.true(r.proved > 0, op);
    for (const u of r.unknowns) t.regex(u.reason, /time budget/, `${op} ${u.combo}`);
  }
});
