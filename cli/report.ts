// Writing diagnostics and progress to the terminal.
import pc from 'picocolors';
import { type Diagnostic, formatDiagnostic, type SourceMap } from '../diagnostics/diagnostic.js';

export const EXIT_OK = 0;
export const EXIT_USER_ERROR = 1;
export const EXIT_USAGE = 2;

export function printDiagnostics(diagnostics: readonly Diagnostic[], sources: SourceMap, options: { warnings: boolean; notes?: boolean }): void {
  const color = process.stderr.isTTY === true;
  for (const d of diagnostics) {
    if (d.severity !== 'error' && !options.warnings) continue;
    if (d.severity === 'note' && options.notes !== true) continue;
    let text = formatDiagnostic(d, sources);
    if (color) {
      const tag = d.severity === 'error' ? pc.red(pc.bold('error')) : d.severity === 'warning' ? pc.yellow(pc.bold('warning')) : pc.cyan('note');
      text = text.replace(`${d.severity}:`, `${tag}:`);
    }
    process.stderr.write(`${text}\n`);
  }
}

/** A one-line progress display on a terminal, shown only once a run has taken a second. */
export class ProgressLine {
  private shown = false;
  private last = 0;
  private readonly enabled = process.stderr.isTTY === true;

  update(text: string, elapsedMs: number): void {
    if (!this.enabled || elapsedMs < 1000) return;
    const now = Date.now();
    if (now - this.last < 100) return;
    this.last = now;
    this.shown = true;
    process.stderr.write(`\r\x1b[2K${pc.dim(text)}`);
  }

  done(): void {
    if (this.shown) process.stderr.write('\r\x1b[2K');
    this.shown = false;
  }
}

/**
 * Output piped into a reader that stops early (`shapelog infer MODEL | head`): a write to
 * the closed pipe fails with EPIPE, and without a listener node would crash with a stack
 * trace. Then stop quietly, as the standard tools do (nobody reads the rest), with exit
 * code 0. Any other failure to write the output (a full disk) is a one-line error, exit 1.
 */
export function stopWhenOutputCloses(): void {
  if (process.stdout.listeners('error').includes(onOutputError)) return; // main() runs more than once in tests
  process.stdout.on('error', onOutputError);
}

function onOutputError(e: NodeJS.ErrnoException): void {
  if (e.code === 'EPIPE') process.exit(EXIT_OK);
  process.stderr.write(`error: cannot write the output: ${e.message}\n`);
  process.exit(EXIT_USER_ERROR);
}
