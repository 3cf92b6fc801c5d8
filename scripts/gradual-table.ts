// Regenerates the table of docs/gradual-corpus.md from the corpus in examples/gradual/:
// per program its source, size (lines, calls, distinct operators), size variables, the
// conditions inference leaves undecided today (rules strategy; the relay strategy's count
// beside), the time to infer (a fresh `shapelog infer` process, and in-process
// inferText, medians), the residual checks of `infer --gradual` once that flag exists,
// and what GraTen's artifact shows for the same program. The table replaces the text
// between the markers <!-- gradual-table:start --> and <!-- gradual-table:end -->.
//
// Run: npm run gradual:table [-- --runs N] [--json] [--no-write]
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseRelay } from '../frontends/relay/parse.js';
import { type InferStrategy, inferText } from '../typing/infer.js';

const root = join(import.meta.dirname, '..');
const corpusDir = join(root, 'examples', 'gradual');
const docPath = join(root, 'docs', 'gradual-corpus.md');
const cli = join(root, 'bin', 'shapelog.js');
const START = '<!-- gradual-table:start -->';
const END = '<!-- gradual-table:end -->';

/** What GraTen's artifact (momohatt/graten at 98dd139c, examples/) holds for a program. */
interface GraTenArtifact {
  /** the unannotated program and its size in characters, as stored; null: not stored */
  readonly file: string | null;
  readonly chars: number | null;
  /** `(* ANNOT: k *)` markers in the *_annotated.ml file: how many, and the sum of their k */
  readonly annotated: string | null;
  readonly markers: number | null;
  readonly annotations: number | null;
}

const none: GraTenArtifact = { file: null, chars: null, annotated: null, markers: null, annotations: null };
const artifact = (file: string | null, chars: number | null, annotated: string | null, markers: number | null, annotations: number | null): GraTenArtifact => ({
  file,
  chars,
  annotated,
  markers,
  annotations,
});

/** Read from the stored copy of the artifact; see docs/gradual-corpus.md for what each column means. */
export const GRATEN: Readonly<Record<string, GraTenArtifact>> = {
  mnist_linear: artifact('mnist/linear.ml', 1647, null, null, null),
  mnist_nn: artifact(null, null, null, null, null),
  mnist_conv: artifact(null, null, null, null, null),
  cifar_resnet: artifact('cifar/resnet.ml', 2974, 'cifar/resnet_annotated.ml', 2, 4),
  cifar_preact_resnet: artifact('cifar/preact_resnet.ml', 3001, 'cifar/preact_resnet_annotated.ml', 2, 5),
  cifar_densenet: artifact('cifar/densenet.ml', 4530, 'cifar/densenet_annotated.ml', 1, 2),
  cifar_fast_resnet: artifact('cifar/fast_resnet.ml', 2118, null, null, null),
  began: artifact('gan/began.ml', 8408, 'gan/began_annotated.ml', 1, 1),
  mnist_dcgan: artifact(null, null, 'gan/mnist_dcgan_annotated.ml', 2, 2),
  relativistic_dcgan: artifact('gan/relativistic_dcgan.ml', 6239, 'gan/relativistic_dcgan_annotated.ml', 1, 1),
  mnist_cgan: artifact('gan/mnist_cgan.ml', 4169, 'gan/mnist_cgan_annotated.ml', 1, 1),
  vae: artifact('vae/vae.ml', 2599, 'vae/vae_annotated.ml', 5, 10),
  dqn_atari: artifact('reinforcement-learning/dqn_atari.ml', 10119, null, null, null),
  char_rnn: artifact('char_rnn/char_rnn.ml', 3951, 'char_rnn/char_rnn_annotated.ml', 1, 2),
  seq2seq: artifact('translation/seq2seq.ml', 9785, 'translation/seq2seq_annotated.ml', 13, 34),
  mingpt: artifact('min-gpt/mingpt.ml', 8596, 'min-gpt/mingpt_annotated.ml', 3, 6),
  yolo: artifact('yolo/yolo.ml', null, 'yolo/yolo_annotated.ml', 2, 2),
  neural_transfer: none,
};

export interface CorpusRow {
  readonly program: string;
  readonly source: string;
  readonly lines: number;
  readonly calls: number;
  readonly operators: readonly string[];
  readonly sizeVariables: readonly string[];
  readonly undecided: readonly string[];
  readonly relayWarnings: number;
  readonly errors: number;
  readonly coldMs: number | null;
  readonly rulesMs: number | null;
  readonly relayMs: number | null;
  readonly gradualChecks: number | 'pending';
  readonly graten: GraTenArtifact;
}

/** Every operator call's name in a parsed module (a generic walk over the IR). */
function operatorCalls(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const x of node) operatorCalls(x, out);
  } else if (node !== null && typeof node === 'object') {
    const o = node as { kind?: unknown; callee?: { kind?: unknown; name?: unknown } };
    if (o.kind === 'call' && o.callee?.kind === 'op' && typeof o.callee.name === 'string') out.push(o.callee.name);
    for (const [k, v] of Object.entries(node)) if (k !== 'span') operatorCalls(v, out);
  }
  return out;
}

/** The size variables written in @main's parameter types. */
function sizeVariables(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const x of node) sizeVariables(x, out);
  } else if (node !== null && typeof node === 'object') {
    const o = node as { kind?: unknown; expr?: unknown; name?: unknown };
    if (o.kind === 'var' && typeof o.name === 'string' && !('span' in o)) out.add(o.name);
    for (const [k, v] of Object.entries(node)) if (k !== 'span') sizeVariables(v, out);
  }
  return out;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function inProcessMs(text: string, file: string, strategy: InferStrategy, runs: number): number {
  inferText(text, file, strategy);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    inferText(text, file, strategy);
    times.push(performance.now() - t0);
  }
  return median(times);
}

function processMs(path: string, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, [cli, 'infer', path], { encoding: 'utf8' });
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Whether `shapelog infer` has the --gradual flag yet (issue 14). */
function hasGradual(): boolean {
  const help = spawnSync(process.execPath, [cli, 'infer', '--help'], { encoding: 'utf8' });
  return help.stdout.includes('--gradual');
}

function gradualChecks(path: string): number | 'pending' {
  const p = spawnSync(process.execPath, [cli, 'infer', path, '--gradual', '--json'], { encoding: 'utf8' });
  try {
    const checks = (JSON.parse(p.stdout) as { checks?: unknown }).checks;
    return Array.isArray(checks) ? checks.length : 'pending';
  } catch {
    return 'pending';
  }
}

export function corpusRow(file: string, runs: number, gradual: boolean): CorpusRow {
  const path = join(corpusDir, file);
  const text = readFileSync(path, 'utf8');
  const program = basename(file, '.relay');
  const module = parseRelay(text, file);
  const main = module.functions.find((f) => f.name === 'main');
  const calls = operatorCalls(module);
  const rules = inferText(text, file, 'rules');
  const relay = inferText(text, file, 'relay');
  const warnings = (r: typeof rules): string[] => r.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message);
  // a condition, where it is reported: the program's line, or a rule file's (rules strategy)
  const located = rules.diagnostics
    .filter((d) => d.severity === 'warning')
    .map(
      (d) =>
        `${d.message.replace(/ cannot be decided$/, '')} (${d.span === null ? 'no location' : d.span.file === file ? `line ${d.span.start.line}` : `${d.span.file}:${d.span.start.line}`})`,
    );
  const source = /\/\/ Source: ocaml-torch examples\/(\S+?\.ml)/.exec(text)?.[1] ?? '?';
  return {
    program,
    source,
    lines: text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('//')).length,
    calls: calls.length,
    operators: [...new Set(calls)].sort(),
    sizeVariables: [...sizeVariables(main?.params.map((p) => p.type) ?? [])].sort(),
    undecided: [...new Set(located)],
    relayWarnings: new Set(warnings(relay)).size,
    errors: [...rules.diagnostics, ...relay.diagnostics].filter((d) => d.severity === 'error').length,
    coldMs: runs > 0 ? processMs(path, runs) : null,
    rulesMs: runs > 0 ? inProcessMs(text, file, 'rules', runs) : null,
    relayMs: runs > 0 ? inProcessMs(text, file, 'relay', runs) : null,
    gradualChecks: gradual ? gradualChecks(path) : 'pending',
    graten: GRATEN[program] ?? none,
  };
}

const ms = (x: number | null): string => (x === null ? '–' : x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${Math.round(x)} ms`);

function renderRow(r: CorpusRow): string {
  const g = r.graten;
  const inLibrary = r.undecided.filter((u) => u.includes('relations/')).length;
  const undecided = `${r.undecided.length - inLibrary}${inLibrary > 0 ? ` + ${inLibrary} in relations/` : ''}`;
  return [
    `[${r.program}](../examples/gradual/${r.program}.relay)`,
    `\`${r.source}\``,
    `${r.lines}`,
    `${r.calls} (${r.operators.length})`,
    r.sizeVariables.join(', '),
    undecided,
    `${r.relayWarnings}`,
    `${ms(r.coldMs)} / ${ms(r.rulesMs)} / ${ms(r.relayMs)}`,
    r.gradualChecks === 'pending' ? 'pending' : `${r.gradualChecks}`,
    g.file === null ? 'not stored' : `\`${g.file}\`${g.chars === null ? '' : ` (${g.chars} chars)`}`,
    g.annotated === null ? '–' : `${g.markers} / ${g.annotations}`,
    'not found',
  ].join(' | ');
}

/** Each program's undecided conditions, one list item per condition. */
export function renderDetails(rows: readonly CorpusRow[]): string {
  return rows
    .map((r) => `- **${r.program}** (${r.undecided.length}): ${r.undecided.length === 0 ? 'none' : r.undecided.map((u) => `\`${u}\``).join('; ')}`)
    .join('\n');
}

export function renderTable(rows: readonly CorpusRow[]): string {
  const head = [
    'program',
    'source (ocaml-torch examples/)',
    'lines',
    'calls (operators)',
    'size variables',
    'undecided today (rules strategy; + located in relations/)',
    'relay strategy warnings',
    'infer: process / in-process rules / in-process relay',
    'checks with --gradual',
    "GraTen artifact's program",
    'ANNOT markers / annotations',
    "GraTen's published numbers",
  ];
  const table = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${renderRow(r)} |`)];
  return [...table, '', 'Undecided conditions today, program by program (rules strategy, where each is reported):', '', renderDetails(rows)].join('\n');
}

function replaceTable(doc: string, table: string): string {
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${docPath}: the markers ${START} and ${END} are missing`);
  return `${doc.slice(0, a + START.length)}\n${table}\n${doc.slice(b)}`;
}

const USAGE = `Usage: npm run gradual:table [-- options]

Regenerates the table in docs/gradual-corpus.md from examples/gradual/*.relay.

Options:
  --runs N     timing runs per program and measure (median; default 3; 0: no timing)
  --json       print the rows as JSON instead of writing the document
  --no-write   print the table instead of writing the document
  -h, --help   this text
`;

function parseArgs(argv: readonly string[]): { runs: number; json: boolean; write: boolean } | string {
  let runs = 3;
  let json = false;
  let write = true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') json = true;
    else if (a === '--no-write') write = false;
    else if (a === '--runs') {
      const v = argv[++i];
      if (v === undefined || !/^\d+$/.test(v)) return `--runs needs a whole number, got ${v === undefined ? 'nothing' : JSON.stringify(v)}`;
      runs = Number(v);
    } else return `unknown option ${JSON.stringify(a)}`;
  }
  return { runs, json, write };
}

function main(argv: readonly string[]): number {
  if (argv.includes('-h') || argv.includes('--help')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const opts = parseArgs(argv);
  if (typeof opts === 'string') {
    process.stderr.write(`gradual-table: ${opts}\n\n${USAGE}`);
    return 2;
  }
  const gradual = hasGradual();
  const files = readdirSync(corpusDir)
    .filter((f) => f.endsWith('.relay'))
    .sort();
  const rows = files.map((f) => {
    process.stderr.write(`${f}\n`);
    return corpusRow(f, opts.runs, gradual);
  });
  if (opts.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else if (!opts.write) process.stdout.write(`${renderTable(rows)}\n`);
  else writeFileSync(docPath, replaceTable(readFileSync(docPath, 'utf8'), renderTable(rows)));
  return rows.some((r) => r.errors > 0) ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
