// The relation library as the rule engine sees it: every `relations/*.rules` file,
// loaded as a library, plus the rule files a user brings (`--relations FILE.rules`),
// and the operators those files declare (read from the same parse by
// declarations.ts): the catalogue and the operator → relation mapping.
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asLibrary, loadFiles } from '../solver/load.js';
import type { LoadedSources } from '../solver/load.js';
import { type Diagnostic, formatDiagnostic } from '../diagnostics/diagnostic.js';
import { ProgramError } from '../solver/run.js';
import { compileProgram } from '../solver/compile/program.js';
import { TermStore } from '../solver/terms/term-store.js';
import type { OpInfo } from './schema.js';
import { declaredOps } from './declarations.js';

const here = dirname(fileURLToPath(import.meta.url));

/** The rule sources of a relation library, and which relation types each operator. */
export interface RuleLibrary {
  readonly sources: LoadedSources;
  /** The relation an operator's calls instantiate. */
  relationOf(op: string): string | null;
  /** The operators declared in the rule files, in file order. */
  readonly ops: readonly OpInfo[];
  readonly opsByName: ReadonlyMap<string, OpInfo>;
}

let cached: RuleLibrary | null = null;
let userFiles: readonly string[] = [];

/** The rule files of the built-in library, sorted by name. */
export function libraryFiles(): string[] {
  return readdirSync(here)
    .filter((f) => f.endsWith('.rules'))
    .sort()
    .map((f) => join(here, f));
}

export function ruleLibrary(): RuleLibrary {
  if (cached !== null) return cached;
  const built = build(userFiles);
  const problems = built.diagnostics.filter((d) => d.severity === 'error');
  // The built-in library is part of shapelog: a broken declaration here is a bug.
  if (problems.length > 0) throw new Error(`the relation library is broken:\n${problems.map((d) => formatDiagnostic(d, built.library.sources.texts)).join('\n')}`);
  cached = built.library;
  return cached;
}

/**
 * Adds a user's rule files to the library: their relations and rules join the
 * built-in ones, their operators are added, or replace a built-in operator of the
 * same name. Returns the warnings (one per override); throws a ProgramError (located
 * diagnostics with the texts to quote) for unreadable files, syntax errors, bad
 * declarations and rules that do not compile with the library (a relation declared
 * again, a predicate used with another arity).
 */
export function addRelationFiles(paths: readonly string[]): Diagnostic[] {
  const built = build([...userFiles, ...paths]);
  const errors = built.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length === 0) {
    const compiled = compileProgram(new TermStore(), built.library.sources.programs, 'seminaive', null, new Set());
    if (!compiled.ok) errors.push(...compiled.diagnostics.filter((d) => d.severity === 'error').map(withOverrideHint));
  }
  if (errors.length > 0) throw new ProgramError(errors, built.library.sources.texts);
  userFiles = [...userFiles, ...paths];
  cached = built.library;
  return built.diagnostics.filter((d) => d.severity !== 'error');
}

const packageRoot = dirname(here);

/** Built-in files are named from the package root (`relations/conv.rules`) wherever shapelog runs; a user's files from the working directory. */
function libraryLabel(path: string): string {
  const inPackage = relative(packageRoot, path);
  if (!inPackage.startsWith('..') && inPackage.startsWith('relations')) return inPackage;
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') ? path : rel;
}

/** A user file that declares a built-in relation again learns how to change it instead. */
function withOverrideHint(d: Diagnostic): Diagnostic {
  if (!/^relation \S+ is declared twice$/.test(d.message)) return d;
  return { ...d, notes: [...d.notes, 'a built-in relation cannot be redefined: declare a relation of your own, with its rules, and an operator on it (which overrides the built-in operator of that name)'] };
}

function build(extra: readonly string[]): { library: RuleLibrary; diagnostics: Diagnostic[] } {
  const builtIn = libraryFiles();
  const sources = asLibrary(loadFiles([...builtIn, ...extra], libraryLabel));
  const builtInLabels = new Set(sources.programs.slice(0, builtIn.length).map((p) => p.file));
  const declared = declaredOps(sources.programs, builtInLabels);
  const opsByName = new Map(declared.ops.map((op) => [op.name, op]));
  const library: RuleLibrary = { sources, relationOf: (op) => opsByName.get(op)?.relation ?? null, ops: declared.ops, opsByName };
  return { library, diagnostics: [...sources.diagnostics, ...declared.diagnostics] };
}
