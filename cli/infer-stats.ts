// `shapelog infer --stats`: what the rule engine did while typing (summed over the solvers
// the typing ran: solver/engine/engine-work.ts) and where the command's time went, printed
// to stderr after the output, as `query --stats` does for a rule file.
import type { Phase } from '../diagnostics/phase-times.js';
import type { EngineWork } from '../solver/engine/engine-work.js';

/** The phases in the order a command runs them. */
const PHASES: readonly Phase[] = ['read', 'parse', 'library', 'solve', 'print'];

/**
 * Three lines: the engine's work (or that it did not run: the relay and twin strategies
 * solve without it); the command's time by phase (diagnostics/phase-times.ts), `other` what
 * no phase claims (generating constraints, emitting nodes, reading the results); and the
 * command's time beside the process's (since node started: the rest is node's start and
 * loading shapelog).
 */
export function inferStatsText(work: EngineWork, phases: ReadonlyMap<Phase, number>, commandMs: number, processMs: number): string {
  const engine =
    work.solves === 0
      ? 'engine: not run (this strategy types without the rule engine)'
      : `engine: ${work.rounds} rounds, ${work.planRuns} plan runs, ${work.derived} facts derived, ${work.bindings} bindings in ${work.solves} ${work.solves === 1 ? 'solve' : 'solves'}, ${work.millis} ms solving`;
  const claimed = PHASES.reduce((sum, p) => sum + (phases.get(p) ?? 0), 0);
  const parts = [
    ...PHASES.filter((p) => phases.has(p)).map((p) => `${p} ${Math.round(phases.get(p)!)}`),
    `other ${Math.max(0, Math.round(commandMs - claimed))}`,
  ];
  return `${engine}\nphases (ms): ${parts.join(', ')}\ninfer: ${Math.round(commandMs)} ms reading, typing and printing; ${Math.round(processMs)} ms since node started\n`;
}
