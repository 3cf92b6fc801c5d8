#!/usr/bin/env node
// Entry point of the `shapelog` command: runs the compiled CLI, dist/cli/shapelog.cjs
// (built by `npm run build`; `shapelog query` and `shapelog infer` run scripts of their
// own, SCRIPT_OF_COMMAND: the same command alone, less code to read), with a V8 code
// cache. A CommonJS script (bin/package.json), since node starts one with less work than
// an ES module.
//
// The code cache: node 20 parses and compiles the command's script (~1.2 MB minified) in every
// process (tens of milliseconds, a large part of a short command). Compiled through
// vm.Script with `cachedData`, V8 instead reads back the bytecode of every function an
// earlier run of the same command compiled. After a run that had no usable cache (and
// did not compile a relation library: see libraryCaches), the cache is written:
// <cache dir>/code-<build id>-<profile>-<node version>.bin (the profile: the command, its
// file's extension and its options' names; see cacheProfile), where the
// cache dir is the relation library's (relations/parse-cache.ts: SHAPELOG_CACHE_DIR, ...;
// SHAPELOG_CACHE=off turns it off) and the build id is the script's first line. Written
// atomically (temporary file + rename), so concurrent runs read the old file, none or the
// whole new one. V8 rejects a cache made for another script length, V8 version or flags,
// and, with --verify-snapshot-checksum (set here while the cache is read and while it is
// written, see withCacheChecksum), one whose bytes changed: without it a damaged cache
// crashes node. A rejected cache costs only the compile, and is rewritten.
//
// V8 flags and node's own modules: node compiles its built-in modules (node:crypto,
// perf_hooks, the streams of process.stdout, ...) from a code cache made for V8's default
// flags, and V8 refuses that cache while any flag differs from its default. A built-in
// first loaded then is compiled from its source, at about twice the cost (node:crypto:
// 3.7 -> 7.1 ms). So the checksum flag is set only around the code cache's reading and
// writing, and `infer`, which runs with a flag of its own (the interrupt budget, see
// run()), loads the built-ins it always uses before setting it (preloadBuiltins).
//
// In a development checkout (the sources and scripts/build.js beside dist/) whose
// sources changed since the last build, the compiled code would be stale: then the
// sources run through tsx instead, as they are (slower to start; `npm run build` makes
// the compiled code current again). An installed package has no sources and always runs
// dist/.
'use strict';
const { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');

const root = join(__dirname, '..');
/** Commands with a compiled command line of their own (cli/query-main.ts, cli/infer-main.ts); the others run dist/cli/shapelog.cjs. */
const SCRIPT_OF_COMMAND = { query: 'shapelog-query.cjs', infer: 'shapelog-infer.cjs' };
/**
 * Commands that do all their work synchronously (no child process, stream or timer is left
 * when main returns), so that the launcher may end the process itself (see run()).
 */
const SYNCHRONOUS_COMMANDS = new Set(['query', 'infer']);

/** The compiled command line to run for these arguments. */
function bundleFor(argv) {
  return join(root, 'dist', 'cli', Object.hasOwn(SCRIPT_OF_COMMAND, argv[0] ?? '') ? SCRIPT_OF_COMMAND[argv[0]] : 'shapelog.cjs');
}
/** Code cache files kept in the cache folder (the newest; a file per build, profile and node version). */
const KEEP_CODE_CACHES = 16;

/** The cache folder, as relations/parse-cache.ts `defaultCacheDir` finds it (test/cli-start.test.ts checks they agree); null: off. */
function cacheDir(env = process.env) {
  if (env.SHAPELOG_CACHE === 'off' || env.SHAPELOG_CACHE === '0') return null;
  if (env.SHAPELOG_CACHE_DIR) return env.SHAPELOG_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'shapelog');
  const home = require('node:os').homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Caches', 'shapelog');
  if (process.platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'shapelog');
  return join(home, '.cache', 'shapelog');
}

/**
 * --max-memory above what node's heap limit allows: run again with a heap large enough
 * (the budget stays 80% of the limit, as by default). Returns the child's exit code, or
 * null to go on in this process. node:v8 and node:child_process are loaded only then.
 */
function withLargerHeap(argv) {
  const at = argv.findIndex((a) => a === '--max-memory' || a.startsWith('--max-memory='));
  if (at < 0 || process.env.SHAPELOG_HEAP_SET !== undefined) return null;
  const a = argv[at];
  const mb = Number(a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[at + 1]);
  const limitMb = require('node:v8').getHeapStatistics().heap_size_limit / 2 ** 20;
  if (!Number.isInteger(mb) || mb <= 0.8 * limitMb) return null;
  const heapMb = Math.ceil(mb / 0.8);
  const run = require('node:child_process').spawnSync(process.execPath, [...process.execArgv, `--max-old-space-size=${heapMb}`, __filename, ...argv], {
    stdio: 'inherit',
    env: { ...process.env, SHAPELOG_HEAP_SET: String(heapMb) },
  });
  return run.status ?? 1;
}

/** The sources' entry when this is a development checkout whose sources are newer than dist/, else null. */
async function staleCheckout() {
  const staleScript = join(root, 'scripts', 'stale-inputs.cjs');
  if (!existsSync(staleScript) || !existsSync(join(root, 'cli', 'main.ts'))) return null;
  if (require(staleScript).staleInputs(root).length === 0) return null;
  if (['rules', 'relay', 'itir'].some((g) => !existsSync(join(root, 'grammar', 'generated', `${g}-parser.js`))))
    await import(pathToFileURL(join(root, 'scripts', 'build-grammar.js')).href);
  return join(root, 'cli', 'main.ts');
}

/** Writes `data` to `path` atomically, then keeps only the newest KEEP_CODE_CACHES code caches. */
function writeCodeCache(path, data) {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // the folder itself is not there
    }
    return; // an unwritable cache folder only costs the cache
  }
  try {
    const now = Date.now();
    const files = readdirSync(dirname(path))
      .filter((f) => f.startsWith('code-'))
      .map((f) => ({ path: join(dirname(path), f), mtime: statSync(join(dirname(path), f)).mtimeMs, tmp: f.endsWith('.tmp') }));
    for (const f of files) if (f.tmp && now - f.mtime > 60_000) rmSync(f.path, { force: true });
    const done = files.filter((f) => !f.tmp && f.path !== path).sort((a, b) => b.mtime - a.mtime);
    for (const f of done.slice(KEEP_CODE_CACHES - 1)) rmSync(f.path, { force: true });
  } catch {
    // another run pruned first
  }
}

/**
 * What a run's code cache is for: the command, the extension of its first file and the
 * names of the options given (`infer-relay`, `infer-onnx`, `infer-relay-strategy`). Runs
 * of one profile compile the same functions; a cache written by another profile would
 * lack some of them (compiled again in every run, since an accepted cache is not written).
 */
function cacheProfile(argv) {
  const file = argv.slice(1).find((a) => !a.startsWith('-'));
  const ext = file === undefined ? '' : (/\.([A-Za-z0-9]+)$/.exec(file)?.[1] ?? '');
  const options = argv.filter((a) => a.startsWith('-')).map((a) => a.replace(/^-+/, '').replace(/=.*/, ''));
  return [argv[0] ?? '', ext, ...options]
    .map((p) => p.toLowerCase().replace(/[^a-z0-9]/g, ''))
    .filter((p) => p !== '')
    .join('-')
    .slice(0, 64);
}

/** The caches of the relation library (relations/parse-cache.ts, relations/ops-cache.ts, typing/compiled-cache.ts), by their files' prefixes. */
const LIBRARY_CACHE_PREFIXES = ['rules-', 'ops-', 'compiled-'];

/**
 * The files of the relation library's caches in `dir`, with their modification times. A
 * run that writes one of them (the rules were parsed and compiled, as later runs read
 * back from those caches) has run all that code besides what later runs do: its compiled
 * code, written as the code cache, would make every later run read back ~40% more
 * (ppocr-cls: 834 against 591 KB; about 2% of the process, within this machine's noise
 * of a single A/B: 31 fresh processes alternating in each order, small against large 0.984
 * and large against small 1.026), so the code cache is left to the next run.
 */
function libraryCaches(dir) {
  const files = new Map();
  try {
    for (const f of readdirSync(dir)) if (LIBRARY_CACHE_PREFIXES.some((p) => f.startsWith(p))) files.set(f, statSync(join(dir, f)).mtimeMs);
  } catch {
    // no cache folder yet, or a file another run pruned meanwhile
  }
  return files;
}

/**
 * `f()` with V8 checking the checksum of the code caches it reads (and writing one into
 * those it makes), and then V8's flags as they were: the checksum makes a damaged cache
 * a rejected one, and a flag left changed would slow every built-in module loaded later
 * (see the header).
 */
function withCacheChecksum(f) {
  const v8 = require('node:v8');
  v8.setFlagsFromString('--verify-snapshot-checksum');
  try {
    return f();
  } finally {
    v8.setFlagsFromString('--no-verify-snapshot-checksum');
  }
}

/**
 * The built-in modules `infer` always uses, loaded before it sets its V8 flag (see the
 * header): phase timing (`performance`), its output (process.stdout: a pipe's loads
 * node:net) and node:crypto (the keys of the relation library's caches).
 */
function preloadBuiltins() {
  globalThis.performance;
  process.stdout;
  require('node:crypto');
}

/**
 * Loads a compiled command line (`bundle`) through a code cache and returns its `main`,
 * with a function to call once the command has run (it writes the cache when there was none).
 */
function loadCompiled(bundle, profile) {
  const vm = require('node:vm');
  const Module = require('node:module');
  // the build makes the script ASCII: latin1 gives the same text as a one-byte string, without UTF-8 decoding
  const source = readFileSync(bundle, 'latin1');
  const build = /^\/\*shapelog-build:([0-9a-f]+)\*\//.exec(source)?.[1];
  const dir = build === undefined ? null : cacheDir();
  const cachePath = dir === null ? null : join(dir, `code-${build.slice(0, 16)}-${profile || 'none'}-${process.version}-${process.arch}.bin`);
  let cachedData;
  if (cachePath !== null) {
    try {
      cachedData = readFileSync(cachePath);
    } catch {
      // not cached yet
    }
  }
  const compile = () => new vm.Script(Module.wrap(source), { filename: bundle, ...(cachedData !== undefined ? { cachedData } : {}) });
  const script = cachePath === null ? compile() : withCacheChecksum(compile);
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, Module.createRequire(bundle), module, bundle, dirname(bundle));
  const writing = cachePath !== null && (cachedData === undefined || script.cachedDataRejected === true);
  const libraryCachesBefore = writing ? libraryCaches(dirname(cachePath)) : null;
  const done = () => {
    if (!writing) return;
    // a run that wrote one of the relation library's caches leaves the code cache to the next run
    const after = libraryCaches(dirname(cachePath));
    for (const [f, mtime] of after) if (libraryCachesBefore.get(f) !== mtime) return;
    writeCodeCache(
      cachePath,
      withCacheChecksum(() => script.createCachedData()),
    );
  };
  return { main: module.exports.main, done };
}

async function run() {
  const argv = process.argv.slice(2);
  const rerun = withLargerHeap(argv);
  if (rerun !== null) {
    process.exitCode = rerun;
    return;
  }
  // `shapelog infer` (an ONNX model or a Relay program) is a process of a second or so:
  // V8's optimizing compiler, tiering up the engine's large join and commit functions after
  // a few milliseconds of use, costs more CPU than the optimized code saves before the
  // process ends (measured, CPU medians of 9 alternating: about a third of the process on
  // the bundled ONNX models, still a gain on a 3,000-node graph; ResNet-50 Relay with the
  // rules strategy 870 -> 580 ms, relay strategy 410 -> 330 ms). A larger interrupt budget
  // optimizes only the functions that stay hot for longer, so long runs still get optimized
  // code. Not for `query`: a closure of a few seconds was 7% slower with it.
  //
  // The young generation keeps node's default sizing (1 MB per semi-space, doubling when a
  // scavenge keeps most of what it copies). Growing it faster (by 16, to its 16 MB maximum
  // at the first such scavenge) copies the loaded library fewer times and executes fewer
  // instructions (callgrind: ResNet-50 -12%), yet costs wall time that instruction counts
  // do not show: the scavenge that grows the space pauses ~10 ms beyond its copying
  // (--trace-gc-nvp), and the mutator then touches fresh pages (wall, 15
  // alternating processes with caches of their own, default / growth by 16: ResNet-50 with
  // the relay strategy 0.81, ppocr-det 0.90, ppocr-cls 0.81, Silero 0.85, ppocr-rec 0.86).
  if (argv[0] === 'infer') {
    preloadBuiltins();
    require('node:v8').setFlagsFromString('--interrupt-budget=1048576');
  }
  const sources = await staleCheckout();
  if (sources !== null) {
    // node >= 22.1 keeps the compiled code of the modules it loads in a disk cache (NODE_DISABLE_COMPILE_CACHE=1 turns it off)
    require('node:module').enableCompileCache?.();
    const { register } = await import('tsx/esm/api');
    register();
    const { main } = await import(pathToFileURL(sources).href);
    process.exitCode = await main(argv);
    return;
  }
  const bundle = bundleFor(argv);
  if (!existsSync(bundle)) {
    process.stderr.write(`shapelog: ${bundle} is missing: run \`npm run build\` in ${root}\n`);
    process.exitCode = 2;
    return;
  }
  const { main, done } = loadCompiled(bundle, cacheProfile(argv));
  process.exitCode = await main(argv);
  done();
  // SYNCHRONOUS_COMMANDS: once main returns, nothing is left to run. Left
  // to end by itself, node then tears the process down, its heap included (from the 'exit'
  // event to the end of the process after typing ResNet-50: 38 ms, against 28 ms with
  // process.exit() and 24 ms for `node -e 0`; 5 processes each). Only when stdout and stderr
  // have written everything (on Linux they write synchronously to files and pipes;
  // elsewhere a pipe can hold output back): output is never cut short.
  if (SYNCHRONOUS_COMMANDS.has(argv[0]) && process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit();
}

if (require.main === module) {
  run();
} else {
  module.exports = { cacheDir, cacheProfile };
}
