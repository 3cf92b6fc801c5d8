// Runs one fuzz case in-process through what every command calls (query with each
// strategy, with and without a goal, and --explain; infer with both strategies, its
// printed program, JSON and --explain; typeof with both relation kinds; infer on an
// ONNX model: its listing, --json, --gradual, --explain and --write-value-info, whose
// model must read back; typeof --onnx on a node record; infer on an iterator-IR program
// with the rules and with their twin), and judges it: a user error or a limit error is a
// fine answer; any other exception is a crash; a run longer than its time limit (plus
// slack) is a hang; strategies that both succeed must agree (facts and answers for rules;
// binding types for Relay; types for typeof; item types for iterator IR).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDiagnostic, type Diagnostic, UserError } from '../../diagnostics/diagnostic.js';
import { LimitError, type Limits } from '../../solver/engine/limits.js';
import { type RunResult, runText, type StrategyName } from '../../solver/run.js';
import { inferJson, inferText, type InferResult, typedText } from '../../typing/infer.js';
import { inferItirText, itirJson, itirText } from '../../typing/itir/infer.js';
import { readModel } from '../../typing/onnx/model-types.js';
import { classify } from '../../proofs/cross-check/compare.js';
import { answerLine } from '../../cli/typeof.js';
import { inferOnnx } from '../../cli/onnx-infer.js';
import { answerOnnxLine } from '../../cli/onnx-typeof.js';
import type { FuzzCase } from './generators.js';

export type FuzzVerdict =
  | { readonly ok: true; readonly known?: string }
  | { readonly ok: false; readonly kind: 'crash' | 'hang' | 'mismatch'; readonly message: string };

export interface FuzzOptions {
  /** Time limit given to each run (the engine's --max-time). */
  readonly millis: number;
}

class Finding extends Error {
  constructor(
    readonly kind: 'crash' | 'hang' | 'mismatch' | 'known',
    message: string,
  ) {
    super(message);
  }
}

/** `f()`, or null for a user or limit error; a crash or a hang throws a Finding. */
function attempt<T>(what: string, limitMillis: number, f: () => T): T | null {
  const started = performance.now();
  let value: T | null = null;
  try {
    value = f();
  } catch (e) {
    if (!(e instanceof UserError || e instanceof LimitError)) {
      const stack = e instanceof Error ? (e.stack ?? e.message).split('\n').slice(0, 6).join('\n') : String(e);
      throw new Finding('crash', `${what}: ${stack}`);
    }
  }
  const took = performance.now() - started;
  if (took > 3 * limitMillis + 5000) throw new Finding('hang', `${what}: ${Math.round(took)} ms with a limit of ${limitMillis} ms`);
  return value;
}

/** What the CLI does with diagnostics: format each against the sources. */
function render(ds: readonly Diagnostic[], texts: ReadonlyMap<string, string>): void {
  for (const d of ds) formatDiagnostic(d, texts);
}

const STRATEGIES: readonly StrategyName[] = ['naive', 'seminaive', 'demand'];

function rulesCase(text: string, goal: string, limits: Partial<Limits>, millis: number): void {
  const plain = new Map<StrategyName, RunResult | null>();
  const goals = new Map<StrategyName, RunResult | null>();
  for (const strategy of STRATEGIES) {
    for (const [withGoal, into] of [
      [false, plain],
      [true, goals],
    ] as const) {
      const what = `query --strategy ${strategy}${withGoal ? ' --goal' : ''}`;
      const r = attempt(what, millis, () => {
        const r = runText(text, { file: 'fuzz.rules', strategy, limits, ...(withGoal ? { goal } : {}) });
        render(r.diagnostics, r.texts);
        r.factsByPredicate();
        void r.answers;
        void r.answerTexts;
        return r;
      });
      into.set(strategy, r);
    }
  }
  // --explain on the first fact shown
  const base = plain.get('seminaive');
  const first = base ? [...base.factsByPredicate().values()][0]?.[0] : undefined;
  if (base && first !== undefined) attempt('query --explain', millis, () => base.explain(first));
  const finished = (r: RunResult | null | undefined): r is RunResult => r != null && r.solver.limitHit === null;
  const [n, s] = [plain.get('naive'), plain.get('seminaive')];
  if (finished(n) && finished(s)) {
    const a = JSON.stringify([...n.factsByPredicate()]);
    const b = JSON.stringify([...s.factsByPredicate()]);
    if (a !== b)
      throw new Finding('mismatch', `query: naive and seminaive derive different facts:\n  naive:     ${a.slice(0, 400)}\n  seminaive: ${b.slice(0, 400)}`);
  }
  const answered = STRATEGIES.map((st) => [st, goals.get(st)] as const).filter((x): x is readonly [StrategyName, RunResult] => finished(x[1]));
  for (const [st, r] of answered.slice(1)) {
    const a = JSON.stringify(answered[0]![1].answers);
    const b = JSON.stringify(r.answers);
    if (a !== b)
      throw new Finding('mismatch', `query --goal: ${answered[0]![0]} and ${st} give different answers:\n  ${a.slice(0, 400)}\n  ${b.slice(0, 400)}`);
  }
}

function relayCase(text: string, limits: Partial<Limits>, millis: number): void {
  const results: InferResult[] = [];
  for (const strategy of ['rules', 'relay'] as const) {
    const r = attempt(`infer --strategy ${strategy}`, millis, () => {
      const r = inferText(text, 'fuzz.relay', strategy, limits);
      render(r.diagnostics, r.texts);
      typedText(r);
      inferJson(r);
      const call = r.outcome.bindings.find((b) => 'kind' in b.node && b.node.kind === 'call');
      if (call && 'kind' in call.node && call.node.kind === 'call') r.outcome.explainCall?.(call.node.span);
      return r;
    });
    if (r !== null) results.push(r);
  }
  const clean = results.filter((r) => !r.diagnostics.some((d) => d.severity === 'error'));
  if (clean.length === 2) {
    const key = (r: InferResult) => JSON.stringify({ functions: inferJson(r).functions, bindings: inferJson(r).bindings });
    const [a, b] = [key(clean[0]!), key(clean[1]!)];
    if (a !== b)
      throw new Finding(
        'mismatch',
        `infer: rules and relay strategies type the program differently:\n  rules: ${a.slice(0, 600)}\n  relay: ${b.slice(0, 600)}`,
      );
  }
}

function typeofCase(line: string, limits: Partial<Limits>, millis: number): void {
  const rules = attempt('typeof --relations rules', millis, () => answerLine(line, 'rules', limits));
  const relay = attempt('typeof --relations imperative', millis, () => answerLine(line, 'imperative', limits));
  if (rules === null || relay === null) throw new Finding('crash', 'typeof threw instead of answering the line');
  const v = classify(rules, relay);
  if (v.kind === 'disagree')
    throw new Finding('mismatch', `typeof: rules and imperative disagree:\n  rules:      ${JSON.stringify(rules)}\n  imperative: ${JSON.stringify(relay)}`);
}

/** Both strategies of `infer X.itir`: the rules and their imperative twin must type alike wherever both succeed. */
function itirCase(text: string, limits: Partial<Limits>, millis: number): void {
  const typed = (['rules', 'twin'] as const).map((strategy) =>
    attempt(`infer X.itir --strategy ${strategy}`, millis, () => {
      const o = inferItirText(text, 'fuzz.itir', strategy, limits);
      itirText(o);
      return itirJson(o) as { items: { type: string }[]; diagnostics: { severity: string }[] };
    }),
  );
  const [rules, twin] = typed;
  const clean = (j: typeof rules) => j !== null && j !== undefined && !j.diagnostics.some((d) => d.severity === 'error');
  if (clean(rules) && clean(twin)) {
    const a = JSON.stringify(rules!.items.map((i) => i.type));
    const b = JSON.stringify(twin!.items.map((i) => i.type));
    if (a !== b)
      throw new Finding(
        'mismatch',
        `infer X.itir: the rules and the twin type the program differently:\n  rules: ${a.slice(0, 400)}\n  twin:  ${b.slice(0, 400)}`,
      );
  }
}

let scratch: string | null = null;

/** A folder of this process for the ONNX cases' files, removed when the process ends. */
function scratchFolder(): string {
  if (scratch === null) {
    const dir = mkdtempSync(join(tmpdir(), 'shapelog-fuzz-onnx-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    scratch = dir;
  }
  return scratch;
}

/** `f()` with nothing written to stdout or stderr (the command prints what a case would). */
function silenced<T>(f: () => T): T {
  const out = process.stdout.write;
  const err = process.stderr.write;
  process.stdout.write = () => true;
  process.stderr.write = () => true;
  try {
    return f();
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

function onnxCase(model: string, millis: number): void {
  const file = join(scratchFolder(), 'model.onnx');
  const written = join(scratchFolder(), 'typed.onnx');
  writeFileSync(file, Buffer.from(model, 'base64'));
  rmSync(written, { force: true });
  const plain = { json: false, shapes: [], dims: [] };
  attempt('infer MODEL.onnx', millis, () => silenced(() => inferOnnx(file, plain)));
  attempt('infer MODEL.onnx --json', millis, () => silenced(() => inferOnnx(file, { ...plain, json: true })));
  attempt('infer MODEL.onnx --gradual --json', millis, () => silenced(() => inferOnnx(file, { ...plain, json: true, gradual: true })));
  const first = attempt('reading the model', millis, () => readModel(file).graph.nodes.find((n) => n.outputs.some((o) => o !== '')));
  const value = first?.outputs.find((o) => o !== '');
  if (value !== undefined) attempt(`infer MODEL.onnx --explain ${value}`, millis, () => silenced(() => inferOnnx(file, { ...plain, explain: value })));
  attempt('infer MODEL.onnx --write-value-info', millis, () => silenced(() => inferOnnx(file, { ...plain, writeValueInfo: written })));
  if (existsSync(written)) {
    try {
      readModel(written);
    } catch (e) {
      const why = e instanceof UserError ? e.diagnostics.map((d) => d.message).join('; ') : String(e);
      throw new Finding('mismatch', `the model --write-value-info wrote does not read back: ${why}`);
    }
  }
}

/** Runs the case and judges it. */
export function runFuzzCase(c: FuzzCase, options: FuzzOptions): FuzzVerdict {
  const limits: Partial<Limits> = { maxMillis: options.millis };
  try {
    if (c.kind === 'rules') rulesCase(c.text, c.goal, limits, options.millis);
    else if (c.kind === 'relay') relayCase(c.text, limits, options.millis);
    else if (c.kind === 'onnx') onnxCase(c.model, options.millis);
    else if (c.kind === 'onnx-node') attempt('typeof --onnx', options.millis, () => answerOnnxLine(c.line));
    else if (c.kind === 'itir') itirCase(c.text, limits, options.millis);
    else typeofCase(c.line, limits, options.millis);
    return { ok: true };
  } catch (e) {
    if (e instanceof Finding) return e.kind === 'known' ? { ok: true, known: e.message } : { ok: false, kind: e.kind, message: e.message };
    const stack = e instanceof Error ? (e.stack ?? e.message).split('\n').slice(0, 6).join('\n') : String(e);
    return { ok: false, kind: 'crash', message: `outside the commands: ${stack}` };
  }
}
