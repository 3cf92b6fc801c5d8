// `--relations FILE.rules...` of `infer`, `typeof` and `check`: loads a user's rule
// files into the relation library (their relations, rules and operator declarations),
// prints a warning for each built-in operator they override, and rejects them with
// located diagnostics (file:line:column, the line, a caret) when they do not parse,
// declare operators badly, do not compile with the library, or declare an example
// that does not type.
import { ruleLibrary, addRelationFiles } from '../relations/library.js';
import { exampleDiagnostics } from '../typing/declaration-examples.js';
import { ProgramError } from '../solver/run.js';
import { EXIT_USER_ERROR, printDiagnostics } from './report.js';
import { resolve, relative } from 'node:path';

/** Loads the files; null when they are fine (warnings printed), else the exit code (errors printed). */
export function loadRelationFiles(files: readonly string[]): number | null {
  if (files.length === 0) return null;
  try {
    const warnings = addRelationFiles(files);
    const library = ruleLibrary();
    const mine = new Set(files.map((f) => label(f)));
    const examples = exampleDiagnostics(library.ops.filter((op) => op.span !== undefined && mine.has(op.span.file)));
    printDiagnostics([...warnings, ...examples], library.sources.texts, { warnings: true });
    return examples.length > 0 ? EXIT_USER_ERROR : null;
  } catch (e) {
    if (e instanceof ProgramError) {
      printDiagnostics(e.diagnostics, e.texts, { warnings: true });
      return EXIT_USER_ERROR;
    }
    throw e;
  }
}

/** The label solver/load.ts gives a file. */
function label(path: string): string {
  const rel = relative(process.cwd(), resolve(path));
  return rel.startsWith('..') ? resolve(path) : rel;
}
