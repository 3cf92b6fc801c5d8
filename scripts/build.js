#!/usr/bin/env node
// `npm run build`: compiles the TypeScript sources to JavaScript in dist/.
//
//   dist/api/index.js, dist/**/*.d.ts   the library (package.json `exports`): tsc's output,
//                                       one module per source file, with declarations
//   dist/cli/shapelog.js (+ chunks)     the `shapelog` command: one esbuild bundle with the
//                                       dependencies inlined, each command's code in its
//                                       own chunk, loaded when the command runs
//   dist/build.json                     what was built, and when
//
// The rule files (relations/*.rules) and the examples are read at run time from the
// package root, not copied. The build is skipped when dist/ is newer than every input
// (`--force` builds anyway), so `pretest` and `prestart` cost nothing after a build.
// bin/shapelog.js uses `staleInputs` to notice sources edited after the last build.
import { existsSync, mkdirSync, copyFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, utimesSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const stampFile = join(dist, 'build.json');

/** Folders whose TypeScript goes into dist/. */
export const SOURCE_DIRS = ['api', 'cli', 'diagnostics', 'frontends', 'grammar', 'proofs', 'relations', 'solver', 'typing'];
/** Single files that change the build. */
const CONFIG_FILES = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.js', 'scripts/build-grammar.js'];

/**
 * The build's inputs that are newer than its last run (all of them when there is no
 * build): `.ts`, `.js` and `.peggy` files under SOURCE_DIRS (not the generated parsers,
 * which are outputs) and the build configuration.
 */
export function staleInputs(base = root) {
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

async function build() {
  const started = Date.now();
  // 1. the parsers (grammar/generated/), from grammar/*.peggy
  await import(pathToFileURL(join(root, 'scripts', 'build-grammar.js')).href);
  rmSync(dist, { recursive: true, force: true });

  // 2. the library: tsc emits JavaScript and declarations for everything api/ reaches
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (tsc.status !== 0) throw new Error('tsc failed');
  // the generated parsers are JavaScript with hand-written declarations: tsc reads the
  // declarations and emits neither, so they are copied
  const gen = join(root, 'grammar', 'generated');
  mkdirSync(join(dist, 'grammar', 'generated'), { recursive: true });
  for (const f of readdirSync(gen)) copyFileSync(join(gen, f), join(dist, 'grammar', 'generated', f));

  // 3. the command: one bundle, dependencies inlined (no module resolution at start-up)
  const { build: esbuild } = await import('esbuild');
  await esbuild({
    entryPoints: { shapelog: join(root, 'cli', 'main.ts') },
    outdir: join(dist, 'cli'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    mainFields: ['module', 'main'],
    chunkNames: '[name]-[hash]',
    // CommonJS dependencies (commander, picocolors, cli-progress) call require()
    banner: { js: "import { createRequire as __shapelogRequire } from 'node:module';\nconst require = __shapelogRequire(import.meta.url);" },
    legalComments: 'none',
    logLevel: 'warning',
  });

  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  writeFileSync(stampFile, JSON.stringify({ version, built: new Date(started).toISOString() }, null, 2) + '\n');
  // the stamp carries the start time: a source saved during the build counts as newer
  utimesSync(stampFile, started / 1000, started / 1000);
  console.log(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const force = process.argv.includes('--force');
  const stale = force ? ['--force'] : staleInputs();
  if (stale.length === 0 && existsSync(join(dist, 'cli', 'shapelog.js'))) {
    console.log('dist/ is up to date');
  } else {
    try {
      await build();
    } catch (e) {
      console.error(`build failed: ${e instanceof Error ? e.message : String(e)}`);
      process.exitCode = 1;
    }
  }
}
