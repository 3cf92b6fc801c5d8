// `shapelog prove`: rules and imperative twins proved equal for every size at
// ranks up to --rank, by symbolic execution, case splits and z3 (proofs/prove/).
// A table (or --json), a progress bar on a terminal; each counterexample as a
// ready-to-paste `shapelog typeof` line with both answers and the reference
// executor's view; each unknown with the limit that stopped it. Exits 1 on any
// counterexample, 2 on bad usage (unknown operator, a rank no operator case
// takes, a timeout that is not positive).
import { SingleBar } from 'cli-progress';
import pc from 'picocolors';
import { allOps, lookupOp } from '../relations/catalogue.js';
import { hasCaseGenerator } from '../proofs/cross-check/cases.js';
import { combosFor, sweepMinRank } from '../proofs/prove/combos.js';
import { type OpProof, proveOp } from '../proofs/prove/run.js';
import { satisfiable } from '../proofs/prove/smt.js';
import { typeofCall } from '../typing/typeof.js';
import { EXIT_OK, EXIT_USAGE, EXIT_USER_ERROR } from './report.js';
import { commaList } from './program.js';

export interface ProveCommandOptions {
  readonly ops?: string;
  readonly rank: number;
  /** Seconds per operator. */
  readonly timeout: number;
  readonly json: boolean;
}

function usage(message: string): number {
  process.stderr.write(`shapelog prove: ${message}\n`);
  return EXIT_USAGE;
}

export async function proveCommand(o: ProveCommandOptions): Promise<number> {
  if (!(o.timeout > 0)) return usage(`--timeout must be a positive number of seconds per operator, got ${o.timeout}`);
  if (!Number.isInteger(o.rank) || o.rank < 0 || o.rank > 6) return usage(`--rank must be an integer from 0 to 6, got ${o.rank}`);
  let ops = allOps()
    .map((op) => op.name)
    .filter(hasCaseGenerator);
  if (o.ops !== undefined) {
    ops = commaList(o.ops);
    const problems = ops
      .map((name) => lookupOp(name))
      .filter((r) => !r.ok)
      .map((r) => (r as { message: string }).message);
    if (problems.length > 0) return usage(problems.join('\n'));
    if (ops.length === 0) return usage('--ops names no operator');
    const missing = ops.filter((op) => !hasCaseGenerator(op));
    if (missing.length > 0) return usage(`no sweep case generator for ${missing.join(', ')} (add one in proofs/cross-check/cases/)`);
    const cannot = ops.filter((op) => combosFor(op, o.rank).length === 0);
    if (cannot.length > 0)
      return usage(cannot.map((op) => `${op} takes no arguments of rank <= ${o.rank} (its smallest case has rank ${sweepMinRank(op)})`).join('\n'));
  }
  const started = Date.now();
  const total = ops.reduce((s, op) => s + combosFor(op, o.rank).length, 0);
  const bar =
    !o.json && process.stderr.isTTY === true
      ? new SingleBar({ format: ' {bar} {percentage}% | {value}/{total} combinations | {op} | {eta_formatted} left', hideCursor: true, clearOnComplete: true })
      : null;
  bar?.start(total, 0, { op: '' });
  await warmUp();
  const reports: OpProof[] = [];
  const cache = new Map();
  for (const op of ops) {
    bar?.update({ op });
    reports.push(await proveOp(op, { rank: o.rank, timeout: o.timeout, cache, onCombo: () => bar?.increment() }));
  }
  bar?.stop();
  const seconds = (Date.now() - started) / 1000;
  const failed = reports.some((r) => r.counterexamples.length > 0);
  if (o.json) process.stdout.write(`${JSON.stringify({ rank: o.rank, timeout: o.timeout, seconds, ops: reports }, null, 2)}\n`);
  else printReport(reports, o.rank, seconds);
  return failed ? EXIT_USER_ERROR : EXIT_OK;
}

/** Loads the rule library, the twins and z3 before any operator's time budget starts. */
async function warmUp(): Promise<void> {
  typeofCall({ op: 'add', args: ['Tensor[(2), float32]', 'Tensor[(2), float32]'] }, 'rules');
  await satisfiable([], { timeoutMs: 10_000 }, true);
}

function printReport(reports: readonly OpProof[], rank: number, seconds: number): void {
  const color = process.stdout.isTTY === true;
  const w = Math.max(8, ...reports.map((r) => r.op.length));
  process.stdout.write(
    `${'operator'.padEnd(w)}  ${'combos'.padStart(6)}  ${'proved'.padStart(6)}  ${'counterex'.padStart(9)}  ${'unknown'.padStart(7)}  ${'branches'.padStart(8)}  ${'time'.padStart(6)}\n`,
  );
  for (const r of reports) {
    let row = `${r.op.padEnd(w)}  ${String(r.combos).padStart(6)}  ${String(r.proved).padStart(6)}  ${String(r.counterexamples.length).padStart(9)}  ${String(r.unknown).padStart(7)}  ${String(r.branches).padStart(8)}  ${r.seconds.toFixed(1).padStart(5)}s${r.shared.length > 0 ? pc.dim(`  (as ${r.shared.join(', ')})`) : ''}`;
    if (color) row = r.counterexamples.length > 0 ? pc.red(row) : r.unknown > 0 ? pc.yellow(row) : row;
    process.stdout.write(`${row}\n`);
  }
  for (const r of reports) {
    for (const c of r.counterexamples) {
      process.stdout.write(
        `\n${r.op} ${c.combo}: counterexample at ${JSON.stringify(c.sizes)} (branch: ${c.condition.join(', ') || 'no condition'})\n  ${c.line}\n`,
      );
      process.stdout.write(`  reference executor: rules ${c.reference.rules}; imperative ${c.reference.relay}\n`);
    }
    for (const u of r.unknowns.slice(0, 3)) process.stdout.write(pc.dim(`${r.op} ${u.combo}: unknown (${u.reason})\n`));
    if (r.unknowns.length > 3) process.stdout.write(pc.dim(`${r.op}: ${r.unknowns.length - 3} more unknown\n`));
  }
  const all = reports.filter((r) => r.proved === r.combos).length;
  const sum = (f: (r: OpProof) => number) => reports.reduce((s, r) => s + f(r), 0);
  process.stdout.write(
    `\n${reports.length} operators at rank <= ${rank}: ${all} proved for every combination (${((100 * all) / Math.max(1, reports.length)).toFixed(1)}%); ${sum((r) => r.combos)} combinations: ${sum((r) => r.proved)} proved (${sum((r) => r.branches)} branches), ${sum((r) => r.counterexamples.length)} counterexamples, ${sum((r) => r.unknown)} unknown (${seconds.toFixed(1)} s)\n`,
  );
}
