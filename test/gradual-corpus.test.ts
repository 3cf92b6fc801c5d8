// The gradual-typing corpus (examples/gradual/: ocaml-torch example networks, the programs
// GraTen was evaluated on, ported to Relay text with size variables for their input
// sizes). For every program: it parses and types with no error under both strategies,
// which give the same type to every binding and to the result; then, per program, types
// worked out by hand from the network's architecture, and the conditions on the size
// variables that the original program really needs (a constant batch size in a view, a
// sequence that must have the attention's length, an image size that must survive five
// halvings) are reported as undecided rather than assumed or rejected.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RExpr } from '../frontends/relay/ast.js';
import { type InferResult, type InferStrategy, inferText } from '../typing/infer.js';

const CORPUS = join(import.meta.dirname, '..', 'examples', 'gradual');
const FILES = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.relay'))
  .sort();

const inferred = new Map<string, InferResult>();
/** Inference of a corpus file, once per strategy. */
function infer(name: string, strategy: InferStrategy): InferResult {
  const key = `${strategy}:${name}`;
  let r = inferred.get(key);
  if (r === undefined) inferred.set(key, (r = inferText(readFileSync(join(CORPUS, name), 'utf8'), name, strategy)));
  return r;
}

const messages = (r: InferResult, severity: 'error' | 'warning'): string[] => r.diagnostics.filter((d) => d.severity === severity).map((d) => d.message);

/** @main's body: its let-bound values in order, then its result. */
function mainBody(r: InferResult): { values: RExpr[]; result: RExpr } {
  const main = r.module.functions.find((f) => f.name === 'main');
  if (main === undefined) throw new Error('no @main');
  const values: RExpr[] = [];
  let e = main.body;
  while (e.kind === 'let') {
    values.push(e.value);
    e = e.body;
  }
  return { values, result: e };
}

/** The types of the let-bound calls of `op` in @main, in program order. */
function typesOfCalls(r: InferResult, op: string): string[] {
  const byNode = new Map<unknown, string>(r.outcome.bindings.map((b) => [b.node, b.type]));
  return mainBody(r)
    .values.filter((v) => v.kind === 'call' && v.callee.kind === 'op' && v.callee.name === op)
    .map((v) => byNode.get(v) ?? '<none>');
}

const resultType = (r: InferResult): string | undefined => r.outcome.results.get(mainBody(r).result);
const T = (dims: string, dtype = 'float32'): string => `Tensor[(${dims}), ${dtype}]`;
const times = <X>(k: number, x: X): X[] => Array.from({ length: k }, () => x);

test('the corpus has at least 15 programs, each with a header naming its source program', (t) => {
  t.true(FILES.length >= 15, `${FILES.length} programs`);
  for (const f of FILES) {
    const text = readFileSync(join(CORPUS, f), 'utf8');
    t.regex(text, /^\/\/ .+\n(\/\/.*\n)*\/\/ Source: ocaml-torch examples\/\S+\.ml/, f);
    t.regex(text, /\/\/ (Simplified|Kept as written)/, f);
  }
});

for (const name of FILES) {
  test(`${name}: types with no error under both strategies, which agree on every binding`, (t) => {
    const rules = infer(name, 'rules');
    const relay = infer(name, 'relay');
    t.deepEqual(messages(rules, 'error'), []);
    t.deepEqual(messages(relay, 'error'), []);
    const unresolved = rules.outcome.bindings.filter((b) => b.type.includes('_'));
    t.deepEqual(
      unresolved.map((b) => `${b.name}: ${b.type}`),
      [],
    );
    t.true(rules.outcome.bindings.length > 0);
    t.deepEqual(
      relay.outcome.bindings.map((b) => `${b.name}: ${b.type}`),
      rules.outcome.bindings.map((b) => `${b.name}: ${b.type}`),
    );
    t.not(resultType(rules), undefined);
    t.false(resultType(rules)!.includes('_'));
    t.is(resultType(relay), resultType(rules));
  });
}

// ------------------------------------------------------------------ types worked out by hand
// conv / pool: out = (in + 2*pad - kernel) / stride + 1 (floor); conv transpose:
// out = (in - 1)*stride - 2*pad + kernel.

test('mnist_linear, mnist_nn, mnist_conv: the logits are (n, 10)', (t) => {
  t.is(resultType(infer('mnist_linear.relay', 'rules')), T('n, 10'));
  t.is(resultType(infer('mnist_nn.relay', 'rules')), T('n, 10'));
  const conv = infer('mnist_conv.relay', 'rules');
  // 28 -5+1-> 24 -pool-> 12 -5+1-> 8 -pool-> 4; 64*4*4 = 1024
  t.deepEqual(typesOfCalls(conv, 'nn.conv2d'), [T('n, 32, 24, 24'), T('n, 64, 8, 8')]);
  t.deepEqual(typesOfCalls(conv, 'nn.max_pool2d'), [T('n, 32, 12, 12'), T('n, 64, 4, 4')]);
  t.deepEqual(typesOfCalls(conv, 'reshape'), [T('n, 1, 28, 28'), T('n, 1024')]);
  t.is(resultType(conv), T('n, 10'));
});

test('cifar_resnet and cifar_preact_resnet: the residual adds halve the map at each stack', (t) => {
  const resnet = infer('cifar_resnet.relay', 'rules');
  t.deepEqual(
    typesOfCalls(resnet, 'add').filter((ty) => ty.startsWith('Tensor[(n, ') && ty.split(',').length === 5),
    [...times(2, T('n, 32, 32, 32')), ...times(2, T('n, 64, 16, 16')), ...times(2, T('n, 128, 8, 8')), ...times(2, T('n, 128, 4, 4'))],
  );
  t.deepEqual(typesOfCalls(resnet, 'nn.avg_pool2d'), [T('n, 128, 1, 1')]);
  t.is(resultType(resnet), T('n, 10'));
  const preact = infer('cifar_preact_resnet.relay', 'rules');
  t.deepEqual(
    typesOfCalls(preact, 'add').filter((ty) => ty.split(',').length === 5),
    [...times(2, T('n, 64, 32, 32')), ...times(2, T('n, 128, 16, 16')), ...times(2, T('n, 256, 8, 8')), ...times(2, T('n, 256, 4, 4'))],
  );
  t.is(resultType(preact), T('n, 10'));
});

test('cifar_densenet: channels grow by 32 per layer and halve at each transition', (t) => {
  const r = infer('cifar_densenet.relay', 'rules');
  // conv0 (pad 2): 32 -> 34; blocks 6, 12, 24, 16: 64+192 = 256 -> 128, 128+384 = 512 ->
  // 256, 256+768 = 1024 -> 512, 512+512 = 1024; maps 34 -> 17 -> 8 -> 4 -> 1
  t.is(typesOfCalls(r, 'nn.conv2d')[0], T('n, 64, 34, 34'));
  t.deepEqual(typesOfCalls(r, 'nn.avg_pool2d'), [T('n, 128, 17, 17'), T('n, 256, 8, 8'), T('n, 512, 4, 4'), T('n, 1024, 1, 1')]);
  const concats = typesOfCalls(r, 'concatenate');
  t.is(concats.length, 6 + 12 + 24 + 16);
  t.is(concats[5], T('n, 256, 34, 34'));
  t.is(concats[concats.length - 1], T('n, 1024, 4, 4'));
  t.is(resultType(r), T('n, 10'));
});

test('cifar_fast_resnet: max pools 2, 2, 2, 4 take 32x32 to 1x1', (t) => {
  const r = infer('cifar_fast_resnet.relay', 'rules');
  t.deepEqual(typesOfCalls(r, 'nn.max_pool2d'), [T('n, 128, 16, 16'), T('n, 256, 8, 8'), T('n, 512, 4, 4'), T('n, 512, 1, 1')]);
  t.is(resultType(r), T('n, 10'));
});

test('began: the view to the constant batch 16 fixes the batch; four upsamplings take 8x8 to 128x128', (t) => {
  const r = infer('began.relay', 'rules');
  t.is(typesOfCalls(r, 'reshape')[0], T('16, 64, 8, 8'));
  t.deepEqual(typesOfCalls(r, 'nn.upsampling').slice(0, 4), [T('16, 64, 16, 16'), T('16, 64, 32, 32'), T('16, 64, 64, 64'), T('16, 64, 128, 128')]);
  t.is(typesOfCalls(r, 'tanh')[0], T('16, 3, 128, 128'));
  t.is(resultType(r), '(float32, float32)');
});

test('mnist_dcgan and relativistic_dcgan: the generators grow 1x1 to 28x28 and 64x64', (t) => {
  const mnist = infer('mnist_dcgan.relay', 'rules');
  // (1-1)*1 + 7 = 7; (7-1)*2 - 2 + 4 = 14; (14-1)*2 - 2 + 4 = 28
  t.deepEqual(typesOfCalls(mnist, 'nn.conv2d_transpose'), [T('n, 64, 7, 7'), T('n, 32, 14, 14'), T('n, 1, 28, 28')]);
  t.is(resultType(mnist), `(${T('n, 1, 1, 1')}, ${T('128, 1, 1, 1')}, ${T('n, 784')})`);
  const rel = infer('relativistic_dcgan.relay', 'rules');
  t.deepEqual(typesOfCalls(rel, 'nn.conv2d_transpose'), [T('n, 1024, 4, 4'), T('n, 512, 8, 8'), T('n, 256, 16, 16'), T('n, 128, 32, 32'), T('n, 3, 64, 64')]);
  t.is(resultType(rel), `(${T('32')}, ${T('32')}, float32)`);
});

test('mnist_cgan, vae, dqn_atari: dense networks keep the batch', (t) => {
  const cgan = infer('mnist_cgan.relay', 'rules');
  const [fake, real] = resultType(cgan)!
    .slice(1, -1)
    .split(/, (?=Tensor)/);
  t.true([T('n, 1'), T('256, 1')].includes(fake!), fake);
  t.is(real, T('m, 1'));
  t.is(resultType(infer('vae.relay', 'rules')), `(${T('n, 784')}, ${T('n, 20')}, ${T('n, 20')}, float32)`);
  const dqn = infer('dqn_atari.relay', 'rules');
  // 105x80 -8/4-> 25x19 -4/2-> 11x8; 32*11*8 = 2816
  t.deepEqual(typesOfCalls(dqn, 'nn.conv2d'), [T('n, 16, 25, 19'), T('n, 32, 11, 8')]);
  t.deepEqual(typesOfCalls(dqn, 'nn.batch_flatten'), [T('n, 2816')]);
  t.is(resultType(dqn), `(${T('n, 6')}, ${T('n', 'int32')})`);
});

test('char_rnn, seq2seq, mingpt: vocabulary sizes stay symbolic', (t) => {
  const rnn = infer('char_rnn.relay', 'rules');
  t.deepEqual(typesOfCalls(rnn, 'stack'), [T('n, 3, 256')]);
  t.is(resultType(rnn), `(${T('3*n, v')}, ${T('n, 256')}, ${T('n, 256')})`);
  t.is(resultType(infer('seq2seq.relay', 'rules')), `(${T('1, 256')}, ${T('1, 256')}, ${T('1, o')})`);
  const gpt = infer('mingpt.relay', 'rules');
  t.deepEqual(typesOfCalls(gpt, 'take'), [T('b, t, 512')]);
  t.is(typesOfCalls(gpt, 'slice_like')[0], T('1, t, 512'));
  t.is(resultType(gpt), T('b*t, v'));
});

test('yolo: five stride-2 convolutions give maps of (h - 1) / 32 + 1, upsampled twice', (t) => {
  const r = infer('yolo.relay', 'rules');
  const h = '(h - 1) / 32 + 1';
  const w = '(w - 1) / 32 + 1';
  t.is(
    resultType(r),
    `(${T(`n, 255, ${h}, ${w}`)}, ${T('n, 255, 2*((h - 1) / 32) + 2, 2*((w - 1) / 32) + 2')}, ${T('n, 255, 4*((h - 1) / 32) + 4, 4*((w - 1) / 32) + 4')})`,
  );
  t.is(resultType(infer('neural_transfer.relay', 'rules')), 'float32');
});

// ------------------------------------------------------------------ conditions left undecided
// Each is a condition the original program needs and that no size assignment makes
// true for every value of its variables: typing must neither assume it silently nor reject.

const REAL_CONDITIONS: [string, RegExp][] = [
  ['began.relay', /reshape: 4096\*n == 65536 cannot be decided/],
  ['mnist_dcgan.relay', /reshape: 784\*m == 100352 cannot be decided/],
  ['relativistic_dcgan.relay', /reshape: n == 32 cannot be decided/],
  ['mnist_cgan.relay', /concatenate: n == 256 cannot be decided/],
  ['seq2seq.relay', /nn\.batch_matmul: 10 == s cannot be decided/],
  ['mingpt.relay', /slice_like: t <= 128 cannot be decided/],
  ['yolo.relay', /concatenate: 2\*\(\(h - 1\) \/ 32\) \+ 2 == \(h - 1\) \/ 16 \+ 1 cannot be decided/],
];

for (const [name, condition] of REAL_CONDITIONS) {
  test(`${name}: the condition ${condition.source.replace(/\\/g, '')} is reported as undecided (rules) and assumed with a warning (relay)`, (t) => {
    t.true(
      messages(infer(name, 'rules'), 'warning').some((m) => condition.test(m)),
      messages(infer(name, 'rules'), 'warning').join('\n'),
    );
    t.true(messages(infer(name, 'relay'), 'warning').some((m) => m.endsWith('is assumed (cannot be decided)')));
  });
}

test('programs whose sizes are all decided give no warning under either strategy', (t) => {
  for (const name of ['mnist_linear.relay', 'mnist_nn.relay', 'mnist_conv.relay', 'cifar_densenet.relay', 'dqn_atari.relay']) {
    t.deepEqual(messages(infer(name, 'rules'), 'warning'), [], name);
    t.deepEqual(messages(infer(name, 'relay'), 'warning'), [], name);
  }
});

test('npm run gradual:table: --help, and a bad option is a usage error (exit 2)', (t) => {
  const script = join(import.meta.dirname, '..', 'scripts', 'gradual-table.ts');
  const help = spawnSync(process.execPath, ['--import=tsx', script, '--help'], { encoding: 'utf8' });
  t.is(help.status, 0);
  t.regex(help.stdout, /--runs N/);
  const bad = spawnSync(process.execPath, ['--import=tsx', script, '--runs', 'many'], { encoding: 'utf8' });
  t.is(bad.status, 2);
  t.regex(bad.stderr, /--runs needs a whole number, got "many"/);
  t.false(/\n\s+at /.test(bad.stderr), 'no stack trace');
});
