// `shapelog bench`: usage errors, a real run in fresh processes (rules and Relay), the
// agreement check failing on different results, and the --html page being self-contained.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rulesDigest } from '../cli/answer-digest.js';
import { benchCommand, chooseStrategies } from '../cli/bench.js';
import { main } from '../cli/main.js';
import { renderBenchHtml } from '../cli/bench-html.js';
import type { AnswerDigest, WorkerReport } from '../cli/bench-protocol.js';
import { benchJson, contradictingShapes, renderTable, summarize } from '../cli/bench-report.js';
import type { Sampler } from '../cli/bench-sampler.js';
import { findPython } from '../proofs/onnx-cross-check/onnx-inference.js';
import { runText } from '../solver/run.js';
import { runShapelog, scratchFolder } from './helpers.js';

const { dir, file } = scratchFolder('shapelog-bench-');

const shapelog = (...args: string[]) => runShapelog(args, { timeoutMs: 110_000 });

// 3 edge facts and 4 path facts
const GRAPH = 'path(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\nedge(1, 2).\nedge(2, 3).\nedge(1, 5).\n';
const graph = file('graph.rules', GRAPH);
const relay = join(import.meta.dirname, '..', 'examples', 'relay', 'mlp.relay');
// 29 node outputs, every shape static (bench/README.md's ONNX table: 29 of 29 fully known on both sides)
const wakeword = join(import.meta.dirname, '..', 'examples', 'onnx', 'models', 'openwakeword_hello_deepa.onnx');

/** Runs `fn` with stdout and stderr captured (tests using it run serially). */
async function captured(fn: () => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const write = process.stdout.write;
  const writeErr = process.stderr.write;
  process.stdout.write = ((s: string) => out.push(s) > 0) as unknown as typeof process.stdout.write;
  process.stderr.write = ((s: string) => err.push(s) > 0) as unknown as typeof process.stderr.write;
  try {
    const code = await fn();
    return { code, out: out.join(''), err: err.join('') };
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
  }
}

test('a strategy that does not apply to the file kind: bad usage, exit 2 (as a user runs it)', (t) => {
  const wrongKind = shapelog('bench', graph, '--strategies', 'seminaive,relay');
  t.is(wrongKind.code, 2);
  t.regex(wrongKind.err, /the relay strategy does not apply to \.rules files.*naive, seminaive, demand/);
  t.is(wrongKind.out, '');
});

test.serial('other bad usage: exit 2 with a clear message', async (t) => {
  const cases: [string[], RegExp][] = [
    [['bench', relay, '--strategies', 'seminaive'], /the seminaive strategy does not apply to \.relay files.*rules, relay/],
    [['bench', graph, '--strategies', 'fast'], /unknown strategy 'fast'/],
    [['bench', graph, '--strategies', ','], /--strategies needs at least one name/],
    [['bench', file('notes.txt', 'x'), '--runs', '1'], /a rule file \(\.rules\), a Relay program \(\.relay\) or an ONNX model \(\.onnx\)/],
    [['bench', wakeword, '--strategies', 'relay'], /the relay strategy does not apply to \.onnx files.*rules, onnx/],
    [['bench', wakeword, '--goal', 'p(X)'], /--goal applies to rule files/],
    [['bench', relay, '--goal', 'p(X)'], /--goal applies to rule files/],
    [['bench', graph, '--runs', '0'], /--runs.*positive integer/],
    [['bench', graph, '--warmup', '-1'], /--warmup.*non-negative integer/],
  ];
  for (const [args, message] of cases) {
    const r = await captured(() => main(args));
    t.is(r.code, 2, args.join(' '));
    t.regex(r.err, message);
    t.is(r.out, '');
  }
});

test('every strategy that applies is the default; --strategies keeps the order given', (t) => {
  t.deepEqual(chooseStrategies('relay', undefined), ['rules', 'relay']);
  t.deepEqual(chooseStrategies('onnx', undefined), ['rules', 'onnx']);
  const engine = chooseStrategies('rules', undefined);
  for (const s of ['naive', 'seminaive', 'demand']) t.true(engine.includes(s));
  t.deepEqual(chooseStrategies('rules', 'demand, naive,demand'), ['demand', 'naive']);
});

test('a rule file: each strategy in fresh processes, the same facts, --json and a self-contained --html', (t) => {
  const html = join(dir, 'graph.html');
  const r = shapelog('bench', graph, '--strategies', 'seminaive,naive', '--runs', '2', '--warmup', '0', '--time', '20', '--json', '--html', html);
  t.is(r.code, 0, r.err);
  const report = JSON.parse(r.out);
  t.is(report.file, graph);
  t.is(report.agree, true);
  t.is(report.reference, 'seminaive');
  t.deepEqual(
    report.strategies.map((s: { name: string }) => s.name),
    ['seminaive', 'naive'],
  );
  for (const s of report.strategies) {
    t.is(s.facts, 7);
    t.is(s.samples, 2);
    t.is(s.sample_medians_ms.length, 2);
    t.is(s.cold_runs_ms.length, 2);
    t.true(s.timed_runs >= 2);
    t.true(s.min_ms > 0 && s.min_ms <= s.median_ms && s.median_ms <= s.max_ms);
    t.true(s.cold_ms > 0);
    t.regex(s.facts_digest, /^[0-9a-f]{64}$/);
    t.true(s.agrees);
  }
  t.is(report.strategies[0].facts_digest, report.strategies[1].facts_digest);
  const page = readFileSync(html, 'utf8');
  t.regex(page, /seminaive/);
  t.notRegex(page, /<script[^>]*\bsrc=|<link\b/i);
});

test('a Relay program: the typing strategies agree on the types (table output)', (t) => {
  const r = shapelog('bench', relay, '--runs', '1', '--warmup', '0', '--time', '0');
  t.is(r.code, 0, r.err);
  t.regex(r.out, /^rules .* reference$/m);
  t.regex(r.out, /^relay .* yes$/m);
  t.regex(r.out, /All 2 strategies compute the same \d+ binding types/);
});

test('a program that does not load: its located error, exit 1, no stack trace', (t) => {
  const r = shapelog('bench', file('bad.rules', 'edge(1, 2).\npath(X :- edge(X).\n'), '--runs', '1', '--warmup', '0', '--time', '0');
  t.is(r.code, 1);
  t.regex(r.err, /bad\.rules:2:\d+: error/);
  t.notRegex(r.err, /\n\s+at /);
  const missing = shapelog('bench', join(dir, 'missing.rules'));
  t.is(missing.code, 1);
  t.regex(missing.err, /cannot read .*missing\.rules: no such file/);
});

test.serial('a run that hits a limit stops the bench with the limit error; the limits are those given', async (t) => {
  const loop = file('loop.rules', 'p(z).\np(s(X)) :- p(X).\n');
  const r = await captured(() => main(['bench', loop, '--strategies', 'seminaive', '--runs', '1', '--warmup', '0', '--time', '0', '--max-depth', '20']));
  t.is(r.code, 1);
  t.regex(r.err, /error: term nested deeper than 20 levels/);
  t.is(r.out, '');
});

const report = (answer: AnswerDigest, ms: number): WorkerReport => ({ coldMs: 10 * ms, warmupRuns: 0, timedMs: [ms, ms + 1, ms + 2], answer });

test.serial('strategies that compute different results disagree: the table says so and the command exits 1', async (t) => {
  // two different programs through the same digest and comparison
  const one = rulesDigest(runText(GRAPH));
  const other = rulesDigest(runText(`${GRAPH}edge(3, 4).\n`));
  t.not(one.digest, other.digest);
  t.is(rulesDigest(runText(GRAPH, { strategy: 'naive' })).digest, one.digest);

  const settings = { file: 'g.rules', kind: 'rules', goal: null, runs: 1, warmupMs: 0, timedBudgetMs: 0 } as const;
  const summary = summarize(
    settings,
    new Map([
      ['seminaive', [report(one, 2)]],
      ['naive', [report(other, 4)]],
    ]),
  );
  t.false(summary.agree);
  t.deepEqual(
    summary.strategies.map((s) => s.agrees),
    [true, false],
  );
  t.regex(renderTable(summary), /^naive .* NO$/m);
  t.regex(renderTable(summary), /The strategies disagree/);
  t.is(benchJson(summary)['agree'], false);

  const inconsistent = summarize(settings, new Map([['seminaive', [report(one, 2), report(other, 2)]]]));
  t.false(inconsistent.agree);

  const fake: Sampler = async (req) => ({ ok: true, report: report(req.strategy === 'naive' ? other : one, 1) });
  const r = await captured(() => benchCommand(graph, { strategies: 'seminaive,naive', runs: 1, warmup: 0, time: 0, json: false }, fake));
  t.is(r.code, 1);
  t.regex(r.out, /^naive .* NO$/m);
  t.regex(r.err, /error: the strategies do not compute the same facts/);
});

test("an ONNX model with shapelog's rules: every node output typed and fully known, --json", (t) => {
  const r = shapelog('bench', wakeword, '--strategies', 'rules', '--runs', '1', '--warmup', '0', '--time', '0', '--json');
  t.is(r.code, 0, r.err);
  const report = JSON.parse(r.out);
  t.is(report.kind, 'onnx');
  t.is(report.agree, true);
  const [rules] = report.strategies;
  t.is(rules.name, 'rules');
  t.is(rules.fully_known, 29);
  t.regex(rules.shapes_digest, /^[0-9a-f]{64}$/);
  t.is(rules.errors, 0);
});

test("an ONNX model by default: ONNX's own inference beside the rules when a Python with onnx is here, else a note", (t) => {
  const r = shapelog('bench', wakeword, '--runs', '1', '--warmup', '0', '--time', '0', '--json');
  t.is(r.code, 0, r.err);
  const report = JSON.parse(r.out);
  const explicit = shapelog('bench', wakeword, '--strategies', 'onnx', '--runs', '1', '--warmup', '0', '--time', '0', '--json');
  if (findPython() === null) {
    t.deepEqual(
      report.strategies.map((s: { name: string }) => s.name),
      ['rules'],
    );
    t.regex(r.err, /note: the onnx strategy is left out: .*python3-onnx/);
    // asked for by name, it is an error of this machine's setup
    t.is(explicit.code, 1);
    t.regex(explicit.err, /error: ONNX's own shape inference needs a Python that can import onnx/);
  } else {
    t.deepEqual(
      report.strategies.map((s: { name: string }) => s.name),
      ['rules', 'onnx'],
    );
    const onnx = report.strategies[1];
    t.is(onnx.contradictions, 0);
    t.true(onnx.agrees);
    t.is(onnx.fully_known, 29);
    t.is(explicit.code, 0, explicit.err);
  }
});

test('ONNX models: strategies agree when no dim both know differs; one that contradicts fails the bench', (t) => {
  // value by value: unknown (null) and symbolic dims are not compared; a rank or an integer dim that differs is
  t.is(contradictingShapes([[1, 2], [3, 'N'], null, [4], [2]], [[1, 2], [3, 5], [7], [4, 1], [3]]), 2);
  t.is(contradictingShapes([[1, null]], [[1, 8]]), 0);
  const answer = (count: number, digest: string): AnswerDigest => ({ what: 'shapes', count, digest, errors: 0 });
  const withShapes = (a: AnswerDigest, shapes: (number | string | null)[][]): WorkerReport => ({ ...report(a, 2), shapes });
  const settings = { file: 'm.onnx', kind: 'onnx', goal: null, runs: 1, warmupMs: 0, timedBudgetMs: 0 } as const;
  /** One sample per side: the rules' answer and shapes, and ONNX's. */
  const sides = (rules: [AnswerDigest, (number | string | null)[][]], onnx: [AnswerDigest, (number | string | null)[][]]) =>
    summarize(
      settings,
      new Map([
        ['rules', [withShapes(...rules)]],
        ['onnx', [withShapes(...onnx)]],
      ]),
    );
  const agreeing = sides(
    [
      answer(2, 'a'),
      [
        [1, 8],
        [1, 'N'],
      ],
    ],
    [
      answer(1, 'b'),
      [
        [1, 8],
        [1, 'unk__0'],
      ],
    ],
  );
  t.true(agreeing.agree);
  t.is(agreeing.strategies[1]!.contradictions, 0);
  t.regex(renderTable(agreeing), /^onnx .* 1 {2}yes$/m);
  t.regex(renderTable(agreeing), /fully known shape .*: rules 2, onnx 1\.\nNo contradiction/);
  const contradicting = sides(
    [
      answer(2, 'a'),
      [
        [1, 8],
        [1, 4],
      ],
    ],
    [
      answer(2, 'c'),
      [
        [1, 9],
        [1, 4],
      ],
    ],
  );
  t.false(contradicting.agree);
  t.regex(renderTable(contradicting), /^onnx .* NO \(1 value differs\)$/m);
  t.is((benchJson(contradicting)['strategies'] as { contradictions?: number }[])[1]!.contradictions, 1);
});

test('the --html page: Chart.js inlined, no network, the numbers embedded', (t) => {
  const answer: AnswerDigest = { what: 'facts', count: 7, digest: 'a'.repeat(64), errors: 0 };
  const settings = { file: 'g</script>.rules', kind: 'rules', goal: null, runs: 2, warmupMs: 0, timedBudgetMs: 0 } as const;
  const page = renderBenchHtml(
    summarize(
      settings,
      new Map([
        ['seminaive', [report(answer, 2), report(answer, 6)]],
        ['naive', [report(answer, 40), report(answer, 50)]],
      ]),
    ),
  );
  t.notRegex(page, /<script[^>]*\bsrc=|<link\b/i);
  t.regex(page, /Chart\.js v4/);
  t.is(page.match(/<\/script>/g)?.length, 3); // the data, Chart.js, the page's script: nothing ends early
  const data = JSON.parse(/<script type="application\/json" id="bench-data">(.*?)<\/script>/s.exec(page)![1]!);
  t.is(data.file, 'g</script>.rules');
  // per-sample medians 3 and 7 (seminaive), 41 and 51 (naive)
  t.deepEqual(
    data.strategies.map((s: { median_ms: number; min_ms: number; max_ms: number }) => [s.median_ms, s.min_ms, s.max_ms]),
    [
      [5, 3, 7],
      [46, 41, 51],
    ],
  );
  t.regex(page, /<td>naive<\/td>/);
});
