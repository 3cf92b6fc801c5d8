// Shared helpers for tests: running rule text, reading facts and diagnostics, and running
// the `shapelog` command in a scratch folder.
import { type RunOptions, ProgramError, type RunResult, runText } from '../solver/run.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function run(source: string, options: RunOptions = {}): RunResult {
  return runText(source, { file: 't.rules', ...options });
}

/** The facts of one predicate as text, sorted. */
export function facts(r: RunResult, pred: string): string[] {
  return r.factsByPredicate().get(pred) ?? [];
}

/** The diagnostics of a program that must fail to compile. */
export function compileErrors(source: string, options: RunOptions = {}): Diagnostic[] {
  try {
    run(source, options);
  } catch (e) {
    if (e instanceof ProgramError) return [...e.diagnostics];
    throw e;
  }
  throw new Error('expected the program to be rejected');
}

export function errors(r: RunResult): Diagnostic[] {
  return r.diagnostics.filter((d) => d.severity === 'error');
}

export function warnings(r: RunResult, code?: string): Diagnostic[] {
  return r.diagnostics.filter((d) => d.severity === 'warning' && (code === undefined || d.code === code));
}

export const BROADCAST = `
relation Broadcast(lhs, rhs, out).
D2 = D1 :- Broadcast(tensor(_, D1), tensor(_, D2), _).
Out = tensor(S, D) :- Broadcast(tensor(S1, D), tensor(S2, D), Out), broadcast_shape(S1, S2, S).
broadcast_shape(S1, S2, S) :- bcast(reverse(S1), reverse(S2), R), S = reverse(R).
bcast([], R, R).
bcast([A|As], [], [A|As]).
bcast([A|As], [B|Bs], [C|Cs]) :- bdim(A, B, C), bcast(As, Bs, Cs).
bdim(A, B, B) :- A == 1.
bdim(A, B, A) :- B == 1.
bdim(A, A, A).
error("cannot broadcast {S1} with {S2}") :-
    Broadcast(tensor(S1, _), tensor(S2, _), _), ground(S1), ground(S2),
    not broadcast_shape(S1, S2, _).
`;

/** The bdim rules exactly as sketched in DESIGN.md (guards with `!=`). */
export const BROADCAST_DESIGN_SKETCH = BROADCAST.replace(
  'bdim(A, B, A) :- B == 1.\nbdim(A, A, A).',
  'bdim(A, B, A) :- B == 1, A != 1.\nbdim(A, A, A) :- A != 1.',
);

/** A fresh temporary folder and a way to write files into it (for tests of the command). */
export function scratchFolder(prefix: string): { dir: string; file(name: string, text: string): string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    file(name, text) {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    },
  };
}

/** The command's entry, as a user runs it. */
export const SHAPELOG_BIN = join(import.meta.dirname, '..', 'bin', 'shapelog.js');

/** Runs the `shapelog` command in a fresh process: exit code, stdout, stderr and wall time. */
export function runShapelog(
  args: readonly string[],
  options: { input?: string; timeoutMs?: number } = {},
): { code: number; out: string; err: string; millis: number } {
  const started = Date.now();
  const r = spawnSync(process.execPath, [SHAPELOG_BIN, ...args], {
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 60_000,
    input: options.input ?? '',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr, millis: Date.now() - started };
}
