// Cross-check of the iterator IR's two typings: the rules (relations/itir/itir.rules on
// the engine) and the imperative twin (typing/itir/twin.ts) must give the same type up
// to renaming of variables (both print through the same renumbering), or both an
// error, on random programs drawn from the grammar (fast-check): expressions over every
// builtin, lambdas, lets, tuples, and files of definitions that use each other in any
// order. Most random programs are ill-typed; the generator also builds well-typed ones
// from typed templates so that both outcomes are well represented.
import test from 'ava';
import fc from 'fast-check';
import { inferItirText, itirText } from '../typing/itir/infer.js';
import { showType } from '../typing/itir/display.js';
import { BUILTINS as ITIR_BUILTINS } from '../frontends/itir/ast.js';

const NAMES = ['x', 'y', 'z', 'a', 'b'];
/** Every builtin of the IR but those the generator writes in their own call forms below (`make_tuple`, `tuple_get`, `shift`). */
const BUILTINS = ITIR_BUILTINS.filter((b) => b !== 'make_tuple' && b !== 'tuple_get' && b !== 'shift');

const atom = fc.oneof(
  fc.constantFrom(...NAMES),
  fc.constantFrom(...BUILTINS),
  fc.constantFrom('0', '1', '2.5', 'true', 'false', "'V2E", "'i", '@IDim', 'f', 'g', 'h'),
);

const { expr } = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(fc.subarray(NAMES, { minLength: 0, maxLength: 3 }), tie('expr')).map(([ps, b]) => `(lambda (${ps.join(' ')}) ${b})`),
    fc.tuple(tie('expr'), fc.array(tie('expr'), { maxLength: 3 })).map(([f, as]) => `(${[f, ...as].join(' ')})`),
    fc.tuple(fc.constantFrom(...BUILTINS), fc.array(tie('expr'), { minLength: 1, maxLength: 3 })).map(([f, as]) => `(${[f, ...as].join(' ')})`),
    fc.array(tie('expr'), { maxLength: 3 }).map((as) => `(make_tuple ${as.join(' ')})`),
    fc.tuple(fc.nat(3), tie('expr')).map(([i, e]) => `(tuple_get ${i} ${e})`),
    fc.tuple(fc.constantFrom(...NAMES), tie('expr'), tie('expr')).map(([n, v, b]) => `(let ((${n} ${v})) ${b})`),
    fc.array(fc.constantFrom("'V2E", "'i", '1', '0'), { maxLength: 3 }).map((os) => `(shift ${os.join(' ')})`),
  ),
}));

/** Typed templates: programs that are well-typed by construction, with random parts plugged in. */
const wellTyped = fc.oneof(
  fc.constantFrom(
    '(lift (lambda (x y) (plus (deref x) (deref y))))',
    "(lambda (it) (deref ((shift 'i 1) it)))",
    '(reduce (lambda (acc x) (plus acc x)) 0)',
    '(scan (lambda (acc x) (plus acc (deref x))) true 0.0)',
    '(lambda (t) (make_tuple (tuple_get 0 t) (tuple_get 2 t)))',
    '(lambda (p) (if_ (less (deref p) 1) (deref p) 2))',
    '((lift (lambda (a) (deref a))) x)',
    '(lambda (x) (tuple_get 1 (deref x)))',
    '(domain (named_range @IDim 0 n) (named_range @JDim 0 m))',
  ),
  fc
    .tuple(fc.constantFrom('plus', 'minus', 'eq', 'less', 'and_', 'if_'), fc.constantFrom('1', 'true', '2.0', 'x', '(deref y)'))
    .map(([op, a]) => `(lambda (y) (${op} ${a} ${a}${op === 'if_' ? ` ${a}` : ''}))`),
);

/** A file of definitions in a random order (references only to definitions with a smaller number, so no recursion), sometimes with a closure. */
const defsFile = fc
  .tuple(fc.array(fc.tuple(fc.subarray(['x', 'y'], { minLength: 1 }), fc.oneof(expr, wellTyped)), { minLength: 1, maxLength: 4 }), fc.boolean(), fc.boolean())
  .map(([ds, reverse, closure]) => {
    const names = ['f', 'g', 'h', 'k'];
    const text = ds.map(([ps, body], i) => {
      // a definition may use the earlier ones: rename free f/g/h that would be later or itself
      const b = body.replace(/\b([fghk])\b/g, (m) => (names.indexOf(m) < i ? m : 'x'));
      return `(define (${names[i]} ${ps.join(' ')}) ${b})`;
    });
    if (reverse) text.reverse();
    if (closure) text.push(`(closure (domain (named_range @IDim 0 n)) ${names[ds.length - 1]} out (inp))`);
    return text.join('\n');
  });

function outcome(src: string, strategy: 'rules' | 'twin'): string {
  const o = inferItirText(src, 'random.itir', strategy);
  if (o.diagnostics.some((d) => d.severity === 'error')) return 'error';
  return o.items.map((i) => showType(i.type)).join('\n');
}

let typed = 0;
let errors = 0;

test('rules and twin agree on random expressions', (t) => {
  fc.assert(
    fc.property(fc.oneof(expr, wellTyped), (src) => {
      const r = outcome(src, 'rules');
      const w = outcome(src, 'twin');
      if (r === 'error') errors++;
      else typed++;
      return r === w;
    }),
    { numRuns: 400, seed: 16 },
  );
  t.pass();
});

test('rules and twin agree on random files of definitions in any order', (t) => {
  fc.assert(
    fc.property(defsFile, (src) => outcome(src, 'rules') === outcome(src, 'twin')),
    { numRuns: 200, seed: 17 },
  );
  t.pass();
});

test('the random programs are both well-typed and ill-typed', (t) => {
  // (runs after the first test in the same worker; the counts come from it)
  t.log(`${typed} well-typed, ${errors} ill-typed`);
  t.true(typed >= 40, `only ${typed} well-typed programs`);
  t.true(errors >= 40, `only ${errors} ill-typed programs`);
  void itirText;
});
