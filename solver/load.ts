// Reading rule files from disk, following `import "other.rules".` relative to the
// importing file. Each file is read once; a missing import is a diagnostic at the import.
import { dirname, resolve as resolvePath, relative } from 'node:path';
import type { Program } from './language/ast.js';
import { type Diagnostic, diagnostic, UserError } from '../diagnostics/diagnostic.js';
import { parseProgram } from './language/parse.js';
import { MAX_SOURCE_BYTES, readSource } from '../diagnostics/read-source.js';

/** Biggest rule file accepted (a 1 MB fact file parses in well under a second). */
export const MAX_FILE_BYTES = MAX_SOURCE_BYTES;

export interface LoadedSources {
  readonly programs: Program[];
  /** file label → text, for quoting lines in diagnostics */
  readonly texts: Map<string, string>;
  /** Unreadable files and syntax errors; when not empty, `programs` is incomplete. */
  readonly diagnostics: Diagnostic[];
  /**
   * The files that were asked for (not reached through `import`). A predicate defined
   * only in imported files may be a library helper that nothing calls yet.
   */
  readonly roots: ReadonlySet<string>;
}

/** How a file is named in diagnostics: relative to the working directory when it is below it. */
export function label(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' ? '.' : rel.startsWith('..') ? path : rel;
}

/** A file read from a given text instead of the disk, under a label of its own (an older version of it, say). */
export interface FileOverride {
  readonly text: string;
  readonly label: string;
}

/**
 * `labelOf` names a file (by its absolute path) in diagnostics; by default, relative to the working directory.
 * `tick` is called after each statement parsed (it may throw a LimitError to stop).
 * `overrides` (by absolute path) gives some files' texts and labels instead of reading them.
 */
export function loadFiles(
  paths: readonly string[],
  labelOf: (absolutePath: string) => string = label,
  tick?: () => void,
  overrides: ReadonlyMap<string, FileOverride> = new Map(),
): LoadedSources {
  const programs: Program[] = [];
  const texts = new Map<string, string>();
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const roots = new Set<string>();
  const visit = (path: string, from: { file: string; span: Program['statements'][number]['span'] } | null) => {
    const abs = resolvePath(path);
    if (seen.has(abs)) return;
    seen.add(abs);
    const given = overrides.get(abs);
    const read = given !== undefined ? { ok: true as const, text: given.text } : readSource(abs, MAX_FILE_BYTES);
    if (!read.ok) {
      diagnostics.push(diagnostic('error', 'file', `cannot read ${labelOf(abs)}: ${read.why}`, from?.span ?? null));
      return;
    }
    const text = read.text;
    const file = given?.label ?? labelOf(abs);
    texts.set(file, text);
    if (from === null) roots.add(file);
    let program: Program;
    try {
      program = parseProgram(text, file, tick);
    } catch (e) {
      if (e instanceof UserError) {
        diagnostics.push(...e.diagnostics);
        return;
      }
      throw e;
    }
    programs.push(program);
    for (const s of program.statements) if (s.kind === 'import') visit(resolvePath(dirname(abs), s.path), { file, span: s.span });
  };
  for (const p of paths) visit(p, null);
  return { programs, texts, diagnostics, roots };
}

/** The same sources with no root: every file is a library (used for relation libraries). */
export function asLibrary(sources: LoadedSources): LoadedSources {
  return { ...sources, roots: new Set() };
}

export function loadText(text: string, file = '<input>'): LoadedSources {
  const texts = new Map([[file, text]]);
  try {
    return { programs: [parseProgram(text, file)], texts, diagnostics: [], roots: new Set([file]) };
  } catch (e) {
    if (e instanceof UserError) return { programs: [], texts, diagnostics: [...e.diagnostics], roots: new Set([file]) };
    throw e;
  }
}
