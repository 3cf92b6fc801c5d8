// ONNX's own shape inference as one side of the ONNX cross-check: the `onnx` Python
// package (Debian's python3-onnx) running onnx_shape_inference.py in a child process
// that stays up for the whole check, one JSON line per model each way.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../relations/library.js';

export interface InferredType {
  /** TensorProto.DataType number (0: unknown). */
  readonly elem: number;
  /** null: unknown rank; a dim is an int, a dim_param, or null (unknown). */
  readonly shape: readonly (number | string | null)[] | null;
}

export type InferenceAnswer = { readonly types: readonly (InferredType | null)[] } | { readonly error: string };

export interface OnnxInferenceInfo {
  readonly onnx: string;
  readonly maxOpset: number;
  readonly maxIr: number;
  readonly python: string;
}

/** The script, beside this file in the sources, under proofs/onnx-cross-check/ in a package. */
function scriptPath(): string {
  const beside = join(dirname(fileURLToPath(import.meta.url)), 'onnx_shape_inference.py');
  return existsSync(beside) ? beside : join(packageRoot(), 'proofs', 'onnx-cross-check', 'onnx_shape_inference.py');
}

/** How to get a Python that findPython accepts, for the messages of the commands that need one. */
export const ONNX_PYTHON_HINT = 'Debian: apt-get install python3-onnx; or set SHAPELOG_PYTHON to one';

/** A Python that can import onnx: $SHAPELOG_PYTHON, then Debian's /usr/bin/python3, then python3 on PATH. */
export function findPython(): string | null {
  const candidates = [process.env['SHAPELOG_PYTHON'], '/usr/bin/python3', 'python3'].filter((p): p is string => p !== undefined && p !== '');
  for (const p of candidates) {
    const r = spawnSync(p, ['-c', 'import onnx'], { stdio: 'ignore', timeout: 30_000 });
    if (r.status === 0) return p;
  }
  return null;
}

/**
 * The service: ask() sends one model and resolves with ONNX's answer. When the Python
 * process dies on a model (onnx 1.12 crashes on some), that model's answer says so and
 * the next question starts a new process.
 */
export class OnnxInference {
  private constructor(
    private process: InferenceProcess,
    readonly info: OnnxInferenceInfo,
  ) {}

  static async start(python: string): Promise<OnnxInference> {
    const p = await InferenceProcess.start(python);
    return new OnnxInference(p, p.info);
  }

  /** `inputs`: graph inputs' shapes to write into the model before inferring (a dim: an int, a dim_param or null). */
  async ask(model: Uint8Array, names: readonly string[], inputs?: ReadonlyMap<string, readonly (number | string | null)[]>): Promise<InferenceAnswer> {
    if (this.process.exited !== null) this.process = await InferenceProcess.start(this.info.python);
    return this.process.ask(model, names, inputs);
  }

  close(): void {
    this.process.close();
  }
}

/** One Python process answering one JSON line per model. */
class InferenceProcess {
  private readonly pending = new Map<number, (a: InferenceAnswer) => void>();
  private next = 0;
  exited: string | null = null;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly info: OnnxInferenceInfo,
  ) {}

  static async start(python: string): Promise<InferenceProcess> {
    const child = spawn(python, [scriptPath()], { stdio: ['pipe', 'pipe', 'pipe'] });
    const lines = createInterface({ input: child.stdout });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr = (stderr + b.toString('utf8')).slice(-2000)));
    let service: InferenceProcess | null = null;
    return new Promise((resolve, reject) => {
      child.on('error', (e) => reject(new Error(`cannot start ${python}: ${e.message}`)));
      child.on('exit', (code, signal) => {
        const why = `ONNX's shape inference crashed on this model (${python} stopped: ${signal ?? `exit ${code}`}${stderr.trim() === '' ? '' : `: ${stderr.trim().split('\n').slice(-2).join(' | ')}`})`;
        if (service === null) reject(new Error(why));
        else service.stopped(why);
      });
      lines.on('line', (line) => {
        const msg = JSON.parse(line) as Record<string, unknown>;
        if (service === null) {
          service = new InferenceProcess(child, { onnx: String(msg['onnx']), maxOpset: Number(msg['max_opset']), maxIr: Number(msg['max_ir']), python });
          resolve(service);
          return;
        }
        service.answered(msg);
      });
    });
  }

  private answered(msg: Record<string, unknown>): void {
    const id = Number(msg['id']);
    const done = this.pending.get(id);
    if (done === undefined) return;
    this.pending.delete(id);
    done(typeof msg['error'] === 'string' ? { error: msg['error'] } : { types: msg['types'] as InferredType[] });
  }

  private stopped(why: string): void {
    this.exited = why;
    for (const done of this.pending.values()) done({ error: why });
    this.pending.clear();
  }

  /** ONNX's inferred types of `names` in `model` (with `inputs`' shapes written into its graph inputs). */
  ask(model: Uint8Array, names: readonly string[], inputs?: ReadonlyMap<string, readonly (number | string | null)[]>): Promise<InferenceAnswer> {
    const id = this.next++;
    const shapes = inputs === undefined || inputs.size === 0 ? {} : { inputs: Object.fromEntries(inputs) };
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin.write(`${JSON.stringify({ id, model: Buffer.from(model).toString('base64'), names, ...shapes })}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
  }
}
