// What typing an iterator-IR program gives, whichever strategy typed it: the type of
// each top-level item (a definition, a closure, a fencil or the bare expression) in the
// original's notation (typing/itir/display.ts), or located diagnostics.
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Span } from '../../frontends/itir/ast.js';
import type { Shown } from './display.js';

export interface ItirItem {
  readonly span: Span;
  readonly type: Shown;
}

export interface ItirOutcome {
  readonly items: readonly ItirItem[];
  readonly diagnostics: readonly Diagnostic[];
  readonly millis: number;
}

export type ItirStrategy = 'rules' | 'twin';
