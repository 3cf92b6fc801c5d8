// The ONNX relation library: relations/onnx/*.rules, loaded once per process, and the
// operators they declare. An ONNX operator is an ordinary `operator` declaration whose
// name says its domain, its op_type and the opset version its semantics start at:
//
//   operator "ai.onnx::Reshape@14"(data, shape) : OnnxReshape14 -> tensor { doc "..." }
//
// A node of opset version V binds to the declaration with the highest `@since` <= V for
// its domain and op_type (ONNX's own rule for operator versions). An argument named
// `inputs` takes every input of the node as one list (variadic operators: Concat, Sum).
// Static checks beyond the general ones (declarations.ts): the name's form, a version
// declared twice. The files are parsed once and cached on disk like the Relay library's
// (relations/parse-cache.ts), and so are the operators they declare (ops-cache.ts): a
// process whose compiled rules are cached too (typing/compiled-cache.ts) reads the
// operators only and never the parsed files.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatDiagnostic, type Diagnostic, diagnostic } from '../../diagnostics/diagnostic.js';
import { label, type LoadedSources } from '../../solver/load.js';
import { packageRoot, packageVersion } from '../library.js';
import { defaultCacheDir, libraryKey, loadLibrary } from '../parse-cache.js';
import { opsCachePath, readOpsCache, writeOpsCache } from '../ops-cache.js';
import { declaredOps } from '../declarations.js';
import type { OpInfo } from '../schema.js';
import { timed } from '../../diagnostics/phase-times.js';

/** Found from the package root: this module may run from relations/onnx/ or from a bundle in dist/. */
export const ONNX_RULES_DIR = join(packageRoot(), 'relations', 'onnx');

/** The argument name that stands for all of a node's inputs, as one list. */
export const VARIADIC_ARG = 'inputs';

export interface OnnxOperator {
  readonly domain: string;
  readonly opType: string;
  readonly since: number;
  readonly info: OpInfo;
}

export interface OnnxLibrary {
  /** The rule files, parsed (or read from the parse cache) when first read; `texts` are read at once. */
  readonly sources: LoadedSources;
  /** Declarations per `domain\0op_type`, newest version first. */
  readonly byOp: ReadonlyMap<string, readonly OnnxOperator[]>;
  /** What identifies the rule files and the parser (relations/parse-cache.ts libraryKey): the key of anything compiled from them. */
  readonly key: string;
}

const NAME = /^(ai\.onnx(?:\.[a-z.]+)?)::([A-Za-z][A-Za-z0-9_]*)@(\d+)$/;

/** `ai.onnx::Reshape@14` → its parts ('' for the default domain), or null when the name is not of that form. */
export function parseOnnxOpName(name: string): { domain: string; opType: string; since: number } | null {
  const m = NAME.exec(name);
  if (m === null) return null;
  return { domain: m[1] === 'ai.onnx' ? '' : m[1]!, opType: m[2]!, since: Number(m[3]) };
}

/** The operators of `sources`, with the diagnostics of the checks. */
export function onnxOperators(sources: LoadedSources): { byOp: Map<string, OnnxOperator[]>; diagnostics: Diagnostic[] } {
  const declared = declaredOps(sources.programs);
  const { byOp, diagnostics } = operatorsByOp(declared.ops);
  return { byOp, diagnostics: [...declared.diagnostics, ...diagnostics] };
}

/** Declared operators by `domain\0op_type`, newest version first; a name not of the ONNX form is a diagnostic. */
function operatorsByOp(ops: readonly OpInfo[]): { byOp: Map<string, OnnxOperator[]>; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const byOp = new Map<string, OnnxOperator[]>();
  for (const info of ops) {
    const parts = parseOnnxOpName(info.name);
    if (parts === null) {
      diagnostics.push(
        diagnostic(
          'error',
          'declaration',
          `ONNX operator name "${info.name}" is not of the form "ai.onnx::OpType@since" (domain, op_type, first opset version)`,
          info.span ?? null,
        ),
      );
      continue;
    }
    const key = `${parts.domain}\0${parts.opType}`;
    const list = byOp.get(key) ?? byOp.set(key, []).get(key)!;
    list.push({ ...parts, info });
  }
  for (const list of byOp.values()) list.sort((a, b) => b.since - a.since);
  return { byOp, diagnostics };
}

let cached: OnnxLibrary | null = null;

export function onnxLibrary(): OnnxLibrary {
  if (cached !== null) return cached;
  return timed('library', loadOnnxLibrary);
}

function loadOnnxLibrary(): OnnxLibrary {
  const files = readdirSync(ONNX_RULES_DIR)
    .filter((f) => f.endsWith('.rules'))
    .sort()
    .map((f) => join(ONNX_RULES_DIR, f));
  // the shared helpers they import (`import "../lib.rules"`) are part of the library: the
  // parse cache keeps only files it was given (their names and texts make its key)
  files.push(join(ONNX_RULES_DIR, '..', 'lib.rules'));
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const labels = files.map((f) => label(f));
  const version = packageVersion();
  const key = libraryKey(files, texts, version);
  let parsed: LoadedSources | null = null;
  const parse = (): LoadedSources => {
    if (parsed !== null) return parsed;
    parsed = loadLibrary(files, version, undefined, texts).sources;
    const { diagnostics } = onnxOperators(parsed);
    const problems = [...parsed.diagnostics, ...diagnostics].filter((d) => d.severity === 'error');
    // the ONNX rules are part of shapelog: a broken file is a bug, never "no rules"
    if (problems.length > 0) throw new Error(`the ONNX relation library is broken:\n${problems.map((d) => formatDiagnostic(d, parsed!.texts)).join('\n')}`);
    return parsed;
  };
  // the operators from their cache (written only from a library without errors), else from the parsed files
  const opsPath = opsCachePath(defaultCacheDir(), key, labels);
  let ops = opsPath === null ? null : readOpsCache(opsPath, key);
  if (ops === null) {
    ops = declaredOps(parse().programs).ops;
    if (opsPath !== null) writeOpsCache(opsPath, key, ops);
  }
  const sources: LoadedSources = {
    get programs() {
      return parse().programs;
    },
    texts: new Map(labels.map((l, i) => [l, texts[i]!])),
    get diagnostics() {
      return parse().diagnostics;
    },
    roots: new Set(),
  };
  return (cached = { sources, byOp: operatorsByOp(ops).byOp, key });
}

/** The declaration a node of `domain`/`opType` at opset `version` binds to, or null. */
export function onnxOperatorAt(lib: OnnxLibrary, domain: string, opType: string, version: number): OnnxOperator | null {
  return lib.byOp.get(`${domain}\0${opType}`)?.find((o) => o.since <= version) ?? null;
}
