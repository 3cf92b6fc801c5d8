// The `shapelog query` command's options, and how they become cli/query.ts's call.
import { type Command, Option } from 'commander';
import type { StrategyName } from '../solver/compile/program.js';
import { DEFAULT_LIMITS } from '../solver/engine/limits.js';
import { ENGINE_STRATEGY_NAMES } from '../solver/strategy-names.js';
import { type CommandOutcome, maxMemoryOption, positiveInt } from './program.js';

export function addQueryCommand(program: Command, outcome: CommandOutcome): void {
  program
    .command('query')
    .description('solve rule files and print every derived fact, the answers of a goal, or a derivation')
    .argument('<files...>', 'rule files (.rules); imports are followed')
    .option('-g, --goal <goal>', "a goal such as 'path(1, X)': print its answers")
    .addOption(
      new Option(
        '-s, --strategy <name>',
        'evaluation strategy (default: demand when --goal binds an argument, else seminaive; mutable: seminaive over a mutable store)',
      ).choices([...ENGINE_STRATEGY_NAMES]),
    )
    .option('--json', 'machine-readable output (with --goal: an array of answers)', false)
    .option('-e, --explain <fact>', "print the derivation tree of a fact, e.g. 'path(1, 5)'")
    .option('--stats', 'print rounds, facts and time to stderr', false)
    .option('--no-warnings', 'do not print warnings (undecided conditions, singleton variables)')
    .option('-v, --verbose', 'also print notes (undecided conditions in alternative derivations of calls that have answers)', false)
    .option('--max-rounds <n>', `stop after this many rounds (default ${DEFAULT_LIMITS.maxRounds})`, positiveInt)
    .option('--max-facts <n>', `stop at this many facts (default ${DEFAULT_LIMITS.maxFacts})`, positiveInt)
    .option('--max-time <ms>', `stop after this many milliseconds (default ${DEFAULT_LIMITS.maxMillis})`, positiveInt)
    .addOption(maxMemoryOption())
    .option('--max-depth <n>', `deepest term allowed (default ${DEFAULT_LIMITS.maxTermDepth})`, positiveInt)
    .action(async (files: string[], o: Record<string, unknown>) => {
      const { query } = await import('./query.js');
      outcome.code = query(files, {
        ...(typeof o['goal'] === 'string' ? { goal: o['goal'] } : {}),
        ...(typeof o['explain'] === 'string' ? { explain: o['explain'] } : {}),
        ...(typeof o['strategy'] === 'string' ? { strategy: o['strategy'] as StrategyName } : {}),
        json: o['json'] === true,
        stats: o['stats'] === true,
        warnings: o['warnings'] !== false,
        verbose: o['verbose'] === true,
        limits: {
          ...(o['maxRounds'] !== undefined ? { maxRounds: o['maxRounds'] as number } : {}),
          ...(o['maxFacts'] !== undefined ? { maxFacts: o['maxFacts'] as number } : {}),
          ...(o['maxTime'] !== undefined ? { maxMillis: o['maxTime'] as number } : {}),
          ...(o['maxDepth'] !== undefined ? { maxTermDepth: o['maxDepth'] as number } : {}),
        },
      });
    });
}
