// Hostile and oversized inputs (issue 15): every one gets a clean, located answer
// and a bounded run, never a JavaScript stack trace. Inputs are generated here.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closest } from '../diagnostics/suggest.js';

const bin = join(import.meta.dirname, '..', 'bin', 'shapelog.js');
const dir = mkdtempSync(join(tmpdir(), 'shapelog-robust-'));

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

function shapelog(args: readonly string[], input?: string): { code: number; out: string; err: string; millis: number } {
  const started = Date.now();
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000, input, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr, millis: Date.now() - started };
}

/** No JavaScript stack trace or Node internals in what a user sees. */
function noTrace(t: { false: (v: boolean, m?: string) => void }, text: string): void {
  t.false(/^\s+at .+[(:]\d+/m.test(text) || /Node\.js v\d/.test(text) || /TypeError|RangeError|ReferenceError/.test(text), text.slice(0, 2000));
}

const ones = (n: number) => Array.from({ length: n }, () => '1').join('+');

test('flat chains of 3,000 operators in a rule or a goal: a located limit error, exit 1', (t) => {
  const cases: [string, string[]][] = [
    ['plus.rules', [`p(${ones(3000)}).\n`]],
    ['neg.rules', [`q(X) :- X = ${'-'.repeat(3000)}1.\n`]],
    ['slice.rules', [`r(X) :- X = [1]${'[0:]'.repeat(3000)}.\n`]],
  ];
  for (const [name, [text]] of cases) {
    const r = shapelog(['query', file(name, text!)]);
    t.is(r.code, 1, name);
    t.regex(r.err, new RegExp(`${name}:1:\\d+: error: expression nested deeper than 500 levels`), name);
    noTrace(t, r.err);
  }
  const g = shapelog(['query', file('one.rules', 'p(1).\n'), '--goal', `X = ${ones(3000)}`]);
  t.is(g.code, 1);
  t.regex(g.err, /<goal>:1:\d+: error: expression nested deeper than 500 levels/);
  noTrace(t, g.err);
});

test('chains just under the nesting limit still solve, with every strategy', (t) => {
  const text = `p(${ones(499)}).\nq(X) :- p(Y), X = ${'-'.repeat(498)}Y.\nr(X) :- X = [1, 2]${'[0:]'.repeat(498)}.\n`;
  const f = file('under.rules', text);
  for (const strategy of ['naive', 'seminaive', 'demand']) {
    const r = shapelog(['query', f, '--strategy', strategy]);
    t.is(r.code, 0, r.err);
    t.true(r.out.includes('p(499).') && r.out.includes('q(499).') && r.out.includes('r([1, 2]).'), r.out);
  }
});

test('a Relay projection chain %x.0.0… of 3,000: a located limit error with both strategies', (t) => {
  const f = file('proj.relay', `#[version = "0.0.5"]\ndef @main(%x: (Tensor[(1), float32],)) {\n  %x${'.0'.repeat(3000)}\n}\n`);
  for (const strategy of ['rules', 'relay']) {
    const r = shapelog(['infer', f, '--strategy', strategy]);
    t.is(r.code, 1, strategy);
    t.regex(r.err, /proj\.relay:3:3: error: expression nested deeper than 500 levels/, strategy);
    noTrace(t, r.err);
  }
});

test('a 100 KB unknown operator name is reported at once, without a suggestion search', (t) => {
  const f = file('longop.relay', `#[version = "0.0.5"]\ndef @main(%x: Tensor[(1), float32]) {\n  ${'a'.repeat(100_000)}(%x)\n}\n`);
  const r = shapelog(['infer', f]);
  t.is(r.code, 1);
  t.regex(r.err, /longop\.relay:3:3: error: unknown operator/);
  t.true(r.millis < 15_000, `${r.millis} ms`);
  const started = Date.now();
  t.is(closest('b'.repeat(100_000), ['add', 'b'.repeat(99_999)]), null);
  t.is(closest('multiplx', ['add', 'multiply']), 'multiply');
  t.true(Date.now() - started < 1000);
});
