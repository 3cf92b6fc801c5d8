// The rule sources of the iterator IR's type system (relations/itir/itir.rules), loaded
// once per process. They are kept out of relations/*.rules, which is Relay's library.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asLibrary, loadFiles, type LoadedSources } from '../../solver/load.js';

const here = dirname(fileURLToPath(import.meta.url));
export const ITIR_RULES_FILE = join(here, 'itir.rules');

let cached: LoadedSources | null = null;

export function itirRuleSources(): LoadedSources {
  return (cached ??= asLibrary(loadFiles([ITIR_RULES_FILE])));
}
