// The relation library's parsed rule files, cached on disk: parsing the library's
// ~2,000 lines is most of what typing a program with the rules strategy costs in a
// fresh process, and the syntax trees it yields depend only on the rule files and the
// parser. The cache is one file per (rule files, engine version):
//
//   <cache dir>/rules-<key>.json    line 1: {"format", "key", "files", "bytes"}
//                                   then one line per parsed file: its Program as JSON,
//                                   with the file label (which depends on the working
//                                   directory) replaced by a marker
//
// key = sha256 of the cache format, shapelog's version, the parser's own source (so a
// changed grammar is a different engine) and every rule file's name and text.
//
// Writing goes to a temporary file renamed into place (atomic on one file system), so
// concurrent runs never read a half-written cache; a file that does not parse, has the
// wrong key or size, or does not have the expected shape is ignored and rewritten.
// Every failure to read or write the cache falls back to parsing: the cache can only
// make a run faster.
//
// The directory: $SHAPELOG_CACHE_DIR, else $XDG_CACHE_HOME/shapelog, else
// ~/.cache/shapelog (~/Library/Caches/shapelog on macOS, %LOCALAPPDATA%\shapelog on
// Windows). SHAPELOG_CACHE=off turns the cache off.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { parse as peggyParse } from '../grammar/generated/rules-parser.js';
import type { Program } from '../solver/language/ast.js';
import { asLibrary, label, loadFiles, type LoadedSources } from '../solver/load.js';

/** Bumped when the layout of the cache file changes. */
export const CACHE_FORMAT = 1;
/** Cache files kept per directory (the newest; older engines' and rule files' entries go). */
const KEEP = 8;
const MARKER = '"file":"#"';

/** Where the cache lives, or null when it is turned off. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env['SHAPELOG_CACHE'] === 'off' || env['SHAPELOG_CACHE'] === '0') return null;
  const own = env['SHAPELOG_CACHE_DIR'];
  if (own !== undefined && own !== '') return own;
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && xdg !== '') return join(xdg, 'shapelog');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'shapelog');
  if (process.platform === 'win32' && env['LOCALAPPDATA']) return join(env['LOCALAPPDATA'], 'shapelog');
  return join(homedir(), '.cache', 'shapelog');
}

let parserHash: string | null = null;

/** The engine version the cache is keyed by: shapelog's version and a hash of the rules parser's source. */
export function engineVersion(version: string): string {
  parserHash ??= createHash('sha256').update(peggyParse.toString()).digest('hex').slice(0, 16);
  return `${version}+${parserHash}`;
}

export interface CacheResult {
  readonly sources: LoadedSources;
  /** `hit`: read from the cache; `written`: parsed and cached; `parsed`: parsed, not cached (off, unwritable, or not cacheable). */
  readonly status: 'hit' | 'written' | 'parsed';
  readonly path: string | null;
}

/**
 * What identifies a library's parsed files: the cache format, the engine version and
 * every rule file's name and text (`texts[i]` is the text of `files[i]`).
 */
export function libraryKey(files: readonly string[], texts: readonly string[], version: string): string {
  const hash = createHash('sha256').update(`shapelog rule library ${CACHE_FORMAT}\0${engineVersion(version)}\0`);
  files.forEach((f, i) => {
    hash.update(`${basename(f)}\0${texts[i]!.length}\0${texts[i]}\0`);
  });
  return hash.digest('hex');
}

/**
 * The rule files `files` (absolute paths, all in one folder, imports among themselves
 * only) loaded as a library: from the cache when it holds them, else parsed (and cached).
 * `texts`: the files' texts, when already read.
 */
export function loadLibrary(
  files: readonly string[],
  version: string,
  dir: string | null = defaultCacheDir(),
  texts: readonly string[] = files.map((f) => readFileSync(f, 'utf8')),
  labelOf: (absolutePath: string) => string = label,
): CacheResult {
  if (dir === null) return { sources: asLibrary(loadFiles(files, labelOf)), status: 'parsed', path: null };
  const key = libraryKey(files, texts, version);
  const path = join(dir, `rules-${key.slice(0, 32)}.json`);
  const byName = new Map(files.map((f, i) => [basename(f), { path: f, text: texts[i]! }]));
  const hit = read(path, key, byName, labelOf);
  if (hit !== null) return { sources: hit, status: 'hit', path };
  const sources = asLibrary(loadFiles(files, labelOf));
  return { sources, status: write(path, key, sources, byName, labelOf) ? 'written' : 'parsed', path };
}

function read(
  path: string,
  key: string,
  byName: ReadonlyMap<string, { path: string; text: string }>,
  labelOf: (absolutePath: string) => string,
): LoadedSources | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null; // not cached yet
  }
  try {
    const nl = text.indexOf('\n');
    const header = JSON.parse(text.slice(0, nl)) as { format?: unknown; key?: unknown; files?: unknown; bytes?: unknown };
    if (header.format !== CACHE_FORMAT || header.key !== key || !Array.isArray(header.files) || header.bytes !== text.length - nl - 1) return null;
    const lines = text.slice(nl + 1).split('\n');
    if (lines.length !== header.files.length + 1 || lines[lines.length - 1] !== '') return null;
    const programs: Program[] = [];
    const texts = new Map<string, string>();
    for (const [i, name] of (header.files as unknown[]).entries()) {
      const file = typeof name === 'string' ? byName.get(name) : undefined;
      if (file === undefined) return null;
      const lbl = labelOf(file.path);
      const program = JSON.parse(lines[i]!.replaceAll(MARKER, `"file":${JSON.stringify(lbl)}`)) as Program;
      if (typeof program !== 'object' || program === null || program.file !== lbl || !Array.isArray(program.statements)) return null;
      programs.push(program);
      texts.set(lbl, file.text);
    }
    return { programs, texts, diagnostics: [], roots: new Set() };
  } catch {
    return null; // corrupt: parse again and overwrite
  }
}

function write(
  path: string,
  key: string,
  sources: LoadedSources,
  byName: ReadonlyMap<string, { path: string; text: string }>,
  labelOf: (absolutePath: string) => string,
): boolean {
  if (sources.diagnostics.length > 0) return false; // errors are reported from a fresh parse every time
  const labels = new Map([...byName].map(([name, f]) => [labelOf(f.path), name]));
  const names: string[] = [];
  const lines: string[] = [];
  for (const program of sources.programs) {
    const name = labels.get(program.file);
    if (name === undefined) return false; // imports a file outside the library folder: not covered by the key
    names.push(name);
    let json: string;
    try {
      json = JSON.stringify(program, (k, v: unknown) => {
        // numbers JSON cannot carry exactly (an overflowing float literal, -0) make the file uncacheable
        if (typeof v === 'bigint' || (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)))) throw new RangeError('not JSON');
        return k === 'file' && v === program.file ? '#' : v;
      });
    } catch {
      return false;
    }
    lines.push(json);
  }
  const body = `${lines.join('\n')}\n`;
  return writeCacheFile(path, `${JSON.stringify({ format: CACHE_FORMAT, key, files: names, bytes: body.length })}\n${body}`);
}

/**
 * Writes a cache file atomically: to a temporary file in the same folder, renamed into
 * place, so that a concurrent reader sees the old file, no file or the whole new one.
 * Then removes all but the newest few files with the same prefix (`rules-`, ...).
 * False when the file could not be written.
 */
export function writeCacheFile(path: string, data: string | Uint8Array): boolean {
  const dir = dirname(path);
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // the folder itself is not there
    }
    return false;
  }
  prune(dir, path);
  return true;
}

/** Removes all but the KEEP newest cache files (and temporary files older than a minute). */
function prune(dir: string, keep: string): void {
  const prefix = basename(keep).replace(/-.*/, '-');
  try {
    const now = Date.now();
    const entries = readdirSync(dir)
      .filter((f) => f.startsWith(prefix))
      .map((f) => {
        const path = join(dir, f);
        return { path, mtime: statSync(path).mtimeMs, tmp: f.endsWith('.tmp') };
      });
    for (const e of entries) if (e.tmp && now - e.mtime > 60_000) rmSync(e.path, { force: true });
    const done = entries.filter((e) => !e.tmp && e.path !== keep).sort((a, b) => b.mtime - a.mtime);
    for (const e of done.slice(KEEP - 1)) rmSync(e.path, { force: true });
  } catch {
    // another run pruned first, or the folder is not ours to list
  }
}
