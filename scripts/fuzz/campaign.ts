// A fuzz campaign: random cases (generators.ts) run and judged (run-case.ts) until
// the time budget is spent or a case fails; fast-check then shrinks the failing case,
// which is saved under test/fuzz-regressions/ for test/fuzz.test.ts to replay.
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anyCase, type FuzzCase, itirCase, onnxCase, onnxNodeCase, relayCase, rulesCase, typeofCase } from './generators.js';
import { onnxSeeds } from './onnx-seeds.js';
import { runFuzzCase, type FuzzVerdict } from './run-case.js';

export type FuzzKind = 'rules' | 'relay' | 'typeof' | 'onnx' | 'onnx-node' | 'itir' | 'all';

export interface CampaignOptions {
  readonly seconds: number;
  readonly seed: number;
  readonly kind?: FuzzKind;
  /** Time limit of each run inside a case (default 2000 ms). */
  readonly millis?: number;
  /** Called after each case of the main run (not while shrinking). */
  readonly onCase?: (tried: number, clean: number) => void;
}

export interface CampaignResult {
  readonly tried: number;
  /** Cases that passed, not counting known disagreements. */
  readonly clean: number;
  /** Known disagreements (run-case.ts), by description: counted, not failed on. */
  readonly known: ReadonlyMap<string, number>;
  readonly seconds: number;
  /** The shrunk failing case and its verdict, if one failed. */
  readonly failure: { readonly input: FuzzCase; readonly verdict: Exclude<FuzzVerdict, { ok: true }> } | null;
}

/** A saved regression: the shrunk input and what went wrong with it when found. */
export interface Regression {
  readonly input: FuzzCase;
  readonly found: { readonly kind: string; readonly message: string; readonly seed: number };
}

export const REGRESSIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fuzz-regressions');

const ARBITRARIES: Record<FuzzKind, () => fc.Arbitrary<FuzzCase>> = {
  rules: rulesCase,
  relay: relayCase,
  typeof: typeofCase,
  onnx: onnxCase,
  'onnx-node': onnxNodeCase,
  itir: itirCase,
  all: anyCase,
};

export function runCampaign(o: CampaignOptions): CampaignResult {
  const millis = o.millis ?? 2000;
  // warm up: the first call of each kind compiles the rule library, which is not a hang
  runFuzzCase({ kind: 'typeof', line: '{"op":"add","args":["_","_"]}' }, { millis });
  runFuzzCase({ kind: 'relay', text: 'def @main(%x: Tensor[(2), float32]) { nn.relu(%x) }' }, { millis });
  // the ONNX library: a part per operator set for the first models of a process, then the whole of it
  if (o.kind === 'onnx' || o.kind === 'onnx-node' || o.kind === 'all' || o.kind === undefined)
    for (const seed of onnxSeeds()) runFuzzCase({ kind: 'onnx', model: Buffer.from(seed).toString('base64') }, { millis: 60_000 });
  const started = performance.now();
  let tried = 0;
  let clean = 0;
  const known = new Map<string, number>();
  let shrinking = false;
  const property = fc.property(ARBITRARIES[o.kind ?? 'all'](), (c) => {
    const v = runFuzzCase(c, { millis });
    if (!shrinking) {
      tried++;
      if (v.ok && v.known === undefined) clean++;
      if (v.ok && v.known !== undefined) known.set(v.known, (known.get(v.known) ?? 0) + 1);
      o.onCase?.(tried, clean);
    }
    if (!v.ok) shrinking = true;
    return v.ok;
  });
  const details = fc.check(property, {
    seed: o.seed,
    numRuns: Number.MAX_SAFE_INTEGER,
    interruptAfterTimeLimit: o.seconds * 1000,
    markInterruptAsFailure: false,
  });
  const seconds = (performance.now() - started) / 1000;
  if (!details.failed || details.counterexample === null) return { tried, clean, known, seconds, failure: null };
  const input = details.counterexample[0];
  const verdict = runFuzzCase(input, { millis });
  // a shrunk case that no longer fails on its own (a timing-dependent hang) is reported as found
  const failure = verdict.ok ? { kind: 'hang' as const, message: 'failed during the campaign but not when re-run alone' } : verdict;
  return { tried, clean, known, seconds, failure: { input, verdict: { ok: false, ...failure } } };
}

/** Saves a failing case as test/fuzz-regressions/<kind>-<what>-<hash>.json; returns the path. */
export function saveRegression(input: FuzzCase, verdict: { kind: string; message: string }, seed: number, dir = REGRESSIONS_DIR): string {
  mkdirSync(dir, { recursive: true });
  const hash = createHash('sha256').update(JSON.stringify(input)).digest('hex').slice(0, 10);
  const path = join(dir, `${input.kind}-${verdict.kind}-${hash}.json`);
  const saved: Regression = { input, found: { kind: verdict.kind, message: verdict.message, seed } };
  writeFileSync(path, `${JSON.stringify(saved, null, 2)}\n`);
  return path;
}
