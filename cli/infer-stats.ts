// `shapelog infer --stats`: what the rule engine did while typing (summed over the solvers
// the typing ran: solver/engine/engine-work.ts) and where the command's time went, printed
// to stderr after the output, as `query --stats` does for a rule file.
import type { EngineWork } from '../solver/engine/engine-work.js';

/**
 * Two lines: the engine's work (or that it did not run: the relay and twin strategies
 * solve without it), then the command's own time (reading, typing and printing) beside
 * the process's (since node started: the rest is node's start and loading shapelog).
 */
export function inferStatsText(work: EngineWork, commandMs: number, processMs: number): string {
  const engine =
    work.solves === 0
      ? 'engine: not run (this strategy types without the rule engine)'
      : `engine: ${work.rounds} rounds, ${work.planRuns} plan runs, ${work.derived} facts derived, ${work.bindings} bindings in ${work.solves} ${work.solves === 1 ? 'solve' : 'solves'}, ${work.millis} ms solving`;
  return `${engine}\ninfer: ${Math.round(commandMs)} ms reading, typing and printing; ${Math.round(processMs)} ms since node started\n`;
}
