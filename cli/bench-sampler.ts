// Taking one sample for `shapelog bench`: a fresh node process runs cli/bench-worker (the
// compiled .js next to this module, or the .ts through tsx's loader when running from
// source) and prints a WorkerReport as JSON. A worker that fails hands back its stderr
// (the program's diagnostics) for the parent to show.
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
    const child = spawn(process.execPath, [...workerCommand(), JSON.stringify(req)], { stdio: ['ignore', 'pipe', 'pipe'] });
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
