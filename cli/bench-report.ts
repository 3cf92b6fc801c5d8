// `shapelog bench`'s results: per strategy, the samples reduced to the median cold first run
// and the median/min/max of the samples' medians; whether the strategies computed the same
// result (the first strategy is the reference; for ONNX models, whether any dim both know
// differs); the table, and the --json shape.
import type { AnswerDigest, ProgramKind, WorkerReport } from './bench-protocol.js';
import type { DimJson } from '../typing/onnx/known-shapes.js';
import { median, spread, type Spread } from './sample-stats.js';

export interface BenchSettings {
  readonly file: string;
  readonly kind: ProgramKind;
  readonly goal: string | null;
  /** Samples (fresh processes) per strategy. */
  readonly runs: number;
  readonly warmupMs: number;
  readonly timedBudgetMs: number;
}

export interface StrategySummary {
  readonly name: string;
  /** Median over the samples of each process's first run. */
  readonly coldMs: number;
  /** Median, min and max over the samples of each sample's median timed run. */
  readonly steady: Spread;
  /** This strategy's median / the fastest strategy's median. */
  readonly vsFastest: number;
  readonly sampleMediansMs: readonly number[];
  readonly coldRunsMs: readonly number[];
  readonly warmupRuns: number;
  readonly timedRuns: number;
  /** What the first sample computed. */
  readonly answer: AnswerDigest;
  /** Every sample of this strategy computed the same result. */
  readonly consistent: boolean;
  /**
   * ONNX models: node outputs whose shape contradicts the reference's (a rank both know
   * differs, or a dim both know as an integer); null for the other kinds and the reference.
   */
  readonly contradictions: number | null;
  /** Consistent, and the same result as the reference strategy's (ONNX models: no contradiction). */
  readonly agrees: boolean;
}

export interface BenchSummary extends BenchSettings {
  readonly strategies: readonly StrategySummary[];
  readonly agree: boolean;
}

const sameAnswer = (a: AnswerDigest, b: AnswerDigest): boolean => a.what === b.what && a.count === b.count && a.digest === b.digest;

/** `samples`: each strategy's samples, in the order the strategies were given (the first is the reference). */
export function summarize(settings: BenchSettings, samples: ReadonlyMap<string, readonly WorkerReport[]>): BenchSummary {
  const rows = [...samples].map(([name, reports]) => {
    const sampleMediansMs = reports.map((r) => median(r.timedMs));
    const answer = reports[0]!.answer;
    return {
      name,
      coldMs: median(reports.map((r) => r.coldMs)),
      steady: spread(sampleMediansMs),
      sampleMediansMs,
      coldRunsMs: reports.map((r) => r.coldMs),
      warmupRuns: reports.reduce((n, r) => n + r.warmupRuns, 0),
      timedRuns: reports.reduce((n, r) => n + r.timedMs.length, 0),
      answer,
      consistent: reports.every((r) => sameAnswer(r.answer, answer)),
    };
  });
  const reference = rows[0]!.answer;
  const referenceShapes = [...samples.values()][0]![0]!.shapes ?? [];
  const fastest = Math.min(...rows.map((r) => r.steady.median));
  const strategies = rows.map((r, i) => {
    const shapes = samples.get(r.name)![0]!.shapes ?? [];
    const contradictions = settings.kind === 'onnx' && i > 0 ? contradictingShapes(referenceShapes, shapes) : null;
    const same = settings.kind === 'onnx' ? (contradictions ?? 0) === 0 : sameAnswer(r.answer, reference);
    return { ...r, vsFastest: r.steady.median / fastest, contradictions, agrees: r.consistent && same };
  });
  return { ...settings, strategies, agree: strategies.every((s) => s.agrees) };
}

/**
 * How many values two lists of shapes (the same values, in the same order) give
 * contradicting shapes: both know the rank and it differs, or a dim both give as an
 * integer differs. A dim one side leaves unknown or symbolic is not compared.
 */
export function contradictingShapes(a: readonly (readonly DimJson[] | null)[], b: readonly (readonly DimJson[] | null)[]): number {
  let n = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === null || x === undefined || y === null || y === undefined) continue;
    if (x.length !== y.length || x.some((d, k) => typeof d === 'number' && typeof y[k] === 'number' && d !== y[k])) n++;
  }
  return n;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** The name of the count field for a kind of result (`facts`, `answers`, `bindings`) and of its digest field. */
export function answerFields(what: AnswerDigest['what']): { count: string; digest: string } {
  if (what === 'types') return { count: 'bindings', digest: 'types_digest' };
  if (what === 'shapes') return { count: 'fully_known', digest: 'shapes_digest' };
  return { count: what, digest: `${what}_digest` };
}

/** The `--json` document (documented in README.md and bench/README.md). */
export function benchJson(s: BenchSummary): Record<string, unknown> {
  return {
    file: s.file,
    kind: s.kind,
    goal: s.goal,
    runs: s.runs,
    warmup_ms: s.warmupMs,
    reference: s.strategies[0]!.name,
    strategies: s.strategies.map((x) => {
      const f = answerFields(x.answer.what);
      return {
        name: x.name,
        cold_ms: round3(x.coldMs),
        median_ms: round3(x.steady.median),
        min_ms: round3(x.steady.min),
        max_ms: round3(x.steady.max),
        vs_fastest: round3(x.vsFastest),
        samples: x.sampleMediansMs.length,
        sample_medians_ms: x.sampleMediansMs.map(round3),
        cold_runs_ms: x.coldRunsMs.map(round3),
        warmup_runs: x.warmupRuns,
        timed_runs: x.timedRuns,
        [f.count]: x.answer.count,
        [f.digest]: x.answer.digest,
        errors: x.answer.errors,
        ...(x.contradictions !== null ? { contradictions: x.contradictions } : {}),
        consistent: x.consistent,
        agrees: x.agrees,
      };
    }),
    agree: s.agree,
  };
}

export function fmtMs(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0);
}

/** The 'agree' cell of a consistent strategy that disagrees with the reference. */
const disagreement = (x: StrategySummary): string =>
  x.contradictions === null ? 'NO' : `NO (${x.contradictions} value${x.contradictions === 1 ? '' : 's'} differ${x.contradictions === 1 ? 's' : ''})`;

const fmtRatio = (r: number): string => `${r < 10 ? r.toFixed(2) : r.toFixed(1)}×`;
const short = (digest: string): string => digest.slice(0, 12);

function alignedTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

/** The table and the verdict on agreement, as printed without --json. */
export function renderTable(s: BenchSummary): string {
  const what = s.strategies[0]!.answer.what;
  const countHeader = what === 'shapes' ? 'fully known' : answerFields(what).count;
  const rows = s.strategies.map((x, i) => [
    x.name,
    fmtMs(x.coldMs),
    fmtMs(x.steady.median),
    fmtMs(x.steady.min),
    fmtMs(x.steady.max),
    fmtRatio(x.vsFastest),
    String(x.answer.count),
    i === 0 ? (x.consistent ? 'reference' : 'NO (samples differ)') : x.agrees ? 'yes' : !x.consistent ? 'NO (samples differ)' : disagreement(x),
  ]);
  const lines = [
    `shapelog bench ${s.file}${s.goal !== null ? ` --goal '${s.goal}'` : ''}`,
    `${s.runs} sample${s.runs === 1 ? '' : 's'} per strategy, each a fresh process: a cold first run, ${s.warmupMs} ms of warm-up, then timed runs for up to ${s.timedBudgetMs} ms.`,
    "cold: median first run; median, min, max: over the samples of each sample's median run (ms).",
    '',
    ...alignedTable(['strategy', 'cold', 'median', 'min', 'max', 'vs fastest', countHeader, 'agree'], rows),
    '',
  ];
  const first = s.strategies[0]!;
  const noun = what === 'types' ? 'binding types' : what;
  if (what === 'shapes') lines.push(...shapesVerdict(s));
  else if (s.agree) {
    const who = s.strategies.length === 1 ? `${first.name} computes` : `All ${s.strategies.length} strategies compute the same`;
    lines.push(`${who} ${first.answer.count} ${noun} (sha256 ${short(first.answer.digest)}).`);
  } else {
    lines.push(`The strategies disagree (the first, ${first.name}, is the reference):`);
    for (const x of s.strategies)
      lines.push(`  ${x.name}: ${x.answer.count} ${noun}, sha256 ${short(x.answer.digest)}${x.consistent ? '' : ', and its samples differ among themselves'}`);
  }
  const errors = first.answer.errors;
  if (what === 'shapes') return `${lines.join('\n')}\n`;
  if (errors > 0)
    lines.push(
      `The program reports ${errors === 1 ? 'an error' : `${errors} errors`} (part of its result; \`shapelog ${s.kind === 'rules' ? 'query' : 'infer'} ${s.file}\` shows ${errors === 1 ? 'it' : 'them'}).`,
    );
  return `${lines.join('\n')}\n`;
}

/** ONNX models: whether a dim both know differs, and how many node outputs each strategy knows fully. */
function shapesVerdict(s: BenchSummary): string[] {
  const known = s.strategies.map((x) => `${x.name} ${x.answer.count}`).join(', ');
  const out = [`Node outputs with a fully known shape (every dim an integer or made of the inputs' symbolic dims): ${known}.`];
  if (s.strategies.length > 1)
    out.push(
      s.agree
        ? `No contradiction: every dim that both ${s.strategies[0]!.name} and another strategy know is the same.`
        : `The strategies do not agree (the first, ${s.strategies[0]!.name}, is the reference): see the 'agree' column; \`shapelog check --onnx\` finds the operator whose relations differ.`,
    );
  const errors = s.strategies.find((x) => x.name === 'rules')?.answer.errors ?? 0;
  if (errors > 0)
    out.push(
      `shapelog reports ${errors === 1 ? 'a type error' : `${errors} type errors`} (\`shapelog infer ${s.file}\` shows ${errors === 1 ? 'it' : 'them'}).`,
    );
  return out;
}
