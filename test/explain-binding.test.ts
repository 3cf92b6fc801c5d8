// `infer --explain %N` in the user's terms: the operator call in Relay syntax, its
// arguments and attributes (defaults marked), the relation and its formula; no internal
// helper relation; the same text from both strategies; the engine's derivation only
// with `internals`.
import test from 'ava';
import { inferText, type InferStrategy } from '../typing/infer.js';
import { explainBinding } from '../typing/explain-binding.js';

const SRC = `def @main(%x: Tensor[(1, 3, 8, 8), float32], %w) {
  %0 = nn.conv2d(%x, %w, channels=4, kernel_size=[3, 3], dilation=[1, 2]);
  %1 = nn.batch_norm(%0, %g, %b, %m, %v);
  %2 = %1.0;
  nn.relu(%2)
}`.replace('%w)', '%w, %g, %b, %m, %v)');

const explain = (s: InferStrategy, name: string, internals = false) => explainBinding(inferText(SRC, 't.relay', s), name, { internals });

test('an operator call is explained in Relay syntax, with arguments, attributes and the relation', (t) => {
  const text = explain('rules', '%0')!;
  t.true(text.startsWith('%0 : Tensor[(1, 4, 6, 4), float32]   (@main, line 2)\n'), text);
  t.true(text.includes('  = nn.conv2d(%x, %w, channels=4, kernel_size=[3, 3], dilation=[1, 2])\n'), text);
  t.regex(text, /data +%x : Tensor\[\(1, 3, 8, 8\), float32\] {3}\(annotated\)/);
  t.regex(text, /weight +%w : Tensor\[\(4, 3, 3, 3\), float32\] {3}\(inferred/);
  t.true(text.includes('    strides=[1, 1]   (default)\n'), text);
  t.true(text.includes('    dilation=[1, 2]\n'), text);
  t.regex(text, /typed by the relation Conv2D \(declared at relations\/conv\.rules:\d+\)/);
  t.regex(text, /result: .*floor/);
  // nothing of the engine's encoding
  t.notRegex(text, /\b(?:t?conv|pool)_[a-z_]+|tensor\(\[|\?\d/);
});

test('both strategies explain alike', (t) => {
  for (const name of ['%0', '%1', '%2', '%3', '%x', '%w']) t.is(explain('relay', name), explain('rules', name), name);
});

test('a projection names the tuple and the field; an unknown binding is null', (t) => {
  t.regex(explain('rules', '%2')!, /field 0 of %1 : \(Tensor\[\(1, 4, 6, 4\), float32\], Tensor\[\(4\), float32\], Tensor\[\(4\), float32\]\)/);
  t.is(explain('rules', '%9'), null);
});

test("internals add the engine's derivation (rules), with its helper relations", (t) => {
  const text = explain('rules', '%0', true)!;
  t.regex(text, /the engine's derivation:\n/);
  t.regex(text, /\b(?:t?conv|pool)_[a-z_]+\(/);
  t.regex(explain('relay', '%0', true)!, /no engine derivation/);
});
