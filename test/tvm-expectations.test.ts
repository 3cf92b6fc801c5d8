// Answers that TVM's own Relay tests expect (test_op_level3.py, test_op_level4.py,
// test_op_level10.py), written down by hand as fixtures: test/fixtures/tvm/*.jsonl,
// one call a line with `from` (the TVM test it comes from), `op`, `attrs`, `args`,
// and either `expect` (the result type) or `error` (a fragment of the message). Both
// strategies must give exactly that answer.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { typeofCall, type TypeofRequest } from '../typing/typeof.js';

interface Expectation extends TypeofRequest {
  readonly from: string;
  readonly expect?: string;
  readonly error?: string;
}

const DIR = join(import.meta.dirname, 'fixtures', 'tvm');

for (const file of readdirSync(DIR).filter((f) => f.endsWith('.jsonl'))) {
  const lines = readFileSync(join(DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  for (const [i, line] of lines.entries()) {
    const { from, expect, error, ...req } = JSON.parse(line) as Expectation;
    test(`${file}:${i + 1} ${req.op}: ${from}`, (t) => {
      for (const strategy of ['rules', 'relay'] as const) {
        const answer = typeofCall(req, strategy);
        if (expect !== undefined) t.deepEqual(answer, { ...answer, type: expect }, `${strategy}: ${JSON.stringify(answer)}`);
        else {
          t.true('error' in answer, `${strategy}: expected an error, got ${JSON.stringify(answer)}`);
          if ('error' in answer) t.true(answer.error.includes(error!), `${strategy}: ${answer.error}`);
        }
      }
    });
  }
}
