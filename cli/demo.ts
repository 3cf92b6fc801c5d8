// `shapelog demo` (what `npm start` runs): every bundled example, solved with every
// strategy; the strategies must derive the same facts and the same goal answers.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProgramError, type RunResult, runFiles, type StrategyName } from '../solver/run.js';
import { EXIT_OK, EXIT_USER_ERROR, printDiagnostics } from './report.js';

const examplesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples', 'rules');

interface Row {
  example: string;
  goal: string | null;
  facts: number;
  answers: number | null;
  errors: number;
  undecided: number;
  millis: Record<StrategyName, number>;
  agree: boolean;
}

function snapshot(r: RunResult): string {
  return JSON.stringify([...r.factsByPredicate()]);
}

export function demo(options: { json: boolean }): number {
  const files = readdirSync(examplesDir).filter((f) => f.endsWith('.rules')).sort();
  const rows: Row[] = [];
  for (const f of files) {
    const path = join(examplesDir, f);
    const goal = /^%\s*demo-goal:\s*(.+)$/m.exec(readFileSync(path, 'utf8'))?.[1]?.trim() ?? null;
    const results = {} as Record<StrategyName, RunResult>;
    try {
      for (const s of ['naive', 'seminaive', 'demand'] as const) results[s] = runFiles([path], { strategy: s, ...(goal ? { goal } : {}) });
    } catch (e) {
      if (e instanceof ProgramError) {
        printDiagnostics(e.diagnostics, e.texts, { warnings: true });
        return EXIT_USER_ERROR;
      }
      throw e;
    }
    const base = results.seminaive;
    const agree =
      snapshot(results.naive) === snapshot(base) &&
      JSON.stringify(results.naive.answers) === JSON.stringify(base.answers) &&
      JSON.stringify(results.demand.answers) === JSON.stringify(base.answers);
    const ds = base.diagnostics;
    rows.push({
      example: f,
      goal,
      facts: [...base.factsByPredicate().values()].reduce((n, x) => n + x.length, 0),
      answers: base.answers?.length ?? null,
      errors: ds.filter((d) => d.severity === 'error').length,
      undecided: ds.filter((d) => d.code === 'undecided').length,
      millis: { naive: results.naive.stats.millis, seminaive: base.stats.millis, demand: results.demand.stats.millis },
      agree,
    });
  }
  if (options.json) {
    process.stdout.write(JSON.stringify({ examples: rows }, null, 2) + '\n');
  } else {
    const header = ['example', 'facts', 'goal answers', 'errors', 'undecided', 'naive ms', 'seminaive ms', 'demand ms', 'agree'];
    const table = rows.map((r) => [r.example, String(r.facts), r.answers === null ? '-' : String(r.answers), String(r.errors), String(r.undecided), String(r.millis.naive), String(r.millis.seminaive), String(r.millis.demand), r.agree ? 'yes' : 'NO']);
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    process.stdout.write(`shapelog demo: examples/rules/*.rules with every strategy (errors and undecided conditions are part of the examples)\n\n`);
    process.stdout.write(line(header) + '\n' + widths.map((w) => '-'.repeat(w)).join('  ') + '\n');
    for (const t of table) process.stdout.write(line(t) + '\n');
    process.stdout.write(`\nTry: npx shapelog query examples/rules/broadcast.rules\n     npx shapelog query examples/rules/graph.rules --goal 'path(a, X)' --json\n`);
  }
  return rows.every((r) => r.agree) ? EXIT_OK : EXIT_USER_ERROR;
}
