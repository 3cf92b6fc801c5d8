// The compiled part of the relation library a program uses, cached on disk. Compiling
// it (lowering, the demand transformation, stratification, a join plan per rule) is
// most of what typing a program with the rules strategy costs in a fresh process, and
// its result depends only on the library's rule files, on which relations the program
// instantiates, and on shapelog's own code. A cached entry holds the term store and the
// compile outcome as `v8.serialize` writes them:
//
//   <cache dir>/compiled-<key>.bin   4 bytes: length of the header; the header (JSON:
//                                    format, key, bytes, ruleBytes, sha256 of both payloads);
//                                    the payload; then the rule table's payload
//
// The payload also names the relation numbers the plans were written with: a process
// numbers relations as it meets them (store/relation-map.ts), and one that numbered them
// otherwise renumbers the plans by name (the same command on the same kind of input numbers
// them alike, and then the plans are not walked).
//
// The plans carry only what running them needs of their rules (compile/plan.ts PlanRule);
// the whole rules (bodies included, for explanations and for typing's undecided
// conditions) are a payload of their own, read back only when a typing asks for them:
// most runs never do, and a rule body is most of a rule's objects.
//
// key = sha256 of the cache format, the build (a hash of every source file the bundle
// was built from, `__SHAPELOG_BUILD_ID__`), the library's key (its rule files' texts and
// the parser, and the labels its spans carry: the rule files' paths relative to the
// working directory when they are below it, else absolute) and the sorted relation names. Code run from the TypeScript sources has
// no build id and caches nothing here (a source may have changed since any build).
//
// Files are written atomically (temporary file + rename); a file whose header, size or
// checksum is wrong, or whose payload does not deserialize, is ignored and rewritten. A
// compile outcome holding anything but plain data (objects, arrays, maps, sets, typed
// arrays, primitives) is not cached, since deserializing would not give it back. Equal
// parts of the outcome are written as one object (typing/value-sharing.ts): the plans
// repeat spans, patterns and templates, and reading costs per object.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Program } from '../solver/language/ast.js';
import type { Rule } from '../solver/compile/ir.js';
import { type Plan, planRule, type Step } from '../solver/compile/plan.js';
import { compileProgram, type CompileOutcome } from '../solver/compile/program.js';
import { relationId } from '../solver/store/relation-map.js';
import { TermStore, type TermStoreSnapshot } from '../solver/terms/term-store.js';
import { defaultCacheDir, writeCacheFile } from '../relations/parse-cache.js';
import { librarySubset } from './library-subset.js';
import { shareEqualValues } from './value-sharing.js';
import { timed } from '../diagnostics/phase-times.js';

declare const __SHAPELOG_BUILD_ID__: string | undefined;

/** Bumped when the layout of the cache file changes. */
export const COMPILED_FORMAT = 3;

/** The build this code comes from (set by scripts/build.js), or null when run from the sources. */
export function buildId(): string | null {
  return typeof __SHAPELOG_BUILD_ID__ === 'string' ? __SHAPELOG_BUILD_ID__ : null;
}

export interface CompiledEntry {
  readonly store: TermStore;
  readonly compiled: CompileOutcome;
}

export interface CompiledCache {
  readonly path: string;
  readonly key: string;
}

/** Where the compiled library for these relations is cached, or null when it is not cached. */
export function compiledCache(
  libraryKey: string | undefined,
  relations: readonly string[] | null,
  build = buildId(),
  dir = defaultCacheDir(),
): CompiledCache | null {
  if (libraryKey === undefined || build === null || dir === null) return null;
  const key = createHash('sha256')
    .update(`shapelog compiled library ${COMPILED_FORMAT}\0${build}\0${libraryKey}\0${relations === null ? '*' : [...relations].sort().join(',')}`)
    .digest('hex');
  return { path: join(dir, `compiled-${key.slice(0, 32)}.bin`), key };
}

export function readCompiled(cache: CompiledCache): CompiledEntry | null {
  let data: Buffer;
  try {
    data = readFileSync(cache.path);
  } catch {
    return null; // not cached yet
  }
  try {
    const headerBytes = data.readUInt32LE(0);
    const header = JSON.parse(data.subarray(4, 4 + headerBytes).toString('utf8')) as {
      format?: unknown;
      key?: unknown;
      bytes?: unknown;
      ruleBytes?: unknown;
      sha256?: unknown;
    };
    const payloads = data.subarray(4 + headerBytes);
    if (header.format !== COMPILED_FORMAT || header.key !== cache.key || typeof header.bytes !== 'number' || typeof header.ruleBytes !== 'number') return null;
    if (header.bytes + header.ruleBytes !== payloads.length) return null;
    if (createHash('sha256').update(payloads).digest('hex') !== header.sha256) return null;
    const { store, compiled, relationNames } = deserialize(payloads.subarray(0, header.bytes)) as {
      store: TermStoreSnapshot;
      compiled: CompileOutcome;
      relationNames: readonly string[];
    };
    if (!compiled.ok || !Array.isArray(compiled.program.plans) || !Array.isArray(relationNames)) return null;
    renumberRelations(compiled.program.plans, relationNames);
    // the rule table, read on first use
    const rulePayload = payloads.subarray(header.bytes);
    let rules: readonly Rule[] | undefined;
    Object.defineProperty(compiled.program, 'rules', { get: () => (rules ??= deserialize(rulePayload) as Rule[]), enumerable: true });
    return { store: TermStore.restore(store), compiled };
  } catch {
    return null; // corrupt: compile again and overwrite
  }
}

export function writeCompiled(cache: CompiledCache, entry: CompiledEntry): boolean {
  if (!entry.compiled.ok || !plainData(entry.compiled)) return false;
  const { rules, ...program } = entry.compiled.program;
  const withPlanRules = { ...entry.compiled, program: { ...program, plans: program.plans.map((p) => ({ ...p, rule: planRule(rules[p.rule.id]!) })) } };
  let payload: Buffer;
  let rulePayload: Buffer;
  try {
    // equal spans, patterns and templates written once: fewer objects to deserialize
    payload = serialize({
      store: entry.store.snapshot(),
      compiled: shareEqualValues(withPlanRules) ?? withPlanRules,
      relationNames: relationNamesOf(program.plans),
    });
    rulePayload = serialize(shareEqualValues(rules) ?? rules);
  } catch {
    return false;
  }
  const sha256 = createHash('sha256').update(payload).update(rulePayload).digest('hex');
  const header = Buffer.from(JSON.stringify({ format: COMPILED_FORMAT, key: cache.key, bytes: payload.length, ruleBytes: rulePayload.length, sha256 }));
  const size = Buffer.alloc(4);
  size.writeUInt32LE(header.length, 0);
  return writeCacheFile(cache.path, Buffer.concat([size, header, payload, rulePayload]));
}

/** The steps of a plan that read a relation by its number (a scan, a negation), in every join order. */
function* relationSteps(plans: readonly Plan[]): Generator<Extract<Step, { k: 'scan' | 'neg' }> & { relId: number }> {
  for (const plan of plans)
    for (const steps of [plan.steps, ...plan.variants]) for (const step of steps ?? []) if (step.k === 'scan' || step.k === 'neg') yield step;
}

/** The name of each relation number the plans use (by number; '' for numbers they do not use): a process numbers relations as it meets them (store/relation-map.ts). */
function relationNamesOf(plans: readonly Plan[]): string[] {
  const names: string[] = [];
  for (const step of relationSteps(plans)) names[step.relId] = step.rel;
  return Array.from(names, (n) => n ?? '');
}

/**
 * Numbers the plans' relations as this process does, from the numbers they were written
 * with. The same process history numbers them alike (the same command on the same kind of
 * input): then nothing changes and the plans are not walked.
 */
function renumberRelations(plans: readonly Plan[], written: readonly string[]): void {
  let same = true;
  for (let id = 0; id < written.length; id++) if (written[id] !== '' && relationId(written[id]!) !== id) same = false;
  if (same) return;
  // by name: a step shared by several join orders is visited more than once
  for (const step of relationSteps(plans)) step.relId = relationId(step.rel);
}

/** Is every object reachable from `root` one that v8.deserialize gives back as it was? */
function plainData(root: unknown): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'function' || typeof v === 'symbol') return false;
      continue;
    }
    if (seen.has(v)) continue;
    seen.add(v);
    if (ArrayBuffer.isView(v)) continue;
    if (v instanceof Map) {
      for (const [k, x] of v) stack.push(k, x);
      continue;
    }
    if (v instanceof Set) {
      for (const x of v) stack.push(x);
      continue;
    }
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return false;
    for (const x of Object.values(v)) stack.push(x);
  }
  return true;
}

/**
 * The part of a relation library that programs instantiating `relations` can use
 * (typing/library-subset.ts; null: the whole library), compiled: read from `cache` when
 * it holds it, else compiled now and written there (null: not cached). The one place the
 * Relay and ONNX typings get their compiled library from. `programs` is asked for only
 * when the cache misses: a hit never parses the rule files (nor reads their parse cache,
 * the larger part of a warm start).
 */
export function compileLibraryPart(cache: CompiledCache | null, programs: () => readonly Program[], relations: ReadonlySet<string> | null): CompiledEntry {
  return timed('library', () => readOrCompile(cache, programs, relations));
}

function readOrCompile(cache: CompiledCache | null, programs: () => readonly Program[], relations: ReadonlySet<string> | null): CompiledEntry {
  const read = cache === null ? null : readCompiled(cache);
  if (read !== null) return read;
  const store = new TermStore();
  const all = programs();
  const entry = { store, compiled: compileProgram(store, relations === null ? all : librarySubset(all, relations), 'seminaive', null, new Set()) };
  if (cache !== null) writeCompiled(cache, entry);
  return entry;
}
