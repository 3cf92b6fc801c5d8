// The ground-fact fast path of the parser (solver/language/ground-facts.ts, used by
// parseProgram) against the grammar alone (parseProgramWithGrammar): on random files of
// facts, near-misses of facts, rules, declarations, comments and mistakes, both give the
// same statements with the same spans, or the same located syntax errors; and lowering a
// fast fact from its values (solver/compile/lower.ts) compiles the same program as
// lowering the grammar's tree.
import test from 'ava';
import fc from 'fast-check';
import { parseProgram, parseProgramWithGrammar } from '../solver/language/parse.js';
import { UserError } from '../diagnostics/diagnostic.js';
import { GroundFact } from '../solver/language/ground-facts.js';
import { compileProgram } from '../solver/compile/program.js';
import type { Program } from '../solver/language/ast.js';
import { termText } from '../solver/terms/print.js';
import { TermStore } from '../solver/terms/term-store.js';

/** A tree as plain data: a fact held by its place (GroundFact) becomes the tree it stands for. */
function plain(value: unknown): unknown {
  if (value instanceof GroundFact) return plain(value.toJSON());
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

/** A parse's statements, or its diagnostics when it fails; anything but a UserError is rethrown. */
function outcome(parse: () => unknown): unknown {
  try {
    return { ok: plain(parse()) };
  } catch (e) {
    if (e instanceof UserError) return { error: e.diagnostics };
    throw e;
  }
}

function same(t: import('ava').ExecutionContext, text: string): void {
  const fast = outcome(() => parseProgram(text, 'f.rules').statements);
  const grammar = outcome(() => parseProgramWithGrammar(text, 'f.rules').statements);
  t.deepEqual(fast, grammar, JSON.stringify(text));
}

const name = fc.constantFrom('edge', 'p', 'Edge', '_q', 'relation', 'text', 'not', 'import', 'x1_y');
const atom = fc.constantFrom('a', 'float32', 'b_2', 'not', 'zZ');
const int = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.constantFrom('007', '-0', '123456789012345', '1234567890123456', '-12345678901234', '99999999999999999999'),
);
const blank = fc.constantFrom('', '', ' ', '  ', '\t');
/** Arguments the fast path may or may not take. */
const arg = fc.oneof(
  { weight: 6, arbitrary: int },
  { weight: 4, arbitrary: atom },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'X',
      '_',
      '1.5',
      '1e5',
      '2.',
      '"s"',
      "'q'",
      'f(1)',
      '[1, 2]',
      '1 + 2',
      '- 3',
      'a[0]',
      '?1',
      '1 /* c */',
      '1\n',
      'a %c\n',
      'b (1)',
      '',
    ),
  },
);
const fact = fc
  .tuple(
    name,
    blank,
    fc.array(fc.tuple(blank, arg, blank), { minLength: 0, maxLength: 4 }),
    blank,
    fc.constantFrom('.', '.', '.', ' .', '', ') .', ' :- q.', ' = x.', '.5'),
  )
  .map(([n, b0, args, b1, end]) => `${n}${b0}(${args.map(([x, y, z]) => `${x}${y}${z}`).join(',')})${b1}${end}`);
const other = fc.constantFrom(
  'path(X, Y) :- edge(X, Y).',
  'relation R(a, b).',
  'ok.',
  'X = 1 :- p(X).',
  '% a comment (with a dot).',
  '/* a block\n comment */',
  '/* unterminated',
  '"unterminated string',
  'p(1',
  'p(1) q(2).',
  'text T = "x".',
  'bad(#).',
  'p(1.',
  'q :- r,',
  'N % 2',
);
const layout = fc.constantFrom('\n', '\n', ' ', '\r\n', '\n\n', '\t', ' % c\n', '/* c */', '\uFEFF', '');
const file = fc
  .array(fc.tuple(fc.oneof({ weight: 5, arbitrary: fact }, { weight: 1, arbitrary: other }), layout), { maxLength: 12 })
  .map((parts) => parts.map(([s, l]) => s + l).join(''));

test('random files: the same statements and spans, or the same syntax errors, as the grammar alone', (t) => {
  fc.assert(
    fc.property(file, (text) => {
      same(t, text);
    }),
    { numRuns: 2000, seed: 15 },
  );
});

test('a file of plain facts is read by the fast path with exact spans', (t) => {
  const text = 'edge(1, 2).\n  edge(-3,b) .\r\nlast( x9 ,  0 ).';
  same(t, text);
  const statements = parseProgram(text, 'f.rules').statements;
  t.true(
    statements.every((s) => s instanceof GroundFact),
    'every statement is taken by the fast path',
  );
  const [, second, third] = statements;
  t.deepEqual(second?.span, { file: 'f.rules', start: { offset: 14, line: 2, column: 3 }, end: { offset: 26, line: 2, column: 15 } });
  t.deepEqual(third?.span.start, { offset: 28, line: 3, column: 1 });
  // the head and span a fact gives on use are the grammar's
  t.deepEqual(
    plain({ head: third?.kind === 'clause' ? third.head : null, span: third?.span }),
    plain({
      head: (parseProgramWithGrammar(text, 'f.rules').statements[2] as { head: unknown }).head,
      span: parseProgramWithGrammar(text, 'f.rules').statements[2]?.span,
    }),
  );
});

test('statements the grammar reads between fast facts keep their places', (t) => {
  const text = 'edge(1, 2).\npath(X, Y) :- edge(X, Y).\nedge(2, 3). path(X, Z) :- path(X, Y),\n    edge(Y, Z).\n';
  same(t, text);
  const rule = parseProgram(text, 'f.rules').statements[3]!;
  t.deepEqual(
    [rule.span.start, rule.span.end],
    [
      { offset: 50, line: 3, column: 13 },
      { offset: 91, line: 4, column: 16 },
    ],
  );
});

test('a syntax error after many facts is located as the grammar locates it', (t) => {
  const text = `${'edge(1, 2).\n'.repeat(1000)}edge(1, 2) edge(2, 3).\n${'edge(5, 6).\n'.repeat(10)}`;
  same(t, text);
  const error = t.throws(() => parseProgram(text, 'f.rules'), { instanceOf: UserError });
  t.deepEqual(error.diagnostics[0]?.span?.start, { offset: 12011, line: 1001, column: 12 });
});

test('many statements that are not plain facts are read the same way', (t) => {
  same(t, Array.from({ length: 600 }, (_, i) => (i % 3 === 0 ? `p(${i}).` : `q(f(${i}), [${i}]).`)).join('\n'));
});

/** What compiling a parsed file gives: diagnostics, or the facts, their spans, the rules, the warnings and every term's text. */
function compiled(program: Program): unknown {
  const store = new TermStore();
  const c = compileProgram(store, [program], 'seminaive', null);
  if (!c.ok) return { diagnostics: c.diagnostics };
  const terms: string[] = [];
  for (let id = 1; id < store.size; id++) terms.push(termText(store, id));
  const p = c.program;
  return { facts: p.facts, factSpans: p.factSpans, rules: p.rules, warnings: p.warnings, decls: p.decls, terms };
}

/** Facts whose names are built-ins, declared relations or used with two arities, beside rules and declarations. */
const compiledName = fc.constantFrom('edge', 'p', 'q', 'error', 'not', 'len', 'max', 'integer', 'R');
const compiledFact = fc
  .tuple(compiledName, fc.array(fc.tuple(blank, arg, blank), { minLength: 0, maxLength: 3 }))
  .map(([n, args]) => `${n}(${args.map(([x, y, z]) => `${x}${y}${z}`).join(',')}).`);
const compiledOther = fc.constantFrom('relation R(a, b).', 'relation R(a; k: int = 1).', 'q(X) :- p(X, _).', 'p(?1, a).', 'edge(X, Y) :- p(X, Y).');
const compiledFile = fc
  .array(fc.tuple(fc.oneof({ weight: 4, arbitrary: compiledFact }, { weight: 1, arbitrary: compiledOther }), layout), { maxLength: 10 })
  .map((parts) => parts.map(([s, l]) => s + l).join(''));

/** The program read with the fast path and with the grammar alone; null when the text is not a program (a syntax error). */
function parsedBothWays(text: string): [Program, Program] | null {
  try {
    return [parseProgram(text, 'f.rules'), parseProgramWithGrammar(text, 'f.rules')];
  } catch (e) {
    if (e instanceof UserError) return null;
    throw e;
  }
}

test('random files: a fact lowered from its values compiles as its tree does (facts, spans, errors, terms)', (t) => {
  let fast = 0;
  fc.assert(
    fc.property(compiledFile, (text) => {
      const both = parsedBothWays(text);
      if (both === null) return; // syntax errors: the test above
      const [a, b] = both;
      fast += a.statements.filter((s) => s instanceof GroundFact).length;
      t.deepEqual(compiled(a), compiled(b), JSON.stringify(text));
    }),
    { numRuns: 1500, seed: 16 },
  );
  t.true(fast > 1000, `the fast path was taken (${fast} facts)`);
});

// ---- strings, long argument lists, facts split across lines

/** Strings the fast path takes (escapes included) and ones it must leave to the grammar (bad escapes, line breaks, unterminated). */
const str = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom(
      '""',
      '"s"',
      '"a,b"',
      '"x)y."',
      '"%c"',
      '"(("',
      '"/* c */"',
      '"tab\\there"',
      '"q\\"q"',
      '"it\\\'s"',
      '"back\\\\slash"',
      '"line\\nbreak"',
      '"\\\\"',
      "'quoted atom'",
    ),
  },
  {
    weight: 2,
    arbitrary: fc.string({ unit: fc.constantFrom('a', ' ', ',', ')', '.', '\\n', '\\\\', '\\"', "'", '%', 'é'), maxLength: 6 }).map((s) => `"${s}"`),
  },
  { weight: 1, arbitrary: fc.constantFrom('"bad \\q escape"', '"split\nline"', '"unterminated', '"ends in \\', '"\\\r\n"') },
);
/** Blanks, sometimes a line break or a comment (a fact split across lines, which the grammar alone reads). */
const gap = fc.oneof({ weight: 30, arbitrary: blank }, { weight: 1, arbitrary: fc.constantFrom('\n', '\r\n  ', ' % c\n', '/* c */', ' /*\n*/ ') });
const richArg = fc.oneof({ weight: 8, arbitrary: int }, { weight: 6, arbitrary: atom }, { weight: 6, arbitrary: str }, { weight: 1, arbitrary: arg });
const richFact = fc
  .tuple(name, fc.array(fc.tuple(gap, richArg, gap), { minLength: 1, maxLength: 7 }), gap, fc.constantFrom('.', '.', '.', '.', '.', '.', ' .', '.5', ''))
  .map(([n, args, b, end]) => `${n}(${args.map(([x, y, z]) => `${x}${y}${z}`).join(',')})${b}${end}`);
const richParts = fc.array(fc.tuple(fc.oneof({ weight: 12, arbitrary: richFact }, { weight: 1, arbitrary: other }), layout), { maxLength: 12 });

test('random files with strings, up to seven arguments and facts split across lines: the same statements, spans and errors as the grammar', (t) => {
  let fast = 0;
  let strings = 0;
  let long = 0;
  fc.assert(
    fc.property(richParts, (parts) => {
      same(t, parts.map(([s, l]) => s + l).join(''));
      // each statement alone too, counting what the fast path took
      for (const [part] of parts) {
        same(t, part);
        try {
          for (const s of parseProgram(part, 'f.rules').statements) {
            if (!(s instanceof GroundFact)) continue;
            fast++;
            if (s.head.args.some((a) => a.kind === 'string')) strings++;
            if (s.head.args.length > 4) long++;
          }
        } catch (e) {
          if (!(e instanceof UserError)) throw e;
        }
      }
    }),
    { numRuns: 2000, seed: 17 },
  );
  t.true(
    fast > 2000 && strings > 1000 && long > 500,
    `the fast path took plain facts (${fast}), facts with strings (${strings}) and facts of more than four arguments (${long})`,
  );
});

test('strings with escapes: the values the grammar gives', (t) => {
  const text = 'name(n1, "conv \\"1\\"", "a\\\\b", "tab\\tnew\\nline", "it\\\'s", "", a, -7).';
  same(t, text);
  const [s] = parseProgram(text, 'f.rules').statements;
  if (!(s instanceof GroundFact)) return t.fail('the fast path did not take the fact');
  const values = s.head.args.map((a) => (a.kind === 'string' ? a.value : a.kind === 'int' ? a.value : a.kind === 'atom' ? a.name : null));
  t.deepEqual(values, ['n1', 'conv "1"', 'a\\b', 'tab\tnew\nline', "it's", '', 'a', -7]);
});

test('a malformed line among many facts: the diagnostic the grammar gives, at its file:line:column', (t) => {
  const facts = (n: number, from: number) => Array.from({ length: n }, (_, i) => `edge(${from + i}, "s${i}", -${i}, a${i}, ${i}).`).join('\n');
  for (const bad of ['edge(1, "bad \\q").', 'edge(1, "open).', 'edge(1 2).', 'edge(1, 2)', 'edge(1,\n 2', 'edge(1, 2). %', 'edge(1, 2) /*']) {
    const text = `${facts(300, 0)}\n${bad}\n${facts(5, 300)}\n`;
    same(t, text);
  }
});

const compiledRichFact = fc
  .tuple(compiledName, fc.array(fc.tuple(blank, fc.oneof(int, atom, str, arg), blank), { minLength: 0, maxLength: 6 }))
  .map(([n, args]) => `${n}(${args.map(([x, y, z]) => `${x}${y}${z}`).join(',')}).`);
const compiledRichFile = fc
  .array(fc.tuple(fc.oneof({ weight: 4, arbitrary: compiledRichFact }, { weight: 1, arbitrary: compiledOther }), layout), { maxLength: 10 })
  .map((parts) => parts.map(([s, l]) => s + l).join(''));

test('random files with strings and long argument lists: a fact lowered from its values compiles as its tree does', (t) => {
  let strings = 0;
  fc.assert(
    fc.property(compiledRichFile, (text) => {
      const both = parsedBothWays(text);
      if (both === null) return;
      const [a, b] = both;
      strings += a.statements.filter((s) => s instanceof GroundFact && s.head.args.some((x) => x.kind === 'string')).length;
      t.deepEqual(compiled(a), compiled(b), JSON.stringify(text));
    }),
    { numRuns: 1500, seed: 18 },
  );
  t.true(strings > 300, `facts with strings were lowered from their values (${strings})`);
});
