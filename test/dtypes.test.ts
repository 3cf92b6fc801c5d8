// The one list of scalar dtypes (relations/dtypes.ts) is the rules' dtype_name table.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { SCALAR_DTYPES } from '../relations/dtypes.js';

test("SCALAR_DTYPES holds exactly the dtypes of lib.rules' dtype_name table", (t) => {
  const lib = readFileSync(new URL('../relations/lib.rules', import.meta.url), 'utf8');
  const table = [...lib.matchAll(/dtype_name\("([a-z0-9]+)", ([a-z0-9]+)\)\./g)];
  t.true(table.length >= 13, `${table.length} dtype_name facts`);
  for (const [, text, atom] of table) t.is(text, atom);
  t.deepEqual([...SCALAR_DTYPES].sort(), table.map(([, text]) => text!).sort());
});
