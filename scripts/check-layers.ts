// The layers of the code base, bottom to top, and a check that no import runs upward.
// A folder may import from its own layer and from the layers below it, never from one
// above. The engine's folder has layers of its own (SUBLAYERS): the rule language, terms,
// the store, the compiler, the fixpoint engine, then the files at its top. `npm run lint:layers` prints every upward import; test/layers.test.ts runs the
// same check (and plants an upward import to show the check can fail).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Top-level folders, lowest first. Folders on one line form one layer. */
export const LAYERS: readonly (readonly string[])[] = [
  ['grammar'], // generated parsers
  ['diagnostics'], // spans and diagnostics, shared by every layer above
  ['solver'], // the rule engine: language, terms, compiler, store, fixpoint
  ['relations'], // the relation library: rule files, operator catalogue, imperative twins
  ['frontends'], // program formats (Relay text, ...)
  ['typing'], // program typing: constraints, the rules and relay strategies, typeof
  ['proofs'], // cross-check, reference executor, mutants
  ['api'], // the library's public API (package.json `exports`)
  ['cli'], // the `shapelog` command
  ['scripts'], // build and documentation scripts
  ['bench', 'test'],
];

/** Within a top-level folder, its sub-folders, lowest first; the folder's own files and any sub-folder not named sit above them all. */
export const SUBLAYERS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  solver: [['language'], ['terms'], ['store'], ['compile'], ['engine']],
};

const layerOf = new Map<string, number>(LAYERS.flatMap((folders, i) => folders.map((f) => [f, i] as const)));

/** Where a path sits: its top-level layer, then its sub-layer in that folder (-1: no sub-layers); null outside the layered folders. */
function placeOf(path: string): readonly [number, number] | null {
  const [top, sub] = path.split('/');
  const layer = layerOf.get(top!);
  if (layer === undefined) return null;
  const subs = SUBLAYERS[top!];
  if (subs === undefined) return [layer, -1];
  const i = subs.findIndex((folders) => folders.includes(sub!));
  return [layer, i < 0 ? subs.length : i];
}

export interface SourceFile {
  /** Path relative to the repository root, with `/` separators. */
  readonly path: string;
  readonly text: string;
}

export interface UpwardImport {
  readonly from: string;
  readonly to: string;
  readonly line: number;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g;

/** Every relative import in `files` whose target lies in a higher layer than its source. */
export function upwardImports(files: readonly SourceFile[]): UpwardImport[] {
  const found: UpwardImport[] = [];
  for (const file of files) {
    const from = placeOf(file.path);
    if (from === null) continue;
    for (const m of file.text.matchAll(IMPORT)) {
      const target = join(dirname(file.path), m[2]!).split('\\').join('/');
      const to = placeOf(target);
      if (to !== null && (to[0] > from[0] || (to[0] === from[0] && to[1] > from[1]))) {
        const line = file.text.slice(0, m.index).split('\n').length;
        found.push({ from: file.path, to: target, line });
      }
    }
  }
  return found;
}

/** The TypeScript and JavaScript sources of the repository's layered folders. */
export function repositorySources(root: string): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'generated' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) {
        files.push({ path: relative(root, path).split('\\').join('/'), text: readFileSync(path, 'utf8') });
      }
    }
  };
  for (const folders of LAYERS)
    for (const folder of folders) {
      try {
        if (statSync(join(root, folder)).isDirectory()) walk(join(root, folder));
      } catch {
        // a layer folder that does not exist has nothing to check
      }
    }
  return files;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const bad = upwardImports(repositorySources(root));
  for (const b of bad) console.log(`${b.from}:${b.line}: imports ${b.to} from a higher layer`);
  console.log(bad.length === 0 ? 'layers: no upward import' : `layers: ${bad.length} upward imports`);
  process.exitCode = bad.length === 0 ? 0 : 1;
}
