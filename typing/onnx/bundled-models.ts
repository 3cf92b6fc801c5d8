// The real ONNX models shapelog is checked on (examples/onnx/models.json): where each
// file is (committed under examples/onnx/models/, or inside a development dependency's
// folder in node_modules), its package, license and sha256, and the concrete input
// shapes (with values where they matter) an onnxruntime run uses. `npm start`, the
// onnxruntime test and `npm run bench:onnx` all read this one list.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../relations/library.js';

export interface BundledInput {
  readonly dtype: string;
  readonly shape: readonly number[];
  /** Row-major values where the model's control flow reads them (Silero's sample rate); else the run fills ones. */
  readonly values?: readonly number[];
}

export interface BundledModel {
  readonly name: string;
  readonly kind: string;
  readonly package: string;
  readonly version: string;
  readonly license: string;
  /** The file's path inside its package. */
  readonly file: string;
  /** Set when the file is committed: its path in this repository. */
  readonly path?: string;
  readonly sha256: string;
  /** Every graph input's concrete type for a run. */
  readonly run: Readonly<Record<string, BundledInput>>;
}

/** A model's file: the committed copy, else the package's own in node_modules; null when the package is not installed. */
export function bundledModelPath(m: BundledModel): string | null {
  const root = packageRoot();
  const path = m.path !== undefined ? join(root, m.path) : join(root, 'node_modules', m.package, m.file);
  return existsSync(path) ? path : null;
}

/** The models of examples/onnx/models.json, in its order. */
export function bundledModels(): BundledModel[] {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), 'examples', 'onnx', 'models.json'), 'utf8')) as { models: BundledModel[] };
  return manifest.models;
}

/** The model's bytes, checked against the manifest's sha256 (a different file is an error, not a silent change of subject). */
export function readBundledModel(m: BundledModel): Uint8Array | null {
  const path = bundledModelPath(m);
  if (path === null) return null;
  const bytes = readFileSync(path);
  const sha = createHash('sha256').update(bytes).digest('hex');
  if (sha !== m.sha256) throw new Error(`${path}: sha256 ${sha}, examples/onnx/models.json says ${m.sha256} (${m.package}@${m.version})`);
  return bytes;
}

/** The `--shape` map of a model's run: each input's concrete shape. */
export function runShapes(m: BundledModel): Map<string, readonly number[]> {
  return new Map(Object.entries(m.run).map(([name, i]) => [name, i.shape]));
}

/** The `--value` map of a model's run: the inputs whose values the run gives. */
export function runValues(m: BundledModel): Map<string, readonly number[]> {
  return new Map(Object.entries(m.run).flatMap(([name, i]) => (i.values !== undefined ? [[name, i.values] as const] : [])));
}
