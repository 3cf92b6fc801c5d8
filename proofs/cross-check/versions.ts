// Two versions of the rule library side by side, for `shapelog check --against` and for
// tests that plant a bug in a rule file: the library with some of its files replaced
// (by an older version, a planted edit), and a case's answers by such a library.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { libraryWith, RULES_DIR, type RuleLibrary } from '../../relations/library.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { FileOverride } from '../../solver/load.js';
import { typeofCall, type TypeofAnswer, type TypeofRequest } from '../../typing/typeof.js';
import { type Answers, safeTypeof } from './compare.js';

/** The rules strategy's answer to a case under `library` (an exception is a crash answer). */
export function rulesAnswer(library: RuleLibrary): (c: TypeofRequest) => TypeofAnswer {
  return (c) => safeTypeof(c, 'rules', (x, strategy) => typeofCall(x, strategy, {}, library));
}

/** Both strategies' answers, the rules typed under `library`: checkOp's `answer` for a planted library. */
export function answersWith(library: RuleLibrary): (c: TypeofRequest) => Answers {
  const rules = rulesAnswer(library);
  return (c) => ({ rules: rules(c), relay: safeTypeof(c, 'relay') });
}

/**
 * The built-in library with one exact text replaced in one of its rule files
 * (`file` relative to relations/, e.g. `conv.rules`); throws when the text does not
 * occur exactly once or the edited library does not load.
 */
export function plantedLibrary(file: string, find: string, replace: string): RuleLibrary {
  const path = join(RULES_DIR, file);
  const built = libraryWith(new Map<string, FileOverride>([[path, { text: editedText(path, find, replace), label: `${file} (planted)` }]]));
  if (built.errors.length > 0) throw new Error(`the planted ${file} does not load: ${built.errors.map((d: Diagnostic) => d.message).join('; ')}`);
  return built.library;
}

/** The file's text with `find` (which must occur exactly once) replaced. */
export function editedText(path: string, find: string, replace: string, read: (p: string) => string = readText): string {
  const text = read(resolve(path));
  const at = text.indexOf(find);
  if (at < 0 || text.indexOf(find, at + 1) >= 0) throw new Error(`the text to replace occurs ${at < 0 ? 0 : 'more than once'} in ${path}`);
  return text.slice(0, at) + replace + text.slice(at + find.length);
}

function readText(path: string): string {
  return readFileSync(path, 'utf8');
}
