// The `shapelog` command line.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { UserError } from '../diagnostics/diagnostic.js';
import { DEFAULT_LIMITS } from '../solver/engine/limits.js';
// Each command's module is imported when the command runs, so that `shapelog query`
// does not load program typing, the relation library or the cross-check.
import { EXIT_USAGE, EXIT_USER_ERROR, printDiagnostics } from './report.js';

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const program = new Command()
    .name('shapelog')
    .description('Tensor type relations as rules: a semi-naive fixpoint engine over persistent data structures.')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });

  program
    .command('query')
    .description('solve rule files and print every derived fact, the answers of a goal, or a derivation')
    .argument('<files...>', 'rule files (.rules); imports are followed')
    .option('-g, --goal <goal>', "a goal such as 'path(1, X)': print its answers")
    .addOption(new Option('-s, --strategy <name>', 'evaluation strategy').choices(['naive', 'seminaive', 'demand']).default('seminaive'))
    .option('--json', 'machine-readable output (with --goal: an array of answers)', false)
    .option('-e, --explain <fact>', "print the derivation tree of a fact, e.g. 'path(1, 5)'")
    .option('--stats', 'print rounds, facts and time to stderr', false)
    .option('--no-warnings', 'do not print warnings (undecided conditions, singleton variables)')
    .option('-v, --verbose', 'also print notes (undecided conditions in alternative derivations of calls that have answers)', false)
    .option('--max-rounds <n>', `stop after this many rounds (default ${DEFAULT_LIMITS.maxRounds})`, positiveInt)
    .option('--max-facts <n>', `stop at this many facts (default ${DEFAULT_LIMITS.maxFacts})`, positiveInt)
    .option('--max-time <ms>', `stop after this many milliseconds (default ${DEFAULT_LIMITS.maxMillis})`, positiveInt)
    .option('--max-depth <n>', `deepest term allowed (default ${DEFAULT_LIMITS.maxTermDepth})`, positiveInt)
    .action(async (files: string[], o: Record<string, unknown>) => {
      const { query } = await import('./query.js');
      code = query(files, {
        ...(typeof o['goal'] === 'string' ? { goal: o['goal'] } : {}),
        ...(typeof o['explain'] === 'string' ? { explain: o['explain'] } : {}),
        strategy: o['strategy'] as 'naive' | 'seminaive' | 'demand',
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

  program
    .command('infer')
    .description('infer the types of a Relay program and print it back with every binding annotated')
    .argument('<file>', 'a Relay program (.relay), in TVM\'s text format')
    .addOption(new Option('-s, --strategy <name>', 'rules: the rule engine; relay: Relay\'s own solver with the hand-coded relations').choices(['rules', 'relay']).default('rules'))
    .option('--json', 'print {functions, bindings, diagnostics} as JSON', false)
    .option('-e, --explain <binding>', "why a binding has its type, e.g. '%3'")
    .option('--max-time <ms>', `stop after this many milliseconds (default ${DEFAULT_LIMITS.maxMillis})`, positiveInt)
    .action(async (file: string, o: Record<string, unknown>) => {
      const { infer } = await import('./infer.js');
      code = infer(file, {
        strategy: o['strategy'] as 'rules' | 'relay',
        json: o['json'] === true,
        ...(typeof o['explain'] === 'string' ? { explain: o['explain'] } : {}),
        limits: o['maxTime'] !== undefined ? { maxMillis: o['maxTime'] as number } : {},
      });
    });

  program
    .command('typeof')
    .description('read JSON lines {"op", "attrs", "args"} on stdin; print the result and argument types of each call')
    .addOption(new Option('-r, --relations <kind>', 'rules (relations/*.rules) or imperative (relations/imperative/)').choices(['rules', 'imperative']).default('rules'))
    .action(async (o: { relations: 'rules' | 'imperative' }) => {
      const { typeofCommand } = await import('./typeof.js');
      code = await typeofCommand(o.relations);
    });

  program
    .command('check')
    .description('cross-check every operator: rules vs imperative twins on an exhaustive sweep and random cases, and both against the reference executor')
    .option('--ops <names>', 'only these operators, comma-separated (e.g. nn.conv2d,reshape)')
    .option('--depth <n>', 'sweep cases whose tensors have rank <= n (0-4)', nonNegativeInt, 4)
    .option('--random <n>', 'random cases per operator (fast-check, seeded)', nonNegativeInt, 0)
    .option('--seed <s>', 'seed for the random cases (default: a fresh one, printed)', nonNegativeInt)
    .option('--no-reference', 'skip the reference executor')
    .option('--json', 'print {"ops": [{op, cases, agree, disagree, counterexamples, reference}]} as JSON', false)
    .action(async (o: { ops?: string; depth: number; random: number; seed?: number; reference: boolean; json: boolean }) => {
      const { checkCommand } = await import('./check.js');
      code = checkCommand(o);
    });

  program
    .command('demo')
    .description('run every bundled example with every strategy and check that they agree (what `npm start` runs)')
    .option('--json', 'machine-readable output', false)
    .action(async (o: { json: boolean }) => {
      const { demo } = await import('./demo.js');
      code = demo(o);
    });

  try {
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT_USAGE;
    }
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? 0 : EXIT_USAGE;
    if (e instanceof UserError) {
      printDiagnostics(e.diagnostics, new Map(), { warnings: true });
      return EXIT_USER_ERROR;
    }
    throw e;
  }
}
