import test from 'ava';
import type { ExecutionContext } from 'ava';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_NESTING, parseRelay, parseRelayType } from '../frontends/relay/parse.js';
import { formatFloat, printAttrValue, printConstant, printModule, printType } from '../frontends/relay/print.js';
import type { AttrValue, DimExpr, FunctionDef, Module, Param, Pattern, RDim, RExpr, RType, Span, TypeDef, TypeParam } from '../frontends/relay/ast.js';
import { UserError } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

// ------------------------------------------------------------------ helpers

/** Drops every `span`, so trees can be compared by shape. */
function stripSpans(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSpans);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'span')
        .map(([k, v]) => [k, stripSpans(v)]),
    );
  }
  return value;
}

const parse = (text: string, file = 'test.relay'): Module => parseRelay(text, file);

/** The body of the first function, spans dropped. */
function body(text: string): unknown {
  const f = parse(text).functions[0];
  if (f === undefined) throw new Error('no function');
  return stripSpans(f.body);
}

/** The body of `def @main(%x, %y, %z) { <expr> }`, spans dropped. */
const expr = (text: string): unknown => body(`def @main(%x, %y, %z) {\n  ${text}\n}`);

const type = (text: string): unknown => stripSpans(parseRelayType(text));

/** parse(print(parse(text))) equals parse(text), spans aside; printing is also a fixed point. */
function roundTrips(t: ExecutionContext, text: string, file = 'rt.relay'): void {
  const first = parse(text, file);
  const printed = printModule(first);
  let second: Module;
  try {
    second = parse(printed, file);
  } catch (e) {
    t.fail(`the printed text does not parse: ${String(e)}\n${printed}`);
    return;
  }
  t.deepEqual(stripSpans(second), stripSpans(first), printed);
  t.is(printModule(second), printed);
}

/** Expects one syntax error and returns its diagnostic. */
function syntaxError(t: ExecutionContext, text: string, run: (s: string) => unknown = (s) => parse(s, 'bad.relay')): Diagnostic {
  const error = t.throws(() => run(text), { instanceOf: UserError });
  t.is(error.diagnostics.length, 1);
  const d = error.diagnostics[0]!;
  t.is(d.code, 'syntax');
  t.is(d.severity, 'error');
  return d;
}

function at(t: ExecutionContext, d: Diagnostic, line: number, column: number): void {
  t.truthy(d.span, 'the diagnostic has a span');
  t.deepEqual([d.span?.start.line, d.span?.start.column], [line, column], d.message);
}

// Shorthands for expected trees.
const local = (name: string) => ({ kind: 'local', name });
const global = (name: string) => ({ kind: 'global', name });
const op = (name: string) => ({ kind: 'op', name });
const ctor = (name: string) => ({ kind: 'constructor', name });
const constant = (value: number | boolean, dtype: string) => ({ kind: 'constant', value, dtype });
const call = (callee: unknown, args: unknown[], attrs: unknown[] = []) => ({ kind: 'call', callee, args, attrs });
const attr = (name: string, value: unknown) => ({ name, value });
const tensor = (shape: unknown[], dtype: string) => ({ kind: 'tensor', shape, dtype });
const dim = (value: number) => ({ kind: 'int', value });
const tvar = (name: string) => ({ kind: 'var', name });

const EXAMPLES = join(import.meta.dirname, '..', 'examples', 'relay');
/** Every `.relay` file under examples/relay/, subdirectories included, as paths relative to it. */
const exampleFiles = (readdirSync(EXAMPLES, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.relay'))
  .map((f) => f.split('\\').join('/'))
  .sort();

// ------------------------------------------------------------------ round trips

test('the examples exist', (t) => {
  t.true(exampleFiles.length >= 4);
  for (const name of ['mlp.relay', 'poly.relay', 'list.relay', 'if.relay']) t.true(exampleFiles.includes(name), name);
});

for (const name of exampleFiles) {
  test(`examples/relay/${name} round-trips`, (t) => {
    roundTrips(t, readFileSync(join(EXAMPLES, name), 'utf8'), name);
  });
}

test('examples/relay/mlp.relay reads as expected', (t) => {
  const m = parse(readFileSync(join(EXAMPLES, 'mlp.relay'), 'utf8'), 'mlp.relay');
  t.is(m.version, '0.0.5');
  t.is(m.file, 'mlp.relay');
  const main = m.functions[0]!;
  t.is(main.name, 'main');
  t.deepEqual(stripSpans(main.params[0]), { name: 'x', type: tensor([{ kind: 'sym', expr: tvar('n') }, dim(784)], 'float32') });
  t.deepEqual(stripSpans(main.params[2]?.type), tensor([dim(128)], 'float32'));
  let e: RExpr = main.body;
  const ops: string[] = [];
  while (e.kind === 'let') {
    t.is(e.style, 'binding');
    if (e.value.kind === 'call' && e.value.callee.kind === 'op') ops.push(e.value.callee.name);
    e = e.body;
  }
  t.deepEqual(ops, ['nn.dense', 'nn.bias_add', 'nn.relu', 'nn.dense', 'nn.bias_add']);
  t.deepEqual(stripSpans(e), call(op('nn.softmax'), [local('4')], [attr('axis', { kind: 'int', value: -1 })]));
});

/** One program per construct; every one must round-trip. */
const PROGRAMS: Record<string, string> = {
  empty: '',
  'header only': '#[version = "0.0.5"]\n',
  'no header': 'def @main() { () }',
  comments: `// leading comment
#[version = "0.0.5"] /* after the header */
def @main(%x: float32 /* ty=float32 */) -> float32 { // trailing
  /* a /* nested */ comment */ %x // done
}`,
  'graph bindings': `def @main(%x: Tensor[(1, 3), float32]) {
  %0 = add(%x, %x) /* ty=Tensor[(1, 3), float32] */;
  %1 = multiply(%0, 2f);
  %1
}`,
  lets: 'def @main(%x) { let %y: float32 = %x; let %z = add(%y, %y); %z }',
  'let in an argument': 'def @main(%x) { add((let %y = %x; %y), %x) }',
  'let as a binding value': 'def @main(%x) { %0 = (let %y = %x; %y); %0 }',
  'let nested in parentheses': 'def @main(%x) { ((let %a = %x; (let %b = %a; %b))) }',
  if: 'def @main(%c: bool, %x) { if (%c) { %x } else { %0 = negative(%x); %0 } }',
  'if on a let': 'def @main(%c: bool) { if (let %d = %c; %d) { 1 } else { 2 } }',
  'if as an argument': 'def @main(%c: bool) { add(if (%c) { 1 } else { 2 }, 3) }',
  fn: 'def @main() { fn [A, B: Shape, C: BaseType](%x: A, %y) -> A { %x } }',
  'fn called at once': 'def @main(%x) { (fn (%y) { %y })(%x) }',
  'fn called at once, as TVM parses it': 'def @main(%x) { (fn (%y) { %y }(%x), fn () { (%x,) }().0) }',
  'fn as a binding': 'def @main(%x) { %0 = fn (%y: float32) -> float32 { %y }; %0(%x) }',
  tuples: 'def @main(%a, %b) { %0 = (); %1 = (%a,); %2 = (%a, %b); %3 = (%a, %b,); (%0, %1, %2, %3) }',
  projections: 'def @main(%t) { %0 = %t.0; %1 = %t.1.2; %2 = split(%t, indices_or_sections=2).1; (%0, %1, %2, (%t, %t).0) }',
  'projection of a constant': 'def @main() { (1).0 }',
  'calls of every callee': 'def @main(%f, %x) { (@g(%x), %f(%x), Cons(%x, Nil), nn.conv2d(%x, %x), %f(%x)(%x), Nil(), add) }',
  attrs: `def @main(%x) {
  nn.op(%x, i=1, n=-2, big=4294967296, i64=3i64, f=0.5f, e=1e-05f, g=1.5, neg=-0.25f, inf=inff, b=True, c=False,
        s="NCHW", empty="", esc="a\\"b\\\\c\\nd", l=[1, 2], t=(1, 1), one=(7), single=(7,), unit=(), nested=[[1, 2], (3, 4)],
        none=None, null=nullptr, mixed=[1, 2.5f, "x", True, None], trailing=[1,],)
}`,
  'attrs only': 'def @main() { zeros(shape=[2, 3], dtype="float32") }',
  constants: 'def @main() { (1f, 1f16, 1f64, 2.5f, 3, 3i64, 3i8, 3i16, 3u8, -1f, -7, True, False, 1.5, 1e3, 2147483648, -inff, nanf, 0.1f) }',
  match: `type List[A] {
  Cons(A, List[A]),
  Nil,
}

def @main(%l: List[float32]) -> float32 {
  match (%l) {
    Cons(%h, Nil) => %h,
    Cons(%h: float32, Cons(_, %t)) => {
      %0 = add(%h, 1f);
      %0
    },
    Nil => 0f,
    _ => 1f
  }
}`,
  'incomplete match and tuple patterns': `def @main(%p) {
  match? (%p) {
    (%a, _, (Some(%b), %c)) => add(%a, %b),
    (%d) => %d,
    () => 0,
  }
}`,
  'match on a tuple': 'def @main(%a, %b) { match ((%a, %b)) { (%x, %y) => %x } }',
  'match without parentheses': 'def @main(%a) { match %a { _ => %a } }',
  'type definitions': `type Option[A] {
  Some(A),
  None,
}

type Tree[A, B: Shape] { Leaf(A), Node(Tree[A, B], Tree[A, B],) }

type Color { Red, Green }

type Empty

def @paint(%c: Color, %o: Option[Color], %e: Empty) -> (Color, Option[Color]) { (Red, Some(Green)) }`,
  types: `def @main(
  %a: Tensor[(1, 3, 224, 224), float32],
  %b: Tensor[(?, 3), float32],
  %c: Tensor[(n, 2*n + 1, (h + 2) / 2, n % 2, h - w - 1, h - (w - 1), 7i64), float32],
  %d: Tensor[(), float32],
  %e: Tensor[(5), int32],
  %f: Tensor[(5,), int32],
  %g: (Tensor[(1), float32], (int64, bool)),
  %h: (float32,),
  %i: (float32),
  %j: (),
  %k: fn (float32, (int8,)) -> fn () -> bool,
  %l: fn [T](T) -> T,
  %m: _,
  %n: Tensor[(1), float16x4],
  %o: Tensor[((5)), float32],
) -> Tensor[(n), float32] {
  %a
}`,
  'type variables in scope': `type List[A] { Cons(A, List[A]), Nil }

def @map[A, B](%f: fn (A) -> B, %l: List[A]) -> List[B] { Nil }

def @shadow[List](%x: List) -> List { %x }`,
  'whitespace anywhere': 'def @main ( %x : Tensor [ ( 1 , 2 ) , float32 ] ) -> float32 { nn.relu ( %x . 0 , axis = 1 ) . 0 }',
  'CRLF line ends': 'def @main(%x) {\r\n  %0 = nn.relu(%x);\r\n  %0\r\n}\r\n',
  names: 'def @main(%conv1_weight, %0, %_x, %1a) { (%conv1_weight, %0, %_x, %1a, nn.dyn.pad, image.resize2d, _private_op, @main) }',
  'several functions': 'def @f(%x) { %x }\ndef @g(%x) { @f(%x) }\ndef @main(%x) { @g(%x) }',
  'trailing commas': 'def @main[A,](%x: A,) -> (A,) { (%x,) }',
};

for (const [name, text] of Object.entries(PROGRAMS)) {
  test(`round trip: ${name}`, (t) => {
    roundTrips(t, text);
  });
}

// ------------------------------------------------------------------ what the parser builds

test('graph bindings and lets become lets, in their own styles', (t) => {
  t.deepEqual(expr('%0 = add(%x, %y);\n  let %1: float32 = %0;\n  %1'), {
    kind: 'let',
    name: '0',
    type: null,
    value: call(op('add'), [local('x'), local('y')]),
    style: 'binding',
    body: { kind: 'let', name: '1', type: tensor([], 'float32'), value: local('0'), style: 'let', body: local('1') },
  });
});

test('a let spans from its binding to the end of its body', (t) => {
  const m = parse('def @main(%x) {\n  %0 = add(%x, %x);\n  %0\n}');
  const e = m.functions[0]!.body;
  t.is(e.kind, 'let');
  t.deepEqual([e.span.start.line, e.span.start.column, e.span.end.line, e.span.end.column], [2, 3, 3, 5]);
  t.is(e.span.file, 'test.relay');
});

test('callees: operators, constructors, globals, locals', (t) => {
  t.deepEqual(expr('nn.conv2d(%x, %y)'), call(op('nn.conv2d'), [local('x'), local('y')]));
  t.deepEqual(expr('image.resize2d(%x)'), call(op('image.resize2d'), [local('x')]));
  t.deepEqual(expr('add(%x, %x)'), call(op('add'), [local('x'), local('x')]));
  t.deepEqual(expr('@f(%x)'), call(global('f'), [local('x')]));
  t.deepEqual(expr('%x(%y)'), call(local('x'), [local('y')]));
  t.deepEqual(expr('Cons(%x, Nil)'), call(ctor('Cons'), [local('x'), ctor('Nil')]));
  t.deepEqual(expr('Nil()'), call(ctor('Nil'), []));
  t.deepEqual(expr('None'), ctor('None'));
  t.deepEqual(expr('%x(%y)(%z)'), call(call(local('x'), [local('y')]), [local('z')]));
});

test('tuples, parentheses and projections', (t) => {
  t.deepEqual(expr('()'), { kind: 'tuple', fields: [] });
  t.deepEqual(expr('(%x)'), local('x'));
  t.deepEqual(expr('((%x))'), local('x'));
  t.deepEqual(expr('(%x,)'), { kind: 'tuple', fields: [local('x')] });
  t.deepEqual(expr('(%x, %y)'), { kind: 'tuple', fields: [local('x'), local('y')] });
  t.deepEqual(expr('%x.0'), { kind: 'proj', tuple: local('x'), index: 0 });
  t.deepEqual(expr('%0.1'.replace('%0', '%x')), { kind: 'proj', tuple: local('x'), index: 1 });
  t.deepEqual(expr('%x.1.2'), { kind: 'proj', tuple: { kind: 'proj', tuple: local('x'), index: 1 }, index: 2 });
  t.deepEqual(expr('split(%x).0'), { kind: 'proj', tuple: call(op('split'), [local('x')]), index: 0 });
});

test('scalar constants and their dtypes', (t) => {
  const cases: [string, number | boolean, string][] = [
    ['1f', 1, 'float32'],
    ['1f16', 1, 'float16'],
    ['1f64', 1, 'float64'],
    ['2.5f', 2.5, 'float32'],
    ['1e-05f', 1e-5, 'float32'],
    ['1.5', 1.5, 'float32'],
    ['3', 3, 'int32'],
    ['3i64', 3, 'int64'],
    ['3i8', 3, 'int8'],
    ['3i16', 3, 'int16'],
    ['3u8', 3, 'uint8'],
    ['-1f', -1, 'float32'],
    ['-7', -7, 'int32'],
    ['-0', 0, 'int32'],
    ['2147483648', 2147483648, 'int64'],
    ['-2147483648', -2147483648, 'int32'],
    ['inff', Infinity, 'float32'],
    ['-inff', -Infinity, 'float32'],
    ['True', true, 'bool'],
    ['False', false, 'bool'],
  ];
  for (const [text, value, dtype] of cases) t.deepEqual(expr(text), constant(value, dtype), text);
  const nan = expr('nanf16') as { value: number; dtype: string };
  t.true(Number.isNaN(nan.value));
  t.is(nan.dtype, 'float16');
});

test('attribute values of every kind', (t) => {
  const attrs = (text: string): unknown => (expr(`f(%x, ${text})`) as { attrs: unknown }).attrs;
  const i = (value: number) => ({ kind: 'int', value });
  const f = (value: number) => ({ kind: 'float', value });
  const list = (...items: unknown[]) => ({ kind: 'list', items });
  t.deepEqual(attrs('a=1, b=-2, c=3i64'), [attr('a', i(1)), attr('b', i(-2)), attr('c', i(3))]);
  t.deepEqual(attrs('a=1e-05f, b=0.5f, c=1.5, d=2f'), [attr('a', f(1e-5)), attr('b', f(0.5)), attr('c', f(1.5)), attr('d', f(2))]);
  t.deepEqual(attrs('a=True, b=False'), [attr('a', { kind: 'bool', value: true }), attr('b', { kind: 'bool', value: false })]);
  t.deepEqual(attrs('layout="NCHW", e="", q="a\\"b"'), [
    attr('layout', { kind: 'string', value: 'NCHW' }),
    attr('e', { kind: 'string', value: '' }),
    attr('q', { kind: 'string', value: 'a"b' }),
  ]);
  t.deepEqual(attrs('a=[1, 2], b=(1, 1), c=[], d=[[1], (2,)], e=(5)'), [
    attr('a', list(i(1), i(2))),
    attr('b', list(i(1), i(1))),
    attr('c', list()),
    attr('d', list(list(i(1)), list(i(2)))),
    attr('e', i(5)),
  ]);
  t.deepEqual(attrs('a=None, b=nullptr'), [attr('a', { kind: 'none' }), attr('b', { kind: 'none' })]);
  t.deepEqual(expr('nn.relu(%x)'), call(op('nn.relu'), [local('x')], []));
});

test('types', (t) => {
  t.deepEqual(type('Tensor[(1, 3, 224, 224), float32]'), tensor([dim(1), dim(3), dim(224), dim(224)], 'float32'));
  t.deepEqual(type('Tensor[(?, 3), float32]'), tensor([{ kind: 'any' }, dim(3)], 'float32'));
  t.deepEqual(type('Tensor[(5), int32]'), tensor([dim(5)], 'int32'));
  t.deepEqual(type('Tensor[(5,), int32]'), tensor([dim(5)], 'int32'));
  t.deepEqual(type('Tensor[(), float32]'), tensor([], 'float32'));
  t.deepEqual(type('float32'), tensor([], 'float32'));
  t.deepEqual(type('int64'), tensor([], 'int64'));
  t.deepEqual(type('bool'), tensor([], 'bool'));
  t.deepEqual(type('Tensor[(1i64, 3), float32]'), tensor([dim(1), dim(3)], 'float32'));
  t.deepEqual(type('()'), { kind: 'tuple', fields: [] });
  t.deepEqual(type('(float32)'), { kind: 'tuple', fields: [tensor([], 'float32')] }, 'as in TVM, (T) is a one-tuple');
  t.deepEqual(type('(float32, (bool,))'), { kind: 'tuple', fields: [tensor([], 'float32'), { kind: 'tuple', fields: [tensor([], 'bool')] }] });
  t.deepEqual(type('fn (float32, bool) -> int8'), {
    kind: 'func',
    typeParams: [],
    params: [tensor([], 'float32'), tensor([], 'bool')],
    ret: tensor([], 'int8'),
  });
  t.deepEqual(type('fn [A, B: Shape](A) -> B'), {
    kind: 'func',
    typeParams: [
      { name: 'A', kind: 'Type' },
      { name: 'B', kind: 'Shape' },
    ],
    params: [tvar('A')],
    ret: tvar('B'),
  });
  t.deepEqual(type('A'), tvar('A'));
  t.deepEqual(type('List[A]'), { kind: 'call', name: 'List', args: [tvar('A')] });
  t.deepEqual(type('_'), { kind: 'incomplete' });
  t.deepEqual(type('  Tensor[(n, 3), float32]  // comment'), tensor([{ kind: 'sym', expr: tvar('n') }, dim(3)], 'float32'));
  t.deepEqual(type('Tensor[(1), flaot32]'), tensor([dim(1)], 'flaot32'), 'any identifier is a dtype: the checker rejects unknown ones');
});

test('symbolic dimensions: precedence and associativity', (t) => {
  const sym = (text: string): unknown => (type(`Tensor[(${text}), float32]`) as { shape: unknown[] }).shape[0];
  const v = (name: string) => ({ kind: 'var', name });
  const i = (value: number) => ({ kind: 'int', value });
  const bin = (o: string, left: unknown, right: unknown) => ({ kind: 'binop', op: o, left, right });
  t.deepEqual(sym('n'), { kind: 'sym', expr: v('n') });
  t.deepEqual(sym('2*n + 1'), { kind: 'sym', expr: bin('+', bin('*', i(2), v('n')), i(1)) });
  t.deepEqual(sym('(h + 2) / 2'), { kind: 'sym', expr: bin('/', bin('+', v('h'), i(2)), i(2)) });
  t.deepEqual(sym('a - b - c'), { kind: 'sym', expr: bin('-', bin('-', v('a'), v('b')), v('c')) });
  t.deepEqual(sym('a - (b - c)'), { kind: 'sym', expr: bin('-', v('a'), bin('-', v('b'), v('c'))) });
  t.deepEqual(sym('a + b * c % d'), { kind: 'sym', expr: bin('+', v('a'), bin('%', bin('*', v('b'), v('c')), v('d'))) });
  t.deepEqual(sym('n /* half */ / 2'), { kind: 'sym', expr: bin('/', v('n'), i(2)) });
  t.deepEqual(sym('(4)'), { kind: 'sym', expr: i(4) });
  t.deepEqual(sym('4'), i(4));
});

test('a bare type name is a type variable when bound or unknown, else an ADT without arguments', (t) => {
  const m = parse(`type Color { Red, Green }
def @f[A](%a: A, %c: Color, %u: Unknown) -> fn [Color](Color) -> Color { %a }`);
  const params = m.functions[0]!.params.map((p) => stripSpans(p.type));
  t.deepEqual(params, [tvar('A'), { kind: 'call', name: 'Color', args: [] }, tvar('Unknown')]);
  const ret = stripSpans(m.functions[0]!.ret) as { params: unknown[]; ret: unknown };
  t.deepEqual(ret.params, [tvar('Color')], 'a type parameter shadows the type definition');
  t.deepEqual(ret.ret, tvar('Color'));
  // In a type definition, its own parameters are variables.
  const list = parse('type List[A] { Cons(A, List[A]), Nil }').typeDefs[0]!;
  t.deepEqual(stripSpans(list.constructors[0]!.fields), [tvar('A'), { kind: 'call', name: 'List', args: [tvar('A')] }]);
});

test('patterns', (t) => {
  const clauses = (text: string): unknown => (expr(`match (%x) { ${text} }`) as { clauses: { pattern: unknown }[] }).clauses.map((c) => c.pattern);
  t.deepEqual(clauses('_ => 1, %y => 2, %z: float32 => 3'), [
    { kind: 'wildcard' },
    { kind: 'var', name: 'y', type: null },
    { kind: 'var', name: 'z', type: tensor([], 'float32') },
  ]);
  t.deepEqual(clauses('Cons(%h, Cons(_, %t)) => 1, Nil => 2'), [
    {
      kind: 'constructor',
      name: 'Cons',
      args: [
        { kind: 'var', name: 'h', type: null },
        { kind: 'constructor', name: 'Cons', args: [{ kind: 'wildcard' }, { kind: 'var', name: 't', type: null }] },
      ],
    },
    { kind: 'constructor', name: 'Nil', args: [] },
  ]);
  t.deepEqual(clauses('(%a, _) => 1, (%b) => 2, () => 3'), [
    { kind: 'tuple', fields: [{ kind: 'var', name: 'a', type: null }, { kind: 'wildcard' }] },
    { kind: 'tuple', fields: [{ kind: 'var', name: 'b', type: null }] },
    { kind: 'tuple', fields: [] },
  ]);
  t.is((expr('match (%x) { _ => 1 }') as { complete: boolean }).complete, true);
  t.is((expr('match? (%x) { _ => 1 }') as { complete: boolean }).complete, false);
});

test('functions, type parameters and the module', (t) => {
  const m = parse(`#[version = "0.0.5"]
type List[A] { Cons(A, List[A]), Nil }
def @main[A, B: Shape, C: BaseType](%x: A, %y) -> A { fn (%z) { %z } }`);
  t.is(m.version, '0.0.5');
  t.is(m.typeDefs.length, 1);
  t.deepEqual(stripSpans(m.typeDefs[0]), {
    name: 'List',
    params: [{ name: 'A', kind: 'Type' }],
    constructors: [
      { name: 'Cons', fields: [tvar('A'), { kind: 'call', name: 'List', args: [tvar('A')] }] },
      { name: 'Nil', fields: [] },
    ],
  });
  t.deepEqual(stripSpans(m.functions[0]), {
    name: 'main',
    typeParams: [
      { name: 'A', kind: 'Type' },
      { name: 'B', kind: 'Shape' },
      { name: 'C', kind: 'BaseType' },
    ],
    params: [
      { name: 'x', type: tvar('A') },
      { name: 'y', type: null },
    ],
    ret: tvar('A'),
    body: { kind: 'fn', typeParams: [], params: [{ name: 'z', type: null }], ret: null, body: local('z') },
  });
  t.is(parse('def @f() { 1 }').version, null);
});

// ------------------------------------------------------------------ printing

test('the printer lays programs out as TVM does, with type annotations', (t) => {
  const m = parse(`#[version = "0.0.5"]
type List[A] { Cons(A, List[A]), Nil }
def @main(%x: Tensor[(1, 3, 224, 224), float32], %w: Tensor[(64, 3, 7, 7), float32], %c: bool) {
  %0 = nn.conv2d(%x, %w, strides=[2, 2], padding=[3, 3, 3, 3], channels=64, data_layout="NCHW", eps=1e-05f, flag=True, none=None);
  %1 = (%0, %0);
  let %y = %1.0;
  if (%c) { %y } else { match? (Nil) { Cons(%h, _) => %h, Nil => %y } }
}`);
  const annotate = (e: RExpr): string | null =>
    e.kind === 'call' && e.callee.kind === 'op' && e.callee.name === 'nn.conv2d' ? 'Tensor[(1, 64, 112, 112), float32]' : null;
  const typeOfParam = (p: Param): string | null => (p.name === 'c' ? 'bool' : null);
  t.is(
    printModule(m, { annotate, typeOfParam }),
    `#[version = "0.0.5"]
type List[A] {
  Cons(A, List[A]),
  Nil,
}

def @main(%x: Tensor[(1, 3, 224, 224), float32], %w: Tensor[(64, 3, 7, 7), float32], %c: bool /* ty=bool */) {
  %0 = nn.conv2d(%x, %w, strides=[2, 2], padding=[3, 3, 3, 3], channels=64, data_layout="NCHW", eps=1e-05f, flag=True, none=None) /* ty=Tensor[(1, 64, 112, 112), float32] */;
  %1 = (%0, %0);
  let %y = %1.0;
  if (%c) {
    %y
  } else {
    match? (Nil) {
      Cons(%h, _) => {
        %h
      },
      Nil => {
        %y
      },
    }
  }
}
`,
  );
});

test('the printer parenthesizes what cannot be a callee or a tuple', (t) => {
  const printed = printModule(parse('def @main(%x) { %0 = (fn (%y) { %y })(%x); %1 = (1f).0; %2 = add((let %z = %x; %z), %x); (%0, %1, %2) }'));
  t.is(
    printed,
    `def @main(%x) {
  %0 = (fn (%y) {
    %y
  })(%x);
  %1 = (1f).0;
  %2 = add((
    let %z = %x;
    %z
  ), %x);
  (%0, %1, %2)
}
`,
  );
});

test('printType', (t) => {
  const cases = [
    'Tensor[(1, 3), float32]',
    'Tensor[(5), float32]',
    'float32',
    'Tensor[(?, 3), float32]',
    'Tensor[(n, 2 * n + 1, (h + 2) / 2, a - (b - c), a - b - c, (4)), float32]',
    '(float32, Tensor[(2), int64])',
    '(float32,)',
    '()',
    'fn (float32) -> bool',
    'fn [A, B: Shape](A) -> B',
    'List[A]',
    '_',
    'Tensor[(), custom]',
  ];
  for (const text of cases) t.is(printType(parseRelayType(text)), text);
  t.is(printType(parseRelayType('Tensor[(), float32]')), 'float32');
  t.is(printType(parseRelayType('Tensor[(5,), float32]')), 'Tensor[(5), float32]');
  t.is(printType(parseRelayType('Tensor[((2*n)+1), float32]')), 'Tensor[(2 * n + 1), float32]');
  t.is(printType(parseRelayType('(float32)')), '(float32,)');
});

test('floats print as TVM prints them when that is exact', (t) => {
  t.is(formatFloat(1e-5), '1e-05');
  t.is(formatFloat(0.5), '0.5');
  t.is(formatFloat(1), '1');
  t.is(formatFloat(-2.25), '-2.25');
  t.is(formatFloat(100000), '100000');
  t.is(formatFloat(1e6), '1e+06');
  t.is(formatFloat(0.1), '0.1');
  t.is(formatFloat(0.1 + 0.2), '0.30000000000000004');
  t.is(formatFloat(1.234567e-7), '1.234567e-07');
  t.is(formatFloat(-0), '-0');
  t.is(printConstant(2.5, 'float32'), '2.5f');
  t.is(printConstant(2.5, 'float16'), '2.5f16');
  t.is(printConstant(3, 'int32'), '3');
  t.is(printConstant(3, 'int64'), '3i64');
  t.is(printConstant(Infinity, 'float32'), 'inff');
  t.is(printConstant(true, 'bool'), 'True');
  t.throws(() => printConstant(1.5, 'int32'));
  t.is(printAttrValue({ kind: 'float', value: 1e-5, span: SPAN }), '1e-05f');
  t.is(printAttrValue({ kind: 'string', value: 'a"b\\c\n', span: SPAN }), '"a\\"b\\\\c\\n"');
});

// ------------------------------------------------------------------ property: random IR round-trips

const SPAN: Span = { file: 'gen', start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } };

const TYPE_VARS = ['A', 'B', 'T'];
const ADTS = ['List', 'Option', 'Tree'];
const CONSTRUCTORS = ['Cons', 'Nil', 'Some', 'None', 'Leaf'];
const LOCALS = ['x', 'y', '0', '12', 'conv1_weight', '_t'];
const GLOBALS = ['main', 'f', 'g2'];
const OPS = ['add', 'nn.conv2d', 'image.resize2d', 'nn.relu', '_internal.op'];
const DTYPES = ['float32', 'int64', 'bool', 'uint8', 'float16', 'custom_t'];

const small = <T>(a: fc.Arbitrary<T>) => fc.array(a, { maxLength: 3 });

const dimExprArb: fc.Arbitrary<DimExpr> = fc.letrec<{ e: DimExpr }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.nat(1000).map((value) => ({ kind: 'int' as const, value })),
    fc.constantFrom('n', 'h', 'w', 'batch').map((name) => ({ kind: 'var' as const, name })),
    fc.tuple(fc.constantFrom('+', '-', '*', '/', '%'), tie('e'), tie('e')).map(([o, left, right]) => ({ kind: 'binop' as const, op: o, left, right })),
  ),
})).e;

const dimArb: fc.Arbitrary<RDim> = fc.oneof(
  fc.nat(4096).map((value) => ({ kind: 'int' as const, value, span: SPAN })),
  fc.constant({ kind: 'any' as const, span: SPAN }),
  dimExprArb.map((e) => ({ kind: 'sym' as const, expr: e, span: SPAN })),
);

const typeParamArb: fc.Arbitrary<TypeParam> = fc
  .tuple(fc.constantFrom(...TYPE_VARS), fc.constantFrom('Type', 'Shape', 'BaseType'))
  .map(([name, kind]) => ({ name, kind, span: SPAN }));

/** Types; an ADT without arguments only where the module defines it (`nullaryAdts`). */
function typeArb(depth: number, nullaryAdts: boolean): fc.Arbitrary<RType> {
  const leaves: fc.Arbitrary<RType>[] = [
    fc.tuple(small(dimArb), fc.constantFrom(...DTYPES)).map(([shape, dtype]) => ({ kind: 'tensor' as const, shape, dtype, span: SPAN })),
    fc.constantFrom(...TYPE_VARS).map((name) => ({ kind: 'var' as const, name, span: SPAN })),
    fc.constant({ kind: 'incomplete' as const, span: SPAN }),
  ];
  if (nullaryAdts) leaves.push(fc.constantFrom(...ADTS).map((name) => ({ kind: 'call' as const, name, args: [], span: SPAN })));
  if (depth === 0) return fc.oneof(...leaves);
  const sub = typeArb(depth - 1, nullaryAdts);
  return fc.oneof(
    ...leaves,
    small(sub).map((fields) => ({ kind: 'tuple' as const, fields, span: SPAN })),
    fc.tuple(small(typeParamArb), small(sub), sub).map(([typeParams, params, ret]) => ({ kind: 'func' as const, typeParams, params, ret, span: SPAN })),
    fc
      .tuple(fc.constantFrom(...ADTS), fc.array(sub, { minLength: 1, maxLength: 3 }))
      .map(([name, args]) => ({ kind: 'call' as const, name, args, span: SPAN })),
  );
}

const attrValueArb: fc.Arbitrary<AttrValue> = fc.letrec<{ v: AttrValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.maxSafeInteger().map((value) => ({ kind: 'int' as const, value, span: SPAN })),
    fc.double().map((value) => ({ kind: 'float' as const, value, span: SPAN })),
    fc.boolean().map((value) => ({ kind: 'bool' as const, value, span: SPAN })),
    fc.string({ unit: 'binary', maxLength: 6 }).map((value) => ({ kind: 'string' as const, value, span: SPAN })),
    fc.constant({ kind: 'none' as const, span: SPAN }),
    fc.array(tie('v'), { maxLength: 3 }).map((items) => ({ kind: 'list' as const, items, span: SPAN })),
  ),
})).v;

const constantArb: fc.Arbitrary<RExpr> = fc.oneof(
  fc.boolean().map((value) => ({ kind: 'constant' as const, value, dtype: 'bool', span: SPAN })),
  fc
    .tuple(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom('int32', 'int8', 'int16', 'uint8'))
    .map(([value, dtype]) => ({ kind: 'constant' as const, value, dtype, span: SPAN })),
  fc.maxSafeInteger().map((value) => ({ kind: 'constant' as const, value, dtype: 'int64', span: SPAN })),
  fc.tuple(fc.double(), fc.constantFrom('float32', 'float16', 'float64')).map(([value, dtype]) => ({ kind: 'constant' as const, value, dtype, span: SPAN })),
);

function patternArb(depth: number, type: fc.Arbitrary<RType>): fc.Arbitrary<Pattern> {
  const leaves: fc.Arbitrary<Pattern>[] = [
    fc.constant({ kind: 'wildcard' as const, span: SPAN }),
    fc.tuple(fc.constantFrom(...LOCALS), fc.option(type)).map(([name, t]) => ({ kind: 'var' as const, name, type: t, span: SPAN })),
    fc.constantFrom(...CONSTRUCTORS).map((name) => ({ kind: 'constructor' as const, name, args: [], span: SPAN })),
  ];
  if (depth === 0) return fc.oneof(...leaves);
  const sub = patternArb(depth - 1, type);
  return fc.oneof(
    ...leaves,
    fc.tuple(fc.constantFrom(...CONSTRUCTORS), small(sub)).map(([name, args]) => ({ kind: 'constructor' as const, name, args, span: SPAN })),
    small(sub).map((fields) => ({ kind: 'tuple' as const, fields, span: SPAN })),
  );
}

const paramArb = (type: fc.Arbitrary<RType>): fc.Arbitrary<Param> =>
  fc.tuple(fc.constantFrom(...LOCALS), fc.option(type)).map(([name, t]) => ({ name, type: t, span: SPAN }));

function exprArb(depth: number): fc.Arbitrary<RExpr> {
  const type = typeArb(1, true);
  const leaves: fc.Arbitrary<RExpr>[] = [
    fc.constantFrom(...LOCALS).map((name) => ({ kind: 'local' as const, name, span: SPAN })),
    fc.constantFrom(...GLOBALS).map((name) => ({ kind: 'global' as const, name, span: SPAN })),
    fc.constantFrom(...CONSTRUCTORS).map((name) => ({ kind: 'constructor' as const, name, span: SPAN })),
    fc.constantFrom(...OPS).map((name) => ({ kind: 'op' as const, name, span: SPAN })),
    constantArb,
  ];
  if (depth === 0) return fc.oneof(...leaves);
  const sub = exprArb(depth - 1);
  const attrArb = fc
    .tuple(fc.constantFrom('axis', 'strides', 'padding', 'layout', 'epsilon', 'out_dtype'), attrValueArb)
    .map(([name, value]) => ({ name, value, span: SPAN }));
  return fc.oneof(
    ...leaves,
    // Operator calls take attributes; other calls do not.
    fc
      .tuple(fc.constantFrom(...OPS), small(sub), small(attrArb))
      .map(([name, args, attrs]) => ({ kind: 'call' as const, callee: { kind: 'op' as const, name, span: SPAN }, args, attrs, span: SPAN })),
    fc.tuple(sub, small(sub)).map(([callee, args]) => ({ kind: 'call' as const, callee, args, attrs: [], span: SPAN })),
    small(sub).map((fields) => ({ kind: 'tuple' as const, fields, span: SPAN })),
    fc.tuple(sub, fc.nat(5)).map(([tuple, index]) => ({ kind: 'proj' as const, tuple, index, span: SPAN })),
    fc
      .tuple(fc.constantFrom(...LOCALS), fc.option(type), sub, sub)
      .map(([name, t, value, b]) => ({ kind: 'let' as const, name, type: t, value, body: b, style: 'let' as const, span: SPAN })),
    fc
      .tuple(fc.constantFrom(...LOCALS), sub, sub)
      .map(([name, value, b]) => ({ kind: 'let' as const, name, type: null, value, body: b, style: 'binding' as const, span: SPAN })),
    fc.tuple(sub, sub, sub).map(([cond, then, otherwise]) => ({ kind: 'if' as const, cond, then, else: otherwise, span: SPAN })),
    fc
      .tuple(small(typeParamArb), small(paramArb(type)), fc.option(type), sub)
      .map(([typeParams, params, ret, b]) => ({ kind: 'fn' as const, typeParams, params, ret, body: b, span: SPAN })),
    fc.tuple(sub, small(fc.tuple(patternArb(2, type), sub)), fc.boolean()).map(([scrutinee, clauses, complete]) => ({
      kind: 'match' as const,
      scrutinee,
      clauses: clauses.map(([pattern, b]) => ({ pattern, body: b, span: SPAN })),
      complete,
      span: SPAN,
    })),
  );
}

const typeDefArb = (name: string): fc.Arbitrary<TypeDef> =>
  fc
    .tuple(
      small(typeParamArb),
      small(fc.tuple(fc.constantFrom(...CONSTRUCTORS), small(typeArb(1, true))).map(([n, fields]) => ({ name: n, fields, span: SPAN }))),
    )
    .map(([params, constructors]) => ({ name, params, constructors, span: SPAN }));

const functionArb: fc.Arbitrary<FunctionDef> = fc
  .tuple(fc.constantFrom(...GLOBALS), small(typeParamArb), small(paramArb(typeArb(2, true))), fc.option(typeArb(2, true)), exprArb(3))
  .map(([name, typeParams, params, ret, b]) => ({ name, typeParams, params, ret, body: b, span: SPAN }));

// Every ADT the generators name is defined, so a bare `List` reads back as that ADT.
const moduleArb: fc.Arbitrary<Module> = fc
  .tuple(fc.option(fc.oneof(fc.constant('0.0.5'), fc.string({ maxLength: 5 }))), fc.tuple(...ADTS.map(typeDefArb)), fc.array(functionArb, { maxLength: 3 }))
  .map(([version, typeDefs, functions]) => ({ file: 'gen.relay', version, typeDefs, functions }));

test('property: a random module prints and parses back to itself', (t) => {
  fc.assert(
    fc.property(moduleArb, (m) => {
      const printed = printModule(m);
      let back: Module;
      try {
        back = parseRelay(printed, 'gen.relay');
      } catch (e) {
        throw new Error(`${String(e)}\n--- printed:\n${printed}`);
      }
      t.deepEqual(stripSpans(back), stripSpans(m), printed);
      return true;
    }),
    { numRuns: 300 },
  );
});

test('property: a random type prints and parses back to itself', (t) => {
  fc.assert(
    fc.property(typeArb(3, false), (ty) => {
      const printed = printType(ty);
      t.deepEqual(stripSpans(parseRelayType(printed)), stripSpans(ty), printed);
      return true;
    }),
    { numRuns: 500 },
  );
});

// ------------------------------------------------------------------ errors

test('syntax errors say what was expected, where', (t) => {
  const cases: [string, RegExp, number, number][] = [
    ['def @f() {\n  /* never closed\n  1\n}', /^unterminated block comment$/, 2, 3],
    ['def @f() { /* a /* nested */ still open */ 1 /* b /* c */ }', /^unterminated block comment$/, 1, 46],
    ['def @f(%x) {\n  %0 = add(%x, %x);\n  %0\n', /^expected "}" but found end of input$/, 4, 1],
    ['def @f(%x) {\n  %0 = add(%x, %x)\n  %1 = add(%0, %0);\n  %1\n}', /^expected ";" but found "%1"$/, 3, 3],
    ['def @f(%x) { %x + %x }', /^expected "}" but found "\+"$/, 1, 17],
    ['def @f() { }', /^expected expression but found "}"$/, 1, 12],
    ['def @f(%x) { add(%x, , %x) }', /^expected "\)", attribute name, or expression but found ","$/, 1, 22],
    ['def @f(1) { 1 }', /^expected "\)", ",", or parameter but found "1"$/, 1, 8],
    ['def f() { 1 }', /^expected global name but found "f"$/, 1, 5],
    ['def @f(%c) { if (%c) { 1 } }', /^expected "else" but found "}"$/, 1, 28],
    ['def @f(%c) { match (%c) { 1 => 2 } }', /^expected ",", "}", or pattern but found "1"$/, 1, 27],
    ['def @f(%c: 1) { %c }', /^expected type but found "1"$/, 1, 12],
    ['def @f[A: Foo](%c: A) { %c }', /^expected kind but found "Foo"$/, 1, 11],
    ['def @f(%x: Tensor[(1)]) { %x }', /^expected "," but found "]"$/, 1, 22],
    ['def @f(%x: Tensor) { %x }', /^expected "\[" but found "\)"$/, 1, 18],
    ['def @f() { 1 } junk', /^expected "def", "type", or end of input but found "junk"$/, 1, 16],
    ['#[version = 0.0.5]', /^expected string but found "0"$/, 1, 13],
    ['def @f() { let %x: float32 1; %x }', /^expected "=" or "\[" but found "1"$/, 1, 28],
    ['def @f(%x) { nn.conv2d(%x, layout="NCHW) }', /^unterminated string/, 1, 35],
    ['def @f() { 1f8 }', /^invalid float width f8/, 1, 13],
    ['def @f() { 1.5i64 }', /integer width suffix needs an integer/, 1, 12],
    ['def @f(%x) { add(axis=1, %x) }', /^a positional argument cannot follow an attribute$/, 1, 26],
    ['def @f(%x) { @g(%x, axis=1) }', /^only operator calls take attributes/, 1, 21],
  ];
  for (const [text, message, line, column] of cases) {
    const d = syntaxError(t, text);
    t.regex(d.message, message, text);
    at(t, d, line, column);
  }
});

test('unsupported constructs are clear errors at their location', (t) => {
  const cases: [string, RegExp, number, number][] = [
    [
      'def @f(%x) {\n  add(%x, meta[relay.Constant][0] /* ty=float32 */)\n}',
      /^meta references are not supported \(the program must be self-contained\)$/,
      2,
      11,
    ],
    ['def @f(%x: Tensor[(meta[tir.SizeVar][0], 3), float32]) { %x }', /^meta references are not supported/, 1, 20],
    ['def @f(%x) { nn.conv2d(%x, %x, meta[relay.attrs.Conv2DAttrs][0]) }', /^meta references are not supported/, 1, 32],
    ['def @f(%x) { %x }\n#[metadata]\n{"root": 1}', /^the #\[metadata\] section is not supported/, 2, 1],
    ['def @f(%x) {\n  %0 = ref(%x);\n  ref_read(%0)\n}', /^ref is not supported/, 2, 8],
    ['def @f(%x) { ref_read(%x) }', /^ref_read is not supported/, 1, 14],
    ['def @f(%x) { ref_write(%x, 1) }', /^ref_write is not supported/, 1, 14],
    ['def @f(%x: ref(float32)) { %x }', /^ref types are not supported/, 1, 12],
    ['def @f() {\n  free_var %x: float32;\n  %x\n}', /^free_var declarations are not supported/, 2, 3],
    ['def @f(%x, Primitive=1) { %x }', /^function attributes \(Primitive=\.\.\.\) are not supported$/, 1, 12],
    ['extern type Foo', /^extern types are not supported/, 1, 1],
  ];
  for (const [text, message, line, column] of cases) {
    const d = syntaxError(t, text);
    t.regex(d.message, message, text);
    at(t, d, line, column);
  }
});

test('an unknown dtype is not a syntax error (the checker rejects it)', (t) => {
  const m = parse('def @f(%x: Tensor[(1), flaot32]) -> flaot32x { %x }');
  t.deepEqual(stripSpans(m.functions[0]!.params[0]!.type), tensor([dim(1)], 'flaot32'));
  t.deepEqual(stripSpans(m.functions[0]!.ret), tvar('flaot32x'), 'a name not starting with a dtype prefix is a type variable');
});

test('parseRelayType errors', (t) => {
  const d = syntaxError(t, 'Tensor[(1, 3), float32', (s) => parseRelayType(s));
  t.regex(d.message, /^expected "]" but found end of input$/);
  t.is(d.span?.file, '<type>');
  const e = syntaxError(t, '(float32, ) junk', (s) => parseRelayType(s, 'ann'));
  t.regex(e.message, /^expected end of input but found "junk"$/);
  t.is(e.span?.file, 'ann');
});

// ------------------------------------------------------------------ nesting and size limits

/** The offset of the bracket that takes the nesting past MAX_NESTING. */
function firstTooDeep(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') {
      if (++depth > MAX_NESTING) return i;
    } else if (c === ')' || c === ']' || c === '}') {
      depth--;
    }
  }
  return -1;
}

const NESTED: Record<string, (n: number) => string> = {
  parentheses: (n) => `def @f() { ${'('.repeat(n)}1${')'.repeat(n)} }`,
  calls: (n) => `def @f() { ${'add('.repeat(n)}1${')'.repeat(n)} }`,
  tuples: (n) => `def @f() { ${'(1, '.repeat(n)}1${')'.repeat(n)} }`,
  'fn bodies': (n) => `def @f() { ${'fn () { '.repeat(n)}1${' }'.repeat(n)} }`,
  'nested lets': (n) => `def @f() { ${'let %x = ('.repeat(n)}1${'); %x'.repeat(n)} }`,
  ifs: (n) => `def @f(%c: bool) { ${'if (%c) { '.repeat(n)}1${' } else { 2 }'.repeat(n)} }`,
  matches: (n) => `def @f(%x) { ${'match (%x) { _ => '.repeat(n)}1${' }'.repeat(n)} }`,
  types: (n) => `def @f(%x: ${'List['.repeat(n)}A${']'.repeat(n)}) { %x }`,
  'attribute lists': (n) => `def @f() { zeros(shape=${'['.repeat(n)}1${']'.repeat(n)}) }`,
  dimensions: (n) => `def @f(%x: Tensor[(${'('.repeat(n)}n${')'.repeat(n)}), float32]) { %x }`,
};

for (const [name, make] of Object.entries(NESTED)) {
  test(`deeply nested ${name}: a clear error at the first bracket over the limit`, (t) => {
    const text = make(100_000);
    const d = syntaxError(t, text);
    t.is(d.message, `brackets nested deeper than ${MAX_NESTING} levels`);
    t.is(d.span?.start.offset, firstTooDeep(text));
  });

  test(`nested ${name} up to the limit parse`, (t) => {
    // The definition's own brackets count too; leave room for them.
    const text = make(MAX_NESTING - 4);
    t.is(firstTooDeep(text), -1);
    t.notThrows(() => parse(text));
    // The printer puts each match clause in braces, as TVM does: one more level per match.
    const printable = name === 'matches' ? make(MAX_NESTING / 2 - 4) : text;
    t.notThrows(() => parse(printModule(parse(printable))));
  });
}

test('deeply nested comments are a clear error', (t) => {
  const text = `def @f() { ${'/*'.repeat(100_000)}${'*/'.repeat(100_000)} 1 }`;
  const d = syntaxError(t, text);
  t.is(d.message, `comments nested deeper than ${MAX_NESTING} levels`);
  t.is(d.span?.start.offset, 11 + 2 * MAX_NESTING);
});

test('a deep chain of function types is an error, not a crash', (t) => {
  const d = syntaxError(t, `def @f(%x: ${'fn () -> '.repeat(100_000)}A) { %x }`);
  t.regex(d.message, /nested too deeply/);
});

/** Checks (iteratively: the chain is too deep for recursion) that `e` is the chain `%i = add(%i-1, %i-1)`. */
function checkChain(t: ExecutionContext, e: RExpr, n: number, style: 'binding' | 'let', first: string): void {
  let current = e;
  let count = 0;
  let previous = first;
  let ok = true;
  while (current.kind === 'let') {
    const name = style === 'binding' ? String(count) : `v${count}`;
    const v = current.value;
    ok &&=
      current.name === name &&
      current.style === style &&
      v.kind === 'call' &&
      v.callee.kind === 'op' &&
      v.callee.name === 'add' &&
      v.args.length === 2 &&
      v.args.every((a) => a.kind === 'local' && a.name === previous);
    previous = name;
    count++;
    current = current.body;
  }
  t.true(ok, 'every binding is as written');
  t.is(count, n);
  t.deepEqual(stripSpans(current), local(previous));
}

test('a chain of 100,000 graph bindings parses (flat text, no deep recursion), prints and parses back', (t) => {
  const n = 100_000;
  const lines = ['#[version = "0.0.5"]', 'def @main(%x: Tensor[(1, 3), float32]) -> Tensor[(1, 3), float32] {'];
  for (let i = 0; i < n; i++) {
    const arg = i === 0 ? '%x' : `%${i - 1}`;
    lines.push(`  %${i} = add(${arg}, ${arg}) /* ty=Tensor[(1, 3), float32] */;`);
  }
  lines.push(`  %${n - 1}`, '}', '');
  const text = lines.join('\n');

  let start = performance.now();
  const m = parse(text, 'chain.relay');
  const parseMs = performance.now() - start;
  t.log(`parsed ${(text.length / 1e6).toFixed(1)} MB, ${n} bindings, in ${parseMs.toFixed(0)} ms`);
  t.true(parseMs < 15_000, `parsing took ${parseMs} ms`);
  checkChain(t, m.functions[0]!.body, n, 'binding', 'x');

  start = performance.now();
  const printed = printModule(m);
  const back = parse(printed, 'chain.relay');
  t.log(`printed and parsed back in ${(performance.now() - start).toFixed(0)} ms`);
  checkChain(t, back.functions[0]!.body, n, 'binding', 'x');
});

test('a chain of 100,000 lets parses too', (t) => {
  const n = 100_000;
  const lines = ['def @main(%x) {'];
  for (let i = 0; i < n; i++) {
    const arg = i === 0 ? '%x' : `%v${i - 1}`;
    lines.push(`  let %v${i} = add(${arg}, ${arg});`);
  }
  lines.push(`  %v${n - 1}`, '}');
  const m = parse(lines.join('\n'));
  checkChain(t, m.functions[0]!.body, n, 'let', 'x');
  checkChain(t, parse(printModule(m)).functions[0]!.body, n, 'let', 'x');
});
