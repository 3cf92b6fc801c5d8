// Operator declarations in rule files: what they declare (the catalogue is read from
// them), their static checks (each a located message), the examples of the built-in
// library, and a user's rule files on the command line (`--relations`).
import test from 'ava';
import { loadText } from '../solver/load.js';
import { declaredOps } from '../relations/declarations.js';
import { allOps, findOp } from '../relations/catalogue.js';
import { exampleDiagnostics } from '../typing/declaration-examples.js';
import { formatDiagnostic } from '../diagnostics/diagnostic.js';
import { runShapelog, scratchFolder } from './helpers.js';

const { file } = scratchFolder('shapelog-decl-');

const shapelog = (args: string[], input = '') => runShapelog(args, { input, timeoutMs: 120_000 });

/** The declarations of one text, and its diagnostics formatted as the CLI prints them. */
function declare(text: string) {
  const sources = loadText(text, 'd.rules');
  const r = declaredOps(sources.programs);
  const all = [...sources.diagnostics, ...r.diagnostics];
  return { ops: r.ops, diagnostics: all, shown: all.map((d) => formatDiagnostic(d, sources.texts)).join('\n') };
}

const SCALE = 'relation Scale(data, out; factor: int = 1, mode: string = "up").\n';

test('a declaration gives the catalogue entry: arguments, attributes with constraints, result, documentation, example', (t) => {
  const { ops, diagnostics } = declare(`${SCALE}
text NOTE = "a shared deviation".
attrs scaling {
  attr factor: int = 2, min 1, "the factor"
}
operator "my.scale"(data) : Scale -> tuple(factor, "factor tensors") {
  doc "scale a tensor"
  attrs scaling
  attr mode: string = "up", choices ["up", "down"], "the direction"
  formula "out = data"
  backwards "nothing"
  deviation NOTE
  deviation "another"
  example("Tensor[(2, 3), float32]"; factor: 3, mode: "down")
}
`);
  t.deepEqual(diagnostics, []);
  const op = ops[0]!;
  t.is(op.name, 'my.scale');
  t.is(op.relation, 'Scale');
  t.deepEqual(op.args, ['data']);
  t.deepEqual(
    op.attrs.map((a) => [a.name, a.type, a.default === 'required' ? 'required' : a.default.kind, a.min, a.choices, a.doc]),
    [
      ['factor', 'int', 'int', 1, undefined, 'the factor'],
      ['mode', 'string', 'string', undefined, ['up', 'down'], 'the direction'],
    ],
  );
  t.deepEqual(op.result, { kind: 'depends', attr: 'factor', rule: 'factor tensors' });
  t.deepEqual(op.deviations, ['a shared deviation', 'another']);
  t.deepEqual(op.example, { attrs: { factor: 3, mode: 'down' }, args: ['Tensor[(2, 3), float32]'] });
});

test('an attribute without a default is required; none, floats, bools and lists are defaults of their kinds', (t) => {
  const { ops, diagnostics } = declare(`relation R(data, out; a: int, b: int? = none, c: float = 1.5, d: bool = true, e: [int] = [1, 2]).
operator "r"(data) : R -> tensor {
  doc "r"
  attr a: int, "required"
  attr b: int?, = none, "none"
}
`);
  // `attr b: int?, = none` is malformed: the default comes before the first comma
  t.is(ops.length, 0);
  t.regex(diagnostics[0]!.message, /expected/);
  const good = declare(`relation R(data, out; a: int, b: int? = none, c: float = 1.5, d: bool = true, e: [int] = [1, 2]).
operator "r"(data) : R -> tensor {
  doc "r"
  attr a: int, "required"
  attr b: int? = none, "none"
  attr c: float = 1.5, "float"
  attr d: bool = true, "bool"
  attr e: ints = [1, -2], lengths [2], "list"
}
`);
  t.deepEqual(good.diagnostics, []);
  t.deepEqual(
    good.ops[0]!.attrs.map((a) => (a.default === 'required' ? 'required' : a.default.kind)),
    ['required', 'none', 'float', 'bool', 'list'],
  );
});

test('unknown relation: located at the name, with a suggestion', (t) => {
  const { shown } = declare('relation Identity(data, out).\noperator "my.relu"(data) : Identiti -> tensor {\n  doc "relu"\n}\n');
  t.regex(
    shown,
    /^d\.rules:2:28: error: unknown relation 'Identiti'; did you mean 'Identity'\?\n {2}operator "my\.relu"\(data\) : Identiti -> tensor \{\n {29}\^~~~~~~~/,
  );
});

test('a relation whose arity or attributes do not fit the operator', (t) => {
  const arity = declare(`${SCALE}operator "s"(data, other) : Scale -> tensor {\n  doc "s"\n}\n`);
  t.regex(arity.shown, /d\.rules:2:29: error: relation Scale takes 2 arguments \(data, out\), but s has 2 and a result/);
  const attr = declare(`${SCALE}operator "s"(data) : Scale -> tensor {\n  doc "s"\n  attr factr: int = 1, "f"\n}\n`);
  t.regex(attr.shown, /d\.rules:2:22: error: s: relation Scale has no attribute 'factr'; did you mean 'factor'\?/);
});

test('a default of the wrong type, or outside its constraints, at the default', (t) => {
  const wrong = declare(`${SCALE}operator "s"(data) : Scale -> tensor {\n  doc "s"\n  attr factor: int = "two", "f"\n}\n`);
  t.regex(wrong.shown, /^d\.rules:4:22: error: the default of attribute 'factor' must be an int \(got "two"\)\n {2}.*\n {23}\^~~~~/);
  const bound = declare(`${SCALE}operator "s"(data) : Scale -> tensor {\n  doc "s"\n  attr factor: int = 0, min 1, "f"\n}\n`);
  t.regex(bound.shown, /d\.rules:4:22: error: the default of attribute 'factor' must be >= 1 \(got 0\)/);
  const choice = declare(`${SCALE}operator "s"(data) : Scale -> tensor {\n  doc "s"\n  attr mode: string = "sideways", choices ["up", "down"], "m"\n}\n`);
  t.regex(choice.shown, /d\.rules:4:23: error: the default of attribute 'mode' must be one of "up", "down" \(got "sideways"\)/);
});

test('an attribute type or string format the declaration does not know', (t) => {
  const type = declare(`${SCALE}operator "s"(data) : Scale -> tensor {\n  doc "s"\n  attr factor: intz = 2, "f"\n}\n`);
  t.regex(
    type.shown,
    /^d\.rules:4:16: error: unknown attribute type 'intz'; did you mean 'int'\?\n.*\n {17}\^~~~\n {2}note: attribute types: int, float, float\?, bool, string, int\?, ints, ints\?, ints\|int, ints\|int\?, pairs/,
  );
  const format = declare(`${SCALE}operator "s"(data) : Scale -> tensor {\n  doc "s"\n  attr mode: string = "NCHW", format layuot, "m"\n}\n`);
  t.regex(format.shown, /d\.rules:4:38: error: unknown string format 'layuot'; did you mean 'layout'\?/);
});

test('a duplicate operator names the first declaration', (t) => {
  const { shown } = declare(`${SCALE}operator "s"(data) : Scale -> tensor { doc "one" }\noperator "s"(data) : Scale -> tensor { doc "two" }\n`);
  t.regex(shown, /^d\.rules:3:10: error: operator s is declared twice\n.*\n.*\n {2}note: first declared at d\.rules:2:10$/);
});

test('unknown texts and attribute groups, duplicate attributes, a missing doc', (t) => {
  const { shown } = declare(
    `${SCALE}text SHARED = "x".\noperator "s"(data) : Scale -> tensor {\n  deviation SHARD\n  attrs scaling\n  attr factor: int = 1, "a"\n  attr factor: int = 1, "b"\n}\n`,
  );
  t.regex(shown, /d\.rules:3:10: error: s has no doc line/);
  t.regex(shown, /d\.rules:4:13: error: unknown text 'SHARD'; did you mean 'SHARED'\?/);
  t.regex(shown, /d\.rules:5:3: error: unknown attribute group 'scaling'/);
  t.regex(shown, /d\.rules:7:3: error: s has two attributes or arguments named 'factor'/);
});

test('a malformed declaration is a syntax error at the spot', (t) => {
  const { shown, ops } = declare(`${SCALE}operator "s"(data) : Scale -> tensor {\n  doc "s"\n  attr factor: int = 2 "the factor"\n}\n`);
  t.is(ops.length, 0);
  t.regex(shown, /^d\.rules:4:24: error: expected "," but found """\n {2} {2}attr factor: int = 2 "the factor"\n {2} {23}\^/);
  const result = declare(`${SCALE}operator "s"(data) : Scale -> tensr { doc "s" }\n`);
  t.regex(result.shown, /^d\.rules:2:31: error: expected result \(tensor or tuple\(\.\.\.\)\) but found "tensr"/);
});

test('an example whose arguments or attributes do not fit the declaration', (t) => {
  const { shown } = declare(
    `${SCALE}operator "s"(data) : Scale -> tensor {\n  doc "s"\n  attr factor: int = 1, "f"\n  example("Tensor[(2), float32]", "_"; factor: "x", fator: 2)\n}\n`,
  );
  t.regex(shown, /d\.rules:5:3: error: the example of s has 2 arguments; s takes 1 \(data\)/);
  t.regex(shown, /d\.rules:5:48: error: the example's factor must be an int \(got "x"\)/);
  t.regex(shown, /d\.rules:5:53: error: the example of s gives 'fator', which is not an attribute of s; did you mean 'factor'\?/);
});

test('every operator of the built-in library is declared once, with a doc line and an example that types', (t) => {
  const ops = allOps();
  t.is(ops.length, 204);
  t.is(new Set(ops.map((o) => o.name)).size, ops.length);
  for (const op of ops) {
    t.true(op.doc.length > 0, op.name);
    t.not(op.example, undefined, op.name);
    t.true(op.span?.file.startsWith('relations/'), op.name);
  }
  t.deepEqual(
    exampleDiagnostics(ops).map((d) => d.message),
    [],
  );
  t.is(findOp('nn.conv2d')?.relation, 'Conv2D');
});

test('an example that does not type is an error at the example', (t) => {
  const op = { ...findOp('nn.conv2d')!, example: { attrs: { channels: 64, kernel_size: [7, 7] }, args: ['Tensor[(1, 3, 4, 4), float32]', '_'] } };
  const [d] = exampleDiagnostics([op]);
  t.regex(d!.message, /^the example of nn\.conv2d does not type: .*smaller than the dilated kernel/);
  t.is(d!.span, op.exampleSpan ?? op.span ?? null);
});

// ─── a user's rule files ────────────────────────────────────────────────────

const relu = JSON.stringify({ op: 'nn.relu', args: ['Tensor[(2, 3), float32]'] });

test('--relations adds the operators of a user file: examples/relations types its program', (t) => {
  const r = shapelog(['infer', 'examples/relations/attention.relay', '--relations', 'examples/relations/attention.rules', 'examples/relations/contract.rules']);
  t.is(r.code, 0, r.err);
  t.regex(r.out, /contrib\.attention\(%0, %1, %2, num_heads=12, causal=True\) \/\* ty=Tensor\[\(8, 128, 768\), float32\] \*\//);
  t.regex(r.out, /nn\.softmax\(%6\) \/\* ty=Tensor\[\(8, 12, 128, 128\), float32\] \*\//);
  const without = shapelog(['infer', 'examples/relations/attention.relay']);
  t.is(without.code, 1);
  t.regex(without.err, /unknown operator 'contrib\.contract'/);
});

test('--relations: an override of a built-in operator is a warning naming both places', (t) => {
  const p = file('override.rules', 'operator "nn.relu"(data) : Identity -> tensor {\n  doc "again"\n  example("Tensor[(2, 3), float32]")\n}\n');
  const r = shapelog(['typeof', '--relations', p], `${relu}\n`);
  t.is(r.code, 0, r.err);
  t.regex(
    r.err,
    /override\.rules:1:10: warning: operator nn\.relu overrides the built-in declaration\n[\s\S]*note: the built-in one is at relations\/elemwise\.rules:\d+:10/,
  );
  t.is(r.out, '{"type":"Tensor[(2, 3), float32]","args":["Tensor[(2, 3), float32]"]}\n');
});

test('--relations: bad user files are located errors, exit 1, no stack trace', (t) => {
  const cases: [string, string, RegExp][] = [
    [
      'malformed.rules',
      `${SCALE}operator "s"(data) : Scale -> tensor {\n  attr factor: int = 2 "f"\n}\n`,
      /malformed\.rules:3:24: error: expected "," but found """/,
    ],
    [
      'type.rules',
      `${SCALE}operator "s"(data) : Scale -> tensor {\n  doc "s"\n  attr factor: integer = 2, "f"\n}\n`,
      /type\.rules:4:16: error: unknown attribute type 'integer'/,
    ],
    [
      'redefine.rules',
      'relation Conv2D(data, out).\n',
      /redefine\.rules:1:1: error: relation Conv2D is declared twice\n[\s\S]*note: first declared at relations\/conv\.rules/,
    ],
    [
      'arity.rules',
      'broadcast_shape(A, B) :- A = B.\n',
      /arity\.rules:1:1: error: broadcast_shape is used with 2 arguments here but with 3 at relations\/lib\.rules/,
    ],
    [
      'example.rules',
      `${SCALE}Out = In :- Scale(In, Out).\nerror("factor must be positive") :- Scale(_, _; factor: F), F < 1.\noperator "s"(data) : Scale -> tensor {\n  doc "s"\n  attr factor: int = 1, "f"\n  example("Tensor[(2), float32]"; factor: 0)\n}\n`,
      /example\.rules:7:3: error: the example of s does not type: s: factor must be positive\n {2} {2}example/,
    ],
  ];
  for (const [name, text, expected] of cases) {
    const r = shapelog(['typeof', '--relations', file(name, text)], `${relu}\n`);
    t.is(r.code, 1, name);
    t.regex(r.err, expected, name);
    t.notRegex(r.err, /\n\s+at .*:\d+:\d+/, name);
    t.is(r.out, '', name);
  }
});

test('optional arguments: `name?` gives requiredArgs; a required argument after an optional one is an error at it', (t) => {
  const two = 'relation Two(a, b, c, out).\n';
  const ok = declare(`${two}operator "t"(a, b?, c?) : Two -> tensor {\n  doc "t"\n}\n`);
  t.deepEqual(ok.diagnostics, []);
  t.like(ok.ops[0], { args: ['a', 'b', 'c'], requiredArgs: 1 });
  t.is(declare(`${two}operator "t"(a, b, c) : Two -> tensor {\n  doc "t"\n}\n`).ops[0]!.requiredArgs, undefined);
  const bad = declare(`${two}operator "t"(a, b?, c) : Two -> tensor {\n  doc "t"\n}\n`);
  t.regex(bad.shown, /^d\.rules:2:21: error: t: argument 'c' follows an optional argument, so it must be optional too \(write 'c\?'\)/);
  t.is(findOp('nn.pad')?.requiredArgs, 1);
});
