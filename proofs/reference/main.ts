// Rules vs the reference executor on the sweep cases of `proofs/cross-check`.
//
//   node --import=tsx proofs/reference/main.ts [--ops a,b] [--json]
//
// One row per operator: executed cases, agree, unsound, stricter (expected /
// unexpected), skipped; then the first few problem cases. Exits 1 when a case
// is unsound or unexpectedly stricter.
import { parseArgs } from 'node:util';
import { casesFor, opNames } from '../cross-check/cases.js';
import { typeofCall } from '../../typing/typeof.js';
import { referenceCheck, type ReferenceVerdict } from './check.js';
import { executorFor } from './registry.js';

export interface ReferenceReport {
  readonly op: string;
  readonly executed: number;
  readonly agree: number;
  readonly unsound: number;
  readonly stricterExpected: number;
  readonly stricterUnexpected: number;
  readonly skipped: number;
  readonly problems: { line: string; verdict: ReferenceVerdict }[];
}

export function referenceSweep(ops: readonly string[], keep = 3): ReferenceReport[] {
  return ops.map((op) => {
    let agree = 0,
      unsound = 0,
      se = 0,
      su = 0,
      skipped = 0;
    const problems: { line: string; verdict: ReferenceVerdict }[] = [];
    if (executorFor(op) === undefined)
      return { op, executed: 0, agree, unsound, stricterExpected: 0, stricterUnexpected: 0, skipped: casesFor(op).length, problems };
    for (const c of casesFor(op)) {
      const v = referenceCheck(c, typeofCall(c, 'rules'));
      if (v.kind === 'agree') agree++;
      else if (v.kind === 'skipped') skipped++;
      else if (v.kind === 'stricter' && v.expected !== null) se++;
      else {
        if (v.kind === 'unsound' || v.kind === 'crash') unsound++;
        else su++;
        if (problems.length < keep) problems.push({ line: JSON.stringify(c), verdict: v });
      }
    }
    return { op, executed: agree + unsound + se + su, agree, unsound, stricterExpected: se, stricterUnexpected: su, skipped, problems };
  });
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/.*\//, ''));
if (isMain) {
  const { values } = parseArgs({ options: { ops: { type: 'string' }, json: { type: 'boolean', default: false } } });
  const known = opNames();
  const ops =
    values.ops === undefined
      ? known
      : values.ops
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
  const unknown = ops.filter((o) => !known.includes(o));
  if (unknown.length > 0) {
    console.error(`unknown operator(s): ${unknown.join(', ')}`);
    process.exit(2);
  }
  const reports = referenceSweep(ops);
  if (values.json) console.log(JSON.stringify(reports, null, 2));
  else {
    const w = Math.max(...reports.map((r) => r.op.length), 2);
    console.log(`${'op'.padEnd(w)}  executed   agree  unsound  stricter(expected)  stricter(unexpected)  skipped`);
    for (const r of reports) {
      console.log(
        `${r.op.padEnd(w)}  ${String(r.executed).padStart(8)}  ${String(r.agree).padStart(6)}  ${String(r.unsound).padStart(7)}  ${String(r.stricterExpected).padStart(18)}  ${String(r.stricterUnexpected).padStart(20)}  ${String(r.skipped).padStart(7)}${executorFor(r.op) === undefined ? '  (no executor)' : ''}`,
      );
    }
    for (const r of reports) for (const p of r.problems) console.log(`\n${r.op}: ${p.verdict.kind}\n  ${p.line}\n  ${JSON.stringify(p.verdict)}`);
  }
  process.exitCode = reports.some((r) => r.unsound > 0 || r.stricterUnexpected > 0) ? 1 : 0;
}
