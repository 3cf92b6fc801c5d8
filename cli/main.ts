// The `shapelog` command line: every command. `shapelog query` and `shapelog infer` also
// have a script each of their own (cli/query-main.ts, cli/infer-main.ts), which register
// the same command (cli/query-command.ts, cli/infer-command.ts).
import { type Command, Option } from 'commander';
import { DEFAULT_LIMITS } from '../solver/engine/limits.js';
// Each command's module is imported when the command runs, so that a command does not
// load program typing, the relation library or the cross-check when it needs none.
import { addInferCommand } from './infer-command.js';
import { type CommandOutcome, collect, commandLine, extraRelations, maxMemoryOption, nonNegativeInt, positiveInt } from './program.js';
import { addQueryCommand } from './query-command.js';
import { EXIT_USER_ERROR } from './report.js';

export function main(argv: string[]): Promise<number> {
  return commandLine(argv, addQueryCommand, addInferCommand, addOtherCommands);
}

/** The commands without a command line of their own: checks, typeof, check, bench, prove, demo. */
function addOtherCommands(program: Command, outcome: CommandOutcome): void {
  addChecksCommand(program, outcome);
  addTypeofCommand(program, outcome);
  addCheckCommand(program, outcome);
  addBenchCommand(program, outcome);
  addProveCommand(program, outcome);
  addDemoCommand(program, outcome);
}

/** Registers `shapelog checks`, which evaluates the residual checks of a Relay program or an ONNX model for concrete sizes. */
function addChecksCommand(program: Command, outcome: CommandOutcome): void {
  program
    .command('checks')
    .description(
      'evaluate the residual checks of a Relay program or an ONNX model (those `infer --gradual` inserts) for concrete sizes; print each failing check with its call site (.onnx: its node: index, name, op_type); exit 1 if any fails',
    )
    .argument('<file>', 'a Relay program (.relay) or an ONNX model (.onnx) with size variables')
    .requiredOption(
      '--dims <NAME=N,...>',
      'the sizes, e.g. n=3,h=224 (non-negative integers; repeatable); .onnx: the dim_params (the names --dim fixes), and the fresh or If-join size variables the checks mention',
      collect,
      [],
    )
    .addOption(
      new Option('-s, --strategy <name>', "rules: the rule engine; relay: Relay's own solver with the hand-coded relations")
        .choices(['rules', 'relay'])
        .default('rules'),
    )
    .option(
      '--json',
      'print {dims, checks: [{condition, operator, span, holds}], failed} as JSON (.onnx: each check with {node: {index, name, op_type}} instead of operator and span)',
      false,
    )
    .option('--max-time <ms>', `stop after this many milliseconds (default ${DEFAULT_LIMITS.maxMillis})`, positiveInt)
    .action(async (file: string, o: Record<string, unknown>) => {
      if (file.endsWith('.onnx')) {
        const { checksOnnx } = await import('./onnx-checks.js');
        outcome.code = checksOnnx(file, { dims: o['dims'] as string[], json: o['json'] === true });
        return;
      }
      if (file.endsWith('.itir')) {
        process.stderr.write('error: checks is for Relay programs (.relay) and ONNX models (.onnx)\n');
        outcome.code = 2;
        return;
      }
      const { checksCommand } = await import('./gradual.js');
      outcome.code = checksCommand(file, {
        strategy: o['strategy'] as 'rules' | 'relay',
        dims: o['dims'] as string[],
        json: o['json'] === true,
        limits: o['maxTime'] !== undefined ? { maxMillis: o['maxTime'] as number } : {},
      });
    });
}

/** Registers `shapelog typeof`, which types the operator calls it reads as JSON lines on stdin. */
function addTypeofCommand(program: Command, outcome: CommandOutcome): void {
  program
    .command('typeof')
    .description('read JSON lines {"op", "attrs", "args"} on stdin; print the result and argument types of each call')
    .option(
      '-r, --relations <kind-or-files...>',
      'rules (relations/*.rules, the default) or imperative (relations/imperative/); other values are extra rule files',
    )
    .addOption(maxMemoryOption())
    .option(
      '--onnx',
      'read ONNX node calls instead: {"op_type", "domain", "opset", "attributes", "inputs"} (the record format of ONNX\'s node conformance cases); print {"outputs": [...]} per line',
      false,
    )
    .action(async (o: { relations?: string[]; onnx?: boolean }) => {
      if (o.onnx === true) {
        const { typeofOnnxCommand } = await import('./onnx-typeof.js');
        outcome.code = await typeofOnnxCommand();
        return;
      }
      const given = o.relations ?? [];
      const kinds = given.filter((r) => r === 'rules' || r === 'imperative');
      const failed = await extraRelations(given.filter((r) => r !== 'rules' && r !== 'imperative'));
      const { typeofCommand } = await import('./typeof.js');
      outcome.code = failed ?? (await typeofCommand(kinds.includes('imperative') ? 'imperative' : 'rules'));
    });
}

/** Registers `shapelog check`, which cross-checks every operator's rules (against the imperative twins and the reference executor; with --onnx, against ONNX's inference and onnxruntime). */
function addCheckCommand(program: Command, outcome: CommandOutcome): void {
  program
    .command('check')
    .description(
      "cross-check every operator: rules vs imperative twins on an exhaustive sweep and random cases, and both against the reference executor; with a model (.onnx): its every node output by shapelog's rules, ONNX's own shape inference and onnxruntime's execution",
    )
    .argument(
      '[model]',
      "an ONNX model (.onnx) to check value by value (--shape, --dim and --value as for infer; it runs on onnxruntime when every input's shape is concrete)",
    )
    .option('--ops <names>', 'only these operators, comma-separated (e.g. nn.conv2d,reshape)')
    .option('--depth <n>', 'sweep cases whose tensors have rank <= n (0-4)', nonNegativeInt, 4)
    .option('--random <n>', 'random cases per operator (fast-check, seeded)', nonNegativeInt, 0)
    .option('--seed <s>', 'seed for the random cases (default: a fresh one, printed)', nonNegativeInt)
    .option('--no-reference', 'skip the reference executor')
    .option('--json', 'print {"ops": [{op, cases, agree, disagree, counterexamples, reference}]} as JSON', false)
    .option('--relations <files...>', 'extra rule files; their examples are typed, then the operators with sweep cases and twins are cross-checked')
    .option(
      '--against <old-files...>',
      'compare with old versions of rule files (each replaces the library file of its name): report every case whose answer changed',
    )
    .option('--against-rev <gitrev>', 'compare with the built-in rule files at a git revision (read with git show)')
    .option('--expect-changes', 'with --against/--against-rev: exit 0 even when answers changed', false)
    .option(
      '--onnx',
      "cross-check the ONNX operators' rules against ONNX's own shape inference (python3-onnx) and onnxruntime's execution (onnxruntime-node); --ops takes ONNX op_types",
      false,
    )
    .option('--out <dir>', 'with --onnx: where each disagreement is written as a one-node .onnx file (default: onnx-disagreements)')
    .option('--shape <NAME=d0,d1>', "with a model: fix a graph input's shape (a dim: an integer, a name or ?); repeatable", collect, [])
    .option('--dim <PARAM=N>', 'with a model: fix a symbolic dim (dim_param) everywhere; repeatable', collect, [])
    .option('--value <NAME=v0,v1>', "with a model: give a graph input's integer values (row-major; bool as 0 and 1); repeatable", collect, [])
    .action(
      async (
        model: string | undefined,
        o: {
          ops?: string;
          depth: number;
          random: number;
          seed?: number;
          reference: boolean;
          json: boolean;
          relations?: string[];
          against?: string[];
          againstRev?: string;
          expectChanges: boolean;
          onnx: boolean;
          out?: string;
          shape: string[];
          dim: string[];
          value: string[];
        },
      ) => {
        if (model !== undefined) {
          outcome.code = await checkModelAction(model, o);
          return;
        }
        if (o.shape.length > 0 || o.dim.length > 0 || o.value.length > 0) {
          process.stderr.write('shapelog check: --shape, --dim and --value go with a model (shapelog check MODEL.onnx)\n');
          outcome.code = 2;
          return;
        }
        if (o.onnx) {
          if (o.relations !== undefined || o.against !== undefined || o.againstRev !== undefined) {
            process.stderr.write('shapelog check: --onnx cannot be combined with --relations, --against or --against-rev\n');
            outcome.code = 2;
            return;
          }
          const { checkOnnxCommand } = await import('./check-onnx.js');
          outcome.code = await checkOnnxCommand(o);
          return;
        }
        if (o.out !== undefined) {
          process.stderr.write('shapelog check: --out goes with --onnx\n');
          outcome.code = 2;
          return;
        }
        const failed = await extraRelations(o.relations ?? []);
        const { checkCommand } = await import('./check.js');
        outcome.code = failed ?? checkCommand(o);
      },
    );
}

/** `shapelog check MODEL.onnx`: the options that apply to a model, then the check (cli/check-model.ts). */
async function checkModelAction(
  model: string,
  o: {
    ops?: string;
    random: number;
    seed?: number;
    relations?: string[];
    against?: string[];
    againstRev?: string;
    out?: string;
    json: boolean;
    shape: string[];
    dim: string[];
    value: string[];
  },
): Promise<number> {
  if (!model.endsWith('.onnx')) {
    process.stderr.write(`shapelog check: ${model}: a model to check is an ONNX model (.onnx); without one, check cross-checks the operators\n`);
    return 2;
  }
  const sweep = [
    ['--ops', o.ops],
    ['--random', o.random > 0 ? o.random : undefined],
    ['--seed', o.seed],
    ['--relations', o.relations],
    ['--against', o.against],
    ['--against-rev', o.againstRev],
    ['--out', o.out],
  ].filter(([, v]) => v !== undefined);
  if (sweep.length > 0) {
    process.stderr.write(`shapelog check: ${sweep.map(([f]) => f).join(', ')} ${sweep.length === 1 ? 'is' : 'are'} for the operator sweep, not for a model\n`);
    return 2;
  }
  const { checkModelCommand } = await import('./check-model.js');
  return checkModelCommand(model, { shapes: o.shape, dims: o.dim, values: o.value, json: o.json });
}

/** Registers `shapelog bench`, which times a program with each strategy (cli/bench.ts is loaded only when the command runs). */
function addBenchCommand(program: Command, outcome: CommandOutcome): void {
  program
    .command('bench')
    .description('time a program with each strategy (a fresh process per sample) and check that they compute the same result')
    .argument(
      '<file>',
      "a rule file (.rules: strategies naive, seminaive, demand, ...), a Relay program (.relay: rules, relay) or an ONNX model (.onnx: rules, and onnx: ONNX's own shape inference, through a Python with the onnx package)",
    )
    .option('--strategies <names>', 'comma-separated strategies to time (default: every strategy that applies to the file)')
    .option('--runs <n>', 'samples per strategy, each a fresh process', positiveInt, 5)
    .option('--warmup <ms>', 'warm-up time per sample after the cold first run', nonNegativeInt, 1000)
    .option('--time <ms>', 'time for the timed runs of each sample (as many runs as fit, at least 1, at most 50)', nonNegativeInt, 1000)
    .option('-g, --goal <goal>', "rule files: time the goal's answers, e.g. 'path(0, X)'")
    .option('--json', 'print {file, strategies: [{name, cold_ms, median_ms, min_ms, max_ms, ...}], agree} as JSON', false)
    .option('--html <out>', 'also write a self-contained chart page (renders offline)')
    .option('--max-rounds <n>', `per run: stop after this many rounds (default ${DEFAULT_LIMITS.maxRounds})`, positiveInt)
    .option('--max-facts <n>', `per run: stop at this many facts (default ${DEFAULT_LIMITS.maxFacts})`, positiveInt)
    .option('--max-time <ms>', `per run: stop after this many milliseconds (default ${DEFAULT_LIMITS.maxMillis})`, positiveInt)
    .option('--max-depth <n>', `per run: deepest term allowed (default ${DEFAULT_LIMITS.maxTermDepth})`, positiveInt)
    .action(
      async (
        file: string,
        o: {
          strategies?: string;
          runs: number;
          warmup: number;
          time: number;
          goal?: string;
          json: boolean;
          html?: string;
          maxRounds?: number;
          maxFacts?: number;
          maxTime?: number;
          maxDepth?: number;
        },
      ) => {
        const { benchCommand } = await import('./bench.js');
        const limits = { maxRounds: o.maxRounds, maxFacts: o.maxFacts, maxMillis: o.maxTime, maxTermDepth: o.maxDepth };
        outcome.code = await benchCommand(file, { ...o, limits: Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)) });
      },
    );
}

/** Registers `shapelog prove`, which proves rules and imperative twins equal for every size (with z3-solver, when it is installed). */
function addProveCommand(program: Command, outcome: CommandOutcome): void {
  program
    .command('prove')
    .description('prove rules and imperative twins equal for every size (symbolic dims, case splits, z3) at ranks up to --rank')
    .option('--ops <names>', 'only these operators, comma-separated')
    .option('--rank <r>', 'highest tensor rank', nonNegativeInt, 4)
    .option('--timeout <s>', 'time budget per operator, in seconds (operators sharing a relation reuse its proofs)', Number, 20)
    .option('--json', 'print {"ops": [{op, combos, proved, counterexamples, unknown, unknowns}]} as JSON', false)
    .action(async (o: { ops?: string; rank: number; timeout: number; json: boolean }) => {
      let prove: typeof import('./prove.js');
      try {
        prove = await import('./prove.js');
      } catch (e) {
        // ERR_MODULE_NOT_FOUND from the ES modules of the sources, MODULE_NOT_FOUND from the command's CommonJS script
        if (!(e instanceof Error && 'code' in e && (e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'MODULE_NOT_FOUND') && e.message.includes('z3-solver')))
          throw e;
        process.stderr.write('error: shapelog prove needs the SMT solver z3-solver, which is not installed: run `npm install z3-solver` beside shapelog\n');
        outcome.code = EXIT_USER_ERROR;
        return;
      }
      outcome.code = await prove.proveCommand(o);
    });
}

/** Registers `shapelog demo`, which runs every bundled example with every strategy and checks that they agree. */
function addDemoCommand(program: Command, outcome: CommandOutcome): void {
  program
    .command('demo')
    .description('run every bundled example with every strategy and check that they agree (what `npm start` runs)')
    .option('--json', 'machine-readable output', false)
    .action(async (o: { json: boolean }) => {
      const { demo } = await import('./demo.js');
      outcome.code = demo(o);
    });
}
