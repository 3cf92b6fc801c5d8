// The engine's evaluation strategies by name, as a value (StrategyName is only a type):
// what `shapelog bench` offers for rule files. Keyed by StrategyName, so a strategy added to
// the engine fails the type check here until it is listed (and so becomes benchmarkable).
// No runtime imports: the CLI reads this without loading the engine.
import type { StrategyName } from './compile/program.js';

export const ENGINE_STRATEGIES: Readonly<Record<StrategyName, string>> = {
  naive: 'every rule on every fact, each round',
  seminaive: 'semi-naive: each round joins only the facts new in the previous round',
  demand: 'semi-naive with helpers evaluated on demand (magic sets)',
  mutable: 'semi-naive over a mutable store (no snapshots): what persistence costs',
};

export const ENGINE_STRATEGY_NAMES = Object.keys(ENGINE_STRATEGIES) as StrategyName[];
