// Which inputs of `npm run build` changed since its last run: used by scripts/build.js
// (to skip a build that is current) and by bin/shapelog.js (a development checkout whose
// sources are newer than dist/ runs the sources). CommonJS, and kept apart from build.js,
// so that the command's start loads it with `require` (no ES module loader) and with
// nothing but node:fs and node:path, not the build's child_process and crypto.
'use strict';
const { readdirSync, statSync } = require('node:fs');
const { join, relative, sep } = require('node:path');

/** Folders whose TypeScript goes into dist/. */
const SOURCE_DIRS = ['api', 'cli', 'diagnostics', 'frontends', 'grammar', 'proofs', 'relations', 'solver', 'typing'];
/** Single files that change the build. */
const CONFIG_FILES = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.js', 'scripts/build-grammar.js', 'scripts/stale-inputs.cjs'];
/** The files of a source folder that go into the build. */
const BUILD_INPUT = /\.(ts|js|peggy)$/;

/**
 * The build's inputs that are newer than its last run (all of them when there is no
 * build): `.ts`, `.js` and `.peggy` files under SOURCE_DIRS (not the generated parsers,
 * which are outputs) and the build configuration.
 */
function staleInputs(base = join(__dirname, '..')) {
  const buildStamp = statSync(join(base, 'dist', 'build.json'), { throwIfNoEntry: false });
  if (buildStamp === undefined) return ['dist/build.json (no build yet)'];
  const built = buildStamp.mtimeMs;
  const stale = [];
  const visit = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = `${dir}${sep}${e.name}`; // join() would normalize each path again: most of this walk's time
      if (e.isDirectory()) {
        if (e.name !== 'generated' && e.name !== 'node_modules') visit(path);
      } else if (BUILD_INPUT.test(e.name) && (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) > built) stale.push(relative(base, path));
    }
  };
  for (const d of SOURCE_DIRS) visit(join(base, d));
  for (const f of CONFIG_FILES) if ((statSync(join(base, f), { throwIfNoEntry: false })?.mtimeMs ?? 0) > built) stale.push(f);
  return stale;
}

module.exports = { SOURCE_DIRS, staleInputs };
