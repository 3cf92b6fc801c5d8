// The command line of `shapelog query` alone: what bin/shapelog.js runs when the first
// argument is `query` (dist/cli/shapelog-query.cjs), so that a query's process loads the
// engine and the rule language but not program typing, the frontends or the cross-check.
// Its options, help and errors are those of `query` in the full command line (cli/main.ts):
// both register the same command (cli/query-command.ts).
import { commandLine } from './program.js';
import { addQueryCommand } from './query-command.js';

export function main(argv: string[]): Promise<number> {
  return commandLine(argv, addQueryCommand);
}
