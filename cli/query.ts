// `shapelog query FILE.rules`: solve rule files, print facts, answers or a derivation.
import type { StrategyName } from '../solver/compile/program.js';
import type { Limits } from '../solver/engine/limits.js';
import { UserError } from '../diagnostics/diagnostic.js';
import { ProgramError, runFiles } from '../solver/run.js';
import { termJson } from '../solver/terms/print.js';
import { writeAllFacts } from './print-facts.js';
import { EXIT_OK, EXIT_USER_ERROR, printDiagnostics, ProgressLine } from './report.js';

export interface QueryOptions {
  goal?: string;
  /** Default: chosen by the engine (solver/run.ts defaultStrategy). */
  strategy?: StrategyName;
  json: boolean;
  explain?: string;
  stats: boolean;
  warnings: boolean;
  verbose: boolean;
  limits: Partial<Limits>;
}

export function query(files: string[], o: QueryOptions): number {
  const progress = new ProgressLine();
  let result: ReturnType<typeof runFiles>;
  try {
    result = runFiles(files, {
      ...(o.strategy !== undefined ? { strategy: o.strategy } : {}),
      limits: o.limits,
      ...(o.goal !== undefined ? { goal: o.goal } : {}),
      onProgress: (p) => progress.update(`round ${p.round} (stratum ${p.stratum}), ${p.facts} facts, ${(p.millis / 1000).toFixed(1)} s`, p.millis),
    });
  } catch (e) {
    progress.done();
    if (e instanceof ProgramError) {
      printDiagnostics(e.diagnostics, e.texts, { warnings: true });
      return EXIT_USER_ERROR;
    }
    throw e;
  }
  progress.done();
  const diagnostics = result.diagnostics;
  const out: string[] = [];
  if (result.solver.limitHit !== null) {
    // the partial result of a runaway program can be huge: report, do not print it
    printDiagnostics(diagnostics, result.texts, { warnings: o.warnings });
    process.stderr.write(`${result.solver.db.factCount} facts were derived before the limit; they are not printed\n`);
    return EXIT_USER_ERROR;
  }
  // what --stats reports as printing: from here (solved) until the output is written
  const printStart = performance.now();
  if (o.explain !== undefined) {
    try {
      out.push(result.explain(o.explain));
    } catch (e) {
      if (e instanceof UserError) {
        printDiagnostics(e.diagnostics, new Map([['<explain>', o.explain]]), { warnings: true });
        printDiagnostics(diagnostics, result.texts, { warnings: o.warnings });
        return EXIT_USER_ERROR;
      }
      throw e;
    }
  } else if (o.goal !== undefined) {
    if (o.json) out.push(JSON.stringify(result.answers));
    else {
      const answers = result.answerTexts ?? [];
      out.push(answers.length === 0 ? 'false.' : answers.map((a) => `${a}.`).join('\n'));
    }
  } else if (o.json) {
    const facts: Record<string, unknown[]> = {};
    for (const pred of result.factsByPredicate().keys()) facts[pred] = result.tuples(pred).map((row) => row.map((t) => termJson(result.store, t)));
    out.push(JSON.stringify({ facts }));
  } else {
    writeAllFacts(result);
  }
  if (out.length > 0) process.stdout.write(`${out.join('\n')}\n`);
  const printMs = performance.now() - printStart;
  printDiagnostics(diagnostics, result.texts, { warnings: o.warnings, notes: o.verbose });
  if (o.stats) {
    const s = result.stats;
    process.stderr.write(
      `strategy ${result.strategy}: ${s.rounds} rounds in ${s.strata} strata, ${s.facts} facts (${s.derived} derived, ${s.rebuilt} rebuilt), ${s.bindings} bindings, ${s.planRuns} plan runs, ${s.millis} ms\nprinted in ${Math.round(printMs)} ms\n`,
    );
  }
  // with --goal the answers are the result: error facts elsewhere are reported, but do not fail it
  if (o.goal !== undefined && o.explain === undefined) return EXIT_OK;
  return diagnostics.some((d) => d.severity === 'error') ? EXIT_USER_ERROR : EXIT_OK;
}
