// The relation library as the rule engine sees it: every `relations/*.rules` file,
// loaded as a library, and the catalogue's operator → relation mapping.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asLibrary, loadFiles } from '../solver/load.js';
import type { LoadedSources } from '../solver/load.js';
import { findOp } from './catalogue.js';

const here = dirname(fileURLToPath(import.meta.url));

/** The rule sources of a relation library, and which relation types each operator. */
export interface RuleLibrary {
  readonly sources: LoadedSources;
  /** The relation an operator's calls instantiate. */
  relationOf(op: string): string | null;
}

let cached: RuleLibrary | null = null;

export function ruleLibrary(): RuleLibrary {
  if (cached !== null) return cached;
  const files = readdirSync(here)
    .filter((f) => f.endsWith('.rules'))
    .sort()
    .map((f) => join(here, f));
  const sources = asLibrary(loadFiles(files));
  cached = { sources, relationOf: (op) => findOp(op)?.relation ?? null };
  return cached;
}
