// The relation library as the rule engine sees it: every `relations/*.rules` file,
// loaded as a library, and the operators those files declare (read from the same
// parse by declarations.ts): the catalogue and the operator → relation mapping.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asLibrary, loadFiles } from '../solver/load.js';
import type { LoadedSources } from '../solver/load.js';
import { formatDiagnostic } from '../diagnostics/diagnostic.js';
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

/** The rule files of the built-in library, sorted by name. */
export function libraryFiles(): string[] {
  return readdirSync(here)
    .filter((f) => f.endsWith('.rules'))
    .sort()
    .map((f) => join(here, f));
}

export function ruleLibrary(): RuleLibrary {
  if (cached !== null) return cached;
  const sources = asLibrary(loadFiles(libraryFiles()));
  const declared = declaredOps(sources.programs);
  const problems = [...sources.diagnostics, ...declared.diagnostics];
  // The built-in library is part of shapelog: a broken declaration here is a bug.
  if (problems.length > 0) throw new Error(`the built-in relation library is broken:\n${problems.map((d) => formatDiagnostic(d, sources.texts)).join('\n')}`);
  const opsByName = new Map(declared.ops.map((op) => [op.name, op]));
  cached = { sources, relationOf: (op) => opsByName.get(op)?.relation ?? null, ops: declared.ops, opsByName };
  return cached;
}
