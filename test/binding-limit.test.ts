// Relay programs too big to type are refused before parsing, with a located error that
// names the limit and `--max-bindings` (frontends/relay/binding-count.ts); programs
// within the limit are typed as before.
import test from 'ava';
import { inferText } from '../typing/infer.js';
import { ProgramError } from '../solver/run.js';
import { DEFAULT_MAX_BINDINGS } from '../frontends/relay/binding-count.js';
import { runShapelog, scratchFolder } from './helpers.js';

/** A chain of `n` elementwise bindings, one per line, as TVM prints them. */
function chain(n: number): string {
  const lines = [`#[version = "0.0.5"]`, `def @main(%x: Tensor[(8, 16), float32]) {`, `  %0 = add(%x, %x);`];
  for (let i = 1; i < n; i++) lines.push(`  %${i} = multiply(%${i - 1}, %x);`);
  lines.push(`  %${n - 1}`, `}`, '');
  return lines.join('\n');
}

test('a program over the limit is refused at its first binding past it, naming the limit and the flag', (t) => {
  for (const strategy of ['rules', 'relay'] as const) {
    const e = t.throws(() => inferText(chain(5), 'chain.relay', strategy, { maxBindings: 3 }), { instanceOf: ProgramError });
    t.is(e?.diagnostics.length, 1);
    const d = e!.diagnostics[0]!;
    t.is(d.code, 'limit');
    t.is(d.message, 'the program has 5 bindings, more than the limit of 3; this is binding 4');
    t.deepEqual([d.span?.file, d.span?.start.line, d.span?.start.column], ['chain.relay', 6, 3]);
    t.regex(d.notes.join('\n'), /--max-bindings 5/);
  }
});

test('a program at the limit is typed; `let %x =` bindings count', (t) => {
  const r = inferText(chain(3), 'chain.relay', 'relay', { maxBindings: 3 });
  t.deepEqual(
    r.outcome.bindings.filter((b) => b.name !== '%x').map((b) => [b.name, b.type]),
    ['%0', '%1', '%2'].map((n) => [n, 'Tensor[(8, 16), float32]']),
  );
  const lets = 'def @main(%x: Tensor[(2), float32]) {\n  let %a = add(%x, %x);\n  let %b = add(%a, %x);\n  %b\n}\n';
  t.throws(() => inferText(lets, 'let.relay', 'relay', { maxBindings: 1 }), { instanceOf: ProgramError, message: /.*/ });
  t.is(inferText(lets, 'let.relay', 'relay', { maxBindings: 2 }).diagnostics.filter((d) => d.severity === 'error').length, 0);
});

test('by default a program of more than 500,000 bindings is refused before it is parsed', (t) => {
  t.is(DEFAULT_MAX_BINDINGS, 500_000);
  const big = chain(DEFAULT_MAX_BINDINGS + 1);
  const before = process.memoryUsage().heapUsed;
  const e = t.throws(() => inferText(big, 'big.relay', 'rules'), { instanceOf: ProgramError });
  t.is(e?.diagnostics[0]?.message, 'the program has 500,001 bindings, more than the limit of 500,000; this is binding 500,001');
  // nothing was parsed: the heap did not grow by anything like a syntax tree of the program
  t.true(process.memoryUsage().heapUsed - before < 64 * 2 ** 20);
});

test('infer --max-bindings: a refusal is exit 1 with the located error; a bad value is a usage error', (t) => {
  const dir = scratchFolder('max-bindings-');
  const file = dir.file('chain.relay', chain(4));
  const r = runShapelog(['infer', file, '--max-bindings', '2']);
  t.is(r.code, 1, r.err);
  t.regex(r.err, /chain\.relay:5:3: error: the program has 4 bindings, more than the limit of 2/);
  t.regex(r.err, /--max-bindings 4/);
  t.notRegex(r.err, /\n\s+at /);
  t.is(runShapelog(['infer', file, '--max-bindings', '4', '--strategy', 'relay']).code, 0);
  t.is(runShapelog(['infer', file, '--max-bindings', 'many']).code, 2);
});
