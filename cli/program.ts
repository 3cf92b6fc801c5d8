// What every `shapelog` command line shares: the program (name, version, help and error
// output, the memory budget hook), the option parsers, and running it to an exit code.
// The full command line (cli/main.ts) and the one of `shapelog query` alone
// (cli/query-main.ts, a script of its own so that a query starts without loading the
// other commands' code) are both built from these.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../diagnostics/diagnostic.js';
import { memoryBudgetMb, setMemoryBudget } from '../solver/engine/limits.js';
import { EXIT_USAGE, EXIT_USER_ERROR, printDiagnostics, stopWhenOutputCloses } from './report.js';

/** What a command's action reports back: the process's exit code. */
export interface CommandOutcome {
  code: number;
}

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
}

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/** The names of a comma-separated option (`--ops a, b,a`): each once, in the order first given, blanks dropped. */
export function commaList(value: string): string[] {
  return [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
}

/** Collects a repeatable option's values. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Commander's codes for help and version output, which are answers (exit 0), not usage errors. */
const HELP_CODES = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

/** The version in the package.json nearest above this file. */
function packageVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) return (JSON.parse(readFileSync(path, 'utf8')) as { version?: string }).version ?? 'unknown';
    if (dirname(dir) === dir) return 'unknown';
  }
}

/** `--max-memory MB`, the same for every command that solves (its budget is set before the command runs). */
export function maxMemoryOption(): Option {
  return new Option(
    '--max-memory <MB>',
    `memory budget: stop with a clear error when the heap reaches it (default ${memoryBudgetMb()} MB, 80% of node's heap limit)`,
  ).argParser(positiveInt);
}

/** Loads a user's extra rule files into the library (null when fine, else the exit code); the library is imported only when there are some. */
export async function extraRelations(files: readonly string[]): Promise<number | null> {
  if (files.length === 0) return null;
  const { loadRelationFiles } = await import('./relation-files.js');
  return loadRelationFiles([...files]);
}

/** The `shapelog` program with no commands yet. */
export function newProgram(): Command {
  return new Command()
    .name('shapelog')
    .description('Tensor type relations as rules: a semi-naive fixpoint engine over persistent data structures.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    .hook('preAction', (_program, command) => {
      const mb = command.opts()['maxMemory'];
      if (typeof mb === 'number') setMemoryBudget(mb);
    });
}

/**
 * A command line of the given commands (every command: cli/main.ts; one alone:
 * cli/query-main.ts, cli/infer-main.ts): each `register` adds its commands to the
 * program; then `argv` runs as runProgram says.
 */
export async function commandLine(argv: string[], ...register: ((program: Command, outcome: CommandOutcome) => void)[]): Promise<number> {
  stopWhenOutputCloses();
  const outcome: CommandOutcome = { code: 0 };
  const program = newProgram();
  for (const add of register) add(program, outcome);
  return runProgram(program, argv, outcome);
}

/**
 * Parses `argv` and runs the command it names. The exit code: the command's, 0 for help
 * and version output, EXIT_USAGE for a usage error (commander has printed it) or no
 * arguments (the help is printed), EXIT_USER_ERROR for a user mistake found before the
 * command ran.
 */
async function runProgram(program: Command, argv: string[], outcome: CommandOutcome): Promise<number> {
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT_USAGE;
    }
    await program.parseAsync(argv, { from: 'user' });
    return outcome.code;
  } catch (e) {
    if (e instanceof CommanderError) return HELP_CODES.has(e.code) ? 0 : EXIT_USAGE;
    if (e instanceof UserError) {
      printDiagnostics(e.diagnostics, new Map(), { warnings: true });
      return EXIT_USER_ERROR;
    }
    throw e;
  }
}
