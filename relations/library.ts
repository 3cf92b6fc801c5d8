// The relation library as the rule engine sees it: every `relations/*.rules` file,
// loaded as a library, and the catalogue's operator → relation mapping.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { label, type LoadedSources } from '../solver/load.js';
import { findOp } from './catalogue.js';
import { libraryKey, loadLibrary } from './parse-cache.js';

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
  /**
   * Identifies the library's rule files (their names and texts) and the parser: two
   * libraries with the same key have the same sources. Absent when not known (then
   * nothing compiled from the library is cached).
   */
  readonly key?: string;
}

let cached: RuleLibrary | null = null;

/**
 * The library of relations/*.rules, loaded once per process. Its files are read at once
 * (for the key), parsed only when `sources` is first read: the parsed files come from
 * the on-disk cache when it has them (relations/parse-cache.ts: keyed by the rule files'
 * text and the engine version), else they are parsed and cached. (The rules strategy
 * may not need them: typing/compiled-cache.ts caches what it compiles from them.)
 */
export function ruleLibrary(): RuleLibrary {
  if (cached !== null) return cached;
  const files = readdirSync(RULES_DIR)
    .filter((f) => f.endsWith('.rules'))
    .sort()
    .map((f) => join(RULES_DIR, f));
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const version = packageVersion();
  let loaded: LoadedSources | null = null;
  const load = () => (loaded ??= loadLibrary(files, version, undefined, texts).sources);
  const sources: LoadedSources = {
    get programs() {
      return load().programs;
    },
    texts: new Map(files.map((f, i) => [label(f), texts[i]!])),
    get diagnostics() {
      return load().diagnostics;
    },
    roots: new Set(),
  };
  cached = { sources, relationOf: (op) => findOp(op)?.relation ?? null, key: libraryKey(files, texts, version) };
  return cached;
}

function packageVersion(): string {
  try {
    return String((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version?: unknown }).version);
  } catch {
    return 'unknown';
  }
}
