#!/usr/bin/env node
// `npm run build`: compiles the TypeScript sources to JavaScript in dist/.
//
//   dist/api/index.js             the library (package.json `exports`), an ES module
//   dist/cli/bench-worker.js      the process `shapelog bench` times, an ES module
//   dist/chunks/*.js              code those two share
//   dist/cli/shapelog.cjs         the `shapelog` command: one CommonJS script, every
//                                 command in it (a command's modules run when it runs),
//                                 which bin/shapelog.js compiles with a V8 code cache
//                                 (see there); ASCII only, minified (its source map
//                                 beside it), its first line `/*shapelog-build:<id>*/`
//   dist/cli/shapelog-query.cjs   the same for `shapelog query` alone (cli/query-main.ts)
//   dist/cli/shapelog-infer.cjs   and for `shapelog infer` alone (cli/infer-main.ts):
//                                 bin/shapelog.js runs these for those commands, so they
//                                 start without reading the other commands' code (a
//                                 sixth and three fifths of the full script)
//                                 All are esbuild bundles with the dependencies inlined,
//                                 so the package has no runtime dependency and a command
//                                 starts without resolving modules in node_modules.
//   dist/**/*.d.ts                declarations of the library (tsc)
//   dist/THIRD-PARTY-LICENSES.txt the licenses of the inlined dependencies
//   dist/vendor/                  Chart.js's UMD file and license (inlined into --html pages)
//   dist/build.json               what was built, and when (and whether minified)
//
// The rule files (relations/*.rules) and the examples are read at run time from the
// package root, not copied. The build is skipped when dist/ is newer than every input
// (`--force` builds anyway), so `pretest` and `prestart` cost nothing after a build.
// `--no-minify` builds the command's scripts with the sources' names (for CPU profiles).
// bin/shapelog.js uses `staleInputs` (scripts/stale-inputs.cjs, which loads nothing but
// node:fs and node:path) to notice sources edited after the last build.
import { existsSync, mkdirSync, copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync, utimesSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const stampFile = join(dist, 'build.json');

import staleCheck from './stale-inputs.cjs';

const { SOURCE_DIRS, staleInputs } = staleCheck;
export { SOURCE_DIRS, staleInputs };

async function build(minify = true) {
  const started = Date.now();
  // 1. the parsers (grammar/generated/), from grammar/*.peggy
  await import(pathToFileURL(join(root, 'scripts', 'build-grammar.js')).href);
  rmSync(dist, { recursive: true, force: true });

  // 2. the declarations of everything api/ reaches (tsc type-checks them too)
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  if (tsc.status !== 0) throw new Error('tsc failed');
  // the generated parsers' declarations are hand-written: tsc reads them, emits nothing
  mkdirSync(join(dist, 'grammar', 'generated'), { recursive: true });
  for (const f of readdirSync(join(root, 'grammar', 'generated')).filter((f) => f.endsWith('.d.ts')))
    copyFileSync(join(root, 'grammar', 'generated', f), join(dist, 'grammar', 'generated', f));

  // 3. the JavaScript: the library and the command, bundled with their dependencies
  const { build: esbuild, version: esbuildVersion } = await import('esbuild');
  const buildId = sourcesHash(esbuildVersion);
  const result = await esbuild({
    entryPoints: { 'api/index': join(root, 'api', 'index.ts'), 'cli/bench-worker': join(root, 'cli', 'bench-worker.ts') },
    outdir: dist,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    mainFields: ['module', 'main'],
    chunkNames: 'chunks/[name]-[hash]',
    // CommonJS dependencies (commander, picocolors, cli-progress) call require()
    banner: { js: "import { createRequire as __shapelogRequire } from 'node:module';\nconst require = __shapelogRequire(import.meta.url);" },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    // z3's WebAssembly build (`shapelog prove`) and onnxruntime's native library (`shapelog check --onnx`) are loaded from node_modules when asked: development dependencies
    plugins: [withoutLong],
    external: ['z3-solver', 'onnxruntime-node'],
    // what the bundles were built from: keys the cache of compiled relation libraries
    define: { __SHAPELOG_BUILD_ID__: JSON.stringify(buildId) },
  });
  const command = await esbuild(commandBundle(buildId, minify));
  for (const name of Object.keys(COMMAND_ENTRIES)) {
    const commandFile = join(dist, `${name}.cjs`);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the range of ASCII, control characters included
    if (!/^[\x00-\x7f]*$/.test(readFileSync(commandFile, 'latin1'))) throw new Error(`${commandFile} is not ASCII: bin/shapelog.js reads it as latin1`);
  }
  writeFileSync(join(dist, 'THIRD-PARTY-LICENSES.txt'), thirdPartyLicenses([...Object.keys(result.metafile.inputs), ...Object.keys(command.metafile.inputs)]));
  // Chart.js's UMD file, inlined into `shapelog bench --html` pages, ships as a file (with its license)
  mkdirSync(join(dist, 'vendor'), { recursive: true });
  const chartJs = join(root, 'node_modules', 'chart.js');
  copyFileSync(join(chartJs, 'dist', 'chart.umd.min.js'), join(dist, 'vendor', 'chart.umd.min.js'));
  copyFileSync(join(chartJs, 'LICENSE.md'), join(dist, 'vendor', 'chart.js-LICENSE.md'));

  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  writeFileSync(stampFile, `${JSON.stringify({ version, built: new Date(started).toISOString(), minified: minify }, null, 2)}\n`);
  // the stamp carries the start time: a source saved during the build counts as newer
  utimesSync(stampFile, started / 1000, started / 1000);
  console.log(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The command's scripts (dist/NAME.cjs) and their entries: bin/shapelog.js picks one by the command. */
const COMMAND_ENTRIES = {
  'cli/shapelog': join(root, 'cli', 'main.ts'),
  'cli/shapelog-query': join(root, 'cli', 'query-main.ts'),
  'cli/shapelog-infer': join(root, 'cli', 'infer-main.ts'),
};

/**
 * The esbuild options of the command's scripts (COMMAND_ENTRIES), each a bundle of its
 * own (no code shared between them). A CommonJS script, because node 20 can
 * compile a script, not an ES module, with a code cache (vm.Script `cachedData`), which
 * skips parsing and compiling whatever the cache holds. Its first line carries the build
 * id, which keys that cache (bin/shapelog.js). `import.meta.url` becomes the script's own
 * URL (the code finds the package root and bench-worker.js from it).
 */
function commandBundle(buildId, minify) {
  return {
    entryPoints: COMMAND_ENTRIES,
    outdir: dist,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    mainFields: ['module', 'main'],
    // ASCII (esbuild's default charset) with no comments: the launcher reads it as latin1, a one-byte string.
    // Minified, names included: every process reads the whole script and V8 reads back
    // the compiled code of its functions, both in proportion to their size (shapelog-infer.cjs
    // 1.07 MB -> 0.72 MB; fresh processes alternating, 15-21 each, minified / whitespace
    // only: ppocr-cls 0.966, ResNet-50 with rules 0.942 and with relay 0.968, the
    // random-1000 point query 0.962). A source map beside each script takes a stack
    // trace's positions back to the sources' names and lines (the launcher compiles the
    // script through vm.Script, which node's --enable-source-maps does not cover).
    // (`--no-minify` keeps them readable, for a CPU profile's function names; the build id
    // is the same, so run with SHAPELOG_CACHE=off or a cache folder of their own)
    minify,
    minifyWhitespace: true,
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    // import.meta.resolve is only used when running from the sources (cli/bench-sampler.ts)
    logOverride: { 'empty-import-meta': 'silent' },
    plugins: [lazyBuiltins, withoutLong],
    external: ['z3-solver', 'onnxruntime-node'],
    define: { __SHAPELOG_BUILD_ID__: JSON.stringify(buildId), 'import.meta.url': '__shapelogModuleUrl' },
    banner: { js: `/*shapelog-build:${buildId}*/\nvar __shapelogModuleUrl = require('node:url').pathToFileURL(__filename).href;` },
  };
}

/** node's modules that are not in its startup snapshot and cost a few milliseconds to load, which most commands never call. */
const LAZY_BUILTINS = ['child_process', 'crypto', 'os', 'readline', 'v8', 'worker_threads', 'zlib'];

/**
 * In the command's script, the modules of LAZY_BUILTINS are loaded when a function of
 * theirs is first used, not when the script starts (a CommonJS bundle loads every module
 * its statically imported code imports, up front): each is replaced by an object with a
 * getter per export.
 */
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`);
    b.onResolve({ filter }, (args) => (args.namespace === 'lazy-builtin' ? undefined : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      const names = Object.keys(await import(`node:${args.path}`)).filter((n) => n !== 'default' && /^[A-Za-z_$][\w$]*$/.test(n));
      const getters = names.map((n) => `  get ${n}() { return load().${n}; },`).join('\n');
      return { contents: `let mod;\nconst load = () => (mod ??= require('node:${args.path}'));\nmodule.exports = {\n${getters}\n};\n`, loader: 'js' };
    });
  },
};

/**
 * protobufjs loads the `long` package when it can, to decode 64-bit integers as its
 * objects; shapelog decodes them as numbers (frontends/onnx/wire-schema.ts), so the
 * bundles leave the package out: protobufjs finds no Long.
 */
const withoutLong = {
  name: 'without-long',
  setup(b) {
    b.onResolve({ filter: /^long$/ }, () => ({ path: 'long', namespace: 'without-long' }));
    b.onLoad({ filter: /.*/, namespace: 'without-long' }, () => ({ contents: 'module.exports = null;\n', loader: 'js' }));
  },
};

/** A hash of every source file the bundles are built from, the package version and the bundler's. */
function sourcesHash(esbuildVersion) {
  const hash = createHash('sha256')
    .update(`esbuild ${esbuildVersion}\0`)
    .update(readFileSync(join(root, 'package.json')));
  const visit = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, e.name);
      if (e.isDirectory()) visit(path);
      else if (/\.(ts|js|peggy)$/.test(e.name))
        hash
          .update(`${relative(root, path)}\0`)
          .update(readFileSync(path))
          .update('\0');
    }
  };
  for (const d of SOURCE_DIRS) if (existsSync(join(root, d))) visit(join(root, d));
  return hash.digest('hex').slice(0, 32);
}

/** The license texts of the npm packages whose code the bundles inline. */
function thirdPartyLicenses(inputs) {
  const packages = new Set();
  for (const input of inputs) {
    const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) packages.add(m[1]);
  }
  const parts = ['The shapelog bundles in this folder include code from these packages, under these licenses.\n'];
  for (const name of [...packages].sort()) {
    const dir = join(root, 'node_modules', name);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
    parts.push(
      `${'='.repeat(78)}\n${name}@${pkg.version} (${pkg.license ?? 'see below'})\n\n${file ? readFileSync(join(dir, file), 'utf8').trim() : '(no license file)'}\n`,
    );
  }
  return parts.join('\n');
}

/** Whether the last build minified the command's scripts (null: no build, or one that did not say). */
function builtMinified() {
  try {
    return JSON.parse(readFileSync(stampFile, 'utf8')).minified ?? null;
  } catch {
    return null;
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const minify = !process.argv.includes('--no-minify');
  const force = process.argv.includes('--force') || builtMinified() !== minify;
  const stale = force ? ['--force'] : staleInputs();
  if (stale.length === 0 && existsSync(join(dist, 'cli', 'shapelog.cjs'))) {
    console.log('dist/ is up to date');
  } else {
    try {
      await build(minify);
    } catch (e) {
      console.error(`build failed: ${e instanceof Error ? e.message : String(e)}`);
      process.exitCode = 1;
    }
  }
}
