// `shapelog infer FILE.relay`: type a Relay program; print it back with every binding's type.
import { timed } from '../diagnostics/phase-times.js';
import { readSource } from '../diagnostics/read-source.js';
import { inferJson, type InferLimits, inferText, type InferStrategy, typedText } from '../typing/infer.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import { ProgramError } from '../solver/run.js';
import { explainBinding } from '../typing/explain-binding.js';
import { closest } from '../diagnostics/suggest.js';
import { EXIT_OK, EXIT_USER_ERROR, printDiagnostics } from './report.js';

export interface InferOptions {
  strategy: InferStrategy;
  json: boolean;
  explain?: string;
  /** With --explain: also the engine's derivation, internal helper relations included. */
  internals?: boolean;
  limits: InferLimits;
}

export function infer(file: string, o: InferOptions): number {
  const read = timed('read', () => readSource(file));
  if (!read.ok) {
    printDiagnostics([diagnostic('error', 'file', `cannot read ${file}: ${read.why}`, null)], new Map(), { warnings: true });
    return EXIT_USER_ERROR;
  }
  const text = read.text;
  let result: ReturnType<typeof inferText>;
  try {
    result = inferText(text, file, o.strategy, o.limits);
  } catch (e) {
    if (e instanceof ProgramError) {
      if (o.json)
        process.stdout.write(
          `${JSON.stringify({ functions: {}, bindings: [], diagnostics: e.diagnostics.map((d) => ({ severity: d.severity, message: d.message, line: d.span?.start.line ?? null, column: d.span?.start.column ?? null })) })}\n`,
        );
      else printDiagnostics(e.diagnostics, e.texts, { warnings: true });
      if (!o.json && file.endsWith('.rules'))
        process.stderr.write(`note: infer types a Relay program (or an ONNX model); to solve a rule file, run \`shapelog query ${file}\`\n`);
      return EXIT_USER_ERROR;
    }
    throw e;
  }
  return timed('print', () => printInferred(file, result, o));
}

/** Prints the typed program (or --json, or --explain's answer) and its diagnostics; the exit code. */
function printInferred(file: string, result: ReturnType<typeof inferText>, o: InferOptions): number {
  const failed = result.diagnostics.some((d) => d.severity === 'error');
  if (o.json) {
    process.stdout.write(`${JSON.stringify(inferJson(result), null, 2)}\n`);
    return failed ? EXIT_USER_ERROR : EXIT_OK;
  }
  if (o.explain !== undefined) {
    const name = o.explain.startsWith('%') ? o.explain : `%${o.explain}`;
    const why = explainBinding(result, name, { internals: o.internals === true });
    if (why === null) {
      const names = result.outcome.bindings.map((x) => x.name);
      const hint = closest(name, names);
      printDiagnostics([diagnostic('error', 'explain', `no binding ${name} in ${file}${hint === null ? '' : `; did you mean ${hint}?`}`, null)], new Map(), {
        warnings: true,
      });
      return EXIT_USER_ERROR;
    }
    process.stdout.write(why);
  } else {
    process.stdout.write(typedText(result));
  }
  printDiagnostics(result.diagnostics, result.texts, { warnings: true });
  return failed ? EXIT_USER_ERROR : EXIT_OK;
}
