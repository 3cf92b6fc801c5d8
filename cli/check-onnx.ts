// `shapelog check --onnx`: the ONNX operators' rules cross-checked against ONNX's own
// shape inference (python3-onnx, in a child process) and onnxruntime's execution
// (onnxruntime-node), on each operator's sweep (proofs/onnx-cross-check/cases.ts) and
// --random seeded random edits. Prints a per-operator table (or --json); writes each
// disagreement, shrunk, as a one-node .onnx file with a line saying which side the
// execution supports. Exits 1 when the execution contradicts the rules, or the rules
// contradict ONNX's inference where nothing could be executed.
import { accessSync, constants, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SingleBar } from 'cli-progress';
import { allSeeds, opKey, randomCase, seeded, seededOps, sweepOf, type OnnxCase } from '../proofs/onnx-cross-check/cases.js';
import { isDisagreement, isFailure, recordModel, runCase, shrinkCase, verdictOf, type CaseOutcome, type Sides } from '../proofs/onnx-cross-check/harness.js';
import { findPython, ONNX_PYTHON_HINT, OnnxInference } from '../proofs/onnx-cross-check/onnx-inference.js';
import { loadRuntime, stopRuntime } from '../proofs/onnx-cross-check/runtime.js';
import { EXIT_OK, EXIT_USAGE, EXIT_USER_ERROR } from './report.js';
import { MAX_RANDOM } from './check.js';
import { commaList } from './program.js';

export interface CheckOnnxOptions {
  readonly ops?: string;
  readonly random: number;
  readonly seed?: number;
  readonly json: boolean;
  /** Where disagreements are written (default: onnx-disagreements/). */
  readonly out?: string;
}

/** Disagreements shrunk and written per operator (the rest are counted). */
const WRITTEN_PER_OP = 3;

const AGREEMENTS = ['agree', 'rules-more-precise', 'onnx-more-precise', 'each-more-precise', 'contradict', 'rules-reject', 'onnx-rejects'] as const;
const TRUTHS = ['exact', 'consistent', 'wrong', 'rejects', 'no-execution'] as const;

interface OpReport {
  readonly op: string;
  readonly cases: number;
  /** Rules vs ONNX's inference (cases where ONNX's inference knows the opset). */
  readonly agreement: Record<string, number>;
  /** Each side against onnxruntime's execution. */
  readonly rules: Record<string, number>;
  readonly onnx: Record<string, number>;
  readonly disagreements: Disagreement[];
  readonly failures: number;
}

/** A disagreement as reported, with the file it was written to (null: not written). */
interface Disagreement {
  readonly label: string;
  readonly file: string | null;
  readonly agreement: string | null;
  readonly rules: string;
  readonly onnx: string | null;
  readonly verdict: string;
  readonly record: unknown;
  readonly answers: unknown;
}

/** The versions of ONNX's inference (null: not available) and of onnxruntime-node the run used, as printed. */
interface SidesInfo {
  readonly onnx: { readonly version: string; readonly max_opset: number; readonly python: string } | null;
  readonly onnxruntime: string;
}

/** Makes `dir` and its missing parents one at a time (node's recursive mkdir loops on /proc). */
function makeDir(dir: string): void {
  if (existsSync(dir)) return;
  makeDir(dirname(resolve(dir)));
  mkdirSync(dir);
}

/** Why disagreements cannot be written into `dir` (it, or the folder it would be made in, is not a writable folder), or null. */
function unwritableDir(dir: string): string | null {
  let probe = resolve(dir);
  while (!existsSync(probe) && dirname(probe) !== probe) probe = dirname(probe);
  if (!statSync(probe).isDirectory()) return `${probe} is not a folder`;
  try {
    accessSync(probe, constants.W_OK);
    return null;
  } catch {
    return `${probe} is not writable`;
  }
}

function count<T extends string>(keys: readonly T[], values: readonly (T | null)[]): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(keys.map((k) => [k, 0]));
  for (const v of values) if (v !== null) out[v] = (out[v] ?? 0) + 1;
  return out;
}

export async function checkOnnxCommand(o: CheckOnnxOptions): Promise<number> {
  const ops = opsToCheck(o.ops);
  if (ops === null) return EXIT_USAGE;
  if (o.random > MAX_RANDOM) {
    process.stderr.write(
      `shapelog check --onnx: --random is at most ${MAX_RANDOM.toLocaleString('en-US')} cases per operator (got ${o.random}); run several seeds instead\n`,
    );
    return EXIT_USAGE;
  }
  const outDir = o.out ?? 'onnx-disagreements';
  const unwritable = unwritableDir(outDir);
  if (unwritable !== null) {
    process.stderr.write(`shapelog check --onnx: --out ${outDir}: ${unwritable}\n`);
    return EXIT_USAGE;
  }
  const runtime = await loadRuntime();
  if (!runtime.ok) {
    process.stderr.write(
      `shapelog check --onnx: onnxruntime-node is not installed (${runtime.reason}); install it with: npm install onnxruntime-node --onnxruntime-node-install=skip\n`,
    );
    return EXIT_USAGE;
  }
  const inference = await startInference();
  const seed = o.seed ?? Math.floor(Math.random() * 2 ** 31);
  const casesOf = casesOfOps(ops, seed, o.random);
  const total = [...casesOf.values()].reduce((s, cs) => s + cs.length, 0);
  const started = Date.now();
  const bar =
    !o.json && process.stderr.isTTY === true
      ? new SingleBar({ format: ' {bar} {percentage}% | {value}/{total} cases | {op} | {eta_formatted} left', hideCursor: true, clearOnComplete: true })
      : null;
  bar?.start(total, 0, { op: '' });
  const run = new CrossCheckRun({ inference }, outDir, bar);
  try {
    for (const op of ops) await run.checkOp(op, casesOf.get(op)!);
  } finally {
    bar?.stop();
    inference?.close();
    stopRuntime();
  }
  const { reports, skipped, writeError } = run;
  const seconds = (Date.now() - started) / 1000;
  const failures = reports.reduce((s, r) => s + r.failures, 0);
  const sidesInfo: SidesInfo = {
    onnx: inference === null ? null : { version: inference.info.onnx, max_opset: inference.info.maxOpset, python: inference.info.python },
    onnxruntime: runtime.version,
  };
  if (o.json) {
    process.stdout.write(`${JSON.stringify({ seed, seconds, sides: sidesInfo, skipped, failures, ops: reports }, null, 2)}\n`);
  } else printSummary(reports, { seed, seconds, skipped, failures }, sidesInfo);
  if (writeError !== null) process.stderr.write(`shapelog check --onnx: ${writeError}\n`);
  return failures > 0 || writeError !== null ? EXIT_USER_ERROR : EXIT_OK;
}

/** The operators to check: those --ops names (`names`: each once, in the order given), or without --ops every operator with cases; null (said on stderr) when --ops names none, or one without cases. */
function opsToCheck(names: string | undefined): string[] | null {
  const known = seededOps();
  if (names === undefined) return known;
  const ops = commaList(names);
  const unknown = ops.filter((op) => !known.includes(op));
  if (unknown.length > 0 || ops.length === 0) {
    process.stderr.write(
      `shapelog check --onnx: ${ops.length === 0 ? '--ops names no operator' : `no cases for ${unknown.map((u) => `'${u}'`).join(', ')}`} (operators with cases: ${known.join(', ')})\n`,
    );
    return null;
  }
  return ops;
}

/** ONNX's shape inference in a child process, or null (with a warning) when no python3 can import onnx. */
async function startInference(): Promise<OnnxInference | null> {
  const python = findPython();
  if (python === null) {
    process.stderr.write(
      `warning: ONNX's shape inference is not available (no Python that can import onnx; ${ONNX_PYTHON_HINT}): the rules are checked against onnxruntime alone\n`,
    );
    return null;
  }
  return OnnxInference.start(python);
}

/** The cases of each operator of `ops`: its sweep, then `random` random edits of its seeds drawn from a stream of its own (from `seed`). */
function casesOfOps(ops: readonly string[], seed: number, random: number): Map<string, OnnxCase[]> {
  const casesOf = new Map<string, OnnxCase[]>();
  for (const op of ops) {
    const seeds = allSeeds().filter((s) => opKey(s) === op);
    // each operator's random cases from its own stream: the same whatever other operators run
    const rand = seeded(seed ^ stringHash(op));
    casesOf.set(op, [...seeds.flatMap(sweepOf), ...Array.from({ length: random }, () => randomCase(seeds, rand))]);
  }
  return casesOf;
}

/** The cross-check's run over the operators: where it runs the cases and writes disagreements, and what it has found so far. */
class CrossCheckRun {
  /** A report per operator checked, in order. */
  readonly reports: OpReport[] = [];
  /** Cases that could not be written as a model. */
  skipped = 0;
  /** Why the first disagreement that could not be written was not, or null. */
  writeError: string | null = null;

  constructor(
    private readonly sides: Sides,
    private readonly outDir: string,
    private readonly bar: SingleBar | null,
  ) {}

  /** Runs the cases of `op` and records its report: the counts of its outcomes and its disagreements. */
  async checkOp(op: string, cases: readonly OnnxCase[]): Promise<void> {
    this.bar?.update({ op });
    const outcomes: { outcome: CaseOutcome; c: OnnxCase }[] = [];
    for (const c of cases) {
      const outcome = await runCase(this.sides, c);
      this.bar?.increment();
      if (outcome === null) this.skipped++;
      else outcomes.push({ outcome, c });
    }
    const disagreements: Disagreement[] = [];
    const seenKinds = new Set<string>();
    for (const { outcome, c } of outcomes.filter((x) => isDisagreement(x.outcome))) disagreements.push(await this.disagreement(op, outcome, c, seenKinds));
    const all = outcomes.map((x) => x.outcome);
    this.reports.push({
      op,
      cases: all.length,
      agreement: count(
        AGREEMENTS,
        all.map((x) => x.agreement),
      ),
      rules: count(
        TRUTHS,
        all.map((x) => x.rules),
      ),
      onnx: count(
        TRUTHS,
        all.map((x) => x.onnx),
      ),
      disagreements,
      failures: all.filter(isFailure).length,
    });
  }

  /** Disagreement `outcome` of case `c` of `op` as reported: the first of each kind (`seenKinds`), up to WRITTEN_PER_OP kinds, shrunk and written. */
  private async disagreement(op: string, outcome: CaseOutcome, c: OnnxCase, seenKinds: Set<string>): Promise<Disagreement> {
    const kind = `${outcome.agreement}|${outcome.rules}|${outcome.onnx}`;
    let shown = outcome;
    let file: string | null = null;
    if (!seenKinds.has(kind) && seenKinds.size < WRITTEN_PER_OP) {
      seenKinds.add(kind);
      shown = await shrinkCase(this.sides, outcome, c);
      file = this.write(join(this.outDir, `${op.replace(/[^A-Za-z0-9_.-]/g, '_')}-${seenKinds.size}.onnx`), shown);
    }
    return {
      label: shown.label,
      file,
      agreement: shown.agreement,
      rules: shown.rules,
      onnx: shown.onnx,
      verdict: verdictOf(shown),
      record: shown.record,
      answers: shown.answers,
    };
  }

  /** Writes disagreement `shown` as the one-node model `file` and a .json beside it; `file`, or null when it cannot be written (the first such error kept). */
  private write(file: string, shown: CaseOutcome): string | null {
    try {
      makeDir(this.outDir);
      writeFileSync(file, recordModel(shown.record).bytes);
      writeFileSync(
        file.replace(/\.onnx$/, '.json'),
        `${JSON.stringify({ case: shown.label, agreement: shown.agreement, rules: shown.rules, onnx: shown.onnx, verdict: verdictOf(shown), record: shown.record, answers: shown.answers }, null, 2)}\n`,
      );
      return file;
    } catch (e) {
      this.writeError ??= `cannot write ${file}: ${(e as Error).message}`;
      return null;
    }
  }
}

/** Prints the per-operator table, the disagreements written, and the totals of the run. */
function printSummary(
  reports: readonly OpReport[],
  run: { readonly seed: number; readonly seconds: number; readonly skipped: number; readonly failures: number },
  sidesInfo: SidesInfo,
): void {
  const { seed, seconds, skipped, failures } = run;
  printTable(reports);
  for (const r of reports)
    for (const d of r.disagreements.filter((d) => d.file !== null))
      process.stdout.write(`${d.file}: ${r.op}, ${d.label}: rules vs ONNX ${d.agreement ?? 'n/a'}; ${d.verdict}\n`);
  const cases = reports.reduce((s, r) => s + r.cases, 0);
  const agree = reports.reduce((s, r) => s + (r.agreement['agree'] ?? 0), 0);
  const wrong = (side: 'rules' | 'onnx') => reports.reduce((s, r) => s + (r[side]['wrong'] ?? 0), 0);
  process.stdout.write(
    `\n${reports.length} operators, ${cases} cases (seed ${seed}${skipped > 0 ? `; ${skipped} not writable as a model` : ''}): rules and ONNX's inference agree on ${agree}; ` +
      `against onnxruntime the rules are wrong in ${wrong('rules')}, ONNX's inference in ${wrong('onnx')}; ${failures} failures (${seconds.toFixed(1)} s)\n` +
      `ONNX's inference: ${sidesInfo.onnx === null ? 'not available' : `onnx ${sidesInfo.onnx.version} (opsets up to ${sidesInfo.onnx.max_opset})`}; onnxruntime-node ${sidesInfo.onnxruntime}\n`,
  );
}

/** A 32-bit FNV-1a hash of a string. */
function stringHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function printTable(reports: readonly OpReport[]): void {
  const w = Math.max(8, ...reports.map((r) => r.op.length));
  const cols = ['cases', 'n/a', 'agree', 'rules+', 'onnx+', 'contra', 'r-rej', 'o-rej', 'ran', 'r-wrong', 'o-wrong'];
  process.stdout.write(`${'operator'.padEnd(w)}  ${cols.map((c) => c.padStart(7)).join(' ')}\n`);
  for (const r of reports) {
    const ran = r.cases - (r.rules['no-execution'] ?? 0);
    const na = r.cases - Object.values(r.agreement).reduce((a, b) => a + b, 0);
    const cells = [
      r.cases,
      na,
      r.agreement['agree'],
      r.agreement['rules-more-precise']! + r.agreement['each-more-precise']!,
      r.agreement['onnx-more-precise']! + r.agreement['each-more-precise']!,
      r.agreement['contradict'],
      r.agreement['rules-reject'],
      r.agreement['onnx-rejects'],
      ran,
      r.rules['wrong'],
      r.onnx['wrong'],
    ];
    process.stdout.write(`${r.op.padEnd(w)}  ${cells.map((c) => String(c ?? 0).padStart(7)).join(' ')}\n`);
  }
  process.stdout.write(
    "(n/a: an opset ONNX's inference does not know; agree/rules+/onnx+/contra/r-rej/o-rej: the rules vs ONNX's inference; ran: onnxruntime executed the concrete instance; r-wrong/o-wrong: contradicted by that execution)\n",
  );
}
