// The command line of `shapelog query` alone: what bin/shapelog.js runs when the first
// argument is `query` (dist/cli/shapelog-query.cjs), so that a query's process loads the
// engine and the rule language but not program typing, the frontends or the cross-check.
// Its options, help and errors are those of `query` in the full command line (cli/main.ts):
// both register the same command (cli/query-command.ts).
import { newProgram, runProgram, type CommandOutcome } from './program.js';
import { addQueryCommand } from './query-command.js';
import { stopWhenOutputCloses } from './report.js';

export async function main(argv: string[]): Promise<number> {
  stopWhenOutputCloses();
  const outcome: CommandOutcome = { code: 0 };
  const program = newProgram();
  addQueryCommand(program, outcome);
  return runProgram(program, argv, outcome);
}
