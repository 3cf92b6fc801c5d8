// `shapelog infer FILE.itir`: type a GT4Py iterator-IR program and print the most
// general type of each top-level item in the original's notation (`--ascii`: plain
// ASCII; `--json`: a structured form), or located errors (exit 1).
import { readFileSync } from 'node:fs';
import { diagnostic } from '../diagnostics/diagnostic.js';
import { inferItirText, itirJson, itirText, type ItirStrategy } from '../typing/itir/infer.js';
import { EXIT_OK, EXIT_USER_ERROR, printDiagnostics } from './report.js';

export interface ItirOptions {
  readonly strategy: ItirStrategy;
  readonly json: boolean;
  readonly ascii: boolean;
  readonly maxMillis?: number;
}

export function inferItir(file: string, o: ItirOptions): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const why = e instanceof Error && 'code' in e && e.code === 'ENOENT' ? 'no such file' : e instanceof Error ? e.message : String(e);
    printDiagnostics([diagnostic('error', 'file', `cannot read ${file}: ${why}`, null)], new Map(), { warnings: true });
    return EXIT_USER_ERROR;
  }
  const outcome = inferItirText(text, file, o.strategy, o.maxMillis !== undefined ? { maxMillis: o.maxMillis } : {});
  const failed = outcome.diagnostics.some((d) => d.severity === 'error');
  if (o.json) process.stdout.write(`${JSON.stringify(itirJson(outcome), null, 2)}\n`);
  else {
    process.stdout.write(itirText(outcome, o.ascii));
    printDiagnostics(outcome.diagnostics, new Map([[file, text]]), { warnings: true });
  }
  return failed ? EXIT_USER_ERROR : EXIT_OK;
}
