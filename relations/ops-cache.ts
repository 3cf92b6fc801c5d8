// The operators the built-in rule files declare, cached on disk beside the parsed rule
// files (relations/parse-cache.ts): a process that finds them there knows every
// operator without reading the parsed library, which the relay strategy never needs and
// the rules strategy needs only when its compiled library is not cached either.
// Keyed by the library's key and the files' labels (declarations carry spans that name
// the files, and labels depend on the working directory). Written atomically; a
// damaged or mismatched file is ignored (and rewritten by the next run that parses).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCacheFile } from './parse-cache.js';
import type { OpInfo } from './schema.js';

const FORMAT = 1;

/** Where the operators of a library with this key and these file labels are cached, or null without a cache folder. */
export function opsCachePath(dir: string | null, libraryKey: string, labels: readonly string[]): string | null {
  if (dir === null) return null;
  const hash = createHash('sha256')
    .update(`${FORMAT}\0${libraryKey}\0${labels.join('\0')}`)
    .digest('hex');
  return join(dir, `ops-${hash.slice(0, 32)}.json`);
}

/** The cached operators, or null when there are none (or the file is damaged or another library's). */
export function readOpsCache(path: string, libraryKey: string): OpInfo[] | null {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as { format?: unknown; key?: unknown; ops?: unknown };
    if (data.format !== FORMAT || data.key !== libraryKey || !Array.isArray(data.ops)) return null;
    return data.ops as OpInfo[];
  } catch {
    return null;
  }
}

/** Caches the operators; false when they cannot be written (or cannot round-trip through JSON). */
export function writeOpsCache(path: string, libraryKey: string, ops: readonly OpInfo[]): boolean {
  let text: string;
  try {
    text = JSON.stringify({ format: FORMAT, key: libraryKey, ops }, (_k, v: unknown) => {
      if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))) throw new RangeError('not JSON');
      return v;
    });
  } catch {
    return false;
  }
  return writeCacheFile(path, text);
}
