// User-facing diagnostics: a message a person can act on, anchored at a span.
import type { Span } from './span.js';

export type Severity = 'error' | 'warning' | 'note';

export interface Diagnostic {
  readonly severity: Severity;
  /** A short machine-readable category: `syntax`, `arity`, `unsafe`, `limit`, `clash`, ... */
  readonly code: string;
  readonly message: string;
  readonly span: Span | null;
  /** Extra lines shown under the caret (expected tokens, the rule that produced a fact, ...). */
  readonly notes: readonly string[];
}

export function diagnostic(severity: Severity, code: string, message: string, span: Span | null, notes: readonly string[] = []): Diagnostic {
  return { severity, code, message, span, notes };
}

/** Thrown for user mistakes; the CLI prints it and exits 1. Never for bugs. */
export class UserError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map((d) => d.message).join('\n'));
    this.name = 'UserError';
    this.diagnostics = diagnostics;
  }
}

/** Source texts by file name, so a diagnostic can quote the offending line. */
export type SourceMap = ReadonlyMap<string, string>;

/**
 * `file:line:column: error: message`, then the offending line and a caret under the
 * span's start (`^~~~` across the span when it stays on one line), then the notes.
 */
export function formatDiagnostic(d: Diagnostic, sources: SourceMap): string {
  const out: string[] = [];
  if (d.span === null) {
    out.push(`${d.severity}: ${d.message}`);
  } else {
    const { file, start, end } = d.span;
    out.push(`${file}:${start.line}:${start.column}: ${d.severity}: ${d.message}`);
    const text = sources.get(file);
    if (text !== undefined) {
      const line = text.split(/\r?\n/)[start.line - 1];
      if (line !== undefined) {
        // a long line is shown as a window of at most 200 characters around the span's start
        const from = start.column > 160 ? start.column - 1 - 80 : 0;
        const window = line.slice(from, from + 200);
        const shown = `${from > 0 ? '... ' : ''}${window}${from + 200 < line.length ? ' ...' : ''}`;
        const width = end.line === start.line ? Math.max(1, Math.min(end.column - start.column, 80)) : 1;
        const pad = `${from > 0 ? '    ' : ''}${window.slice(0, start.column - 1 - from)}`.replace(/[^\t]/g, ' ');
        out.push(`  ${shown}`);
        out.push(`  ${pad}^${'~'.repeat(Math.max(0, width - 1))}`);
      }
    }
  }
  for (const note of d.notes) out.push(`  note: ${note}`);
  return out.join('\n');
}
