// How the `shapelog` command starts (bin/shapelog.js): the compiled command
// (dist/cli/shapelog.cjs; shapelog-query.cjs and shapelog-infer.cjs for those commands) runs through a V8 code cache, one file per build, profile (the
// command, its file's extension, its options' names) and node version in the cache folder. These tests run the built command (`npm test` builds
// first) and check that the cache is written once and then read as it is, and not by a
// run that compiled the relation library (the next run writes it); that a damaged,
// truncated or foreign cache file gives the same output and is rewritten (V8 would crash
// on a damaged one without the checksum the launcher turns on); that concurrent runs with
// an empty cache all succeed and leave one whole file; that an unwritable cache folder
// or SHAPELOG_CACHE=off only costs the cache; that the launcher finds the same cache
// folder as the library's caches; and that `query` and `infer`, which end the process
// themselves, have written all their output and give their exit code.
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultCacheDir } from '../relations/parse-cache.js';
import { staleInputs } from '../scripts/build.js';

const root = join(import.meta.dirname, '..');
const bin = join(root, 'bin', 'shapelog.js');
const program = join(root, 'examples', 'relay', 'conv.relay');

interface Run {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

/** Runs node with `argv` and these variables on top of this process's: exit code, standard output and error. */
function node(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, argv, { env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => done({ code, out, err }));
  });
}

/** `shapelog ARGS` through the launcher, bin/shapelog.js. */
function shapelog(args: readonly string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return node([bin, ...args], env);
}

const codeCaches = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('code-'));

test.before(() => {
  // from stale sources the launcher runs them through tsx, and there is no code cache to test
  const stale = staleInputs(root);
  if (stale.length > 0) throw new Error(`dist/ is older than ${stale.slice(0, 3).join(', ')}: run \`npm run build\` first`);
});

test('the launcher and the library caches use the same cache folder', (t) => {
  const { cacheDir } = createRequire(import.meta.url)(bin) as { cacheDir: (env: NodeJS.ProcessEnv) => string | null };
  const envs: NodeJS.ProcessEnv[] = [
    {},
    { SHAPELOG_CACHE: 'off', SHAPELOG_CACHE_DIR: '/tmp/x' },
    { SHAPELOG_CACHE: '0' },
    { SHAPELOG_CACHE_DIR: '/tmp/own' },
    { SHAPELOG_CACHE_DIR: '', XDG_CACHE_HOME: '/tmp/xdg' },
    { XDG_CACHE_HOME: '/tmp/xdg', LOCALAPPDATA: '/tmp/local' },
  ];
  for (const env of envs) t.is(cacheDir(env), defaultCacheDir(env), JSON.stringify(env));
  t.is(cacheDir({ SHAPELOG_CACHE: 'off' }), null);
  t.is(cacheDir({ SHAPELOG_CACHE_DIR: '/tmp/own' }), '/tmp/own');
});

test('a run that compiles the relation library leaves the code cache to the next run', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-code-'));
  const first = await shapelog(['infer', program], { SHAPELOG_CACHE_DIR: dir });
  t.is(first.code, 0, first.err);
  t.true(
    readdirSync(dir).some((f) => f.startsWith('compiled-')),
    'the first run compiled the library and cached it',
  );
  t.deepEqual(codeCaches(dir), []);
  const second = await shapelog(['infer', program], { SHAPELOG_CACHE_DIR: dir });
  t.is(second.out, first.out);
  t.is(codeCaches(dir).length, 1);
});

test('the code cache is written once, then read as it is', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-code-'));
  const rules = join(dir, 'one.rules');
  writeFileSync(rules, 'edge(1, 2).\n');
  const first = await shapelog(['query', rules], { SHAPELOG_CACHE_DIR: dir });
  t.is(first.code, 0, first.err);
  t.is(first.out, '% edge (1 fact)\nedge(1, 2).\n');
  const files = codeCaches(dir);
  t.is(files.length, 1);
  t.regex(files[0]!, new RegExp(`^code-[0-9a-f]{16}-query-rules-${process.version.replaceAll('.', '\\.')}-${process.arch}\\.bin$`));
  const path = join(dir, files[0]!);
  const written = { bytes: readFileSync(path), mtime: statSync(path).mtimeMs };
  const second = await shapelog(['query', rules], { SHAPELOG_CACHE_DIR: dir });
  t.is(second.code, 0, second.err);
  t.is(second.out, first.out);
  t.is(statSync(path).mtimeMs, written.mtime, 'an accepted cache is not written again');
  t.deepEqual(readFileSync(path), written.bytes);
  // another command, or the same with other options, has its own cache
  // (the first run of `infer` compiles the relation library, and leaves its code cache to the second)
  t.is((await shapelog(['infer', program], { SHAPELOG_CACHE_DIR: dir })).code, 0);
  const infer = await shapelog(['infer', program], { SHAPELOG_CACHE_DIR: dir });
  t.is(infer.code, 0, infer.err);
  const relay = await shapelog(['infer', program, '--strategy', 'relay'], { SHAPELOG_CACHE_DIR: dir });
  t.is(relay.out, infer.out);
  t.deepEqual(
    codeCaches(dir)
      .map((f) => /^code-[0-9a-f]+-(.*)-v[\d.]+-\w+\.bin$/.exec(f)?.[1])
      .sort(),
    ['infer-relay', 'infer-relay-strategy', 'query-rules'],
  );
});

/** A command of each compiled script: shapelog-infer.cjs, shapelog-query.cjs and shapelog.cjs (every other command). */
const SCRIPT_COMMANDS: readonly (readonly string[])[] = [
  ['infer', program],
  ['query', join(root, 'examples', 'rules', 'graph.rules'), '--goal', 'path(a, X)'],
  ['typeof', '--help'],
];

for (const command of SCRIPT_COMMANDS)
  test(`a damaged, truncated or foreign code cache gives the same output and is rewritten: shapelog ${command[0]}`, async (t) => {
    await damagedCacheIsRewritten(t, command);
  });

async function damagedCacheIsRewritten(t: ExecutionContext, command: readonly string[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-code-'));
  const env = { SHAPELOG_CACHE_DIR: dir };
  const none = await shapelog(command, { SHAPELOG_CACHE: 'off' });
  t.is(none.code, 0, none.err);
  // (a first run that compiles the relation library leaves the code cache to the second)
  for (let run = 0; run < 2 && codeCaches(dir).length === 0; run++) t.is((await shapelog(command, env)).code, 0);
  t.is(codeCaches(dir).length, 1);
  const path = join(dir, codeCaches(dir)[0]!);
  const good = readFileSync(path);
  const flipped = Buffer.from(good);
  for (let i = 64; i < flipped.length; i += 4099) flipped[i]! ^= 0x5a;
  const oneBit = Buffer.from(good);
  oneBit[oneBit.length >> 1]! ^= 1;
  const damages: [string, Buffer][] = [
    ['bytes changed throughout', flipped],
    ['one bit changed', oneBit],
    ['truncated', good.subarray(0, good.length >> 1)],
    ['empty', Buffer.alloc(0)],
    ['not a code cache', Buffer.from('{"format": 1}\n'.repeat(1000))],
  ];
  for (const [what, bytes] of damages) {
    writeFileSync(path, bytes);
    const r = await shapelog(command, env);
    t.is(r.code, 0, `${what}: ${r.err}`);
    t.is(r.out, none.out, what);
    t.notDeepEqual(readFileSync(path), bytes, `${what}: rewritten`);
    // and the rewritten cache is good again
    const again = await shapelog(command, env);
    t.is(again.out, none.out, `${what}: after the rewrite`);
  }
}

test('concurrent runs with no code cache all succeed and leave one whole file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-code-'));
  const rules = join(dir, 'one.rules');
  writeFileSync(rules, 'edge(1, 2).\nedge(2, 3).\npath(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\n');
  const runs = await Promise.all(Array.from({ length: 6 }, () => shapelog(['query', rules], { SHAPELOG_CACHE_DIR: dir })));
  for (const r of runs) {
    t.is(r.code, 0, r.err);
    t.is(r.out, runs[0]!.out);
  }
  t.deepEqual(
    readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    [],
    'no temporary file left',
  );
  t.is(codeCaches(dir).length, 1);
  const path = join(dir, codeCaches(dir)[0]!);
  const mtime = statSync(path).mtimeMs;
  const after = await shapelog(['query', rules], { SHAPELOG_CACHE_DIR: dir });
  t.is(after.out, runs[0]!.out);
  t.is(statSync(path).mtimeMs, mtime, 'the file left is one V8 accepts (not rewritten)');
});

test('an unwritable cache folder or SHAPELOG_CACHE=off only costs the code cache', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-code-'));
  const blocked = join(dir, 'blocked');
  writeFileSync(blocked, 'a file where the cache folder would be');
  const rules = join(dir, 'one.rules');
  writeFileSync(rules, 'edge(1, 2).\n');
  const r = await shapelog(['query', rules], { SHAPELOG_CACHE_DIR: join(blocked, 'cache') });
  t.is(r.code, 0, r.err);
  t.is(r.out, '% edge (1 fact)\nedge(1, 2).\n');
  const off = mkdtempSync(join(tmpdir(), 'shapelog-code-'));
  const o = await shapelog(['query', rules], { SHAPELOG_CACHE_DIR: off, SHAPELOG_CACHE: 'off' });
  t.is(o.out, r.out);
  t.deepEqual(readdirSync(off), []);
});

/** Runs the `main` of a compiled command line (dist/cli/NAME.cjs) in a fresh process, as bin/shapelog.js would. */
function compiledMain(script: string, args: readonly string[]): Promise<Run> {
  const code = `require(${JSON.stringify(join(root, 'dist', 'cli', script))}).main(JSON.parse(process.argv[1])).then((c) => { process.exitCode = c; })`;
  return node(['-e', code, JSON.stringify(args)], { SHAPELOG_CACHE: 'off' });
}

test('`shapelog query` and `shapelog infer` run scripts of their own that answer as the full command line does', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-scripts-'));
  const rules = join(dir, 'path.rules');
  writeFileSync(rules, 'edge(1, 2).\nedge(2, 3).\npath(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\n');
  const badRules = join(dir, 'bad.rules');
  writeFileSync(badRules, 'edge(1, 2.\n');
  const badRelay = join(dir, 'bad.relay');
  writeFileSync(badRelay, '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2, 3), float32]) {\n  add(%x, %y)\n}\n');
  const example = (...parts: string[]) => join(root, 'examples', ...parts);
  // the launcher's choice of script is checked on a few (each case through it costs a process)
  const viaLauncher = new Set(['query --help', `query ${rules} --goal path(1, X) --json`, `infer ${program}`, `infer --help`]);
  const cases: [script: string, args: readonly string[]][] = [
    ['shapelog-query.cjs', ['query', '--help']],
    ['shapelog-query.cjs', ['query']],
    ['shapelog-query.cjs', ['query', rules, '--bogus']],
    ['shapelog-query.cjs', ['query', rules, '--strategy', 'nope']],
    ['shapelog-query.cjs', ['query', rules, '--max-rounds', '0']],
    ['shapelog-query.cjs', ['query', rules]],
    ['shapelog-query.cjs', ['query', rules, '--goal', 'path(1, X)', '--json']],
    ['shapelog-query.cjs', ['query', rules, '--explain', 'path(1, 3)']],
    ['shapelog-query.cjs', ['query', badRules]],
    ['shapelog-query.cjs', ['query', join(dir, 'missing.rules')]],
    ['shapelog-infer.cjs', ['infer', '--help']],
    ['shapelog-infer.cjs', ['infer']],
    ['shapelog-infer.cjs', ['infer', program, '--strategy', 'nope']],
    ['shapelog-infer.cjs', ['infer', program]],
    ['shapelog-infer.cjs', ['infer', program, '--strategy', 'relay', '--json']],
    ['shapelog-infer.cjs', ['infer', program, '--explain', '%0']],
    ['shapelog-infer.cjs', ['infer', program, '--gradual']],
    ['shapelog-infer.cjs', ['infer', program, '--checks-only']],
    ['shapelog-infer.cjs', ['infer', badRelay]],
    ['shapelog-infer.cjs', ['infer', join(dir, 'missing.relay')]],
    ['shapelog-infer.cjs', ['infer', example('onnx', 'models', 'openwakeword_hello_deepa.onnx'), '--json']],
    ['shapelog-infer.cjs', ['infer', example('itir', 'fencil.itir')]],
  ];
  let launched = 0;
  for (const [script, args] of cases) {
    const full = await compiledMain('shapelog.cjs', args);
    const own = await compiledMain(script, args);
    const what = args.join(' ');
    t.deepEqual(own, full, what);
    if (viaLauncher.has(what)) {
      launched++;
      t.deepEqual(await shapelog(args, { SHAPELOG_CACHE: 'off' }), full, `${what}: through bin/shapelog.js`);
    }
  }
  t.is(launched, viaLauncher.size, 'each launcher case is one of the cases');
  // each is a command line of its command alone: the others are unknown to it
  const infer = await compiledMain('shapelog-query.cjs', ['infer', program]);
  t.is(infer.code, 2);
  t.regex(infer.err, /unknown command 'infer'/);
  const query = await compiledMain('shapelog-infer.cjs', ['query', rules]);
  t.is(query.code, 2);
  t.regex(query.err, /unknown command 'query'/);
});

test('`shapelog query` and `shapelog infer` end the process themselves with all their output written and their exit code', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-exit-'));
  // a chain of 400 nodes: 399 edges and 79,800 paths, ~1.7 MB through the pipe
  const rules = join(dir, 'chain.rules');
  const edges = Array.from({ length: 399 }, (_, i) => `edge(${i}, ${i + 1}).`).join('\n');
  writeFileSync(rules, `${edges}\npath(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\n`);
  const printed = await shapelog(['query', rules], { SHAPELOG_CACHE: 'off' });
  t.is(printed.code, 0);
  const lines = printed.out.split('\n');
  t.is(lines.filter((l) => l.startsWith('path(')).length, 79_800);
  t.is(lines.filter((l) => l.startsWith('edge(')).length, 399);
  t.true(printed.out.endsWith('path(398, 399).\n'), 'the last fact, whole');
  // a user's mistake: exit 1, its message whole on stderr
  const bad = join(dir, 'bad.relay');
  writeFileSync(bad, '#[version = "0.0.5"]\ndef @main(%x: Tensor[(2, 3), float32]) {\n  add(%x, %y)\n}\n');
  const failed = await shapelog(['infer', bad], { SHAPELOG_CACHE: 'off' });
  t.is(failed.code, 1);
  t.regex(failed.err, /%y/);
  t.true(failed.err.endsWith('\n'));
});
