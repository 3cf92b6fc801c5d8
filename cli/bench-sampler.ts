// Taking one sample for `shapelog bench`: a fresh node process runs cli/bench-worker (the
// compiled .js next to this module, or the .ts through tsx's loader when running from
// source) and prints a WorkerReport as JSON; for the `onnx` strategy (ONNX's own shape
// inference) a fresh Python process runs proofs/onnx-cross-check/onnx_bench_worker.py instead. A worker that
// fails hands back its stderr (the program's diagnostics) for the parent to show.
import { packageRoot } from '../relations/library.js';
import { spawn } from 'node:child_process';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerReport, WorkerRequest } from './bench-protocol.js';

export type SampleOutcome =
  | { readonly ok: true; readonly report: WorkerReport }
  | { readonly ok: false; readonly stderr: string; readonly exitCode: number | null };

/** Takes one sample; the command takes a different one in its tests. */
export type Sampler = (req: WorkerRequest) => Promise<SampleOutcome>;

/** The Python worker, beside ONNX's inference service (the package ships it at the same path). */
function onnxWorkerScript(): string {
  return join(packageRoot(), 'proofs', 'onnx-cross-check', 'onnx_bench_worker.py');
}

/** The program and arguments of one sample's process. */
function sampleCommand(req: WorkerRequest): [string, string[]] {
  if (req.strategy === 'onnx' && req.kind === 'onnx') return [req.python ?? 'python3', [onnxWorkerScript(), JSON.stringify(req)]];
  return [process.execPath, [...workerCommand(), JSON.stringify(req)]];
}

function workerCommand(): string[] {
  const here = fileURLToPath(import.meta.url);
  const ext = extname(here);
  // from source the worker sits beside this file; compiled, it is its own bundle entry (scripts/build.js)
  const worker = ext === '.ts' ? join(dirname(here), 'bench-worker.ts') : join(packageRoot(), 'dist', 'cli', 'bench-worker.js');
  // from source, the worker needs tsx; resolved from here, so it works from any directory
  return ext === '.ts' ? ['--import', import.meta.resolve('tsx'), worker] : [worker];
}

export const processSampler: Sampler = (req) =>
  new Promise((resolve, reject) => {
    const [program, args] = sampleCommand(req);
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && line.startsWith('{')) resolve({ ok: true, report: JSON.parse(line) as WorkerReport });
      else resolve({ ok: false, stderr, exitCode: code });
    });
  });
