// The command line of `shapelog infer` alone: what bin/shapelog.js runs when the first
// argument is `infer` (dist/cli/shapelog-infer.cjs), so that typing a program or a model
// does not load the code of the other commands (the cross-check, proofs, benchmarks).
// Its options, help and errors are those of `infer` in the full command line
// (cli/main.ts): both register the same command (cli/infer-command.ts).
import { addInferCommand } from './infer-command.js';
import { commandLine } from './program.js';

export function main(argv: string[]): Promise<number> {
  return commandLine(argv, addInferCommand);
}
