// Which inputs of `npm run build` changed since its last run: used by scripts/build.js
// (to skip a build that is current) and by bin/shapelog.js (a development checkout whose
// sources are newer than dist/ runs the sources). Kept apart from build.js so that the
// command's start loads only node:fs and node:path for this check, not the build's
// child_process and crypto.
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders whose TypeScript goes into dist/. */
export const SOURCE_DIRS = ['api', 'cli', 'diagnostics', 'frontends', 'grammar', 'proofs', 'relations', 'solver', 'typing'];
/** Single files that change the build. */
const CONFIG_FILES = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.js', 'scripts/build-grammar.js', 'scripts/stale-inputs.js'];

/**
 * The build's inputs that are newer than its last run (all of them when there is no
 * build): `.ts`, `.js` and `.peggy` files under SOURCE_DIRS (not the generated parsers,
 * which are outputs) and the build configuration.
 */
export function staleInputs(base = join(dirname(fileURLToPath(import.meta.url)), '..')) {
  let built;
  try {
    built = statSync(join(base, 'dist', 'build.json')).mtimeMs;
  } catch {
    return ['dist/build.json (no build yet)'];
  }
  const stale = [];
  const visit = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'generated' && e.name !== 'node_modules') visit(path);
      } else if (/\.(ts|js|peggy)$/.test(e.name) && statSync(path).mtimeMs > built) stale.push(relative(base, path));
    }
  };
  for (const d of SOURCE_DIRS) visit(join(base, d));
  for (const f of CONFIG_FILES) {
    try {
      if (statSync(join(base, f)).mtimeMs > built) stale.push(f);
    } catch {
      // not every configuration file exists
    }
  }
  return stale;
}

