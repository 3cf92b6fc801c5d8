// Symbolic sizes in attributes (issue 10, point 5): TVM's IndexExpr attributes such as
// image.resize1d/2d/3d's `size` take size variables (tests/python/relay/test_op_level5.py,
// test_resize2d_infer_type: `relay.image.resize2d(x, (th, tw))` types as (n, c, th, tw)).
// Relay text writes them as TVM prints them (`size=[th, tw]`), JSON as strings
// (`"size": ["th", "tw"]`). Both strategies must agree with TVM's expectation; the
// reference executor cannot run a symbolic size and must say so rather than guess.
import test from 'ava';
import { parseRelay } from '../frontends/relay/parse.js';
import { printModule } from '../frontends/relay/print.js';
import { referenceCheck } from '../proofs/reference/check.js';
import { inferJson, inferText } from '../typing/infer.js';
import { typeofCall, type TypeofRequest } from '../typing/typeof.js';

const STRATEGIES = ['rules', 'relay'] as const;

function answers(c: TypeofRequest): string[] {
  return STRATEGIES.map((s) => {
    const a = typeofCall(c, s);
    return 'type' in a ? a.type : `error: ${a.error}`;
  });
}

test('image.resize2d: size variables, mixed with ints and expressions, in either layout', (t) => {
  const data = 'Tensor[(n, c, h, w), int8]';
  t.deepEqual(answers({ op: 'image.resize2d', attrs: { size: ['th', 'tw'] }, args: [data] }), Array(2).fill('Tensor[(n, c, th, tw), int8]'));
  t.deepEqual(answers({ op: 'image.resize2d', attrs: { size: ['2*th', 5] }, args: [data] }), Array(2).fill('Tensor[(n, c, 2*th, 5), int8]'));
  t.deepEqual(
    answers({ op: 'image.resize2d', attrs: { size: ['th', 'h + 1'], layout: 'NHWC' }, args: ['Tensor[(1, h, w, 3), float32]'] }),
    Array(2).fill('Tensor[(1, th, h + 1, 3), float32]'),
  );
});

test('image.resize1d and image.resize3d take size variables too (TVM test_resize1d/3d_infer_type)', (t) => {
  t.deepEqual(answers({ op: 'image.resize1d', attrs: { size: ['tw'] }, args: ['Tensor[(n, c, w), int8]'] }), Array(2).fill('Tensor[(n, c, tw), int8]'));
  t.deepEqual(
    answers({ op: 'image.resize3d', attrs: { size: ['td', 4, 'tw'], layout: 'NDHWC' }, args: ['Tensor[(n, d, h, w, c), int8]'] }),
    Array(2).fill('Tensor[(n, td, 4, tw, c), int8]'),
  );
});

test('a size that is not a size expression, or a list of the wrong length, is an attribute error', (t) => {
  for (const [size, message] of [
    [['th', 't w'], 'size must be a list of 2 sizes (ints or size variables) (got ["th", "t w"])'],
    [['th'], 'size must be a list of 2 sizes (got ["th"])'],
    [['th', -1], 'size must be >= 0 (got ["th", -1])'],
    [['th', true], 'size must be a list of 2 sizes (ints or size variables) (got ["th", True])'],
  ] as const) {
    for (const a of answers({ op: 'image.resize2d', attrs: { size: [...size] }, args: ['Tensor[(1, 3, 4, 4), float32]'] })) t.true(a.endsWith(message), a);
  }
});

test('Relay text: size variables and expressions in an attribute list type, and print back as written', (t) => {
  const src = `#[version = "0.0.5"]
def @main(%x: Tensor[(n, c, h, w), int8]) {
  %0 = image.resize2d(%x, size=[th, tw]);
  %1 = image.resize2d(%x, size=[2*th, (tw + 1)], layout="NCHW");
  (%0, %1)
}
`;
  for (const strategy of STRATEGIES) {
    const r = inferJson(inferText(src, 'resize.relay', strategy));
    t.deepEqual(
      r.diagnostics.filter((d) => d.severity === 'error'),
      [],
      strategy,
    );
    t.is(r.functions['main'], 'fn (Tensor[(n, c, h, w), int8]) -> (Tensor[(n, c, th, tw), int8], Tensor[(n, c, 2*th, tw + 1), int8])', strategy);
  }
  const printed = printModule(parseRelay(src, 'resize.relay'));
  t.true(printed.includes('size=[th, tw]'), printed);
  t.true(printed.includes('size=[2*th, tw + 1]'), printed);
});

test('the reference executor skips a symbolic size instead of running some value for it', (t) => {
  const c: TypeofRequest = { op: 'image.resize2d', attrs: { size: ['th', 2] }, args: ['Tensor[(1, 2, 3, 3), float32]'] };
  const v = referenceCheck(c, typeofCall(c, 'rules'));
  t.is(v.kind, 'skipped');
  t.true(v.kind === 'skipped' && v.why.includes('symbolic size'), JSON.stringify(v));
});
