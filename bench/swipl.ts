// SWI-Prolog with tabling as a peer for the engine benchmarks. Each workload is written
// out as a Prolog file with `:- table Pred/Arity.`; a fresh `swipl` process loads it and
// the Prolog program itself times computing all answers of the goal (startup and loading
// excluded) and prints the time and the answer count, which are parsed here.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Workload } from './workloads.js';

/** `SWIPL` in the environment overrides the executable; default `swipl` on PATH. */
const SWIPL = process.env['SWIPL'] ?? 'swipl';
const TIMEOUT_MS = 10 * 60 * 1000;

export interface SwiSample {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly count: number;
}

/** The version line of swipl, or null when it is not installed. */
export function swiplVersion(): string | null {
  const r = spawnSync(SWIPL, ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return null;
  return r.stdout.trim();
}

/** `full`: all tuples of the workload's predicate; `query`: the answers of its point query. */
export type SwiMode = 'full' | 'query';

export function prologGoal(w: Workload, mode: SwiMode): string {
  if (mode === 'query') {
    if (!w.query) throw new Error(`${w.id} has no point query`);
    return w.query.goal;
  }
  return `${w.pred}(${Array(w.arity).fill('_').join(', ')})`;
}

export function prologProgram(w: Workload, mode: SwiMode): string {
  return `:- style_check(-singleton).
:- table ${w.pred}/${w.arity}.

${w.source}

bench_main :-
    garbage_collect,
    statistics(cputime, C0), get_time(W0),
    aggregate_all(count, ${prologGoal(w, mode)}, N),
    statistics(cputime, C1), get_time(W1),
    Cpu is (C1 - C0) * 1000, Wall is (W1 - W0) * 1000,
    format("swipl-bench wall_ms=~6f cpu_ms=~6f count=~d~n", [Wall, Cpu, N]).

:- initialization(bench_main, main).
`;
}

let dir: string | null = null;
function scratchDir(): string {
  if (dir === null) {
    const d = mkdtempSync(join(tmpdir(), 'shapelog-bench-'));
    dir = d;
    process.on('exit', () => rmSync(d, { recursive: true, force: true }));
  }
  return dir;
}

/** Writes the Prolog file once; returns its path. */
export function writePrologFile(w: Workload, mode: SwiMode): string {
  const file = join(scratchDir(), `${w.id}-${mode}.pl`);
  writeFileSync(file, prologProgram(w, mode));
  return file;
}

const LINE = /swipl-bench wall_ms=([\d.]+) cpu_ms=([\d.]+) count=(\d+)/;

/** One measurement in a fresh swipl process. Throws if swipl fails or prints no result. */
export function runSwiplOnce(file: string): SwiSample {
  const r = spawnSync(SWIPL, [file], { encoding: 'utf8', timeout: TIMEOUT_MS, maxBuffer: 16 << 20 });
  if (r.error) throw new Error(`swipl ${file}: ${r.error.message}`);
  const m = LINE.exec(r.stdout);
  if (r.status !== 0 || !m) {
    throw new Error(`swipl ${file} exited with ${r.status ?? r.signal}\n${r.stdout}\n${r.stderr}`.trim());
  }
  return { wallMs: Number(m[1]), cpuMs: Number(m[2]), count: Number(m[3]) };
}
