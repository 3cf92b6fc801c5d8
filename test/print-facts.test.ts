// `shapelog query` prints every fact (cli/print-facts.ts: lines made from term ids as
// UTF-8 bytes, each distinct argument's text encoded once, written in chunks of 64 KB). What it
// writes must be exactly the facts as text (RunResult.factsByPredicate, each line as
// termText prints its fact), under a header per predicate, for any kind of argument:
// integers of any sign and size, floats, atoms and strings with non-ASCII text, compound
// terms, and texts longer than a chunk.
import test from 'ava';
import { testProp } from '@fast-check/ava';
import fc from 'fast-check';
import { writeAllFacts } from '../cli/print-facts.js';
import { runText } from '../solver/run.js';

function printed(source: string): { text: string; expected: string } {
  const result = runText(source);
  const chunks: Buffer[] = [];
  writeAllFacts(result, (chunk) => void chunks.push(chunk));
  let expected = '';
  for (const [pred, lines] of result.factsByPredicate()) {
    expected += `% ${pred} (${lines.length} fact${lines.length === 1 ? '' : 's'})\n`;
    for (const line of lines) expected += `${line}.\n`;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), expected };
}

const argument = fc.oneof(
  fc.integer({ min: -1e6, max: 1e6 }).map(String),
  fc.constantFrom(
    '0',
    '-0',
    '9',
    '10',
    '-10',
    '99999',
    '100000',
    '2147483647',
    '-2147483647',
    '2147483648',
    '-2147483648',
    '9007199254740991',
    '-9007199254740991',
    '999999999999999',
    '1000000000000000',
  ),
  fc.constantFrom('1.5', '-2.25', '1.0e20'),
  fc.constantFrom('a', "'Q x'", "'héllo'", "'日本'", '"strïng"', '"q\\"uote"', 'f(1, g(2))', '[1, 2, 3]'),
);
const facts = fc.array(fc.tuple(fc.constantFrom('p', 'q', 'r'), fc.array(argument, { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 80 });

testProp(
  'what is printed is every fact as text, under a header per predicate',
  [facts],
  (t, fs) => {
    // one arity per predicate: the name carries it
    const source = fs.map(([p, args]) => `${p}${args.length}(${args.join(', ')}).`).join('\n');
    const { text, expected } = printed(source);
    t.is(text, expected);
  },
  { seed: 27, numRuns: 200 },
);

test('many facts, a fact of arity 0, and texts longer than a chunk print as text does', (t) => {
  const lines = ['flag.', 'zz(1).', `long('${'ü'.repeat(40_000)}').`, `long2("${'x'.repeat(70_000)}", 1).`];
  for (let i = 0; i < 20_000; i++) lines.push(`edge(${i % 13}, ${i}).`);
  const { text, expected } = printed(lines.join('\n'));
  t.true(text.length > 3 * 65_536);
  t.is(text, expected);
});
