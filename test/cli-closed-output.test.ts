// `shapelog ... | head`: when the reader of the command's output stops early, the command
// stops quietly (exit 0, nothing on stderr), as the standard tools do, instead of crashing
// with node's EPIPE stack trace. Runs the built command (`npm test` builds first).
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = join(import.meta.dirname, '..', 'bin', 'shapelog.js');

test('a reader that closes the output after the first chunk: exit 0, no error, no stack trace', async (t) => {
  // the closure of a 400-node chain: 80,000 facts, over a megabyte of output, far more than a pipe holds
  const dir = mkdtempSync(join(tmpdir(), 'shapelog-head-'));
  const file = join(dir, 'chain.rules');
  const edges = Array.from({ length: 399 }, (_, i) => `edge(${i}, ${i + 1}).`).join('\n');
  writeFileSync(file, `${edges}\npath(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\n`);
  const run = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; err: string; firstChunk: string }>((done) => {
    const child = spawn(process.execPath, [bin, 'query', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let firstChunk = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.once('data', (d: Buffer) => {
      firstChunk = d.toString();
      child.stdout.destroy(); // what `head` does once it has its lines
    });
    child.on('close', (code, signal) => done({ code, signal, err, firstChunk }));
  });
  t.regex(run.firstChunk, /^(edge|path)\(/m, 'the command had started printing facts');
  t.is(run.signal, null);
  t.is(run.code, 0, run.err);
  t.is(run.err, '');
});
