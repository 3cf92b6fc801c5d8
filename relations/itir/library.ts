// The rule sources of the iterator IR's type system (relations/itir/itir.rules), loaded
// once per process. They are kept out of relations/*.rules, which is Relay's library.
import { join } from 'node:path';
import { formatDiagnostic } from '../../diagnostics/diagnostic.js';
import { asLibrary, loadFiles, type LoadedSources } from '../../solver/load.js';
import { packageRoot } from '../library.js';

/** Found from the package root: this module may run from relations/itir/ or from a bundle in dist/. */
export const ITIR_RULES_FILE = join(packageRoot(), 'relations', 'itir', 'itir.rules');

let cached: LoadedSources | null = null;

export function itirRuleSources(): LoadedSources {
  if (cached !== null) return cached;
  const sources = asLibrary(loadFiles([ITIR_RULES_FILE]));
  // the type system's own rules are part of shapelog: a missing or broken file is a bug, never "no rules"
  if (sources.diagnostics.length > 0)
    throw new Error(`the iterator-IR rules do not load:\n${sources.diagnostics.map((d) => formatDiagnostic(d, sources.texts)).join('\n')}`);
  return (cached = sources);
}
