// Entry point for typing iterator-IR text: parse it (frontends/itir/), type it with the
// rules (the default) or the imperative twin, and render the result as the original
// prints types, in ASCII, or as JSON.
import { UserError } from '../../diagnostics/diagnostic.js';
import type { Limits } from '../../solver/engine/limits.js';
import { parseItir } from '../../frontends/itir/parse.js';
import { showType, typeJson } from './display.js';
import type { ItirOutcome, ItirStrategy } from './outcome.js';
import { inferItirRules } from './rules.js';
import { inferItirTwin } from './twin.js';

export type { ItirOutcome, ItirStrategy };

export function inferItirText(text: string, file: string, strategy: ItirStrategy = 'rules', limits: Partial<Limits> = {}): ItirOutcome {
  const started = Date.now();
  let program: ReturnType<typeof parseItir>;
  try {
    program = parseItir(text, file);
  } catch (e) {
    if (e instanceof UserError) return { items: [], diagnostics: [...e.diagnostics], millis: Date.now() - started };
    throw e;
  }
  return strategy === 'rules' ? inferItirRules(program, limits) : inferItirTwin(program);
}

/** One line per top-level item, in the original's notation. */
export function itirText(o: ItirOutcome, ascii = false): string {
  return o.items.map((i) => `${showType(i.type, ascii)}\n`).join('');
}

export function itirJson(o: ItirOutcome): unknown {
  return {
    items: o.items.map((i) => ({ line: i.span.start.line, type: showType(i.type), ascii: showType(i.type, true), structure: typeJson(i.type) })),
    diagnostics: o.diagnostics.map((d) => ({
      severity: d.severity,
      message: d.message,
      line: d.span?.start.line ?? null,
      column: d.span?.start.column ?? null,
      notes: d.notes,
    })),
  };
}
