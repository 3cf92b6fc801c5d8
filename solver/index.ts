// shapelog's public API.
export { runText, runFiles, runSources, prepareText, type PreparedProgram, RunResult, ProgramError, type RunOptions, type StrategyName } from './run.js';
export { type Limits, DEFAULT_LIMITS, LimitError } from './engine/limits.js';
export { type Diagnostic, formatDiagnostic, UserError } from '../diagnostics/diagnostic.js';
export { parseProgram, parseGoal, parseTerm } from './language/parse.js';
