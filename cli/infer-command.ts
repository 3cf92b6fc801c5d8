// The `shapelog infer` command's options, and which command module types the file: an
// ONNX model (cli/onnx-infer.ts), an iterator-IR program (cli/itir.ts), or a Relay program
// (cli/infer.ts, or cli/gradual.ts with --gradual).
import { type Command, Option } from 'commander';
import { DEFAULT_MAX_BINDINGS } from '../frontends/relay/binding-count.js';
import { DEFAULT_LIMITS } from '../solver/engine/limits.js';
import { phaseTimes } from '../diagnostics/phase-times.js';
import { engineWork } from '../solver/engine/engine-work.js';
import { inferStatsText } from './infer-stats.js';
import { type CommandOutcome, collect, extraRelations, maxMemoryOption, positiveInt } from './program.js';

export function addInferCommand(program: Command, outcome: CommandOutcome): void {
  program
    .command('infer')
    .description(
      'infer the types of a Relay program and print it back with every binding annotated; of a GT4Py iterator-IR program (.itir), print the most general type of each definition, closure, fencil or expression',
    )
    .argument('<file>', "a Relay program (.relay), in TVM's text format, or an iterator-IR program (.itir)")
    .addOption(
      new Option(
        '-s, --strategy <name>',
        "rules: the rule engine; relay: Relay's own solver with the hand-coded relations; twin: the imperative twin of the .itir rules",
      )
        .choices(['rules', 'relay', 'twin'])
        .default('rules'),
    )
    .option('--json', 'print {functions, bindings, diagnostics} as JSON (.itir: {items, diagnostics})', false)
    .option('--ascii', '.itir: print types in ASCII (T0^1, ->, =>)', false)
    .option(
      '-e, --explain <binding>',
      "why a binding has its type, e.g. '%3': the operator call, its arguments and attributes, the relation's formula (.onnx: a value's name)",
    )
    .option('--internals', "with --explain: also the engine's derivation, internal helper relations included (rules strategy)", false)
    .option('--max-time <ms>', `stop after this many milliseconds (default ${DEFAULT_LIMITS.maxMillis})`, positiveInt)
    .addOption(maxMemoryOption())
    .option('--max-bindings <n>', `.relay: refuse a program of more bindings than this, before parsing it (default ${DEFAULT_MAX_BINDINGS})`, positiveInt)
    .option('--relations <files...>', 'extra rule files: operators and relations added to (or overriding) the library')
    .option('--shape <NAME=d0,d1>', ".onnx: fix a graph input's shape (a dim: an integer, a name or ?); repeatable", collect, [])
    .option('--dim <PARAM=N>', '.onnx: fix a symbolic dim (dim_param) everywhere; repeatable', collect, [])
    .option(
      '--value <NAME=v0,v1>',
      ".onnx: give a graph input's integer values (row-major; bool as 0 and 1), e.g. a sample rate an If tests; repeatable",
      collect,
      [],
    )
    .option('--write-value-info <out.onnx>', '.onnx: write the model with every inferred type as value_info')
    .option(
      '--gradual',
      'Relay and ONNX: type gradually: a condition on size variables that cannot be decided becomes a residual check at its call (printed beside it; in --json as `checks`) and typing goes on under it; unknown dims of parameters get fresh size variables (docs/gradual.md)',
      false,
    )
    .option(
      '--checks-only',
      'with --gradual: print only the residual checks, one per line (file:line:column: operator: condition; ONNX: file: node "name" (OpType): condition)',
      false,
    )
    .option('--stats', 'print where the time went and what the rule engine did (rounds, plan runs, facts, bindings) to stderr', false)
    .action(async (file: string, o: Record<string, unknown>) => {
      const started = performance.now();
      outcome.code = await runInfer(file, o);
      if (o['stats'] === true) process.stderr.write(inferStatsText(engineWork(), phaseTimes(), performance.now() - started, performance.now()));
    });
}

/** Types `file` as its kind asks (ONNX, iterator IR, Relay, gradual Relay); the exit code. */
async function runInfer(file: string, o: Record<string, unknown>): Promise<number> {
  if (o['checksOnly'] === true && o['gradual'] !== true) {
    process.stderr.write('error: --checks-only needs --gradual\n');
    return 2;
  }
  if (o['gradual'] === true && file.endsWith('.itir')) {
    process.stderr.write('error: --gradual and --checks-only are for Relay programs (.relay) and ONNX models (.onnx)\n');
    return 2;
  }
  if (file.endsWith('.onnx')) {
    const { inferOnnx } = await import('./onnx-infer.js');
    return inferOnnx(file, {
      json: o['json'] === true,
      shapes: o['shape'] as string[],
      dims: o['dim'] as string[],
      values: o['value'] as string[],
      ...(typeof o['explain'] === 'string' ? { explain: o['explain'] } : {}),
      ...(typeof o['writeValueInfo'] === 'string' ? { writeValueInfo: o['writeValueInfo'] } : {}),
      gradual: o['gradual'] === true,
      checksOnly: o['checksOnly'] === true,
    });
  }
  if ((o['shape'] as string[]).length > 0 || (o['dim'] as string[]).length > 0 || (o['value'] as string[]).length > 0 || o['writeValueInfo'] !== undefined) {
    process.stderr.write('error: --shape, --dim, --value and --write-value-info are for .onnx models\n');
    return 2;
  }
  if (file.endsWith('.itir')) {
    const { inferItir } = await import('./itir.js');
    return inferItir(file, {
      strategy: o['strategy'] === 'twin' ? 'twin' : 'rules',
      json: o['json'] === true,
      ascii: o['ascii'] === true,
      ...(o['maxTime'] !== undefined ? { maxMillis: o['maxTime'] as number } : {}),
    });
  }
  if (o['strategy'] === 'twin') {
    process.stderr.write('error: --strategy twin is for .itir programs; use rules or relay\n');
    return 2;
  }
  if (o['gradual'] === true) {
    if (o['explain'] !== undefined) {
      process.stderr.write('error: --explain and --gradual do not go together: explain a binding without --gradual\n');
      return 2;
    }
    const { inferGradualCommand } = await import('./gradual.js');
    return (
      (await extraRelations((o['relations'] as string[] | undefined) ?? [])) ??
      inferGradualCommand(file, {
        strategy: o['strategy'] as 'rules' | 'relay',
        json: o['json'] === true,
        checksOnly: o['checksOnly'] === true,
        limits: o['maxTime'] !== undefined ? { maxMillis: o['maxTime'] as number } : {},
      })
    );
  }
  const { infer } = await import('./infer.js');
  return (
    (await extraRelations((o['relations'] as string[] | undefined) ?? [])) ??
    infer(file, {
      strategy: o['strategy'] as 'rules' | 'relay',
      json: o['json'] === true,
      ...(typeof o['explain'] === 'string' ? { explain: o['explain'] } : {}),
      internals: o['internals'] === true,
      limits: {
        ...(o['maxTime'] !== undefined ? { maxMillis: o['maxTime'] as number } : {}),
        ...(o['maxBindings'] !== undefined ? { maxBindings: o['maxBindings'] as number } : {}),
      },
    })
  );
}
