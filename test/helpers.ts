// Shared helpers for engine tests.
import { type RunOptions, ProgramError, type RunResult, runText } from '../solver/run.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

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
