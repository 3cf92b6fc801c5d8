// `npm run fuzz -- --seconds N --seed S [--kind rules|relay|typeof|onnx|onnx-node|itir|all] [--millis MS]`:
// a fuzz campaign over every command, in-process (scripts/fuzz/). Prints cases tried and
// clean; on a crash, hang or strategy mismatch prints the shrunk case, saves it under
// test/fuzz-regressions/ (replayed by npm test) and exits 1.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { relative } from 'node:path';
import { type FuzzKind, runCampaign, saveRegression } from './fuzz/campaign.js';

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
}

function main(argv: readonly string[]): number {
  const program = new Command()
    .name('npm run fuzz --')
    .description('fuzz every command in-process with generated and mutated inputs')
    .option('--seconds <n>', 'time budget', nonNegativeInt, 60)
    .option('--seed <s>', 'fast-check seed (default: a fresh one, printed)', nonNegativeInt)
    .addOption(new Option('--kind <kind>', 'which inputs').choices(['rules', 'relay', 'typeof', 'onnx', 'onnx-node', 'itir', 'all']).default('all'))
    .option('--millis <ms>', 'time limit of each run inside a case', nonNegativeInt, 2000)
    .option('--no-save', 'do not save a failing case under test/fuzz-regressions/')
    .exitOverride();
  try {
    program.parse(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return e.code === 'commander.helpDisplayed' ? 0 : 2;
    throw e;
  }
  const o = program.opts<{ seconds: number; seed?: number; kind: FuzzKind; millis: number; save: boolean }>();
  const seed = o.seed ?? Math.floor(Math.random() * 2 ** 31);
  const tty = process.stderr.isTTY === true;
  const r = runCampaign({
    seconds: o.seconds,
    seed,
    kind: o.kind,
    millis: o.millis,
    onCase: (tried, clean) => {
      if (tty && tried % 20 === 0) process.stderr.write(`\r${tried} cases, ${clean} clean`);
    },
  });
  if (tty) process.stderr.write('\r');
  process.stdout.write(`fuzz (${o.kind}, seed ${seed}): ${r.tried} cases tried, ${r.clean} clean in ${r.seconds.toFixed(1)} s\n`);
  for (const [what, n] of r.known) process.stdout.write(`  ${n} ${what}\n`);
  if (r.failure === null) return 0;
  const { input, verdict } = r.failure;
  process.stdout.write(`\n${verdict.kind} on a ${input.kind} case (shrunk):\n${JSON.stringify(input, null, 2)}\n${verdict.message}\n`);
  if (o.save) process.stdout.write(`saved as ${relative(process.cwd(), saveRegression(input, verdict, seed))}\n`);
  return 1;
}

process.exitCode = main(process.argv.slice(2));
