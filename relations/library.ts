// The relation library as the rule engine sees it: every `relations/*.rules` file,
// loaded as a library, plus the rule files a user brings (`--relations FILE.rules`),
// and the operators those files declare (read from the same parse by
// declarations.ts): the catalogue and the operator → relation mapping.
//
// The built-in files are parsed once and cached on disk (relations/parse-cache.ts, keyed
// by the files' texts and the engine version); a user's files are parsed every time.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asLibrary, label, loadFiles } from '../solver/load.js';
import { defaultCacheDir, libraryKey, loadLibrary } from './parse-cache.js';
import { opsCachePath, readOpsCache, writeOpsCache } from './ops-cache.js';
import type { FileOverride, LoadedSources } from '../solver/load.js';
import { type Diagnostic, formatDiagnostic } from '../diagnostics/diagnostic.js';
import { ProgramError } from '../solver/run.js';
import { compileProgram } from '../solver/compile/program.js';
import { TermStore } from '../solver/terms/term-store.js';
import type { OpInfo } from './schema.js';
import { declaredOps } from './declarations.js';
import { timed } from '../diagnostics/phase-times.js';

/**
 * The package's root: the nearest folder above this module with a package.json. The
 * code runs from the sources (`relations/`), from tsc's output (`dist/relations/`) or
 * from the CLI bundle (`dist/cli/`); the rule files stay in `relations/` in all three.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`shapelog: no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return dir;
}

const ROOT = packageRoot();

/** The folder of the relation library's rule files. */
export const RULES_DIR = join(ROOT, 'relations');

/** The rule sources of a relation library, and which relation types each operator. */
export interface RuleLibrary {
  readonly sources: LoadedSources;
  /** The relation an operator's calls instantiate. */
  relationOf(op: string): string | null;
  /** The operators declared in the rule files, in file order. */
  readonly ops: readonly OpInfo[];
  readonly opsByName: ReadonlyMap<string, OpInfo>;
  /**
   * Identifies the library's rule files (their names and texts) and the parser: two
   * libraries with the same key have the same sources. Absent when not known (then
   * nothing compiled from the library is cached).
   */
  readonly key?: string;
}

let cached: RuleLibrary | null = null;
let userFiles: readonly string[] = [];

/** The rule files of the built-in library, sorted by name. */
export function libraryFiles(): string[] {
  return readdirSync(RULES_DIR)
    .filter((f) => f.endsWith('.rules'))
    .sort()
    .map((f) => join(RULES_DIR, f));
}

export function ruleLibrary(): RuleLibrary {
  if (cached !== null) return cached;
  const built = timed('library', () => build(userFiles));
  const problems = built.diagnostics.filter((d) => d.severity === 'error');
  // The built-in library is part of shapelog: a broken declaration here is a bug.
  if (problems.length > 0)
    throw new Error(`the relation library is broken:\n${problems.map((d) => formatDiagnostic(d, built.library.sources.texts)).join('\n')}`);
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

/**
 * Files are named relative to the working directory when they sit below it, else by their
 * absolute path, built-in files included: a location in a message is one the user can open.
 */
const libraryLabel = label;

/** Every rule file of the current library, absolute: the built-in ones, then the user's (`--relations`). */
export function loadedRuleFiles(): string[] {
  return [...libraryFiles(), ...userFiles.map((f) => resolvePath(f))];
}

/**
 * The current library (built-in files and the user's) with some files read from given
 * texts instead (by absolute path, e.g. an older version of `relations/conv.rules`),
 * built afresh: nothing cached, nothing shared with `ruleLibrary()`. The diagnostics
 * are every error that makes the library unusable (syntax, declarations, rules that do
 * not compile), located in the given files under their labels.
 */
export function libraryWith(overrides: ReadonlyMap<string, FileOverride>): { library: RuleLibrary; errors: Diagnostic[] } {
  const builtIn = libraryFiles();
  const sources = asLibrary(loadFiles([...builtIn, ...userFiles], libraryLabel, undefined, overrides));
  const builtInLabels = builtIn.map((f) => overrides.get(f)?.label ?? libraryLabel(f));
  const declared = declaredOps(sources.programs, new Set(builtInLabels));
  const errors = [...sources.diagnostics, ...declared.diagnostics].filter((d) => d.severity === 'error');
  if (errors.length === 0) {
    const compiled = compileProgram(new TermStore(), sources.programs, 'seminaive', null, new Set());
    if (!compiled.ok) errors.push(...compiled.diagnostics.filter((d) => d.severity === 'error'));
  }
  return { library: libraryOf(sources, declared.ops, undefined), errors };
}

/** A user file that declares a built-in relation again learns how to change it instead. */
function withOverrideHint(d: Diagnostic): Diagnostic {
  if (!/^relation \S+ is declared twice$/.test(d.message)) return d;
  return {
    ...d,
    notes: [
      ...d.notes,
      'a built-in relation cannot be redefined: declare a relation of your own, with its rules, and an operator on it (which overrides the built-in operator of that name)',
    ],
  };
}

function build(extra: readonly string[]): { library: RuleLibrary; diagnostics: Diagnostic[] } {
  const builtIn = libraryFiles();
  const builtInTexts = builtIn.map((f) => readFileSync(f, 'utf8'));
  const builtInLabels = builtIn.map(libraryLabel);
  const version = packageVersion();
  const key = libraryKey(builtIn, builtInTexts, version);
  // the built-in files parsed (or read from the parse cache) only when something reads them
  let parsed: LoadedSources | null = null;
  const parse = (): LoadedSources => (parsed ??= loadLibrary(builtIn, version, undefined, builtInTexts, libraryLabel).sources);
  if (extra.length === 0) {
    const cachePath = opsCachePath(defaultCacheDir(), key, builtInLabels);
    let ops = cachePath === null ? null : readOpsCache(cachePath, key);
    const diagnostics: Diagnostic[] = [];
    if (ops === null) {
      const declared = declaredOps(parse().programs, new Set(builtInLabels));
      diagnostics.push(...parse().diagnostics, ...declared.diagnostics);
      ops = [...declared.ops];
      if (cachePath !== null && !diagnostics.some((d) => d.severity === 'error')) writeOpsCache(cachePath, key, ops);
    }
    const sources: LoadedSources = {
      get programs() {
        return parse().programs;
      },
      texts: new Map(builtIn.map((_, i) => [builtInLabels[i]!, builtInTexts[i]!])),
      get diagnostics() {
        return parse().diagnostics;
      },
      roots: new Set(),
    };
    return { library: libraryOf(sources, ops, key), diagnostics };
  }
  const sources = joinSources(parse(), asLibrary(loadFiles(extra, libraryLabel)));
  const declared = declaredOps(sources.programs, new Set(builtInLabels));
  return { library: libraryOf(sources, declared.ops, undefined), diagnostics: [...sources.diagnostics, ...declared.diagnostics] };
}

function libraryOf(sources: LoadedSources, ops: readonly OpInfo[], key: string | undefined): RuleLibrary {
  const opsByName = new Map(ops.map((op) => [op.name, op]));
  return { sources, relationOf: (op) => opsByName.get(op)?.relation ?? null, ops, opsByName, ...(key !== undefined ? { key } : {}) };
}

/** The built-in library's sources followed by a user's files. */
function joinSources(a: LoadedSources, b: LoadedSources): LoadedSources {
  return {
    programs: [...a.programs, ...b.programs],
    texts: new Map([...a.texts, ...b.texts]),
    diagnostics: [...a.diagnostics, ...b.diagnostics],
    roots: new Set(),
  };
}

/** shapelog's version (package.json), part of every cache key. */
export function packageVersion(): string {
  try {
    return String((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version?: unknown }).version);
  } catch {
    return 'unknown';
  }
}
