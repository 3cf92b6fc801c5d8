#!/usr/bin/env node
// Entry point of the `shapelog` command: runs the compiled CLI (dist/cli/shapelog.js,
// built by `npm run build`).
//
// In a development checkout (the sources and scripts/build.js beside dist/) whose
// sources changed since the last build, the compiled code would be stale: then the
// sources run through tsx instead, as they are (slower to start; `npm run build`
// makes the compiled code current again). An installed package has no sources and
// always runs dist/.
import { existsSync } from 'node:fs';
import module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// node >= 22.1 keeps the compiled code of the modules it loads in a disk cache
// (NODE_DISABLE_COMPILE_CACHE=1 turns it off); older versions have no such cache
module.enableCompileCache?.();

// --max-memory above what node's heap limit allows: run again with a heap large enough
// (the budget stays 80% of the limit, as by default). node:v8 and node:child_process
// are loaded only then: most commands never need them
const memoryArg = process.argv.findIndex((a) => a === '--max-memory' || a.startsWith('--max-memory='));
if (memoryArg >= 0 && process.env.SHAPELOG_HEAP_SET === undefined) {
  const a = process.argv[memoryArg];
  const mb = Number(a.includes('=') ? a.slice(a.indexOf('=') + 1) : process.argv[memoryArg + 1]);
  const { getHeapStatistics } = await import('node:v8');
  const limitMb = getHeapStatistics().heap_size_limit / 2 ** 20;
  if (Number.isInteger(mb) && mb > 0.8 * limitMb) {
    const heapMb = Math.ceil(mb / 0.8);
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, [...process.execArgv, `--max-old-space-size=${heapMb}`, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
      stdio: 'inherit',
      env: { ...process.env, SHAPELOG_HEAP_SET: String(heapMb) },
    });
    process.exit(run.status ?? 1);
  }
}

// `shapelog infer` (an ONNX model or a Relay program) is a process of a second or so:
// V8's optimizing compiler, tiering up the engine's large join and commit functions after
// a few milliseconds of use, costs more CPU than the optimized code saves before the
// process ends (measured, CPU medians of 9 alternating: about a third of the process on
// the bundled ONNX models, still a gain on a 3,000-node graph; ResNet-50 Relay with the
// rules strategy 870 -> 580 ms, relay strategy 410 -> 330 ms). A larger interrupt budget
// optimizes only the functions that stay hot for longer, so long runs still get optimized
// code. Not for `query`: a closure of a few seconds was 7% slower with it.
if (process.argv[2] === 'infer') {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--interrupt-budget=1048576');
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist', 'cli', 'shapelog.js');
let entry = compiled;
const buildScript = join(root, 'scripts', 'build.js');
if (existsSync(buildScript) && existsSync(join(root, 'cli', 'main.ts'))) {
  const { staleInputs } = await import(pathToFileURL(buildScript).href);
  if (staleInputs(root).length > 0) {
    if (['rules', 'relay', 'itir'].some((g) => !existsSync(join(root, 'grammar', 'generated', `${g}-parser.js`)))) await import(pathToFileURL(join(root, 'scripts', 'build-grammar.js')).href);
    const { register } = await import('tsx/esm/api');
    register();
    entry = join(root, 'cli', 'main.ts');
  }
} else if (!existsSync(compiled)) {
  process.stderr.write(`shapelog: ${compiled} is missing: run \`npm run build\` in ${root}\n`);
  process.exit(2);
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
