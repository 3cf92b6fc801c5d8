// `shapelog check`: the cross-check harness. For every catalogued operator (or
// those of --ops): its exhaustive sweep (ranks up to --depth) and --random
// random cases, typed by the rules and by the imperative twins, which must
// agree exactly; cases small enough to execute are also checked against the
// reference executor. Prints a summary table (or JSON), each disagreement shrunk
// to a ready-to-paste `shapelog typeof` line; exits 1 on any disagreement or
// any unsound/unexpectedly strict answer against the reference. With --against or
// --against-rev it compares two versions of the rules instead (check-against.ts).
import { SingleBar } from 'cli-progress';
import pc from 'picocolors';
import { allOps, lookupOp } from '../relations/catalogue.js';
import { hasCaseGenerator } from '../proofs/cross-check/cases.js';
import { casesToCheck, checkOp, type OpCheck } from '../proofs/cross-check/harness.js';
import type { TypeofAnswer } from '../typing/typeof.js';
import { EXIT_OK, EXIT_USAGE, EXIT_USER_ERROR } from './report.js';
import { checkAgainst } from './check-against.js';
import { commaList } from './program.js';

export interface CheckCommandOptions {
  readonly ops?: string;
  readonly depth: number;
  readonly random: number;
  readonly seed?: number;
  readonly reference: boolean;
  readonly json: boolean;
  /** Old versions of rule files: report what the current rules answer differently (check-against.ts). */
  readonly against?: readonly string[];
  readonly againstRev?: string;
  readonly expectChanges?: boolean;
}

/** Deepest sweep (tensor rank) the case generators know. */
export const MAX_DEPTH = 4;
/** Most random cases per operator: they are generated up front, so this bounds memory. */
export const MAX_RANDOM = 100_000;

export function checkCommand(o: CheckCommandOptions): number {
  if (o.depth > MAX_DEPTH) return usage(`--depth must be between 0 and ${MAX_DEPTH} (got ${o.depth})`);
  if (o.random > MAX_RANDOM)
    return usage(`--random is at most ${MAX_RANDOM.toLocaleString('en-US')} cases per operator (got ${o.random}); run several seeds instead`);
  // Without --ops: every operator whose relation has sweep cases and a twin (an
  // operator a user declares on a relation of their own has neither; its example was
  // typed when its file was loaded).
  let ops = allOps()
    .map((op) => op.name)
    .filter(hasCaseGenerator);
  const unchecked = allOps()
    .map((op) => op.name)
    .filter((op) => !hasCaseGenerator(op));
  if (o.ops === undefined && unchecked.length > 0 && !o.json)
    process.stderr.write(`not cross-checked (a relation without sweep cases or twin; each example types): ${unchecked.join(', ')}\n`);
  if (o.ops !== undefined) {
    ops = commaList(o.ops);
    const problems = ops
      .map((name) => lookupOp(name))
      .filter((r) => !r.ok)
      .map((r) => (r as { message: string }).message);
    if (problems.length > 0 || ops.length === 0) {
      process.stderr.write(`shapelog check: ${problems.length > 0 ? problems.join('\n') : '--ops names no operator'}\n`);
      return EXIT_USAGE;
    }
  }
  const missing = ops.filter((op) => !hasCaseGenerator(op));
  if (missing.length > 0) {
    process.stderr.write(`shapelog check: no sweep case generator for ${missing.join(', ')} (add one in proofs/cross-check/cases/)\n`);
    return EXIT_USAGE;
  }
  const seed = o.seed ?? Math.floor(Math.random() * 2 ** 31);
  if (o.against !== undefined || o.againstRev !== undefined) {
    return checkAgainst({
      ops,
      depth: o.depth,
      random: o.random,
      seed,
      json: o.json,
      expectChanges: o.expectChanges === true,
      ...(o.against !== undefined ? { against: o.against } : {}),
      ...(o.againstRev !== undefined ? { againstRev: o.againstRev } : {}),
    });
  }
  const options = { depth: o.depth, random: o.random, seed, reference: o.reference };
  const started = Date.now();

  const total = ops.reduce((s, op) => {
    const c = casesToCheck(op, options);
    return s + c.sweep.length + c.random.length;
  }, 0);
  const bar =
    !o.json && process.stderr.isTTY === true
      ? new SingleBar({ format: ' {bar} {percentage}% | {value}/{total} cases | {op} | {eta_formatted} left', hideCursor: true, clearOnComplete: true })
      : null;
  bar?.start(total, 0, { op: '' });
  const reports: OpCheck[] = [];
  for (const op of ops) {
    bar?.update({ op });
    reports.push(checkOp(op, { ...options, onCase: () => bar?.increment() }));
  }
  bar?.stop();
  const seconds = (Date.now() - started) / 1000;
  const failed = reports.some(
    (r) => r.disagree > 0 || (r.reference !== null && (r.reference.unsound > 0 || r.reference.crashed > 0 || r.reference.stricterUnexpected > 0)),
  );

  if (o.json) {
    process.stdout.write(`${JSON.stringify({ seed, depth: o.depth, random: o.random, seconds, ops: reports }, null, 2)}\n`);
  } else {
    printTable(reports, o.reference);
    printProblems(reports);
    const sum = (f: (r: OpCheck) => number) => reports.reduce((s, r) => s + f(r), 0);
    const line = `${reports.length} operators, ${sum((r) => r.cases)} cases (${sum((r) => r.sweep)} sweep, ${sum((r) => r.random)} random, seed ${seed}): ${sum((r) => r.agree)} agree, ${sum((r) => r.disagree)} disagree`;
    const refLine = o.reference
      ? `; reference: ${sum((r) => r.reference?.executed ?? 0)} executed, ${sum((r) => r.reference?.unsound ?? 0)} unsound, ${sum((r) => r.reference?.crashed ?? 0)} executor crashes, ${sum((r) => r.reference?.stricterUnexpected ?? 0)} unexpectedly strict, ${sum((r) => r.reference?.stricterExpected ?? 0)} strict as documented`
      : '';
    process.stdout.write(`\n${line}${refLine} (${seconds.toFixed(1)} s)\n`);
  }
  return failed ? EXIT_USER_ERROR : EXIT_OK;
}

function usage(message: string): number {
  process.stderr.write(`shapelog check: ${message}\n`);
  return EXIT_USAGE;
}

function printTable(reports: readonly OpCheck[], reference: boolean): void {
  const color = process.stdout.isTTY === true;
  const w = Math.max(2, ...reports.map((r) => r.op.length));
  const head = `${'operator'.padEnd(w)}  ${'cases'.padStart(6)}  ${'agree'.padStart(6)}  ${'disagree'.padStart(8)}${reference ? `  ${'executed'.padStart(8)}  ${'unsound'.padStart(7)}  ${'stricter'.padStart(8)}` : ''}`;
  process.stdout.write(`${head}\n`);
  for (const r of reports) {
    const ref = r.reference;
    const refCols = reference
      ? ref === null || !ref.available
        ? `  ${'-'.padStart(8)}  ${'-'.padStart(7)}  ${'-'.padStart(8)}`
        : `  ${String(ref.executed).padStart(8)}  ${String(ref.unsound).padStart(7)}  ${`${ref.stricterUnexpected}${ref.stricterExpected > 0 ? `+${ref.stricterExpected}` : ''}`.padStart(8)}`
      : '';
    let row = `${r.op.padEnd(w)}  ${String(r.cases).padStart(6)}  ${String(r.agree).padStart(6)}  ${String(r.disagree).padStart(8)}${refCols}`;
    if (color && (r.disagree > 0 || (ref !== null && (ref.unsound > 0 || ref.crashed > 0 || ref.stricterUnexpected > 0)))) row = pc.red(row);
    process.stdout.write(`${row}\n`);
  }
  if (reference) process.stdout.write(pc.dim(`(stricter: unexpected+documented; - = no reference executor)\n`));
}

const show = (a: TypeofAnswer): string => JSON.stringify(a);

function printProblems(reports: readonly OpCheck[]): void {
  for (const r of reports) {
    for (const c of r.counterexamples) {
      process.stdout.write(`\n${r.op}: rules and imperative disagree (${c.kind}, ${c.source} case); minimal case:\n`);
      process.stdout.write(`  echo '${c.line}' | shapelog typeof\n    rules:      ${show(c.rules)}\n    imperative: ${show(c.relay)}\n`);
      if (c.found !== c.line) process.stdout.write(pc.dim(`  (shrunk from ${c.found})\n`));
    }
    for (const p of r.reference?.problems ?? []) {
      const what =
        p.kind === 'unsound'
          ? 'the relation gives a type the reference executor does not produce'
          : p.kind === 'crash'
            ? 'the reference executor crashed'
            : 'the relation rejects a call the reference executor runs, and its STRICTER entry does not cover the call';
      process.stdout.write(`\n${r.op}: ${what}:\n  echo '${p.line}' | shapelog typeof\n    relation: ${show(p.relation)}\n    executor: ${p.executed}\n`);
    }
  }
}
