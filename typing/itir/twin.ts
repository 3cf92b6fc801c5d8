// placeholder
import type { Program } from '../../frontends/itir/ast.js';
import type { ItirOutcome } from './outcome.js';
export function inferItirTwin(_p: Program): ItirOutcome { return { items: [], diagnostics: [], millis: 0 }; }
