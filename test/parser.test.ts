import test from 'ava';
import type { ExecutionContext } from 'ava';
import fc from 'fast-check';
import { MAX_NESTING, parseGoal, parseProgram, parseTerm } from '../solver/language/parse.js';
import { GroundFact } from '../solver/language/ground-facts.js';
import { formatDiagnostic, UserError } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { AstTerm, Literal, Statement } from '../solver/language/ast.js';

// ------------------------------------------------------------------ helpers

/** Drops every `span`, so trees can be compared by shape (a fact the parser holds by its place is compared as its tree, `toJSON`). */
function bare(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(bare);
  if (value instanceof GroundFact) return bare(value.toJSON());
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'span')
        .map(([k, v]) => [k, bare(v)]),
    );
  }
  return value;
}

const term = (text: string): unknown => bare(parseTerm(text));
const goal = (text: string): unknown => bare(parseGoal(text));
const statements = (text: string): unknown => bare(parseProgram(text, 'test.rules').statements);

// Shorthands for expected trees.
const v = (name: string) => ({ kind: 'var', name });
const a = (name: string) => ({ kind: 'atom', name });
const i = (value: number) => ({ kind: 'int', value });
const f = (functor: string, ...args: unknown[]) => ({ kind: 'compound', functor, args });
const list = (items: unknown[], tail: unknown = null) => ({ kind: 'list', items, tail });
const bin = (op: string, left: unknown, right: unknown) => ({ kind: 'binop', op, left, right });
const call = (pred: string, args: unknown[] = [], named: unknown[] = []) => ({ kind: 'call', pred, args, named });
const fact = (head: unknown) => ({ kind: 'clause', head, body: [] });

/** Parses `text` as a program, expecting one syntax error, and returns its diagnostic. */
function syntaxError(t: ExecutionContext, text: string, parse: (s: string) => unknown = (s) => parseProgram(s, 'bad.rules')): Diagnostic {
  const error = t.throws(() => parse(text), { instanceOf: UserError });
  t.is(error.diagnostics.length, 1);
  const d = error.diagnostics[0]!;
  t.is(d.code, 'syntax');
  t.is(d.severity, 'error');
  return d;
}

function at(t: ExecutionContext, d: Diagnostic, line: number, column: number): void {
  t.truthy(d.span, 'the diagnostic has a span');
  t.deepEqual([d.span?.start.line, d.span?.start.column], [line, column]);
}

// ------------------------------------------------------------------ clauses

test('facts and rules', (t) => {
  t.deepEqual(statements('edge(1, 2).\nok.'), [fact(call('edge', [i(1), i(2)])), fact(call('ok'))]);
  t.deepEqual(statements('path(X, Y) :- edge(X, Z), path(Z, Y).'), [
    {
      kind: 'clause',
      head: call('path', [v('X'), v('Y')]),
      body: [call('edge', [v('X'), v('Z')]), call('path', [v('Z'), v('Y')])],
    },
  ]);
  t.deepEqual(statements(''), []);
  t.deepEqual(statements('  % only a comment\n'), []);
});

test('a head can be a unification', (t) => {
  t.deepEqual(statements('Out = In :- identity(In, Out).'), [
    {
      kind: 'clause',
      head: { kind: 'unify', left: v('Out'), right: v('In') },
      body: [call('identity', [v('In'), v('Out')])],
    },
  ]);
});

test('every literal kind', (t) => {
  t.deepEqual(goal('p(X), q, not r(X), \\+ s(X), X == 1, X != Y, X < 1, X <= 1, X > 1, X >= 1, X = f(Y), X \\= Y'), [
    call('p', [v('X')]),
    call('q'),
    { kind: 'not', call: call('r', [v('X')]) },
    { kind: 'not', call: call('s', [v('X')]) },
    { kind: 'compare', op: '==', left: v('X'), right: i(1) },
    { kind: 'compare', op: '!=', left: v('X'), right: v('Y') },
    { kind: 'compare', op: '<', left: v('X'), right: i(1) },
    { kind: 'compare', op: '<=', left: v('X'), right: i(1) },
    { kind: 'compare', op: '>', left: v('X'), right: i(1) },
    { kind: 'compare', op: '>=', left: v('X'), right: i(1) },
    { kind: 'unify', left: v('X'), right: f('f', v('Y')) },
    { kind: 'differ', left: v('X'), right: v('Y') },
  ]);
});

test('not is a keyword only before a call separated by space', (t) => {
  t.deepEqual(goal('nothing(X), not(X), not/*c*/p'), [call('nothing', [v('X')]), call('not', [v('X')]), { kind: 'not', call: call('p') }]);
});

test('calls: capitalised and quoted names before `(`, named arguments', (t) => {
  t.deepEqual(goal("Identity(In, Out), 'odd name'(x), Conv2D(D, W, Out; strides: [2, 2], groups: G), f(; a: 1), g()"), [
    call('Identity', [v('In'), v('Out')]),
    call('odd name', [a('x')]),
    call(
      'Conv2D',
      [v('D'), v('W'), v('Out')],
      [
        { name: 'strides', value: list([i(2), i(2)]) },
        { name: 'groups', value: v('G') },
      ],
    ),
    call('f', [], [{ name: 'a', value: i(1) }]),
    call('g'),
  ]);
});

test('a goal may end with a period; a bare variable is not a call', (t) => {
  t.deepEqual(goal('path(1, X).'), [call('path', [i(1), v('X')])]);
  const d = syntaxError(t, 'X', (s) => parseGoal(s));
  at(t, d, 1, 2);
});

// ------------------------------------------------------------------ terms

test('every term kind', (t) => {
  t.deepEqual(term('X'), v('X'));
  t.deepEqual(term('_'), v('_'));
  t.deepEqual(term('_Tmp'), v('_Tmp'));
  t.deepEqual(term('float32'), a('float32'));
  t.deepEqual(term("'hello world'"), a('hello world'));
  t.deepEqual(term("'it\\'s'"), a("it's"));
  t.deepEqual(term('42'), i(42));
  t.deepEqual(term('-3'), i(-3));
  t.deepEqual(term('1.5'), { kind: 'float', value: 1.5 });
  t.deepEqual(term('0.5e-3'), { kind: 'float', value: 0.0005 });
  t.deepEqual(term('-2.5E2'), { kind: 'float', value: -250 });
  t.deepEqual(term('"a \\"b\\"\\n\\t\\\\ it\'s"'), { kind: 'string', value: 'a "b"\n\t\\ it\'s' });
  t.deepEqual(term('?1'), { kind: 'hole', name: '1' });
  t.deepEqual(term('?w'), { kind: 'hole', name: 'w' });
  t.deepEqual(term('tensor(S, D)'), f('tensor', v('S'), v('D')));
  t.deepEqual(term('Shape(S)'), f('Shape', v('S')));
  t.deepEqual(term("'my f'(1)"), f('my f', i(1)));
  t.deepEqual(term('[]'), list([]));
  t.deepEqual(term('[a, b]'), list([a('a'), a('b')]));
  t.deepEqual(term('[H | T]'), list([v('H')], v('T')));
  t.deepEqual(term('[a, b|T]'), list([a('a'), a('b')], v('T')));
  t.deepEqual(term('-X'), { kind: 'neg', arg: v('X') });
  t.deepEqual(term('S[i]'), { kind: 'index', target: v('S'), index: a('i') });
  t.deepEqual(term('S[1:]'), { kind: 'slice', target: v('S'), from: i(1), to: null });
  t.deepEqual(term('S[:2]'), { kind: 'slice', target: v('S'), from: null, to: i(2) });
  t.deepEqual(term('S[:]'), { kind: 'slice', target: v('S'), from: null, to: null });
  t.deepEqual(term('S[ A : B - 1 ]'), { kind: 'slice', target: v('S'), from: v('A'), to: bin('-', v('B'), i(1)) });
});

test('precedence and associativity', (t) => {
  t.deepEqual(term('A + B * C'), bin('+', v('A'), bin('*', v('B'), v('C'))));
  t.deepEqual(term('A * B + C'), bin('+', bin('*', v('A'), v('B')), v('C')));
  t.deepEqual(term('(A + B) * C'), bin('*', bin('+', v('A'), v('B')), v('C')));
  t.deepEqual(term('A - B - C'), bin('-', bin('-', v('A'), v('B')), v('C')));
  t.deepEqual(term('A / B % C'), bin('%', bin('/', v('A'), v('B')), v('C')));
  t.deepEqual(term('-X * Y'), bin('*', { kind: 'neg', arg: v('X') }, v('Y')));
  t.deepEqual(term('- -X'), { kind: 'neg', arg: { kind: 'neg', arg: v('X') } });
  t.deepEqual(term('-(3)'), { kind: 'neg', arg: i(3) });
  t.deepEqual(term('N-1'), bin('-', v('N'), i(1)));
  t.deepEqual(term('N - -1'), bin('-', v('N'), i(-1)));
  t.deepEqual(term('-S[0]'), { kind: 'neg', arg: { kind: 'index', target: v('S'), index: i(0) } });
  t.deepEqual(term('S[i][j]'), {
    kind: 'index',
    target: { kind: 'index', target: v('S'), index: a('i') },
    index: a('j'),
  });
  t.deepEqual(term('f(X)[1:][0]'), {
    kind: 'index',
    target: { kind: 'slice', target: f('f', v('X')), from: i(1), to: null },
    index: i(0),
  });
  t.deepEqual(goal('len(S) >= 1'), [{ kind: 'compare', op: '>=', left: f('len', v('S')), right: i(1) }]);
  t.deepEqual(goal('X + 1 == Y * 2'), [{ kind: 'compare', op: '==', left: bin('+', v('X'), i(1)), right: bin('*', v('Y'), i(2)) }]);
});

test('a subscript needs its `[` right after the term', (t) => {
  const d = syntaxError(t, 'S [0]', (s) => parseTerm(s));
  at(t, d, 1, 3);
});

test('negative integers in arguments; a period after an integer ends the clause', (t) => {
  t.deepEqual(statements('p(-1).'), [fact(call('p', [i(-1)]))]);
  t.deepEqual(statements('p(1).q(2.0).'), [fact(call('p', [i(1)])), fact(call('q', [{ kind: 'float', value: 2 }]))]);
  t.deepEqual(statements('n(1).\nn(2).'), [fact(call('n', [i(1)])), fact(call('n', [i(2)]))]);
});

test('integers are exact up to 2^53 - 1', (t) => {
  t.deepEqual(term('9007199254740991'), i(9007199254740991));
  t.deepEqual(term('-9007199254740991'), i(-9007199254740991));
  const d = syntaxError(t, 'p(1).\nq(X) :- X = 9007199254740993.');
  t.is(d.message, 'integer 9007199254740993 is too large (exact integers go up to 9007199254740991)');
  at(t, d, 2, 13);
  t.deepEqual(d.span?.end.column, 29);
  const neg = syntaxError(t, '[-9007199254740992]', (s) => parseTerm(s));
  t.regex(neg.message, /integer -9007199254740992 is too small/);
  at(t, neg, 1, 2);
});

// ------------------------------------------------------------------ declarations

test('relation declarations with attribute types and defaults', (t) => {
  t.deepEqual(statements('relation Conv2D(data, weight, out; strides: [int] = [1, 1], groups: int = 1, pad: int?, name: string, m: [float?]?).'), [
    {
      kind: 'relation',
      name: 'Conv2D',
      params: [{ name: 'data' }, { name: 'weight' }, { name: 'out' }],
      attrs: [
        { name: 'strides', type: { kind: 'list', element: { kind: 'named', name: 'int' } }, default: list([i(1), i(1)]) },
        { name: 'groups', type: { kind: 'named', name: 'int' }, default: i(1) },
        { name: 'pad', type: { kind: 'optional', inner: { kind: 'named', name: 'int' } }, default: null },
        { name: 'name', type: { kind: 'named', name: 'string' }, default: null },
        {
          name: 'm',
          type: {
            kind: 'optional',
            inner: { kind: 'list', element: { kind: 'optional', inner: { kind: 'named', name: 'float' } } },
          },
          default: null,
        },
      ],
    },
  ]);
  t.deepEqual(statements('relation R().'), [{ kind: 'relation', name: 'R', params: [], attrs: [] }]);
  t.deepEqual(statements('relation R(;a: bool = true).'), [
    { kind: 'relation', name: 'R', params: [], attrs: [{ name: 'a', type: { kind: 'named', name: 'bool' }, default: a('true') }] },
  ]);
  // `relation` is only a keyword before a name: this is an ordinary fact.
  t.deepEqual(statements('relation(a).'), [fact(call('relation', [a('a')]))]);
});

test('relation declaration spans', (t) => {
  const [decl] = parseProgram('\n  relation R(x; a: int = 1).', 'r.rules').statements;
  if (decl?.kind !== 'relation') return t.fail();
  t.deepEqual(decl.span, {
    file: 'r.rules',
    start: { offset: 3, line: 2, column: 3 },
    end: { offset: 29, line: 2, column: 29 },
  });
  t.deepEqual([decl.params[0]?.span.start.column, decl.params[0]?.span.end.column], [14, 15]);
  t.deepEqual([decl.attrs[0]?.span.start.column, decl.attrs[0]?.span.end.column], [17, 27]);
});

test('imports', (t) => {
  t.deepEqual(statements('import "other.rules".\nimport "dir/x y.rules" .'), [
    { kind: 'import', path: 'other.rules' },
    { kind: 'import', path: 'dir/x y.rules' },
  ]);
});

// ------------------------------------------------------------------ layout

test('comments and whitespace between tokens', (t) => {
  const text = [
    '% a line comment',
    'p(X) :- % after :-',
    '  /* a block',
    '     comment */ q( X /* inside */ ) , % after a comma',
    '  % on its own line',
    '  X = Y',
    '    % first on its line inside an expression',
    '    + 1.% after the end',
    '/**/q.',
  ].join('\n');
  t.deepEqual(statements(text), [
    {
      kind: 'clause',
      head: call('p', [v('X')]),
      body: [call('q', [v('X')]), { kind: 'unify', left: v('X'), right: bin('+', v('Y'), i(1)) }],
    },
    fact(call('q')),
  ]);
});

test('`%` right after an operand is the modulo operator', (t) => {
  t.deepEqual(goal('X = N % 2'), [{ kind: 'unify', left: v('X'), right: bin('%', v('N'), i(2)) }]);
  t.deepEqual(term('N%2'), bin('%', v('N'), i(2)));
  t.deepEqual(goal('X = N % 2, % a comment\nY = 1'), [
    { kind: 'unify', left: v('X'), right: bin('%', v('N'), i(2)) },
    { kind: 'unify', left: v('Y'), right: i(1) },
  ]);
  // A comment after an operand is read as `%`, and the note says why.
  const d = syntaxError(t, 'p(X) :- X = 1 % set it to one\n  .');
  t.is(d.message, 'expected "," or "." but found "it"');
  t.true(d.notes.some((n) => n.includes('modulo')));
});

// ------------------------------------------------------------------ spans

test('spans carry the file label and 1-based positions', (t) => {
  const program = parseProgram('p(X) :-\n    q(X, Y).', 'a/b.rules');
  t.is(program.file, 'a/b.rules');
  const clause = program.statements[0];
  if (clause?.kind !== 'clause') return t.fail();
  t.deepEqual(clause.span, {
    file: 'a/b.rules',
    start: { offset: 0, line: 1, column: 1 },
    end: { offset: 20, line: 2, column: 13 },
  });
  const q = clause.body[0] as Extract<Literal, { kind: 'call' }>;
  t.deepEqual(
    [q.span.start, q.span.end],
    [
      { offset: 12, line: 2, column: 5 },
      { offset: 19, line: 2, column: 12 },
    ],
  );
  const y = q.args[1] as AstTerm;
  t.deepEqual([y.span.start.column, y.span.end.column], [10, 11]);

  const expr = parseTerm('A + B * C');
  t.is(expr.span.file, '<term>');
  t.deepEqual([expr.span.start.offset, expr.span.end.offset], [0, 9]);
  if (expr.kind !== 'binop') return t.fail();
  t.deepEqual([expr.right.span.start.offset, expr.right.span.end.offset], [4, 9]);
  t.is(parseGoal('p')[0]?.span.file, '<goal>');
  t.is(parseGoal('p', 'cli')[0]?.span.file, 'cli');
  const sliced = parseTerm(' S[1:][0] ');
  t.deepEqual([sliced.span.start.offset, sliced.span.end.offset], [1, 9]);
});

// ------------------------------------------------------------------ DESIGN examples

const design = `relation Identity(in, out).
Out = In :- Identity(In, Out).
relation BatchFlatten(data, out).
Out = tensor([S[0], prod(S[1:])], D) :- BatchFlatten(tensor(S, D), Out), len(S) >= 1.
relation Broadcast(lhs, rhs, out).
D2 = D1 :- Broadcast(tensor(_, D1), tensor(_, D2), _).
Out = tensor(S, D) :- Broadcast(tensor(S1, D), tensor(S2, D), Out), broadcast_shape(S1, S2, S).
broadcast_shape(S1, S2, S) :- bcast(reverse(S1), reverse(S2), R), S = reverse(R).
bcast([], R, R).
bcast([A|As], [], [A|As]).
bcast([A|As], [B|Bs], [C|Cs]) :- bdim(A, B, C), bcast(As, Bs, Cs).
bdim(A, B, B) :- A == 1.
bdim(A, B, A) :- B == 1, A != 1.
bdim(A, A, A) :- A != 1.
error("cannot broadcast {S1} with {S2}") :-
    Broadcast(tensor(S1, _), tensor(S2, _), _), ground(S1), ground(S2),
    not broadcast_shape(S1, S2, _).
Broadcast(tensor([2, 1, n], float32), tensor([3, 1], ?1), ?2).
`;

test('the DESIGN examples parse', (t) => {
  const all = parseProgram(design, 'design.rules').statements;
  t.is(all.length, 16);
  t.deepEqual(
    all.map((s) => s.kind),
    [
      'relation',
      'clause',
      'relation',
      'clause',
      'relation',
      'clause',
      'clause',
      'clause',
      'clause',
      'clause',
      'clause',
      'clause',
      'clause',
      'clause',
      'clause',
      'clause',
    ],
  );
  t.deepEqual(bare(all[3]), {
    kind: 'clause',
    head: {
      kind: 'unify',
      left: v('Out'),
      right: f('tensor', list([{ kind: 'index', target: v('S'), index: i(0) }, f('prod', { kind: 'slice', target: v('S'), from: i(1), to: null })]), v('D')),
    },
    body: [call('BatchFlatten', [f('tensor', v('S'), v('D')), v('Out')]), { kind: 'compare', op: '>=', left: f('len', v('S')), right: i(1) }],
  });
  const err = all[14] as Extract<Statement, { kind: 'clause' }>;
  t.deepEqual(bare(err.head), call('error', [{ kind: 'string', value: 'cannot broadcast {S1} with {S2}' }]));
  t.is(err.body[3]?.kind, 'not');
  t.deepEqual(
    bare(all[15]),
    fact(
      call('Broadcast', [
        f('tensor', list([i(2), i(1), a('n')]), a('float32')),
        f('tensor', list([i(3), i(1)]), { kind: 'hole', name: '1' }),
        { kind: 'hole', name: '2' },
      ]),
    ),
  );
});

// ------------------------------------------------------------------ errors

test('expected tokens are listed, quoted and sorted', (t) => {
  const d = syntaxError(t, 'p(a, b.');
  t.is(d.message, 'expected ")", ",", or ";" but found "."');
  at(t, d, 1, 7);
  const word = syntaxError(t, 'p(a b).');
  t.is(word.message, 'expected ")", ",", or ";" but found "b"');
  const empty = syntaxError(t, 'p :- .');
  t.is(empty.message, 'expected "\\+", "not", or term but found "."');
  const named = syntaxError(t, 'X = f(; a: 1) :- p.');
  at(t, named, 1, 7);
});

test('a missing period at the end of the file', (t) => {
  const d = syntaxError(t, 'p(1).\np(X) :- q(X)');
  t.is(d.message, 'expected "," or "." but found end of input');
  at(t, d, 2, 13);
  t.deepEqual(d.span?.end, d.span?.start);
});

test('unterminated strings, quoted atoms and comments point at where they start', (t) => {
  const s = syntaxError(t, 'p(1).\nq("abc, X).\nr.');
  t.is(s.message, 'unterminated string: a string must end on the line it starts (write \\n for a line break)');
  at(t, s, 2, 3);
  const eof = syntaxError(t, 'q(  "abc');
  t.is(eof.message, 'unterminated string');
  at(t, eof, 1, 5);
  const quoted = syntaxError(t, "q('abc).\n");
  t.regex(quoted.message, /^unterminated quoted atom/);
  at(t, quoted, 1, 3);
  const comment = syntaxError(t, 'p.\n  q. /* no end\n\n r.');
  t.is(comment.message, 'unterminated block comment');
  at(t, comment, 2, 6);
  const badEscape = syntaxError(t, 'p("a\\qb").');
  t.regex(badEscape.message, /^unknown escape \\q/);
  at(t, badEscape, 1, 5);
});

test('deep nesting is a diagnostic, not a crash', (t) => {
  const n = 100_000;
  for (const [open, close] of [
    ['f(', ')'],
    ['[', ']'],
    ['(', ')'],
  ] as const) {
    const text = `p(${open.repeat(n)}1${close.repeat(n)}).`;
    const d = syntaxError(t, text);
    t.is(d.message, `terms nested deeper than ${MAX_NESTING} levels`);
    // The first bracket past the limit: `p(` is level 1, so level 501 is the bracket that
    // ends the 500th `open` after it.
    at(t, d, 1, 2 + open.length * MAX_NESTING);
  }
  syntaxError(t, '['.repeat(n), (s) => parseTerm(s));
  syntaxError(t, `q(${'['.repeat(n)}`, (s) => parseGoal(s));
  // Brackets inside strings, quoted atoms and comments do not count.
  const hidden = `"${'('.repeat(1000)}", '${'['.repeat(1000)}' /* ${'('.repeat(1000)} */`;
  t.deepEqual(bare(parseGoal(`p(${hidden}) % ${'('.repeat(1000)}`)), [call('p', [{ kind: 'string', value: '('.repeat(1000) }, a('['.repeat(1000))])]);
});

/**
 * Where the nesting check must stop, as a plain loop over every character (the rule the
 * parser's check implements with a faster scan): the offset of the first `(` or `[` past
 * MAX_NESTING levels, skipping strings, quoted atoms, `%` to the line's end and block
 * comments; -1 for none.
 */
function firstTooDeep(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') {
      if (++depth > MAX_NESTING) return i;
    } else if (c === ')' || c === ']') {
      if (depth > 0) depth--;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n' && text[j] !== '\r')
        j += text[j] === '\\' && text[j + 1] !== '\n' && text[j + 1] !== '\r' ? 2 : 1;
      i = j;
    } else if (c === '%') {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 1;
    }
  }
  return -1;
}

test('random text near the nesting limit: the nesting error is where a plain loop over the characters finds it', (t) => {
  const piece = fc.constantFrom(
    '(',
    '(',
    '[',
    ')',
    ')',
    ']',
    'a',
    ' ',
    ',',
    '"',
    "'",
    '\\',
    '%',
    '\n',
    '\r',
    '/',
    '*',
    '/*',
    '*/',
    'p(1, 2)',
    'f(x/y)',
    '.',
    'edge(1, 2).\n',
  );
  const text = fc
    .tuple(fc.integer({ min: MAX_NESTING - 12, max: MAX_NESTING + 2 }), fc.constantFrom('(', '[', 'f('), fc.array(piece, { maxLength: 60 }))
    .map(([n, open, pieces]) => open.repeat(n) + pieces.join(''));
  let tooDeep = 0;
  fc.assert(
    fc.property(text, (s) => {
      const expected = firstTooDeep(s);
      let found = -1;
      try {
        parseProgram(s, 'deep.rules');
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        const d = e.diagnostics[0]!;
        if (d.message === `terms nested deeper than ${MAX_NESTING} levels`) found = d.span!.start.offset;
      }
      t.is(found, expected, JSON.stringify(s.slice(MAX_NESTING - 20)));
      if (expected >= 0) tooDeep++;
    }),
    { numRuns: 1500, seed: 21 },
  );
  t.true(tooDeep > 200 && tooDeep < 1300, `texts past the limit and within it were tried (${tooDeep})`);
});

test(`nesting of exactly ${MAX_NESTING} levels parses`, (t) => {
  const n = MAX_NESTING;
  const compound = parseProgram(`p(${'f('.repeat(n - 1)}1${')'.repeat(n)}.`, 'deep.rules');
  t.is(compound.statements.length, 1);
  const nestedList = parseProgram(`p(${'['.repeat(n - 1)}1${']'.repeat(n - 1)}).`, 'deep.rules');
  t.is(nestedList.statements.length, 1);
  const parens = parseProgram(`X = ${'('.repeat(n)}1${')'.repeat(n)} :- q(X).`, 'deep.rules');
  t.is(parens.statements.length, 1);
  const body = parseProgram(`q :- X = ${'[a|'.repeat(n - 1)}[]${']'.repeat(n - 1)}.`, 'deep.rules');
  t.is(body.statements.length, 1);
  t.is(parseTerm(`S${'[0]'.repeat(10_000)}`).kind, 'index');
  t.is(parseTerm(`${'-'.repeat(10_000)}X`).kind, 'neg');
});

test('long flat inputs parse quickly', (t) => {
  const items = Array.from({ length: 100_000 }, (_, k) => k);
  const big = parseTerm(`[${items.join(', ')}]`);
  t.is(big.kind === 'list' ? big.items.length : 0, 100_000);

  const facts = items.map((k) => `edge(${k}, ${(k * 7919) % 100_000}).`).join('\n');
  t.true(facts.length > 1_000_000);
  const started = Date.now();
  const program = parseProgram(facts, 'edges.rules');
  const elapsed = Date.now() - started;
  t.is(program.statements.length, 100_000);
  t.true(elapsed < 5000, `took ${elapsed} ms`);
  const last = program.statements[99_999];
  t.is(last?.span.start.line, 100_000);
});

test('formatDiagnostic shows file:line:column, the line and a caret', (t) => {
  const text = 'p(1).\nq(X) :- r(X, 9007199254740993).\n';
  const d = syntaxError(t, text);
  const out = formatDiagnostic(d, new Map([['bad.rules', text]]));
  const lines = out.split('\n');
  t.is(lines[0], 'bad.rules:2:14: error: integer 9007199254740993 is too large (exact integers go up to 9007199254740991)');
  t.is(lines[1], '  q(X) :- r(X, 9007199254740993).');
  t.is(lines[2], `               ^${'~'.repeat(15)}`);
  t.is(lines[2]?.indexOf('^'), lines[1]!.indexOf('9'));

  const missing = syntaxError(t, 'p(a, b.');
  t.is(formatDiagnostic(missing, new Map([['bad.rules', 'p(a, b.']])), 'bad.rules:1:7: error: expected ")", ",", or ";" but found "."\n  p(a, b.\n        ^');
});

test('a term or goal with trailing text is an error', (t) => {
  const d = syntaxError(t, 'f(X) g', (s) => parseTerm(s));
  t.is(d.span?.file, '<term>');
  at(t, d, 1, 6);
  const g = syntaxError(t, 'p(X). q(X)', (s) => parseGoal(s));
  t.is(g.message, 'expected end of input but found "q"');
});

// ------------------------------------------------------------------ robustness

const pieces = [
  'p',
  'X',
  '_',
  '(',
  ')',
  '[',
  ']',
  ',',
  ';',
  ':',
  ':-',
  '.',
  ' ',
  '\n',
  '"',
  "'",
  '\\',
  '%',
  '/*',
  '*/',
  '=',
  '==',
  '\\=',
  '\\+',
  'not ',
  '?',
  '-',
  '+',
  '*',
  '|',
  '1',
  '9007199254740993',
  '2.5',
  'relation ',
  'import ',
];

test('any input either parses or gives a syntax diagnostic', (t) => {
  const check = (text: string): boolean => {
    for (const parse of [(s: string) => parseProgram(s, 'x'), parseGoal, parseTerm]) {
      try {
        parse(text);
      } catch (e) {
        if (!(e instanceof UserError) || e.diagnostics[0]?.code !== 'syntax') return false;
      }
    }
    return true;
  };
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((xs) => xs.join('')),
      check,
    ),
    {
      numRuns: 2000,
    },
  );
  fc.assert(fc.property(fc.string(), check), { numRuns: 500 });
  // Every prefix of a real program.
  for (let k = 0; k <= design.length; k++) t.true(check(design.slice(0, k)), JSON.stringify(design.slice(0, k)));
});
