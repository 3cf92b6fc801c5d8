// Typing GT4Py's iterator IR (frontends/itir/, typing/itir/): every expected type below
// is copied from the original implementation's test file (GridTools/gt4py,
// tests/functional_tests/iterator_tests/test_type_inference.py, 2022, the version with
// `(…, T₁, …)₂³` partial tuples; the test's name is given for each), written in our
// s-expression syntax. Both strategies (the rules and the imperative twin) must print
// exactly the original's text. The fencil with definitions expects real
// let-polymorphism (x and y get their own T₅), as the later version of that test does
// where the 2022 one records "TODO: proper let-polymorphism".
import test from 'ava';
import { formatDiagnostic } from '../diagnostics/diagnostic.js';
import { inferItirText, itirJson, itirText, type ItirStrategy } from '../typing/itir/infer.js';

const DOMAIN = '(domain (named_range @IDim 0 i) (named_range @JDim 0 j) (named_range @KDim 0 k))';

/** [original test name, program, expected type] */
const ORACLE: readonly [string, string, string][] = [
  ['test_sym_ref', 'x', 'T₀'],
  ['test_bool_literal', 'false', 'bool⁰'],
  ['test_int_literal', '3', 'int⁰'],
  ['test_float_literal', '3.0', 'float⁰'],
  ['test_deref', 'deref', '(It[T₀¹]) → T₀¹'],
  ['test_deref_call', '(deref x)', 'T₀¹'],
  ['test_lambda', '(lambda (x) x)', '(T₀) → T₀'],
  ['test_plus', 'plus', '(T₀¹, T₀¹) → T₀¹'],
  ['test_eq', 'eq', '(T₀¹, T₀¹) → bool¹'],
  ['test_if', 'if_', '(bool⁰, T₁⁰, T₁⁰) → T₁⁰'],
  ['test_not', 'not_', '(bool⁰) → bool⁰'],
  ['test_and', 'and_', '(bool⁰, bool⁰) → bool⁰'],
  ['test_lift', 'lift', '((It[T¹], …)₀ → T₂¹) → (It[T¹], …)₀ → It[T₂¹]'],
  ['test_lift_application', '(lift deref)', '(It[T₀¹]) → It[T₀¹]'],
  ['test_lifted_call', '((lift deref) x)', 'It[T₀¹]'],
  ['test_make_tuple', '(make_tuple true 42.0 x)', '(bool, float, T₀)¹'],
  ['test_tuple_get', '(tuple_get 1 (make_tuple true 42.0))', 'float⁰'],
  ['test_tuple_get_in_lambda', '(lambda (x) (tuple_get 1 x))', '(ItOrVal₀[(…, T₁, …)₂³]) → ItOrVal₀[T₁³]'],
  ['test_reduce', '(reduce (lambda (acc x y) (plus acc (multiplies x y))) 0)', '(It[int⁰], It[int⁰]) → int⁰'],
  ['test_scan', '(scan (lambda (acc x y) (plus acc (multiplies (deref x) (deref y)))) true 0)', '(It[intᶜ], It[intᶜ]) → intᶜ'],
  ['test_shift', "(shift 'i 1)", '(It[T₀¹]) → It[T₀¹]'],
  ['test_function_definition', '(define (f x) x)', 'f :: (T₀) → T₀'],
  ['test_stencil_closure', `(closure ${DOMAIN} deref out (inp))`, '(It[T₀ᶜ]) ⇒ It[T₀ᶜ]'],
  [
    'test_fencil_definition',
    `(fencil f (i j k a b c d) (closure ${DOMAIN} deref b (a)) (closure ${DOMAIN} deref d (c)))`,
    '{f(intˢ, intˢ, intˢ, It[T₀ᶜ], It[T₀ᶜ], It[T₁ᶜ], It[T₁ᶜ])}',
  ],
  [
    'test_fencil_definition_with_function_definitions',
    `(fencil foo (i j k a b c d x y) (define (f x) x) (define (g x) (deref x))
       (closure ${DOMAIN} g b (a)) (closure ${DOMAIN} deref d (c)) (closure ${DOMAIN} (lambda (y) (g (f y))) y (x)))`,
    '{f :: (T₀) → T₀, g :: (It[T₁²]) → T₁², foo(intˢ, intˢ, intˢ, It[T₃ᶜ], It[T₃ᶜ], It[T₄ᶜ], It[T₄ᶜ], It[T₅ᶜ], It[T₅ᶜ])}',
  ],
];

const STRATEGIES: readonly ItirStrategy[] = ['rules', 'twin'];

function typeOf(src: string, strategy: ItirStrategy): string {
  const o = inferItirText(src, 'test.itir', strategy);
  if (o.diagnostics.length > 0) return o.diagnostics.map((d) => formatDiagnostic(d, new Map([['test.itir', src]]))).join('\n');
  return itirText(o).trimEnd();
}

for (const strategy of STRATEGIES)
  for (const [name, src, expected] of ORACLE)
    test(`${strategy}: ${name}`, (t) => {
      t.is(typeOf(src, strategy), expected);
    });

test('definitions in any order; the fencil prints them in file order', (t) => {
  const src = `(fencil foo (i j k a b c d x y)
    (closure ${DOMAIN} g b (a)) (closure ${DOMAIN} (lambda (y) (g (f y))) y (x))
    (define (g x) (deref (f x))) (define (f x) x))`;
  for (const s of STRATEGIES) t.is(typeOf(src, s), '{g :: (It[T₀¹]) → T₀¹, f :: (T₂) → T₂, foo(intˢ, intˢ, intˢ, It[T₃ᶜ], It[T₃ᶜ], T₄, T₅, It[T₆ᶜ], It[T₆ᶜ])}');
});

test('let-polymorphism: one definition used at an int and a bool', (t) => {
  const src = `(define (id x) x) (define (use a) (make_tuple (id 1) (id true) (id a)))`;
  for (const s of STRATEGIES) t.is(typeOf(src, s), 'id :: (T₀) → T₀\nuse :: (T₀¹) → (int, bool, T₀)¹');
});

test('--ascii prints the same types in ASCII', (t) => {
  const o = inferItirText(`(fencil foo (i j k a b c d x y) (define (f x) x) (define (g x) (deref x)) (closure ${DOMAIN} g b (a)))`, 'a.itir');
  t.is(itirText(o, true).trimEnd(), '{f :: (T0) -> T0, g :: (It[T1^2]) -> T1^2, foo(int^s, int^s, int^s, It[T3^c], It[T3^c], T4, T5, T6, T7)}');
  t.is(itirText(inferItirText('lift', 'a.itir'), true).trimEnd(), '((It[T^1], ...)0 -> T2^1) -> (It[T^1], ...)0 -> It[T2^1]');
  t.is(itirText(inferItirText('(lambda (x) (tuple_get 1 x))', 'a.itir'), true).trimEnd(), '(ItOrVal0[(..., T1, ...)2^3]) -> ItOrVal0[T1^3]');
});

test('--json gives the structure with renumbered variables', (t) => {
  const j = itirJson(inferItirText('deref', 'a.itir')) as { items: { type: string; structure: unknown }[] };
  t.is(j.items[0]!.type, '(It[T₀¹]) → T₀¹');
  t.deepEqual(j.items[0]!.structure, {
    kind: 'fun',
    args: { kind: 'tuple', elems: [{ kind: 'val', val_kind: { kind: 'iterator' }, dtype: { kind: 'var', index: 0 }, size: { kind: 'var', index: 1 } }] },
    ret: { kind: 'val', val_kind: { kind: 'value' }, dtype: { kind: 'var', index: 0 }, size: { kind: 'var', index: 1 } },
  });
});

/** [what, program, expected first error: "line:column: message" (a prefix of the message)] */
const BAD: readonly [string, string, string][] = [
  ['call of a non-function', '(let ((x 1))\n  (x 2))', '2:3: cannot call x: its type int⁰ is not a function'],
  ['too many arguments', '(deref x y)', '1:1: deref takes 1 argument, but is given 2'],
  ['too few arguments to a lambda', '((lambda (x y) x) 1)', '1:1: this expression takes 2 arguments, but is given 1'],
  ['occurs check', '(lambda (x) (x x))', '1:13: infinite type'],
  ['tuple_get beyond a known tuple', '(tuple_get 2 (make_tuple 1 2))', '1:1: tuple_get 2: the index is beyond the tuple'],
  ['conflicting argument types name both', '(plus 1 true)', '1:1: plus has type (T₀¹, T₀¹) → T₀¹, but this call needs (int², bool³) → T₄ (int vs bool)'],
  ['recursion', '(define (f x) (g x))\n(define (g x) (f x))', '2:16: recursion is not supported: f → g → f'],
  ['self-recursion', '(define (f x) (f x))', '1:16: recursion is not supported: f refers to itself'],
  ['unclosed parenthesis', '(lambda (x)\n  (deref x)', '1:1: this parenthesis is never closed'],
  ['stray parenthesis', '(deref x))', '1:10: this parenthesis closes nothing'],
  ['malformed atom', '(deref 1x)', '1:8: malformed literal or symbol 1x'],
  ['unexpected character', '(deref #)', '1:8: expected "(", ")", or atom but found "#"'],
  ['tuple_get needs a literal index', '(tuple_get i x)', '1:12: the first argument of tuple_get must be an integer literal'],
  ['shift used as a value', '(lift shift)', '1:7: shift must be called directly'],
  ['lambda without parameter list', '(lambda x x)', '1:9: a lambda needs a parameter list'],
  ['duplicate definition', '(define (f x) x)\n(define (f y) y)', '2:10: f is defined twice'],
  ['closure output not a column iterator', `(closure ${DOMAIN} deref 1 (inp))`, 'the output of a closure must be a column iterator'],
];

for (const [what, src, expected] of BAD)
  test(`bad input: ${what}`, (t) => {
    for (const s of STRATEGIES) {
      const o = inferItirText(src, 'bad.itir', s);
      t.true(
        o.diagnostics.some((d) => d.severity === 'error'),
        `${s} accepts it`,
      );
      if (s === 'rules' || /recursion|expected|closes|closed|literal|directly|parameter|defined twice/.test(expected)) {
        const d = o.diagnostics[0]!;
        const got = `${d.span?.start.line}:${d.span?.start.column}: ${d.message}`;
        t.true(got.startsWith(expected) || (d.span !== null && !/^\d/.test(expected) && d.message.startsWith(expected)), `${s}: ${got}`);
      }
    }
  });

test('nesting 100,000 deep is a located error, not a stack overflow', (t) => {
  const src = `${'(deref '.repeat(100_000)}x${')'.repeat(100_000)}`;
  for (const s of STRATEGIES) {
    const o = inferItirText(src, 'deep.itir', s);
    t.is(o.diagnostics.length, 1);
    t.regex(o.diagnostics[0]!.message, /nested deeper than 1000 levels/);
    t.is(o.diagnostics[0]!.span?.start.column, 7 * 1000 + 1);
  }
});

test('a long flat program (100,000 definitions in a chain) types without deep recursion', (t) => {
  const n = 20_000;
  const defs = ['(define (f0 x) (deref x))'];
  for (let i = 1; i < n; i++) defs.push(`(define (f${i} x) (f${i - 1} x))`);
  const o = inferItirText(defs.join('\n'), 'long.itir', 'rules');
  t.deepEqual(o.diagnostics, []);
  t.is(showLast(itirText(o)), `f${n - 1} :: (It[T₀¹]) → T₀¹`);
});

function showLast(text: string): string {
  const lines = text.trimEnd().split('\n');
  return lines[lines.length - 1]!;
}

// ------------------------------------------------------------------ the command line

import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const shapelog = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin', 'shapelog.js'), ...args], { encoding: 'utf8', timeout: 120_000, cwd: ROOT });

test('cli: shapelog infer FILE.itir prints the types (rules and twin), --ascii, --json', (t) => {
  for (const s of ['rules', 'twin']) {
    const r = shapelog('infer', 'examples/itir/tuples.itir', '--strategy', s);
    t.is(r.status, 0, r.stderr);
    t.is(r.stdout, 'swap :: (ItOrVal₀[(T₁, T₂, …)₃⁴]) → ItOrVal₀[(T₂, T₁)⁴]\nsecond :: (ItOrVal₀[(…, T₁, …)₂³]) → ItOrVal₀[T₁³]\nuse :: () → int⁰\n');
  }
  t.is(shapelog('infer', 'examples/itir/lift.itir', '--ascii').stdout, '(It[T0^1]) -> T0^1\n');
  const j = JSON.parse(shapelog('infer', 'examples/itir/fencil.itir', '--json').stdout) as { items: { type: string }[] };
  t.is(j.items[0]!.type, '{f :: (T₀) → T₀, g :: (It[T₁²]) → T₁², foo(intˢ, intˢ, intˢ, It[T₃ᶜ], It[T₃ᶜ], It[T₄ᶜ], It[T₄ᶜ], It[T₅ᶜ], It[T₅ᶜ])}');
});

test('cli: user mistakes exit 1 with file:line:column, the line and a caret, and no stack trace', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'itir-'));
  const deep = join(dir, 'deep.itir');
  writeFileSync(deep, `${'(deref '.repeat(100_000)}x${')'.repeat(100_000)}`);
  const cases: [string, RegExp][] = [
    ['examples/itir/bad/mismatch.itir', /^examples\/itir\/bad\/mismatch\.itir:4:33: error: less has type \(T₀¹, T₀¹\) → bool¹/],
    ['examples/itir/bad/recursion.itir', /^examples\/itir\/bad\/recursion\.itir:2:18: error: recursion is not supported: even → odd → even/],
    [deep, /deep\.itir:1:7001: error: parentheses nested deeper than 1000 levels/],
  ];
  for (const [file, expected] of cases)
    for (const s of ['rules', 'twin']) {
      const r = shapelog('infer', file, '--strategy', s);
      t.is(r.status, 1, `${file} ${s}`);
      if (s === 'rules' || !/mismatch/.test(file)) t.regex(r.stderr, expected);
      t.regex(r.stderr, /\n {2}\s*\^/);
      t.notRegex(r.stderr, /\n\s+at .*\.(ts|js):\d+/);
    }
});
