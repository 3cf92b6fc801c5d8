// The command line, run as a user runs it: output formats and exit codes.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runShapelog, scratchFolder, SHAPELOG_BIN } from './helpers.js';

const { dir, file } = scratchFolder('shapelog-cli-');

const shapelog = (...args: string[]) => runShapelog(args);

const graph = file('graph.rules', 'path(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\nedge(1, 2).\nedge(2, 3).\nedge(1, 5).\n');

test('without --goal: every fact grouped by predicate, sorted', (t) => {
  const r = shapelog('query', graph);
  t.is(r.code, 0, r.err);
  t.is(r.out, '% edge (3 facts)\nedge(1, 2).\nedge(1, 5).\nedge(2, 3).\n% path (4 facts)\npath(1, 2).\npath(1, 3).\npath(1, 5).\npath(2, 3).\n');
});

test('--goal --json: one object per answer, sorted and distinct; ground goals give [{}] or []', (t) => {
  for (const strategy of ['naive', 'seminaive', 'demand']) {
    const r = shapelog('query', graph, '--goal', 'path(1, X)', '--json', '--strategy', strategy);
    t.is(r.code, 0, r.err);
    t.deepEqual(JSON.parse(r.out), [{ X: 2 }, { X: 3 }, { X: 5 }], strategy);
  }
  t.deepEqual(JSON.parse(shapelog('query', graph, '--goal', 'path(1, 3)', '--json').out), [{}]);
  t.deepEqual(JSON.parse(shapelog('query', graph, '--goal', 'path(3, 1)', '--json').out), []);
});

test('--json value formats: atoms, strings, lists, compounds, symbolic dims, holes', (t) => {
  const f = file('values.rules', 'v(a, "s", [1, [2]], f(x, 1), 2 * n + 1, ?7).\n');
  const r = shapelog('query', f, '--goal', 'v(A, S, L, C, D, H)', '--json');
  t.is(r.code, 0, r.err);
  t.deepEqual(JSON.parse(r.out), [{ A: 'a', S: 's', L: [1, [2]], C: { functor: 'f', args: ['x', 1] }, D: '2*n + 1', H: '?7' }]);
});

test('--goal without --json prints answers as text', (t) => {
  t.is(shapelog('query', graph, '--goal', 'path(X, 3)').out, 'X = 1.\nX = 2.\n');
  t.is(shapelog('query', graph, '--goal', 'path(3, X)').out, 'false.\n');
});

test('--explain prints the derivation tree', (t) => {
  const r = shapelog('query', graph, '--explain', 'path(1, 3)');
  t.is(r.code, 0, r.err);
  t.regex(r.out, /^path\(1, 3\) {3}\(by rule at .*graph\.rules:2:1\)\n {2}path\(1, 2\)/);
  const missing = shapelog('query', graph, '--explain', 'path(3, 1)');
  t.is(missing.code, 1);
  t.regex(missing.err, /does not hold/);
});

test('--stats reports rounds, facts and time', (t) => {
  const r = shapelog('query', graph, '--stats');
  t.regex(r.err, /strategy seminaive: \d+ rounds in \d+ strata, 7 facts/);
  t.regex(r.err, /^printed in \d+ ms$/m);
});

test('syntax errors: file:line:column, the line, a caret, what was expected; exit 1', (t) => {
  const f = file('bad.rules', 'edge(1, 2).\npath(X, Y) :- edge(X, Y\n');
  const r = shapelog('query', f);
  t.is(r.code, 1);
  t.regex(r.err, /bad\.rules:3:1: error: expected .*"\)".* but found end of input/);
  t.notRegex(r.err, /at .*\.ts:\d+/, 'no stack trace');
});

test('static errors and error facts exit 1; warnings alone exit 0', (t) => {
  t.is(shapelog('query', file('undef.rules', 'p(X) :- q(X).\n')).code, 1);
  const e = shapelog('query', file('err.rules', 'error("bad {X}") :- p(X).\np(3).\n'));
  t.is(e.code, 1);
  t.regex(e.err, /error: bad 3/);
  const w = shapelog('query', file('warn.rules', 'p(X) :- q(X, Y).\nq(1, 2).\n'));
  t.is(w.code, 0);
  t.regex(w.err, /warning: variable Y occurs only once/);
  t.is(shapelog('query', file('warn2.rules', 'p(X) :- q(X, Y).\nq(1, 2).\n'), '--no-warnings').err, '');
});

test('bad input: unterminated strings, huge integers, deep nesting, runaway rules exit 1 with a message', (t) => {
  const cases: [string, RegExp][] = [
    ['p("abc).\n', /unterminated string/],
    ['p(99999999999999999999).\n', /too large/],
    [`p(${'f('.repeat(100_000)}1${')'.repeat(100_000)}).\n`, /nested deeper than 500 levels/],
    ['nat(0).\nnat(N + 1) :- nat(N).\n', /stopped after 100000 rounds/],
    ['p([]).\np([a|L]) :- p(L).\n', /stopped after 100000 rounds/],
    ['p(z).\np(s(X)) :- p(X).\n', /deeper than 1000 levels/],
  ];
  for (const [i, [text, re]] of cases.entries()) {
    const r = shapelog('query', file(`bad${i}.rules`, text));
    t.is(r.code, 1, text.slice(0, 40));
    t.regex(r.err, re, text.slice(0, 40));
    t.notRegex(r.err, /\n\s+at /, 'no stack trace');
  }
});

test('usage errors exit 2; --help exits 0', (t) => {
  t.is(shapelog('query', graph, '--strategy', 'fast').code, 2);
  t.is(shapelog('query').code, 2);
  t.is(shapelog('frobnicate').code, 2);
  t.is(shapelog('query', graph, '--max-rounds', '-3').code, 2);
  t.is(shapelog().code, 2);
  const help = shapelog('query', '--help');
  t.is(help.code, 0);
  t.regex(help.out, /--strategy <name>/);
  const missing = shapelog('query', join(dir, 'nope.rules'));
  t.is(missing.code, 1);
  t.regex(missing.err, /cannot read .*nope\.rules: no such file/);
});

test('demo (npm start) runs every example and the strategies agree', (t) => {
  const r = shapelog('demo', '--json');
  t.is(r.code, 0, r.err);
  const rows = JSON.parse(r.out).examples as { example: string; agree: boolean }[];
  t.true(rows.length >= 5);
  t.true(rows.every((x) => x.agree));
  // the real ONNX models of examples/onnx/models.json, typed as shipped
  const models = JSON.parse(r.out).onnxModels as {
    model: string;
    nodes: number | null;
    values: number;
    exact: number;
    symbolic: number;
    unknown: number;
    errors: number;
  }[];
  t.true(models.length >= 4);
  t.deepEqual(
    models.filter((m) => m.nodes === null || m.errors > 0).map((m) => m.model),
    [],
  );
  // openWakeWord's head has 29 nodes with one output each and a fixed input shape
  t.like(
    models.find((m) => m.model === 'openwakeword-hello-deepa'),
    { nodes: 29, values: 29, exact: 29, unknown: 0 },
  );
  // the recognizer's symbolic batch and width flow through every value, attention included
  t.like(
    models.find((m) => m.model === 'ppocr-rec'),
    { nodes: 765, values: 765, unknown: 0 },
  );
});

test('infer prints the program with every binding typed; --json has functions, bindings, diagnostics', (t) => {
  const r = shapelog('infer', join(import.meta.dirname, '..', 'examples', 'relay', 'mlp.relay'));
  t.is(r.code, 0, r.err);
  t.regex(r.out, /%0 = nn\.dense\(%x, %w1, units=128\) \/\* ty=Tensor\[\(n, 128\), float32\] \*\/;/);
  const j = shapelog('infer', join(import.meta.dirname, '..', 'examples', 'relay', 'mlp.relay'), '--json', '--strategy', 'relay');
  t.is(j.code, 0, j.err);
  const parsed = JSON.parse(j.out) as {
    functions: Record<string, string>;
    bindings: { function: string; name: string; type: string; line: number }[];
    diagnostics: unknown[];
  };
  t.is(
    parsed.functions['main'],
    'fn (Tensor[(n, 784), float32], Tensor[(128, 784), float32], Tensor[(128), float32], Tensor[(10, 128), float32], Tensor[(10), float32]) -> Tensor[(n, 10), float32]',
  );
  t.deepEqual(
    parsed.bindings.find((b) => b.name === '%3'),
    { function: 'main', name: '%3', type: 'Tensor[(n, 10), float32]', line: 8 },
  );
  t.deepEqual(parsed.diagnostics, []);
});

test('infer: type errors exit 1 with the call site; --explain shows the derivation', (t) => {
  const bad = file('bad.relay', 'def @main(%a: Tensor[(2, 3), float32], %b: Tensor[(4), float32]) {\n  add(%a, %b)\n}\n');
  const r = shapelog('infer', bad);
  t.is(r.code, 1);
  t.regex(r.err, /bad\.relay:2:3: error: add: cannot broadcast \[2, 3\] with \[4\]/);
  t.notRegex(r.err, /\n\s+at /);
  const conv = join(import.meta.dirname, '..', 'examples', 'relay', 'conv.relay');
  const plain = shapelog('infer', conv, '--explain', '%0');
  t.is(plain.code, 0, plain.err);
  t.regex(plain.out, /^%0 : Tensor\[\(1, 64, 112, 112\), float32\]/);
  t.regex(plain.out, /\n {2}= nn\.conv2d\(%data, %conv0_weight, strides=\[2, 2\]/);
  t.notRegex(plain.out, /\b(?:t?conv|pool)_[a-z_]+/);
  const e = shapelog('infer', conv, '--explain', '%0', '--internals');
  t.is(e.code, 0, e.err);
  // with --internals: down to the call's own fact, through rules of the relation library
  t.regex(e.out, /Conv2D\(tensor\(\[1, 3, 224, 224\], float32\), tensor\(\[64, 3, 7, 7\], float32\).*\(given\)/);
  t.regex(e.out, /by rule at relations\/conv\.rules:\d+:\d+/);
  t.is(shapelog('infer', bad, '--strategy', 'fast').code, 2);
});

test('typeof answers one JSON line per call, for both relation sets', (t) => {
  const input = [
    '{"op": "nn.conv2d", "attrs": {"channels": 64, "kernel_size": [7, 7], "strides": [2, 2], "padding": [3, 3]}, "args": ["Tensor[(1, 3, 224, 224), float32]", "_"]}',
    '{"op": "add", "args": ["Tensor[(2, 3), float32]", "Tensor[(4), float32]"]}',
    'not json',
  ].join('\n');
  for (const relations of ['rules', 'imperative']) {
    const r = spawnSync(process.execPath, [SHAPELOG_BIN, 'typeof', '--relations', relations], { input, encoding: 'utf8' });
    // lines 2 and 3 are errors: every line is answered, and the exit code says some failed (issue 15)
    t.is(r.status, 1, r.stderr);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    t.deepEqual(
      lines[0],
      { type: 'Tensor[(1, 64, 112, 112), float32]', args: ['Tensor[(1, 3, 224, 224), float32]', 'Tensor[(64, 3, 7, 7), float32]'] },
      relations,
    );
    t.truthy(lines[1]!['error'], relations);
    t.regex(String(lines[2]!['error']), /line 3/, relations);
  }
});
