// onnxruntime as the ground truth of the ONNX cross-check: a one-node model is run on
// inputs of concrete shapes (filled with ones; inputs with values are initializers of
// the model) and the output shapes it produces are read. onnxruntime-node is an
// optional, heavy dependency (its CPU library ships inside the npm package). It runs in
// a child process, restarted when needed: a native hang (seen: DFT with some lengths)
// is cut off by a time limit, and a native abort loses one answer, not the check.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import type { OnnxGraph, OnnxType } from '../../frontends/onnx/model.js';

export type RuntimeAnswer =
  | { readonly outputs: readonly ({ readonly dtype: string; readonly shape: readonly number[] } | null)[] }
  | { readonly error: string };

// onnxruntime's tensor type names for the ONNX dtypes it can hand back
const ORT_TYPES: Readonly<Record<string, string>> = {
  float32: 'float32',
  float64: 'float64',
  float16: 'float16',
  int8: 'int8',
  uint8: 'uint8',
  int16: 'int16',
  uint16: 'uint16',
  int32: 'int32',
  uint32: 'uint32',
  int64: 'int64',
  uint64: 'uint64',
  bool: 'bool',
};

/** Whether onnxruntime-node can hand back tensors of this dtype (it aborts the process on some others, e.g. float8). */
export function runtimeHandles(dtype: string): boolean {
  return ORT_TYPES[dtype] !== undefined;
}

/** How an answer starts when onnxruntime refuses the model itself (invalid for its opset, ...). */
export const CANNOT_LOAD = 'onnxruntime cannot load the model';

/** Longest one run may take. */
const RUN_TIMEOUT_MS = 10_000;

// The child: reads {model, feeds: [{name, type, dims, values?}], names, whole?} lines, answers
// {outputs} or {error}. A feed without values is filled with ones; `whole` (a whole model
// whose intermediate values are outputs) runs it with graph optimizations off, so that
// every node runs as written.
const CHILD = `
const ort = require(process.argv[1]);
const readline = require('node:readline');
const ones = (type, n) => {
  switch (type) {
    case 'float32': return new Float32Array(n).fill(1);
    case 'float64': return new Float64Array(n).fill(1);
    case 'float16': return new Uint16Array(n).fill(0x3c00);
    case 'int8': return new Int8Array(n).fill(1);
    case 'uint8': case 'bool': return new Uint8Array(n).fill(1);
    case 'int16': return new Int16Array(n).fill(1);
    case 'uint16': return new Uint16Array(n).fill(1);
    case 'int32': return new Int32Array(n).fill(1);
    case 'uint32': return new Uint32Array(n).fill(1);
    case 'int64': return new BigInt64Array(n).fill(1n);
    case 'uint64': return new BigUint64Array(n).fill(1n);
    default: return Array.from({ length: n }, () => 'a');
  }
};
const filled = (f) => {
  if (!f.values) return ones(f.type, f.dims.reduce((a, b) => a * b, 1));
  switch (f.type) {
    case 'float32': return Float32Array.from(f.values);
    case 'float64': return Float64Array.from(f.values);
    case 'int32': return Int32Array.from(f.values);
    case 'int64': return BigInt64Array.from(f.values.map(BigInt));
    case 'uint8': case 'bool': return Uint8Array.from(f.values);
    default: throw new Error('no values of type ' + f.type);
  }
};
const oneLine = (e) => String(e && e.message || e).split('\\n').map((s) => s.trim()).filter(Boolean).join(' ').slice(0, 300);
process.stdout.write(JSON.stringify({ ready: true, version: ort.env.versions && ort.env.versions.common || 'unknown' }) + '\\n');
readline.createInterface({ input: process.stdin }).on('line', async (line) => {
  const req = JSON.parse(line);
  let session;
  try {
    session = await ort.InferenceSession.create(Buffer.from(req.model, 'base64'), req.whole ? { logSeverityLevel: 4, graphOptimizationLevel: 'disabled' } : { logSeverityLevel: 4 });
  } catch (e) {
    process.stdout.write(JSON.stringify({ error: '${CANNOT_LOAD}: ' + oneLine(e) }) + '\\n');
    return;
  }
  try {
    const feeds = {};
    for (const f of req.feeds) feeds[f.name] = new ort.Tensor(f.type, filled(f), f.dims);
    const out = await session.run(feeds, req.names.filter((n) => n !== ''));
    process.stdout.write(JSON.stringify({ outputs: req.names.map((n) => (n === '' || !out[n] ? null : { type: out[n].type, dims: Array.from(out[n].dims) })) }) + '\\n');
  } catch (e) {
    process.stdout.write(JSON.stringify({ error: 'onnxruntime: ' + oneLine(e) }) + '\\n');
  } finally {
    await session.release();
  }
});
`;

let modulePath: string | null = null;
let child: { proc: ChildProcessWithoutNullStreams; next: ((line: string) => void) | null; ready: Promise<string> } | null = null;

/** Finds onnxruntime-node and starts it; the reason when it is not installed or does not start. */
export async function loadRuntime(): Promise<{ ok: true; version: string } | { ok: false; reason: string }> {
  try {
    modulePath ??= createRequire(import.meta.url).resolve('onnxruntime-node');
    return { ok: true, version: await start().ready };
  } catch (e) {
    return { ok: false, reason: (e as Error).message.split('\n')[0]! };
  }
}

function start(): NonNullable<typeof child> {
  if (child !== null) return child;
  const proc = spawn(process.execPath, ['-e', CHILD, modulePath!], { stdio: ['pipe', 'pipe', 'pipe'] });
  proc.stderr.resume();
  let resolveReady: (v: string) => void = () => {};
  let rejectReady: (e: Error) => void = () => {};
  const ready = new Promise<string>((res, rej) => {
    resolveReady = res;
    rejectReady = rej;
  });
  const c = { proc, next: null as ((line: string) => void) | null, ready };
  let first = true;
  createInterface({ input: proc.stdout }).on('line', (line) => {
    if (first) {
      first = false;
      resolveReady(String((JSON.parse(line) as { version?: unknown }).version));
      return;
    }
    const next = c.next;
    c.next = null;
    next?.(line);
  });
  proc.on('exit', (code, signal) => {
    if (child === c) child = null;
    rejectReady(new Error(`onnxruntime stopped before it started (${signal ?? code})`));
    c.next?.(JSON.stringify({ error: `onnxruntime crashed (${signal ?? `exit ${code}`})` }));
    c.next = null;
  });
  child = c;
  return c;
}

/** Stops the child process. */
export function stopRuntime(): void {
  child?.proc.kill();
  child = null;
}

/**
 * Runs `model` (whose graph is `graph`: every input of concrete shape) and reads the
 * shapes of the node's outputs `names` ('' = absent).
 */
export async function runOnRuntime(model: Uint8Array, graph: OnnxGraph, names: readonly string[]): Promise<RuntimeAnswer> {
  if (modulePath === null) return { error: 'onnxruntime is not loaded' };
  const feeds: RuntimeFeed[] = [];
  for (const input of graph.inputs) {
    const t = input.type as Extract<OnnxType, { kind: 'tensor' }> | null;
    if (t === null || t.kind !== 'tensor' || t.dtype === null || t.shape === null || t.shape.some((d) => typeof d !== 'number'))
      return { error: `input ${input.name} has no concrete type` };
    const type = t.dtype === 'string' ? 'string' : ORT_TYPES[t.dtype];
    if (type === undefined) return { error: `onnxruntime-node has no ${t.dtype} tensors` };
    feeds.push({ name: input.name, type, dims: t.shape as number[] });
  }
  return request({ model: Buffer.from(model).toString('base64'), feeds, names }, RUN_TIMEOUT_MS);
}

/** One run in the child, cut off after `timeoutMs`. */
async function request(
  req: { model: string; feeds: readonly RuntimeFeed[]; names: readonly string[]; whole?: boolean },
  timeoutMs: number,
): Promise<RuntimeAnswer> {
  let c: ReturnType<typeof start>;
  try {
    c = start();
    await c.ready;
  } catch (e) {
    return { error: (e as Error).message };
  }
  const line = await new Promise<string>((resolve) => {
    const timer = setTimeout(() => {
      c.next = null;
      stopRuntime();
      resolve(JSON.stringify({ error: `onnxruntime did not finish in ${timeoutMs / 1000} s` }));
    }, timeoutMs);
    c.next = (l) => {
      clearTimeout(timer);
      resolve(l);
    };
    c.proc.stdin.write(`${JSON.stringify(req)}\n`);
  });
  const msg = JSON.parse(line) as { error?: string; outputs?: ({ type: string; dims: number[] } | null)[] };
  if (msg.error !== undefined) return { error: msg.error };
  const dtypeOf = (type: string) => Object.entries(ORT_TYPES).find(([, t]) => t === type)?.[0] ?? type;
  return { outputs: msg.outputs!.map((o) => (o === null ? null : { dtype: dtypeOf(o.type), shape: o.dims })) };
}

/** A graph input fed to a whole-model run: its dims, and its values where they matter (else ones). */
export interface RuntimeFeed {
  readonly name: string;
  readonly type: string;
  readonly dims: readonly number[];
  readonly values?: readonly number[];
}

/**
 * Runs a whole model (graph optimizations off) on `feeds` and reads the shapes of the
 * values `names` ('' = absent): with frontends/onnx/encode.ts's withGraphOutputs, every
 * intermediate value of the main graph.
 */
export async function runModelOnRuntime(
  model: Uint8Array,
  feeds: readonly RuntimeFeed[],
  names: readonly string[],
  timeoutMs = 60_000,
): Promise<RuntimeAnswer> {
  if (modulePath === null) return { error: 'onnxruntime is not loaded' };
  return request({ model: Buffer.from(model).toString('base64'), feeds, names, whole: true }, timeoutMs);
}
