// Whether the example of an operator declaration types: the example call is typed by
// the rules strategy, and an error (or a crash of the example's own text, such as an
// argument type that does not parse) becomes a diagnostic at the example. Run on the
// operators of a user's rule files when they are loaded (cli/relation-files.ts) and on
// the whole built-in library by a test (test/declarations.test.ts).
import type { OpInfo } from '../relations/schema.js';
import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic.js';
import { typeofCall } from './typeof.js';

/** One error per operator whose example does not type. */
export function exampleDiagnostics(ops: readonly OpInfo[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const op of ops) {
    if (op.example === undefined) continue;
    const req = { op: op.name, args: op.example.args, ...(op.example.attrs !== undefined ? { attrs: op.example.attrs } : {}) };
    const answer = typeofCall(req, 'rules');
    if ('error' in answer)
      out.push(diagnostic('error', 'example', `the example of ${op.name} does not type: ${answer.error}`, op.exampleSpan ?? op.span ?? null));
  }
  return out;
}
