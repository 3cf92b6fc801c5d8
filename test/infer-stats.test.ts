// `shapelog infer --stats` and the engine's process-wide work counts behind it
// (solver/engine/engine-work.ts): what a researcher reads to see where typing a program
// spends its time.
import test from 'ava';
import { join } from 'node:path';
import { phaseTimes, timed } from '../diagnostics/phase-times.js';
import { engineWork } from '../solver/engine/engine-work.js';
import { runText } from '../solver/run.js';
import { runShapelog } from './helpers.js';

const root = join(import.meta.dirname, '..');
const MLP = join(root, 'examples', 'relay', 'mlp.relay');
const WAKEWORD = join(root, 'examples', 'onnx', 'models', 'openwakeword_hello_deepa.onnx');

const ENGINE_LINE = /^engine: (\d+) rounds, (\d+) plan runs, (\d+) facts derived, (\d+) bindings in (\d+) solves?, (\d+) ms solving$/m;
const TIME_LINE = /^infer: (\d+) ms reading, typing and printing; (\d+) ms since node started$/m;
const PHASES_LINE = /^phases \(ms\): (.*)$/m;

/** The phases line as a map: phase -> ms. */
function phasesOf(err: string): Map<string, number> | null {
  const m = PHASES_LINE.exec(err);
  if (m === null) return null;
  return new Map(m[1]!.split(', ').map((part) => [part.split(' ')[0]!, Number(part.split(' ')[1])] as const));
}

function statsOf(err: string): { rounds: number; planRuns: number; derived: number; solves: number; commandMs: number; processMs: number } | null {
  const e = ENGINE_LINE.exec(err);
  const t = TIME_LINE.exec(err);
  if (e === null || t === null) return null;
  return { rounds: Number(e[1]), planRuns: Number(e[2]), derived: Number(e[3]), solves: Number(e[5]), commandMs: Number(t[1]), processMs: Number(t[2]) };
}

test('infer --stats (rules strategy): the engine work and the times on stderr; stdout as without it', (t) => {
  const plain = runShapelog(['infer', MLP]);
  const r = runShapelog(['infer', MLP, '--stats']);
  t.is(r.code, 0, r.err);
  t.is(r.out, plain.out);
  const s = statsOf(r.err);
  if (s === null) return t.fail(`no stats lines in:\n${r.err}`);
  t.true(s.rounds > 0 && s.planRuns > 0 && s.derived > 0 && s.solves > 0, r.err);
  // the process includes the command, and node's start before it
  t.true(s.processMs >= s.commandMs, r.err);
  // the command's time by phase: each phase typing a Relay program with the rules goes through, and the rest
  const phases = phasesOf(r.err);
  if (phases === null) return t.fail(`no phases line in:\n${r.err}`);
  t.deepEqual([...phases.keys()], ['read', 'parse', 'library', 'solve', 'print', 'other']);
  const sum = [...phases.values()].reduce((a, b) => a + b, 0);
  // each part is rounded: the parts add up to the command's time within a millisecond each
  t.true(Math.abs(sum - s.commandMs) <= phases.size, r.err);
});

test('a phase inside another counts for itself only; the phases add up to the time they ran', (t) => {
  const spin = (ms: number) => {
    const end = performance.now() + ms;
    while (performance.now() < end) {
      // busy: the time is this phase's
    }
  };
  const before = phaseTimes();
  const started = performance.now();
  timed('parse', () => {
    spin(20);
    timed('library', () => spin(30));
  });
  const total = performance.now() - started;
  const after = phaseTimes();
  const parse = (after.get('parse') ?? 0) - (before.get('parse') ?? 0);
  const library = (after.get('library') ?? 0) - (before.get('library') ?? 0);
  t.true(library >= 30, `library ${library}`);
  t.true(parse >= 20 && parse < total - 30 + 1, `parse ${parse} of ${total}`);
  t.true(Math.abs(parse + library - total) < 1, `${parse} + ${library} vs ${total}`);
});

test('infer --stats --strategy relay: the engine does not run', (t) => {
  const r = runShapelog(['infer', MLP, '--strategy', 'relay', '--stats', '--json']);
  t.is(r.code, 0, r.err);
  t.truthy(JSON.parse(r.out).bindings);
  t.regex(r.err, /^engine: not run /m);
  t.regex(r.err, TIME_LINE);
});

test('infer --stats on an ONNX model: the engine work of its solves', (t) => {
  const r = runShapelog(['infer', WAKEWORD, '--stats']);
  t.is(r.code, 0, r.err);
  const s = statsOf(r.err);
  if (s === null) return t.fail(`no stats lines in:\n${r.err}`);
  t.true(s.rounds > 0 && s.planRuns > 0 && s.solves >= 1, r.err);
});

test('engine work: each solve adds what its solver reports; seminaive runs fewer joins than naive', (t) => {
  const chain = Array.from({ length: 30 }, (_, i) => `edge(${i}, ${i + 1}).`).join('\n');
  const source = `path(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\n${chain}\n`;
  const counts = (strategy: 'naive' | 'seminaive') => {
    const before = engineWork();
    const r = runText(source, { strategy });
    const after = engineWork();
    t.true(r.ok);
    // 30 edges, C(31, 2) = 465 paths: the derived facts, counted by hand
    t.is(after.derived - before.derived, 465, strategy);
    t.is(after.rounds - before.rounds, r.stats.rounds, strategy);
    t.is(after.planRuns - before.planRuns, r.stats.planRuns, strategy);
    t.true(after.solves > before.solves, strategy);
    return r.stats;
  };
  const naive = counts('naive');
  const semi = counts('seminaive');
  // naive runs every rule in every round; seminaive only those with new input
  t.true(semi.planRuns < naive.planRuns, `seminaive ${semi.planRuns}, naive ${naive.planRuns}`);
});
