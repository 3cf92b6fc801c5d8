// The program-typing strategies by name, as a value (InferStrategy is only a type): what
// `shapelog bench` offers for Relay programs. Keyed by InferStrategy, so a new strategy fails
// the type check here until it is listed. No runtime imports: the CLI reads this without
// loading the typing code.
import type { InferStrategy } from './infer.js';

export const INFER_STRATEGIES: Readonly<Record<InferStrategy, string>> = {
  rules: 'the rule engine with relations/*.rules',
  relay: "Relay's own solver with the hand-coded relations",
};

export const INFER_STRATEGY_NAMES = Object.keys(INFER_STRATEGIES) as InferStrategy[];
