// layout_transform (issue 10, point 4): TVM's expectations (test_any.py
// test_any_layout_transform) typed by both strategies and confirmed by the reference
// executor, which moves every element through relations/layout.ts's index maps and
// reads the shape off its result; symbolic dims with the divisibility assumption;
// invalid and mismatched layouts as errors, also in a Relay program (located).
import test from 'ava';
import { referenceCheck } from '../proofs/reference/check.js';
import { attrs } from '../relations/imperative/solve-one.js';
import { typeofOp } from '../relations/imperative/solve-one.js';
import { inferJson, inferText } from '../typing/infer.js';
import { typeofCall, type TypeofRequest } from '../typing/typeof.js';

const STRATEGIES = ['rules', 'relay'] as const;
const lt = (data: string, src_layout: string, dst_layout: string): TypeofRequest => ({
  op: 'layout_transform',
  attrs: { src_layout, dst_layout },
  args: [data],
});

test('packed to packed, into and out of packed layouts: both strategies and the executor agree with TVM', (t) => {
  for (const [c, want] of [
    [lt('Tensor[(1, 2, 8, 8, 16), float32]', 'NCHW16c', 'NCHW2c'), 'Tensor[(1, 16, 8, 8, 2), float32]'],
    [lt('Tensor[(1, 2, 3, 3, 4), float32]', 'NCHW4c', 'NCHW8c'), 'Tensor[(1, 1, 3, 3, 8), float32]'],
    [lt('Tensor[(3, 4, 5, 6, 6), float32]', 'NCHW6n', 'NHWC'), 'Tensor[(18, 5, 6, 4), float32]'],
    [lt('Tensor[(3, 4, 5, 6), float32]', 'NCHW', 'NCHW4c'), 'Tensor[(3, 1, 5, 6, 4), float32]'],
    [lt('Tensor[(16, 1), float32]', 'CH', 'C4cH'), 'Tensor[(4, 4, 1), float32]'],
  ] as const) {
    for (const s of STRATEGIES) {
      const a = typeofCall(c, s);
      t.is('type' in a ? a.type : a.error, want, `${s}: ${JSON.stringify(c)}`);
      if (s === 'rules' && c.args[0]!.match(/\d+/g)!.every((d) => Number(d) <= 8)) t.like(referenceCheck(c, a), { kind: 'agree' }, JSON.stringify(c));
    }
  }
});

test('NCHW4c to NCHW16c needs C divisible by 16: refused by both strategies and by the executor', (t) => {
  const c = lt('Tensor[(1, 3, 2, 2, 4), float32]', 'NCHW4c', 'NCHW16c');
  for (const s of STRATEGIES) {
    const a = typeofCall(c, s);
    t.true('error' in a && /axis "?C"? of extent 12 is not divisible by the factor 16/.test(a.error), `${s}: ${JSON.stringify(a)}`);
    t.like(referenceCheck(c, a), { kind: 'agree' });
  }
});

test('a symbolic channel count splits as c / 4 under the assumption c % 4 == 0', (t) => {
  for (const s of STRATEGIES) t.like(typeofCall(lt('Tensor[(n, c, h, w), float32]', 'NCHW', 'NCHW4c'), s), { type: 'Tensor[(n, c / 4, h, w, 4), float32]' }, s);
  const twin = typeofOp('layout_transform', attrs({ src_layout: 'NCHW', dst_layout: 'NCHW4c' }), ['Tensor[(n, c, h, w), float32]']);
  t.like(twin, { residuals: ['c % 4 = 0'] });
  for (const s of STRATEGIES) t.like(typeofCall(lt('Tensor[(n, 4*c, h, w), float32]', 'NCHW', 'NCHW4c'), s), { type: 'Tensor[(n, c, h, w, 4), float32]' }, s);
});

test('invalid layouts, different primal axes, a wrong rank or a wrong sub-axis dim are errors', (t) => {
  for (const [c, message] of [
    [lt('Tensor[(1, 4, 2, 2), float32]', 'NCHW', 'NC4hW'), 'sub-axis h without its primal axis H'],
    [lt('Tensor[(1, 4, 2, 2), float32]', 'NCHW', 'NCDHW'), 'cannot convert from "NCHW" to "NCDHW": their primal axes differ'],
    [lt('Tensor[(1, 4, 2), float32]', 'NCHW', 'NHWC'), 'the data has rank 3, but src_layout "NCHW" has 4 axes'],
    [lt('Tensor[(1, 1, 2, 2, 5), float32]', 'NCHW4c', 'NCHW'), 'dim 4 of the data is 5, but it is the sub-axis of'],
  ] as const) {
    for (const s of STRATEGIES) {
      const a = typeofCall(c, s);
      t.true('error' in a && a.error.includes(message), `${s}: ${JSON.stringify(a)}`);
    }
  }
});

test('in a Relay program: a round trip NCHW -> NCHW16c -> NCHW, and a located error', (t) => {
  const src = `#[version = "0.0.5"]
def @main(%x: Tensor[(1, 32, 7, 7), float32]) {
  %0 = layout_transform(%x, src_layout="NCHW", dst_layout="NCHW16c");
  layout_transform(%0, src_layout="NCHW16c", dst_layout="NCHW")
}
`;
  for (const s of STRATEGIES) {
    const r = inferJson(inferText(src, 'lt.relay', s));
    t.deepEqual(r.diagnostics, [], s);
    t.is(r.functions['main'], 'fn (Tensor[(1, 32, 7, 7), float32]) -> Tensor[(1, 32, 7, 7), float32]', s);
    const bad = inferJson(inferText(src.replace('dst_layout="NCHW")', 'dst_layout="NCDHW")'), 'lt.relay', s));
    const e = bad.diagnostics.find((d) => d.severity === 'error');
    t.truthy(e, s);
    t.regex(`${e?.message}`, /their primal axes differ/, s);
  }
});
