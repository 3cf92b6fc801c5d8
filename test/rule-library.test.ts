// The relation library as the rules strategy loads it:
// (a) the part of the library a program can use (typing/library-subset.ts) types every
//     bundled program, good and bad, exactly as the whole library does;
// (b) the on-disk cache of the parsed rule files (relations/parse-cache.ts) gives the
//     same syntax trees as parsing; a corrupt, truncated or mismatched cache file is
//     ignored and rewritten; an unwritable cache directory only costs the cache;
// (c) the on-disk cache of compiled libraries (typing/compiled-cache.ts) gives back the
//     compile outcome and term store it was given; the command types a program the same
//     with no cache, with a cache it writes, with that cache, and with that cache
//     corrupted; concurrent processes with an empty cache all succeed and leave a valid
//     cache.
import { GroundFact } from '../solver/language/ground-facts.js';
import test from 'ava';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseRelay } from '../frontends/relay/parse.js';
import { asLibrary, loadFiles } from '../solver/load.js';
import { catalogue } from '../typing/infer.js';
import { generate } from '../typing/constraints.js';
import { inferWithRules } from '../typing/rules-strategy.js';
import { librarySubset } from '../typing/library-subset.js';
import { RULES_DIR, ruleLibrary } from '../relations/library.js';
import { CACHE_FORMAT, defaultCacheDir, loadLibrary } from '../relations/parse-cache.js';
import { buildId, compiledCache, readCompiled, writeCompiled } from '../typing/compiled-cache.js';
import { compileProgram } from '../solver/compile/program.js';
import { TermStore } from '../solver/terms/term-store.js';
import { termText } from '../solver/terms/print.js';
import type { Plan, Step } from '../solver/compile/plan.js';
import { relationId } from '../solver/store/relation-map.js';

const root = join(import.meta.dirname, '..');
const ruleFiles = readdirSync(RULES_DIR)
  .filter((f) => f.endsWith('.rules'))
  .sort()
  .map((f) => join(RULES_DIR, f));

function relayPrograms(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.relay')) out.push(join(dir, e.name));
    }
  };
  walk(join(root, 'examples', 'relay'));
  walk(join(root, 'examples', 'bad'));
  return out.sort();
}

test('the part of the library a program uses types every example exactly as the whole library', (t) => {
  const library = ruleLibrary();
  const show = (o: ReturnType<typeof inferWithRules>) =>
    JSON.stringify({
      bindings: o.bindings.map((b) => [b.fn, b.name, b.type]),
      functions: [...o.functions],
      results: [...o.results.values()],
      diagnostics: o.diagnostics.map((d) => [d.severity, d.message, d.span?.start.line ?? null, d.notes]),
    });
  let programs = 0;
  for (const path of relayPrograms()) {
    let gen: ReturnType<typeof generate>;
    try {
      gen = generate(parseRelay(readFileSync(path, 'utf8'), path), catalogue);
    } catch {
      continue; // a syntax error: nothing to type
    }
    if (gen.diagnostics.length > 0) continue;
    programs++;
    t.is(show(inferWithRules(gen, library)), show(inferWithRules(gen, library, {}, { wholeLibrary: true })), path);
  }
  t.true(programs >= 15, `${programs} programs typed`);
});

test('the subset keeps declarations and drops rules of relations nothing instantiates', (t) => {
  const { programs } = ruleLibrary().sources;
  const count = (ps: typeof programs, kind: string) => ps.reduce((n, p) => n + p.statements.filter((s) => s.kind === kind).length, 0);
  const sub = librarySubset(programs, new Set(['Identity']));
  t.is(count(sub, 'relation'), count(programs, 'relation'));
  t.true(count(sub, 'clause') < count(programs, 'clause') / 4, `${count(sub, 'clause')} of ${count(programs, 'clause')} clauses`);
  const heads = new Set(sub.flatMap((p) => p.statements.flatMap((s) => (s.kind === 'clause' && s.head.kind === 'call' ? [s.head.pred] : []))));
  t.false(heads.has('conv_layout_perm'), 'convolution helpers are not needed to type an identity');
});

// ------------------------------------------------------------------ the parse cache

const fresh = () => asLibrary(loadFiles(ruleFiles));

test('a cached library is the parsed library', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-cache-'));
  const first = loadLibrary(ruleFiles, '1.0.0', dir);
  t.is(first.status, 'written');
  const second = loadLibrary(ruleFiles, '1.0.0', dir);
  t.is(second.status, 'hit');
  const parsed = fresh();
  // a plain fact is held by the parser as its place in the text (GroundFact) and cached as its tree
  const trees = (programs: typeof parsed.programs) =>
    programs.map((p) => ({ ...p, statements: p.statements.map((x) => (x instanceof GroundFact ? x.toJSON() : x)) }));
  t.true(parsed.programs.some((p) => p.statements.some((x) => x instanceof GroundFact)));
  t.true(isDeepStrictEqual(second.sources.programs, trees(parsed.programs)));
  t.deepEqual([...second.sources.texts], [...parsed.texts]);
  t.deepEqual(second.sources.diagnostics, []);
  t.is(second.sources.roots.size, 0);
  // another engine version or another rule text is another key
  t.is(loadLibrary(ruleFiles, '1.0.1', dir).status, 'written');
  t.is(readdirSync(dir).filter((f) => f.endsWith('.json')).length, 2);
});

test('a corrupt, truncated or mismatched cache file is ignored and rewritten', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-cache-'));
  const { path } = loadLibrary(ruleFiles, '1.0.0', dir);
  const good = readFileSync(path!, 'utf8');
  const nl = good.indexOf('\n');
  const header = JSON.parse(good.slice(0, nl)) as Record<string, unknown>;
  const damaged = [
    '',
    'not json at all',
    good.slice(0, good.length >> 1), // truncated
    `${good.slice(0, -12) + 'x'.repeat(11)}\n`, // same length, last statement damaged
    good.replace('"statements":[', '"statements":{'), // not the expected shape
    JSON.stringify({ ...header, format: CACHE_FORMAT + 1 }) + good.slice(nl), // another format
    JSON.stringify({ ...header, key: 'f'.repeat(64) }) + good.slice(nl), // another key
    JSON.stringify({ ...header, files: (header['files'] as string[]).slice(1) }) + good.slice(nl), // files missing
  ];
  const parsed = fresh().programs;
  for (const [i, text] of damaged.entries()) {
    writeFileSync(path!, text);
    const r = loadLibrary(ruleFiles, '1.0.0', dir);
    t.is(r.status, 'written', `damage ${i}`);
    t.true(isDeepStrictEqual(r.sources.programs, parsed), `damage ${i}`);
    t.is(readFileSync(path!, 'utf8'), good, `damage ${i}: rewritten`);
  }
});

test('an unwritable cache directory or SHAPELOG_CACHE=off only costs the cache', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-cache-'));
  const blocked = join(dir, 'file');
  writeFileSync(blocked, 'a file where the cache folder would be');
  const r = loadLibrary(ruleFiles, '1.0.0', join(blocked, 'cache'));
  t.is(r.status, 'parsed');
  t.true(isDeepStrictEqual(r.sources.programs, fresh().programs));
  if (process.getuid?.() !== 0) {
    const ro = join(dir, 'ro');
    mkdirSync(ro);
    chmodSync(ro, 0o500);
    t.is(loadLibrary(ruleFiles, '1.0.0', ro).status, 'parsed');
  }
  t.is(defaultCacheDir({ SHAPELOG_CACHE: 'off' }), null);
  t.is(defaultCacheDir({ SHAPELOG_CACHE_DIR: '/x/y' }), '/x/y');
  t.is(defaultCacheDir({ XDG_CACHE_HOME: '/x' }), join('/x', 'shapelog'));
});

// ------------------------------------------------------------------ the compiled-library cache

test('a cached compiled library is the compiled library', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-cache-'));
  const library = ruleLibrary();
  const relations = ['Conv2D', 'TupleGet', 'BatchNorm'];
  t.is(buildId(), null, 'code run from the sources has no build id');
  t.is(compiledCache(library.key, relations, null, dir), null, 'so it caches nothing');
  const cache = compiledCache(library.key, relations, 'test-build', dir)!;
  t.not(cache, null);
  t.not(compiledCache(library.key, relations, 'another-build', dir)!.key, cache.key);
  t.not(compiledCache(library.key, relations.slice(1), 'test-build', dir)!.key, cache.key);
  t.is(compiledCache(library.key, [...relations].reverse(), 'test-build', dir)!.key, cache.key, 'the order of the relations does not matter');
  t.is(readCompiled(cache), null);
  const store = new TermStore();
  const compiled = compileProgram(store, librarySubset(library.sources.programs, new Set(relations)), 'seminaive', null, new Set());
  t.true(compiled.ok);
  t.true(writeCompiled(cache, { store, compiled }));
  const back = readCompiled(cache)!;
  t.not(back, null);
  // the same outcome, except that the plans carry only what running them needs of their rules; the whole rules come back on first use
  if (!back.compiled.ok || !compiled.ok) return t.fail('not compiled');
  const { rules, plans, ...rest } = compiled.program;
  const { rules: backRules, plans: backPlans, ...backRest } = back.compiled.program;
  t.true(isDeepStrictEqual(backRest, rest));
  t.true(isDeepStrictEqual(backRules, rules));
  t.is(backPlans.length, plans.length);
  for (const [i, p] of plans.entries()) {
    const b = backPlans[i]!;
    t.true(isDeepStrictEqual({ ...b, rule: null }, { ...p, rule: null }), `plan ${i}`);
    t.is(b.rule.id, p.rule.id);
    t.deepEqual([b.rule.span, b.rule.varNames, b.rule.head.k, b.rule.head.span], [p.rule.span, p.rule.varNames, p.rule.head.k, p.rule.head.span]);
    t.false('body' in b.rule, 'no rule body on a plan read back');
  }
  t.is(back.store.size, store.size);
  for (let id = 1; id < store.size; id++) if (termText(back.store, id) !== termText(store, id)) t.fail(`term ${id}`);
  t.is(back.store.symbol('Conv2D'), store.symbol('Conv2D'));
  t.is(back.store.atom('a_new_atom'), store.atom('a_new_atom'), 'both intern the next term alike');
  // relations are numbered per process: plans written by a process that numbered them otherwise come back numbered as this one does
  const shift = (steps: readonly Step[]): Step[] => steps.map((st) => (st.k === 'scan' || st.k === 'neg' ? { ...st, relId: st.relId + 1000 } : st));
  const elsewhere = compileProgram(new TermStore(), librarySubset(library.sources.programs, new Set(relations)), 'seminaive', null, new Set());
  if (!elsewhere.ok) return t.fail('not compiled');
  const shiftedPlans = elsewhere.program.plans.map((p) => ({ ...p, steps: shift(p.steps), variants: p.variants.map((v) => (v === null ? null : shift(v))) }));
  const shiftedCache = compiledCache(library.key, ['Conv2D'], 'test-build', dir)!;
  t.true(writeCompiled(shiftedCache, { store: new TermStore(), compiled: { ...elsewhere, program: { ...elsewhere.program, plans: shiftedPlans } } }));
  const numbered = (plans: readonly Plan[]) =>
    plans.flatMap((p) =>
      [p.steps, ...p.variants].flatMap((steps) => (steps ?? []).flatMap((st) => (st.k === 'scan' || st.k === 'neg' ? [[st.rel, st.relId] as const] : []))),
    );
  const shiftedBack = readCompiled(shiftedCache)!;
  if (!shiftedBack.compiled.ok) return t.fail('not read back');
  const pairs = numbered(shiftedBack.compiled.program.plans);
  t.true(pairs.length > 0);
  t.deepEqual(
    pairs.filter(([rel, id]) => id !== relationId(rel)),
    [],
  );
  t.deepEqual(
    numbered(backPlans).filter(([rel, id]) => id !== relationId(rel)),
    [],
  );
  // damaged files are ignored
  const good = readFileSync(cache.path);
  for (const damaged of [Buffer.alloc(0), good.subarray(0, good.length >> 1), Buffer.concat([good.subarray(0, good.length - 10), Buffer.alloc(10, 7)])]) {
    writeFileSync(cache.path, damaged);
    t.is(readCompiled(cache), null);
  }
});

function shapelogIn(dir: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd = root): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'shapelog.js'), ...args], { cwd, env: { ...process.env, SHAPELOG_CACHE_DIR: dir, ...env } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => done({ code, out }));
  });
}

for (const name of ['conv.relay', 'models/bert_layer.relay'])
  test(`the command types ${name} alike with no cache, writing it, reading it, and reading it damaged`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'shapelog-cache-'));
    const program = join(root, 'examples', 'relay', name);
    const none = await shapelogIn(dir, ['infer', program, '--json'], { SHAPELOG_CACHE: 'off' });
    t.is(none.code, 0);
    t.deepEqual(readdirSync(dir), []);
    const writing = await shapelogIn(dir, ['infer', program, '--json']);
    const compiled = readdirSync(dir).filter((f) => f.startsWith('compiled-'));
    t.is(compiled.length, 1, 'the built command caches what it compiles');
    const reading = await shapelogIn(dir, ['infer', program, '--json']);
    const path = join(dir, compiled[0]!);
    const good = readFileSync(path);
    writeFileSync(path, good.subarray(0, good.length - 100));
    const damaged = await shapelogIn(dir, ['infer', program, '--json']);
    const rewritten = readFileSync(path);
    const headerBytes = rewritten.readUInt32LE(0);
    const header = JSON.parse(rewritten.subarray(4, 4 + headerBytes).toString()) as { bytes: number; ruleBytes: number };
    t.is(4 + headerBytes + header.bytes + header.ruleBytes, rewritten.length, 'the damaged file is rewritten whole');
    for (const r of [writing, reading, damaged]) {
      t.is(r.code, 0);
      t.is(r.out, none.out);
    }
  });

test('rule locations in explanations are right from any working directory, whoever wrote the cache', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-cache-'));
  const program = join(root, 'examples', 'relay', 'conv.relay');
  const elsewhere = mkdtempSync(join(tmpdir(), 'shapelog-cwd-'));
  for (let round = 0; round < 2; round++) {
    const inside = await shapelogIn(dir, ['infer', program, '--explain', '%0', '--internals'], {}, root);
    const outside = await shapelogIn(dir, ['infer', program, '--explain', '%0', '--internals'], {}, elsewhere);
    t.regex(inside.out, / at relations\/conv\.rules:\d+:\d+\)/);
    t.notRegex(inside.out, / at \/[^ ]*\/relations\//);
    t.true(outside.out.includes(` at ${join(root, 'relations', 'conv.rules')}:`), outside.out.slice(0, 300));
  }
});

test('concurrent runs with an empty cache all succeed and leave one valid cache file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-cache-'));
  const bin = join(root, 'bin', 'shapelog.js');
  const program = join(root, 'examples', 'relay', 'conv.relay');
  const runs = await Promise.all(
    Array.from(
      { length: 6 },
      () =>
        new Promise<{ code: number | null; out: string }>((done) => {
          const child = spawn(process.execPath, [bin, 'infer', program, '--json'], { env: { ...process.env, SHAPELOG_CACHE_DIR: dir } });
          let out = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString()));
          child.on('close', (code) => done({ code, out }));
        }),
    ),
  );
  for (const r of runs) {
    t.is(r.code, 0);
    t.is(r.out, runs[0]!.out);
  }
  const files = readdirSync(dir);
  t.deepEqual(
    files.filter((f) => f.endsWith('.tmp')),
    [],
    'no temporary file left',
  );
  t.is(files.filter((f) => f.startsWith('rules-') && f.endsWith('.json')).length, 1);
  t.is(files.filter((f) => f.startsWith('compiled-') && f.endsWith('.bin')).length, 1);
  // the declared operators are cached once too (relations/ops-cache.ts), every one of them
  const opsFiles = files.filter((f) => f.startsWith('ops-') && f.endsWith('.json'));
  t.is(opsFiles.length, 1);
  const cachedOps = (JSON.parse(readFileSync(join(dir, opsFiles[0]!), 'utf8')) as { ops: { name: string }[] }).ops.map((op) => op.name);
  t.true(cachedOps.includes('nn.conv2d') && cachedOps.includes('expand_dims') && cachedOps.length >= 119);
  const cached = join(dir, files.find((f) => f.startsWith('rules-') && f.endsWith('.json'))!);
  const header = JSON.parse(readFileSync(cached, 'utf8').split('\n', 1)[0]!) as { files: string[] };
  t.is(header.files.length, ruleFiles.length);
});
