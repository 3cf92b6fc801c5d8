// Hostile and oversized inputs (issue 15): every one gets a clean, located answer
// and a bounded run, never a JavaScript stack trace. Inputs are generated here.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { closest } from '../diagnostics/suggest.js';
import { compileErrors, facts, run, runShapelog, scratchFolder, SHAPELOG_BIN } from './helpers.js';
import { ProgramError, runFiles } from '../solver/run.js';
import { inferText } from '../typing/infer.js';

const { dir, file } = scratchFolder('shapelog-robust-');

const shapelog = (args: readonly string[], input?: string) => runShapelog(args, input === undefined ? {} : { input });

/** No JavaScript stack trace or Node internals in what a user sees. */
function noTrace(t: { false: (v: boolean, m?: string) => void }, text: string): void {
  t.false(/^\s+at .+[(:]\d+/m.test(text) || /Node\.js v\d/.test(text) || /TypeError|RangeError|ReferenceError/.test(text), text.slice(0, 2000));
}

const ones = (n: number) => Array.from({ length: n }, () => '1').join('+');

test('flat chains of 3,000 operators in a rule or a goal: a located limit error', (t) => {
  const cases: [string, string][] = [
    ['plus.rules', `p(${ones(3000)}).\n`],
    ['neg.rules', `q(X) :- X = ${'-'.repeat(3000)}1.\n`],
    ['slice.rules', `r(X) :- X = [1]${'[0:]'.repeat(3000)}.\n`],
  ];
  for (const [name, text] of cases) {
    const [d] = compileErrors(text, { file: name });
    t.is(d?.code, 'limit', name);
    t.regex(d?.message ?? '', /^expression nested deeper than 500 levels/, name);
    t.is(d?.span?.file, name);
    t.is(d?.span?.start.line, 1);
  }
  const [g] = compileErrors('p(1).\n', { goal: `X = ${ones(3000)}` });
  t.is(g?.span?.file, '<goal>');
  t.regex(g?.message ?? '', /^expression nested deeper than 500 levels/);
  // and through the command line: exit 1, a located message, no stack trace
  const r = shapelog(['query', file('plus.rules', cases[0]![1])]);
  t.is(r.code, 1);
  t.regex(r.err, /plus\.rules:1:\d+: error: expression nested deeper than 500 levels/);
  noTrace(t, r.err);
});

test('chains just under the nesting limit still solve, with every strategy', (t) => {
  const text = `p(${ones(499)}).\nq(X) :- p(Y), X = ${'-'.repeat(498)}Y.\nr(X) :- X = [1, 2]${'[0:]'.repeat(498)}.\n`;
  for (const strategy of ['naive', 'seminaive', 'demand'] as const) {
    const r = run(text, { strategy });
    t.deepEqual([facts(r, 'p'), facts(r, 'q'), facts(r, 'r')], [['p(499)'], ['q(499)'], ['r([1, 2])']], strategy);
  }
});

test('a Relay projection chain %x.0.0… of 3,000: a located limit error with both strategies', (t) => {
  const f = file('proj.relay', `#[version = "0.0.5"]\ndef @main(%x: (Tensor[(1), float32],)) {\n  %x${'.0'.repeat(3000)}\n}\n`);
  for (const strategy of ['rules', 'relay']) {
    const r = shapelog(['infer', f, '--strategy', strategy]);
    t.is(r.code, 1, strategy);
    t.regex(r.err, /proj\.relay:3:3: error: expression nested deeper than 500 levels/, strategy);
    noTrace(t, r.err);
  }
});

test('a 100 KB unknown operator name is reported at once, without a suggestion search', (t) => {
  const f = file('longop.relay', `#[version = "0.0.5"]\ndef @main(%x: Tensor[(1), float32]) {\n  ${'a'.repeat(100_000)}(%x)\n}\n`);
  const r = shapelog(['infer', f]);
  t.is(r.code, 1);
  t.regex(r.err, /longop\.relay:3:3: error: unknown operator/);
  t.true(r.millis < 15_000, `${r.millis} ms`);
  const started = Date.now();
  t.is(closest('b'.repeat(100_000), ['add', 'b'.repeat(99_999)]), null);
  t.is(closest('multiplx', ['add', 'multiply']), 'multiply');
  t.true(Date.now() - started < 1000);
});

test('typeof answers every line, one output line per input line, and exits 1 when any is an error', (t) => {
  const good = '{"op":"add","args":["Tensor[(2), float32]","Tensor[(2), float32]"]}';
  const lines = [
    '{"op":"add","args":[1]}',
    '[null]',
    '{"op":"add","args":[null]}',
    '{"op":"nn.relu","attrs":{"x":{}},"args":["_"]}',
    '',
    'not json',
    '{"op":"add","atrs":{},"args":["_","_"]}',
    good,
  ];
  for (const relations of ['rules', 'imperative']) {
    const r = shapelog(['typeof', '-r', relations], `${lines.join('\n')}\n`);
    t.is(r.code, 1, relations);
    noTrace(t, r.err);
    const out = r.out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { error?: string; type?: string });
    t.is(out.length, lines.length, r.out);
    t.regex(out[0]!.error!, /^line 1: argument 1 is a number/);
    t.regex(out[1]!.error!, /^line 2: expected .*got a list/);
    t.regex(out[2]!.error!, /^line 3: argument 1 is null/);
    t.regex(out[3]!.error!, /^line 4: attribute x is an object/);
    t.regex(out[4]!.error!, /^line 5: empty line/);
    t.regex(out[5]!.error!, /^line 6: not JSON/);
    t.regex(out[6]!.error!, /^line 7: unknown field "atrs"/);
    t.is(out[7]!.type, 'Tensor[(2), float32]');
  }
  const ok = shapelog(['typeof'], `${good}\n${good}\n`);
  t.is(ok.code, 0, ok.err);
  t.is(ok.out.trimEnd().split('\n').length, 2);
});

test('typeof bounds each line: an overlong line is one error line, endless input stops with an error', (t) => {
  const good = '{"op":"add","args":["_","_"]}';
  const r = shapelog(['typeof'], `${'a'.repeat(1_100_000)}\n${good}\n`);
  t.is(r.code, 1);
  t.deepEqual(
    r.out
      .trimEnd()
      .split('\n')
      .map((l) => Object.keys(JSON.parse(l) as object)[0]),
    ['error', 'type'],
  );
  t.regex(r.out, /line 1: line too long/);
  const z = spawnSync(process.execPath, [SHAPELOG_BIN, 'typeof'], { encoding: 'utf8', timeout: 60_000, stdio: [openSync('/dev/zero', 'r'), 'pipe', 'pipe'] });
  t.is(z.status, 1);
  t.regex(z.stdout, /^\{"error":"line 1: line too long and no line break within \d+ bytes/);
  t.is(z.stdout.trimEnd().split('\n').length, 1);
});

test('expand_dims with a huge num_newaxis is an attribute error in both relations and both strategies', (t) => {
  const lines = [2 ** 32, 2 ** 32 - 1, 1e8].map((n) => `{"op":"expand_dims","attrs":{"axis":0,"num_newaxis":${n}},"args":["Tensor[(2), float32]"]}`);
  for (const relations of ['rules', 'imperative']) {
    const r = shapelog(['typeof', '-r', relations], `${lines.join('\n')}\n`);
    t.is(r.code, 1);
    t.deepEqual(
      r.out
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { error: string }).error.replace(/\(got \d+\)/, '')),
      [1, 2, 3].map((i) => `line ${i}: expand_dims: num_newaxis must be <= 1024 `),
    );
  }
  const f = file('expand.relay', '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  expand_dims(%x, axis=0, num_newaxis=4294967296)\n}\n');
  for (const strategy of ['rules', 'relay']) {
    const r = shapelog(['infer', f, '--strategy', strategy]);
    t.is(r.code, 1);
    t.regex(r.err, /expand\.relay:3:39: error: expand_dims: num_newaxis must be <= 1024 \(got 4294967296\)/);
  }
});

test('unreadable inputs: a directory, /dev/zero, an empty Relay file, a missing model, a rule file given to infer each get one plain error, exit 1', (t) => {
  const expect: [string[], RegExp][] = [
    [['query', '.'], /^error: cannot read \.: is a directory\n$/],
    [['infer', dir], /^error: cannot read .*: is a directory\n$/],
    [['query', '/dev/zero'], /^error: cannot read \/dev\/zero: is larger than 64 MB\n$/],
    [['infer', '/dev/zero'], /^error: cannot read \/dev\/zero: is larger than 64 MB\n$/],
    [['infer', file('empty.relay', '')], /empty\.relay:1:1: error: the file is empty: a Relay program defines at least one function/],
    [['infer', join(dir, 'missing.onnx')], /^error: cannot read .*missing\.onnx: no such file\n$/],
    [
      ['infer', file('facts.rules', 'a(1).\n')],
      /facts\.rules:1:1: error: [^\n]*\n[\s\S]*note: infer types a Relay program \(or an ONNX model\); to solve a rule file, run `shapelog query [^`]*facts\.rules`\n$/,
    ],
  ];
  for (const [args, message] of expect) {
    const r = shapelog(args);
    t.is(r.code, 1, args.join(' '));
    t.regex(r.err, message, args.join(' '));
    noTrace(t, r.err);
  }
});

test('help exits 0, --version prints the version, --goal exits 0 with its answers whatever error facts exist', (t) => {
  for (const args of [['help'], ['help', 'query']]) {
    const r = shapelog(args);
    t.is(r.code, 0, args.join(' '));
    t.regex(r.out, /Usage: shapelog/);
  }
  const v = shapelog(['--version']);
  t.is(v.code, 0);
  t.is(v.out, '0.1.0\n');
  const f = file('errfact.rules', 'p(1).\nerror("bad {X}") :- p(X).\n');
  const g = shapelog(['query', f, '--goal', 'p(X)']);
  t.is(g.code, 0);
  t.is(g.out, 'X = 1.\n');
  t.regex(g.err, /errfact\.rules:2:1: error: bad 1/);
  t.is(shapelog(['query', f]).code, 1);
});

test('number literals with an exponent: 1e5 is a float, 1e400 is out of range at its place', (t) => {
  t.deepEqual(facts(run('p(1e5).\np(2.5e-1).\n'), 'p'), ['p(0.25)', 'p(100000.0)']);
  const [d] = compileErrors('p(1e400).\n');
  t.is(d?.message, 'float 1e400 is out of range');
  t.deepEqual([d?.span?.start.line, d?.span?.start.column], [1, 3]);
});

test('a division by zero for one binding is reported at its place, naming the binding; the other results stay', (t) => {
  for (const strategy of ['naive', 'seminaive', 'demand'] as const) {
    const r = run('n(0).\nn(1).\nn(2).\nr(Y) :- n(X), Y = 10 / X.\ns(X) :- n(X), 10 / X > 1.\n', { strategy });
    t.deepEqual(facts(r, 'r'), ['r(5)', 'r(10)'], strategy);
    t.deepEqual(facts(r, 's'), ['s(1)', 's(2)'], strategy);
    const ds = r.diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => `${d.span?.start.line}:${d.span?.start.column} ${d.message}`)
      .sort();
    t.deepEqual(ds, ['4:15 division by zero when X = 0', '5:15 division by zero when X = 0'], strategy);
  }
});

test('a comparison is not checked early past an expression: its division by zero is still reported', (t) => {
  // X < 0 is false for X = 1, but the binding reaches `Z = 10 / Y` first, as written
  for (const strategy of ['naive', 'seminaive', 'demand'] as const) {
    const r = run('a(1).\nb(1, 0).\nr(Z) :- a(X), b(X, Y), Z = 10 / Y, X < 0.\n', { strategy });
    t.deepEqual(facts(r, 'r'), [], strategy);
    const ds = r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.span?.start.line}:${d.span?.start.column} ${d.message}`);
    t.deepEqual(ds, ['3:24 division by zero when X = 1, Y = 0'], strategy);
  }
});

test('check: --depth beyond 4 and a huge --random are usage errors; --ops names each operator once', (t) => {
  const depth = shapelog(['check', '--depth', '99']);
  t.is(depth.code, 2);
  t.is(depth.err, 'shapelog check: --depth must be between 0 and 4 (got 99)\n');
  const random = shapelog(['check', '--random', '1000000000']);
  t.is(random.code, 2);
  t.regex(random.err, /^shapelog check: --random is at most 100,000 cases per operator \(got 1000000000\)/);
  const twice = shapelog(['check', '--ops', 'add,add', '--depth', '0', '--no-reference', '--json', '--seed', '1']);
  t.is(twice.code, 0, twice.err);
  t.deepEqual(
    (JSON.parse(twice.out) as { ops: { op: string }[] }).ops.map((o) => o.op),
    ['add'],
  );
});

test('the time limit bounds parsing: a large input stops while being read, with a limit error naming --max-time', (t) => {
  const rules = file('big.rules', Array.from({ length: 200_000 }, (_, i) => `edge(${i}, ${i + 1}).`).join('\n'));
  const e = t.throws(() => runFiles([rules], { limits: { maxMillis: 20 } }), { instanceOf: ProgramError });
  t.is(e?.diagnostics[0]?.code, 'limit');
  t.is(e?.diagnostics[0]?.message, 'stopped while reading the input: time limit reached');
  t.deepEqual(e?.diagnostics[0]?.notes, ['the time limit is 20 ms; raise it with --max-time']);
  const lines = Array.from({ length: 100_000 }, (_, i) => `  %${i + 1} = add(%${i}, %${i});`).join('\n');
  const relay = `#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) {\n  %0 = nn.relu(%x);\n${lines}\n  %100000\n}\n`;
  const r = t.throws(() => inferText(relay, 'big.relay', 'relay', { maxMillis: 20 }), { instanceOf: ProgramError });
  t.is(r?.diagnostics[0]?.message, 'stopped while reading the input: time limit reached');
});

test('--max-memory bounds parsing: a large facts file over a small budget is a clear limit error', (t) => {
  const dir = scratchFolder('max-memory-');
  // facts with a compound argument are parsed into full syntax trees (~1 KB each)
  const facts = dir.file('big.rules', `${Array.from({ length: 300_000 }, (_, i) => `f(g(${i}), ${i + 1}).`).join('\n')}\n`);
  const r = runShapelog(['query', facts, '--max-memory', '64']);
  t.is(r.code, 1, r.err);
  t.regex(r.err, /memory budget of 64 MB is used up \(--max-memory raises it\)/);
  t.notRegex(r.err, /\n\s+at /);
  const bad = runShapelog(['query', facts, '--max-memory', 'lots']);
  t.is(bad.code, 2, bad.err);
  // plain facts are held by their place in the text (solver/language/ground-facts.ts): the same count fits
  const plain = dir.file('plain.rules', `${Array.from({ length: 300_000 }, (_, i) => `f(${i}, ${i + 1}).`).join('\n')}\n`);
  const ok = runShapelog(['query', plain, '--max-memory', '64', '--max-time', '600000'], { timeoutMs: 600_000 });
  t.is(ok.code, 0, ok.err);
  t.is(ok.out.split('\n').filter((l) => l.startsWith('f(')).length, 300_000);
});

test('a limit stopping infer is one error in its own terms: no flag it lacks, no "derive without end", no call blamed', (t) => {
  const lines = Array.from({ length: 400 }, (_, i) => `  %${i + 1} = add(%${i}, %x);`);
  const src = `def @main(%x: Tensor[(8, 16), float32]) {\n  %0 = add(%x, %x);\n${lines.join('\n')}\n  %400\n}`;
  // a valid chain is typed whole: the round limit grows with the program
  const whole = inferText(src, 'chain.relay', 'rules', { maxMillis: 120_000 });
  t.deepEqual(
    whole.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  for (const limits of [{ maxRounds: 20 }, { maxFacts: 50 }]) {
    const errs = inferText(src, 'chain.relay', 'rules', limits).diagnostics.filter((d) => d.severity === 'error');
    t.is(errs.length, 1, errs.map((d) => d.message).join('\n'));
    t.regex(errs[0]!.message, /^typing stopped: /);
    t.notRegex(errs[0]!.message, /--max-rounds|--max-facts|without end/);
  }
});
