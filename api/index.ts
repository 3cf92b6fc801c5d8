// shapelog as a library: the package's `exports` (see docs/api.md, whose examples
// test/api-docs.test.ts runs against the built package).
//
//   solve(rules) / solve({ files })   solve rules; read the facts; ask a goal; explain a fact
//   typeProgram(text)                 type a Relay program with either strategy
//   typeOf(call)                      the types of one operator call
//   crossCheck(options)               rules vs hand-coded relations vs the reference executor
//
// Everything here is a thin layer over the engine (solver/), program typing (typing/)
// and the cross-check (proofs/); it exposes plain data (strings, JSON values,
// diagnostics), not the engine's term ids.
import { readFileSync } from 'node:fs';
import { type Diagnostic, diagnostic, formatDiagnostic, UserError } from '../diagnostics/diagnostic.js';
import type { Limits } from '../solver/engine/limits.js';
import { loadFiles, loadText, type LoadedSources } from '../solver/load.js';
import { ProgramError, type RunResult, runSources, type StrategyName } from '../solver/run.js';
import { type JsonValue, termJson } from '../solver/terms/print.js';
import { inferJson, inferText, type InferJson, type InferResult, type InferStrategy, typedText } from '../typing/infer.js';
import { typeofCall, type TypeofAnswer, type TypeofRequest } from '../typing/typeof.js';
import { allOps, lookupOp } from '../relations/catalogue.js';
import { hasCaseGenerator } from '../proofs/cross-check/cases.js';
import { checkOp, type OpCheck } from '../proofs/cross-check/harness.js';

export { DEFAULT_LIMITS, LimitError, type Limits } from '../solver/engine/limits.js';
export { type Diagnostic, type Severity, formatDiagnostic, UserError } from '../diagnostics/diagnostic.js';
export type { Span, Position } from '../diagnostics/span.js';
export { ProgramError, type StrategyName } from '../solver/run.js';
export type { JsonValue } from '../solver/terms/print.js';
export type { InferJson, InferStrategy } from '../typing/infer.js';
export type { TypeofAnswer, TypeofRequest } from '../typing/typeof.js';
export type { OpCheck, Counterexample, ReferenceSummary, ReferenceProblem } from '../proofs/cross-check/harness.js';

// ---- rules ----------------------------------------------------------------

/** Rule text, or rule files to read (their `import`s are followed). */
export type RuleSource = string | { readonly files: readonly string[] };

export interface SolveOptions {
  /** `seminaive` (default), `naive`, or `demand` (goal-directed: magic sets). */
  readonly strategy?: StrategyName;
  /** A goal such as `path(1, X)`: its answers are in `Solution.answers`. */
  readonly goal?: string;
  /** Stop at this many rounds, facts, milliseconds or term depth (a `LimitError` diagnostic). */
  readonly limits?: Partial<Limits>;
  /** Label of rule text in diagnostics (default `<input>`). */
  readonly file?: string;
}

/**
 * Solves rules to their fixpoint. Throws a `ProgramError` (with `diagnostics` and
 * `format()`) for unreadable files, syntax errors and static errors; errors found
 * while solving (`error(...)` facts, clashes, a limit) are in `Solution.diagnostics`.
 */
export function solve(source: RuleSource, options: SolveOptions = {}): Solution {
  const sources = typeof source === 'string' ? loadText(source, options.file ?? '<input>') : loadFiles(source.files);
  return new Solution(sources, options, run(sources, options));
}

function run(sources: LoadedSources, options: SolveOptions): RunResult {
  return runSources(sources, {
    ...(options.strategy !== undefined ? { strategy: options.strategy } : {}),
    ...(options.goal !== undefined ? { goal: options.goal } : {}),
    ...(options.limits !== undefined ? { limits: options.limits } : {}),
  });
}

/** The facts a set of rules derives, with their diagnostics and derivations. */
export class Solution {
  /** @internal */
  constructor(
    private readonly sources: LoadedSources,
    private readonly options: SolveOptions,
    private readonly result: RunResult,
  ) {}

  /** No errors: no `error(...)` fact, clash, arithmetic error or limit hit. */
  get ok(): boolean {
    return this.result.ok;
  }

  /** Errors and warnings (e.g. an undecided `n == 1`), in the order found. */
  get diagnostics(): Diagnostic[] {
    return this.result.diagnostics;
  }

  /** Every derived fact as text (`path(1, 2)`), grouped by predicate; both sorted. */
  facts(): Map<string, string[]> {
    return this.result.factsByPredicate();
  }

  /** The argument tuples of one predicate as JSON values (see docs/api.md for the mapping), sorted. */
  tuples(predicate: string): JsonValue[][] {
    const store = this.result.store;
    return this.result.tuples(predicate).map((row) => row.map((t) => termJson(store, t)));
  }

  /** The answers to `options.goal`, one object per distinct answer (null without a goal). */
  get answers(): Record<string, JsonValue>[] | null {
    return this.result.answers;
  }

  /**
   * The answers to a goal over the same rules: `[{ X: 2 }, { X: 3 }]`; `[{}]` when a goal
   * without variables holds, `[]` when it does not. Solves again, directed by the goal.
   */
  ask(goal: string, options: Pick<SolveOptions, 'strategy' | 'limits'> = {}): Record<string, JsonValue>[] {
    return run(this.sources, { ...this.options, ...options, goal }).answers ?? [];
  }

  /** The derivation tree of a derived fact, e.g. `explain('path(1, 3)')`. Throws a `UserError` when it does not hold. */
  explain(fact: string): string {
    return this.result.explain(fact);
  }

  /** A diagnostic as the command line prints it, quoting the source line. */
  format(d: Diagnostic): string {
    return formatDiagnostic(d, this.result.texts);
  }

  /** Rounds, facts and time of the run. */
  get stats(): { readonly rounds: number; readonly facts: number; readonly millis: number } {
    const s = this.result.stats;
    return { rounds: s.rounds, facts: s.facts, millis: s.millis };
  }
}

// ---- typing programs --------------------------------------------------------

export interface TypeOptions {
  /** `rules` (default): the rule engine with relations/*.rules; `relay`: Relay's own solver with the hand-coded relations. */
  readonly strategy?: InferStrategy;
  /** Label of the program in diagnostics (default `<input>`). */
  readonly file?: string;
  readonly limits?: Partial<Limits>;
}

/**
 * Types a Relay program (TVM's text format). Throws a `ProgramError` on a syntax
 * error; type errors are in `TypedProgram.diagnostics`.
 */
export function typeProgram(source: string | { readonly file: string }, options: TypeOptions = {}): TypedProgram {
  const file = typeof source === 'string' ? (options.file ?? '<input>') : source.file;
  let text: string;
  if (typeof source === 'string') text = source;
  else {
    try {
      text = readFileSync(source.file, 'utf8');
    } catch (e) {
      throw new ProgramError([diagnostic('error', 'file', `cannot read ${source.file}: ${e instanceof Error ? e.message : String(e)}`, null)], new Map());
    }
  }
  return new TypedProgram(inferText(text, file, options.strategy ?? 'rules', options.limits ?? {}));
}

/** A typed Relay program. */
export class TypedProgram {
  /** @internal */
  constructor(private readonly result: InferResult) {}

  /** No type errors. */
  get ok(): boolean {
    return this.result.diagnostics.every((d) => d.severity !== 'error');
  }

  get diagnostics(): Diagnostic[] {
    return this.result.diagnostics;
  }

  /** The program printed back with every binding's type (`/* ty=... *\/`), as TVM prints it. */
  get text(): string {
    return typedText(this.result);
  }

  /** `{functions, bindings, diagnostics}`: what `shapelog infer --json` prints. */
  toJSON(): InferJson {
    return inferJson(this.result);
  }

  /** The type of a binding (`%3`) or parameter (`%x`), or null. With several functions, the first binding of that name. */
  typeOf(binding: string): string | null {
    const name = binding.startsWith('%') ? binding : `%${binding}`;
    return this.result.outcome.bindings.find((b) => b.name === name)?.type ?? null;
  }

  /**
   * Why a binding has its type: the derivation of the operator call's relation instance
   * (rules strategy), or null when the binding is not an operator call or the strategy
   * keeps no derivations.
   */
  explain(binding: string): string | null {
    const name = binding.startsWith('%') ? binding : `%${binding}`;
    const b = this.result.outcome.bindings.find((x) => x.name === name);
    if (b === undefined) throw new UserError([diagnostic('error', 'explain', `no binding ${name}`, null)]);
    return 'kind' in b.node && b.node.kind === 'call' ? (this.result.outcome.explainCall?.(b.node.span) ?? null) : null;
  }

  /** A diagnostic as the command line prints it, quoting the source line. */
  format(d: Diagnostic): string {
    return formatDiagnostic(d, this.result.texts);
  }
}

/**
 * The types of one operator call: `{op, attrs, args}` with argument types in Relay
 * syntax (`_` for unknown) gives `{type, args}` (argument types as refined by the call)
 * or `{error}`. `relations`: `rules` (default) or `imperative` (the hand-coded twins).
 */
export function typeOf(call: TypeofRequest, options: { readonly relations?: 'rules' | 'imperative' } = {}): TypeofAnswer {
  return typeofCall(call, options.relations === 'imperative' ? 'relay' : 'rules');
}

// ---- the cross-check ----------------------------------------------------------

export interface CrossCheckOptions {
  /** Operators to check (default: every operator in the catalogue). */
  readonly ops?: readonly string[];
  /** Sweep cases whose tensors have rank <= depth, 0-4 (default 4). */
  readonly depth?: number;
  /** Seeded random cases per operator (default 0). */
  readonly random?: number;
  /** Seed of the random cases (default: a fresh one, reported). */
  readonly seed?: number;
  /** Also run every small case on the reference executor (default true). */
  readonly reference?: boolean;
}

export interface CrossCheckReport {
  /** No disagreement between the strategies and no unsound answer. */
  readonly ok: boolean;
  readonly seed: number;
  readonly ops: OpCheck[];
}

/**
 * Types every sweep (and random) case of each operator with the rules and with the
 * hand-coded twin, which must agree exactly, and runs small cases on the reference
 * executor, whose output shape must be the inferred one. Throws a `UserError` for an
 * unknown operator.
 */
export function crossCheck(options: CrossCheckOptions = {}): CrossCheckReport {
  const ops = options.ops ?? allOps().map((op) => op.name);
  const unknown = ops.map((name) => lookupOp(name)).filter((r) => !r.ok);
  if (unknown.length > 0) throw new UserError(unknown.map((r) => diagnostic('error', 'usage', (r as { message: string }).message, null)));
  const missing = ops.filter((op) => !hasCaseGenerator(op));
  if (missing.length > 0) throw new UserError([diagnostic('error', 'usage', `no sweep case generator for ${missing.join(', ')}`, null)]);
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const reports = ops.map((op) => checkOp(op, { depth: options.depth ?? 4, random: options.random ?? 0, seed, reference: options.reference ?? true }));
  const ok = reports.every(
    (r) => r.disagree === 0 && (r.reference === null || (r.reference.unsound === 0 && r.reference.crashed === 0 && r.reference.stricterUnexpected === 0)),
  );
  return { ok, seed, ops: reports };
}
