// Process to process: the whole command, as a user runs it. shapelog: `shapelog query
// FILE` (start, parse, solve, print every fact, sorted) or `--goal 'path(0, X)'` (its
// answers); SWI-Prolog: a fresh `swipl` loading the same program with tabling and
// printing the same facts (given and derived; unsorted, which favours SWI) or answers.
// Every output is written to a file and its lines counted against the workload's
// independent counts. Samples alternate: shapelog, SWI, shapelog, SWI, ... Peak memory
// (resident set) and CPU time (user + system, all of the process's threads) come from GNU
// time (`/usr/bin/time -f '%M %U %S'`) when it is installed.
// The shapelog command is given (bench/installed-package.ts): the installed package's, or
// a checkout's bin/shapelog.js; it runs as `node BIN`.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Workload } from './workloads.js';
import { benchEnv } from './process-env.js';

const SWIPL = process.env['SWIPL'] ?? 'swipl';
const GNU_TIME = '/usr/bin/time';

/** Limits high enough for every workload here (the default --max-time is 30 s). */
const LIMIT_FLAGS = ['--max-time', '3600000', '--max-facts', '100000000', '--max-rounds', '1000000'];

export interface ProcessSample {
  readonly ms: number;
  /** Peak resident set in MB, or null without GNU time. */
  readonly rssMB: number | null;
  /** CPU time (user + system) in ms, or null without GNU time. */
  readonly cpuMs: number | null;
  readonly lines: number;
  /** shapelog's own solve time (`--stats`), when asked for. */
  readonly solveMs: number | null;
  /** shapelog's own time from solved to the output written (`--stats`: printed in), when asked for. */
  readonly printMs: number | null;
}

export interface ProcessCase {
  readonly id: string;
  readonly workload: Workload;
  /** The goal whose answers are printed, or null to print every fact. */
  readonly goal: string | null;
  /** Lines of output expected (facts or answers; shapelog's `%` headers are not counted). */
  readonly expectedLines: number;
  /** Extra shapelog flags. */
  readonly flags: readonly string[];
}

let dir: string | null = null;
function scratch(): string {
  if (dir === null) {
    const d = mkdtempSync(join(tmpdir(), 'shapelog-process-'));
    dir = d;
    process.on('exit', () => rmSync(d, { recursive: true, force: true }));
  }
  return dir;
}

/** How many given facts a workload's program has (its base relation: `edge` or `par`). */
export function givenFacts(w: Workload): number {
  return w.source.match(/^(edge|par)\(/gm)?.length ?? 0;
}

export function baseRelation(w: Workload): string {
  return w.pred === 'sg' ? 'par' : 'edge';
}

function rulesFile(w: Workload): string {
  const file = join(scratch(), `${w.id}.rules`);
  if (!existsSync(file)) writeFileSync(file, w.source);
  return file;
}

/** SWI-Prolog printing what shapelog prints: every fact of the base relation and the derived one, or the goal's answers. */
export function swiPrintingProgram(w: Workload, goal: string | null): string {
  const base = baseRelation(w);
  const print =
    goal === null
      ? `forall(${base}(A, B), format("${base}(~w, ~w).~n", [A, B])), forall(${w.pred}(A2, B2), format("${w.pred}(~w, ~w).~n", [A2, B2]))`
      : `forall(${goal}, format("X = ~w.~n", [X]))`;
  return `:- style_check(-singleton).
:- table ${w.pred}/${w.arity}.

${w.source}

bench_print :- ${print}.

:- initialization(bench_print, main).
`;
}

function swiFile(w: Workload, goal: string | null): string {
  const file = join(scratch(), `${w.id}-${goal === null ? 'all' : 'goal'}.pl`);
  if (!existsSync(file)) writeFileSync(file, swiPrintingProgram(w, goal));
  return file;
}

const hasGnuTime = existsSync(GNU_TIME);

/** Runs a command with stdout to a file; returns wall time, peak RSS, output lines and stderr. */
function timed(command: string, args: readonly string[], label: string): ProcessSample & { stderr: string } {
  const out = join(scratch(), 'out.txt');
  const fd = openSync(out, 'w');
  const [cmd, argv] = hasGnuTime ? [GNU_TIME, ['-f', 'bench-rss-kb %M cpu-s %U %S', command, ...args]] : [command, [...args]];
  const started = performance.now();
  const r = spawnSync(cmd, argv, { env: benchEnv(), stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - started;
  closeSync(fd);
  if (r.error) throw new Error(`${label}: ${r.error.message}`);
  const stderr = r.stderr ?? '';
  if (r.status !== 0) throw new Error(`${label} exited with ${r.status ?? r.signal}:\n${stderr.slice(-2000)}`);
  const rss = /bench-rss-kb (\d+) cpu-s ([\d.]+) ([\d.]+)/.exec(stderr);
  const text = readFileSync(out, 'utf8');
  let lines = 0;
  for (let i = 0; i < text.length; ) {
    const nl = text.indexOf('\n', i);
    const end = nl < 0 ? text.length : nl;
    if (end > i && text[i] !== '%') lines++;
    i = end + 1;
  }
  const solve = /strategy \S+: .* (\d+) ms$/m.exec(stderr);
  const printed = /^printed in (\d+) ms$/m.exec(stderr);
  const cpuMs = rss ? Math.round((Number(rss[2]) + Number(rss[3])) * 1000) : null;
  return {
    ms,
    rssMB: rss ? Number(rss[1]) / 1024 : null,
    cpuMs,
    lines,
    solveMs: solve ? Number(solve[1]) : null,
    printMs: printed ? Number(printed[1]) : null,
    stderr,
  };
}

function checkLines(label: string, s: ProcessSample, expected: number): void {
  if (s.lines !== expected) throw new Error(`LINE COUNT MISMATCH in ${label}: ${s.lines} lines printed, expected ${expected}`);
}

export function runShapelog(c: ProcessCase, shapelogBin: string): ProcessSample {
  const args = [shapelogBin, 'query', rulesFile(c.workload), ...LIMIT_FLAGS, ...c.flags, ...(c.goal === null ? [] : ['--goal', c.goal])];
  const s = timed(process.execPath, args, `shapelog ${c.id}`);
  checkLines(`shapelog ${c.id}`, s, c.expectedLines);
  return s;
}

export function runSwiPrinting(c: ProcessCase): ProcessSample {
  const s = timed(SWIPL, [swiFile(c.workload, c.goal)], `swipl ${c.id}`);
  checkLines(`swipl ${c.id}`, s, c.expectedLines);
  return s;
}

/**
 * Start-up: a one-fact query (shapelog), a one-fact program (swipl), an empty script
 * (node): a CommonJS one, as the shapelog command is (an ES module starts ~15 ms later).
 */
export function runStartup(which: 'shapelog' | 'swipl' | 'node', shapelogBin: string): ProcessSample {
  const d = scratch();
  const rules = join(d, 'one.rules');
  const pl = join(d, 'one.pl');
  const empty = join(d, 'empty.cjs');
  if (!existsSync(rules)) {
    writeFileSync(rules, 'edge(1, 2).\n');
    writeFileSync(pl, 'edge(1, 2).\n:- initialization((forall(edge(A, B), format("edge(~w, ~w).~n", [A, B]))), main).\n');
    writeFileSync(empty, '');
  }
  if (which === 'shapelog') return timed(process.execPath, [shapelogBin, 'query', rules], 'shapelog one fact');
  if (which === 'swipl') return timed(SWIPL, [pl], 'swipl one fact');
  return timed(process.execPath, [empty], 'node empty script');
}
