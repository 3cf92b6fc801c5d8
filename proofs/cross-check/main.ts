// Cross-check rules vs imperative relations on the case sweep of `cases.ts`.
//
//   node --import=tsx proofs/cross-check/main.ts [--ops add,reshape] [--json]
//
// Prints one row per op (cases, agree, disagree) and, per disagreeing op, its
// first counterexample as a `shapelog typeof` JSON line (and the smallest one,
// when different) with both answers. Exits 1 if any case disagrees.
import { parseArgs } from 'node:util';
import type { TypeofAnswer } from '../../solver/infer/typeof.js';
import { opNames } from './cases.js';
import { runSweep } from './compare.js';

const { values } = parseArgs({ options: { ops: { type: 'string' }, json: { type: 'boolean', default: false } } });
const known = opNames();
const ops = values.ops === undefined ? known : values.ops.split(',').map((s) => s.trim()).filter((s) => s !== '');
const unknown = ops.filter((o) => !known.includes(o));
if (unknown.length > 0) {
  console.error(`unknown operator(s): ${unknown.join(', ')}`);
  process.exit(2);
}

const started = Date.now();
const reports = runSweep(ops);
const seconds = (Date.now() - started) / 1000;
const anyDisagree = reports.some((r) => r.disagree > 0);

const show = (a: TypeofAnswer): string => JSON.stringify(a);

if (values.json) {
  console.log(JSON.stringify({ seconds, reports }, null, 2));
} else {
  const width = Math.max(...reports.map((r) => r.op.length), 2);
  console.log(`${'op'.padEnd(width)}  ${'cases'.padStart(6)}  ${'agree'.padStart(6)}  ${'disagree'.padStart(8)}`);
  for (const r of reports) console.log(`${r.op.padEnd(width)}  ${String(r.cases).padStart(6)}  ${String(r.agree).padStart(6)}  ${String(r.disagree).padStart(8)}`);
  const total = (k: 'cases' | 'agree' | 'disagree') => reports.reduce((s, r) => s + r[k], 0);
  console.log(`${'total'.padEnd(width)}  ${String(total('cases')).padStart(6)}  ${String(total('agree')).padStart(6)}  ${String(total('disagree')).padStart(8)}   (${seconds.toFixed(1)} s)`);
  for (const r of reports) {
    const first = r.counterexamples[0];
    if (first === undefined) continue;
    const kinds = Object.entries(r.kinds).map(([k, n]) => `${n} ${k}`).join(', ');
    console.log(`\n${r.op}: ${r.disagree} disagreement(s) (${kinds}); first:`);
    console.log(`  ${first.line}\n    rules: ${show(first.rules)}\n    relay: ${show(first.relay)}`);
    if (r.smallest !== null && r.smallest.line !== first.line) {
      console.log(`  smallest:\n  ${r.smallest.line}\n    rules: ${show(r.smallest.rules)}\n    relay: ${show(r.smallest.relay)}`);
    }
  }
}
process.exitCode = anyDisagree ? 1 : 0;
