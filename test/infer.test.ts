// Type inference over Relay programs: both strategies, expected types worked out by hand.
import test from 'ava';
import { inferText, inferJson, typedText, type InferStrategy } from '../typing/infer.js';
import { ProgramError } from '../solver/run.js';

const STRATEGIES: InferStrategy[] = ['rules', 'relay'];

function types(src: string, strategy: InferStrategy): Record<string, string> {
  const r = inferText(src, 't.relay', strategy);
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((d) => d.message).join('\n'));
  return Object.fromEntries(r.outcome.bindings.map((b) => [b.name, b.type]));
}

function firstError(src: string, strategy: InferStrategy): { message: string; line: number | undefined; column: number | undefined } {
  try {
    const r = inferText(src, 't.relay', strategy);
    const d = r.diagnostics.find((x) => x.severity === 'error');
    if (!d) throw new Error('expected an error');
    return { message: d.message, line: d.span?.start.line, column: d.span?.start.column };
  } catch (e) {
    if (e instanceof ProgramError)
      return { message: e.diagnostics[0]!.message, line: e.diagnostics[0]!.span?.start.line, column: e.diagnostics[0]!.span?.start.column };
    throw e;
  }
}

for (const s of STRATEGIES) {
  test(`${s}: a conv/bn/relu/pool stem, with the weight and bn parameters inferred backwards`, (t) => {
    const ty = types(
      `def @main(%data: Tensor[(1, 3, 224, 224), float32], %w, %g, %b, %m, %v) {
  %0 = nn.conv2d(%data, %w, strides=[2, 2], padding=[3, 3], channels=64, kernel_size=[7, 7]);
  %1 = nn.batch_norm(%0, %g, %b, %m, %v);
  %2 = nn.relu(%1.0);
  nn.max_pool2d(%2, pool_size=[3, 3], strides=[2, 2], padding=[1, 1])
}`,
      s,
    );
    t.is(ty['%w'], 'Tensor[(64, 3, 7, 7), float32]');
    t.is(ty['%g'], 'Tensor[(64), float32]');
    t.is(ty['%v'], 'Tensor[(64), float32]');
    t.is(ty['%0'], 'Tensor[(1, 64, 112, 112), float32]');
    t.is(ty['%1'], '(Tensor[(1, 64, 112, 112), float32], Tensor[(64), float32], Tensor[(64), float32])');
    t.is(ty['%2'], 'Tensor[(1, 64, 112, 112), float32]');
  });

  test(`${s}: symbolic batch through dense, reshape and transpose`, (t) => {
    const ty = types(
      `def @main(%x: Tensor[(n, 128, 768), float32], %w: Tensor[(768, 768), float32]) {
  %0 = reshape(%x, newshape=[-1, 768]);
  %1 = nn.dense(%0, %w, units=768);
  %2 = reshape(%1, newshape=[-1, 128, 12, 64]);
  transpose(%2, axes=[0, 2, 1, 3])
}`,
      s,
    );
    t.is(ty['%0'], 'Tensor[(128*n, 768), float32]');
    t.is(ty['%1'], 'Tensor[(128*n, 768), float32]');
    t.is(ty['%2'], 'Tensor[(n, 128, 12, 64), float32]');
  });

  test(`${s}: polymorphic functions are instantiated at each call`, (t) => {
    const ty = types(
      `def @id[A](%x: A) -> A { %x }
def @main(%a: Tensor[(2), float32], %b: int64) {
  %0 = @id(%a);
  %1 = @id(%b);
  (%0, %1)
}`,
      s,
    );
    t.is(ty['%0'], 'Tensor[(2), float32]');
    t.is(ty['%1'], 'int64');
  });

  test(`${s}: ADTs, match and recursion through an annotated signature`, (t) => {
    const r = inferText(
      `type List[A] { Cons(A, List[A]), Nil }
def @len[A](%l: List[A]) -> int32 {
  match (%l) { Cons(_, %t) => add(1, @len(%t)), Nil => 0 }
}
def @main(%x: float32) { @len(Cons(%x, Nil)) }`,
      't.relay',
      s,
    );
    t.deepEqual(
      r.diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    t.is(inferJson(r).functions['main'], 'fn (float32) -> int32');
  });

  test(`${s}: a projection of a tuple whose type is known only later`, (t) => {
    const ty = types(
      `def @main(%x: Tensor[(6, 4), float32]) {
  %0 = fn (%t) { %t.1 };
  %1 = split(%x, indices_or_sections=3);
  %0(%1)
}`,
      s,
    );
    t.is(ty['%1'], '(Tensor[(2, 4), float32], Tensor[(2, 4), float32], Tensor[(2, 4), float32])');
  });

  test(`${s}: errors name the call site`, (t) => {
    const e = firstError('def @main(%a: Tensor[(2, 3), float32], %b: Tensor[(4), float32]) {\n  add(%a, %b)\n}', s);
    t.regex(e.message, /add: cannot broadcast/);
    t.deepEqual([e.line, e.column], [2, 3]);
    const d = firstError('def @main(%x: Tensor[(1, 784), float32], %w: Tensor[(10, 100), float32]) {\n  nn.dense(%x, %w)\n}', s);
    t.regex(d.message, /nn\.dense/);
    t.is(d.line, 2);
    const c = firstError('def @main(%c: Tensor[(2), float32], %x: float32) {\n  if (%c) { %x } else { %x }\n}', s);
    t.regex(c.message, /condition of if must be a bool scalar/);
  });

  test(`${s}: an unresolved hole asks for an annotation`, (t) => {
    const e = firstError('def @main(%x: Tensor[(2), float32], %w) {\n  %0 = add(%x, %x);\n  %0\n}', s);
    t.is(e.message, 'cannot infer the type of %w: annotate it');
    t.is(e.line, 1);
  });

  test(`${s}: a 100,000-binding chain infers without a stack overflow`, (t) => {
    const lines = ['def @main(%x: Tensor[(2, 2), float32]) {', '  %0 = add(%x, %x);'];
    for (let i = 1; i < 100_000; i++) lines.push(`  %${i} = nn.relu(%${i - 1});`);
    lines.push('  %99999', '}');
    const r = inferText(lines.join('\n'), 'chain.relay', s, { maxMillis: 120_000 });
    t.deepEqual(
      r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
      [],
    );
    t.is(r.outcome.bindings.at(-1)!.type, 'Tensor[(2, 2), float32]');
  });
}

test('unknown operators and attributes get suggestions', (t) => {
  for (const s of STRATEGIES) {
    t.is(firstError('def @main(%x: float32) { nn.rleu(%x) }', s).message, "unknown operator 'nn.rleu'; did you mean 'nn.relu'?");
    t.is(
      firstError('def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]) { nn.conv2d(%x, %w, stride=[2, 2]) }', s).message,
      "nn.conv2d has no attribute 'stride'; did you mean 'strides'?",
    );
  }
});

test('polymorphic recursion without annotations is a clear error', (t) => {
  const e = firstError('def @f[A](%x) { @f(%x) }\ndef @main() { @f(1) }', 'rules');
  t.regex(e.message, /polymorphic function @f needs a type on every parameter and on its result/);
});

for (const s of STRATEGIES) {
  test(`${s}: the printed program has TVM's inferred return type on each def and a type on each branch result`, (t) => {
    const src = `def @main(%x: Tensor[(1, 1000), float32], %w: Tensor[(10, 1000), float32], %c: bool) {
  %0 = nn.dense(%x, %w);
  %1 = if (%c) { nn.relu(%0) } else { sigmoid(%0) };
  %1
}`;
    const printed = typedText(inferText(src, 't.relay', s));
    const ty = 'Tensor[(1, 10), float32]';
    t.true(printed.includes(`def @main(%x: Tensor[(1, 1000), float32], %w: Tensor[(10, 1000), float32], %c: bool) -> ${ty} {`), printed);
    t.true(printed.includes(`    nn.relu(%0) /* ty=${ty} */\n`), printed);
    t.true(printed.includes(`    sigmoid(%0) /* ty=${ty} */\n`), printed);
    // what is printed reads back, and types the same
    t.is(typedText(inferText(printed, 't.relay', s)), printed);
  });
}
