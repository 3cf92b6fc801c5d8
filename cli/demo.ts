// `shapelog demo` (what `npm start` runs): every bundled example, solved with every
// strategy; the strategies must derive the same facts and the same goal answers;
// then the operators of examples/relations (rules only) on the programs using them;
// then the real ONNX models of examples/onnx/models.json, typed as shipped (symbolic dims).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { inferJson, inferText } from '../typing/infer.js';
import { packageRoot } from '../relations/library.js';
import { ProgramError, type RunResult, runFiles, type StrategyName } from '../solver/run.js';
import { EXIT_OK, EXIT_USER_ERROR, printDiagnostics } from './report.js';
import { addRelationFiles } from '../relations/library.js';
import { bundledModels, readBundledModel } from '../typing/onnx/bundled-models.js';
import { decodeModel } from '../frontends/onnx/decode.js';
import { typeModel } from '../typing/onnx/model-types.js';
import { countKnowledge } from '../typing/onnx/known-shapes.js';

const examplesDir = join(packageRoot(), 'examples', 'rules');
const relayDir = join(packageRoot(), 'examples', 'relay');
const userRelationsDir = join(packageRoot(), 'examples', 'relations');

interface UserRelationsRow {
  program: string;
  relations: string[];
  errors: number;
  result: string;
}

/**
 * examples/relations: operators written as rules only, loaded as a user's
 * `--relations` files, and the Relay programs that use them (rules strategy only:
 * they have no twin). Run last: the files stay in this process's library.
 */
function userRelationExamples(): UserRelationsRow[] {
  const names = readdirSync(userRelationsDir).sort();
  const relations = names.filter((f) => f.endsWith('.rules')).map((f) => join(userRelationsDir, f));
  const labels = relations.map((f) => relative(join(userRelationsDir, '..', '..'), f));
  const warnings = addRelationFiles(relations);
  if (warnings.length > 0) throw new Error(`examples/relations overrides built-in operators: ${warnings.map((w) => w.message).join('; ')}`);
  return names
    .filter((f) => f.endsWith('.relay'))
    .map((f) => {
      const label = relative(join(userRelationsDir, '..', '..'), join(userRelationsDir, f));
      const r = inferText(readFileSync(join(userRelationsDir, f), 'utf8'), label, 'rules');
      return {
        program: label,
        relations: labels,
        errors: r.diagnostics.filter((d) => d.severity === 'error').length,
        result: r.outcome.functions.get('main') ?? '_',
      };
    });
}

interface InferRow {
  program: string;
  instances: number;
  millis: { rules: number; relay: number };
  errors: number;
  agree: boolean;
}

/** Every Relay example (examples/relay and its subfolders), typed by both strategies. */
function inferExamples(): InferRow[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.relay')) files.push(join(dir, e.name));
    }
  };
  walk(relayDir);
  return files.map((path) => {
    const text = readFileSync(path, 'utf8');
    const label = relative(join(relayDir, '..', '..'), path);
    const rules = inferText(text, label, 'rules');
    const relay = inferText(text, label, 'relay');
    const key = (r: typeof rules) => JSON.stringify({ ...inferJson(r), diagnostics: r.diagnostics.filter((d) => d.severity === 'error').length > 0 });
    return {
      program: label,
      instances: rules.outcome.instances,
      millis: { rules: rules.outcome.millis, relay: relay.outcome.millis },
      errors: rules.diagnostics.filter((d) => d.severity === 'error').length,
      agree: key(rules) === key(relay),
    };
  });
}

interface OnnxModelRow {
  model: string;
  kind: string;
  source: string;
  /** null: its package is not installed (a development dependency) */
  nodes: number | null;
  values: number;
  typed: number;
  exact: number;
  symbolic: number;
  unknown: number;
  errors: number;
  millis: number;
}

/** Every model of examples/onnx/models.json typed as shipped: how many values get a type, an exact, symbolic or unknown shape. */
function onnxModels(): OnnxModelRow[] {
  return bundledModels().map((m) => {
    const base = { model: m.name, kind: m.kind.replace(/ \(.*$/, ''), source: `${m.package}@${m.version} (${m.license.split(/[;(]/)[0]!.trim()})` };
    const bytes = readBundledModel(m);
    if (bytes === null) return { ...base, nodes: null, values: 0, typed: 0, exact: 0, symbolic: 0, unknown: 0, errors: 0, millis: 0 };
    const start = performance.now();
    const model = decodeModel(bytes, m.name);
    const typed = typeModel(model);
    const millis = Math.round(performance.now() - start);
    const types = typed.values.map((v) => v.type);
    return {
      ...base,
      nodes: model.graph.nodes.length,
      values: types.length,
      typed: types.filter((t) => t !== null).length,
      ...countKnowledge(types),
      errors: typed.diagnostics.filter((d) => d.severity === 'error').length,
      millis,
    };
  });
}

interface Row {
  example: string;
  goal: string | null;
  facts: number;
  answers: number | null;
  errors: number;
  undecided: number;
  millis: Record<StrategyName, number>;
  agree: boolean;
}

function snapshot(r: RunResult): string {
  return JSON.stringify([...r.factsByPredicate()]);
}

export function demo(options: { json: boolean }): number {
  const files = readdirSync(examplesDir)
    .filter((f) => f.endsWith('.rules'))
    .sort();
  const rows: Row[] = [];
  for (const f of files) {
    const path = join(examplesDir, f);
    const goal = /^%\s*demo-goal:\s*(.+)$/m.exec(readFileSync(path, 'utf8'))?.[1]?.trim() ?? null;
    const results = {} as Record<StrategyName, RunResult>;
    try {
      for (const s of ['naive', 'seminaive', 'demand', 'mutable'] as const) results[s] = runFiles([path], { strategy: s, ...(goal ? { goal } : {}) });
    } catch (e) {
      if (e instanceof ProgramError) {
        printDiagnostics(e.diagnostics, e.texts, { warnings: true });
        return EXIT_USER_ERROR;
      }
      throw e;
    }
    const base = results.seminaive;
    const agree =
      snapshot(results.naive) === snapshot(base) &&
      snapshot(results.mutable) === snapshot(base) &&
      JSON.stringify(results.mutable.answers) === JSON.stringify(base.answers) &&
      JSON.stringify(results.naive.answers) === JSON.stringify(base.answers) &&
      JSON.stringify(results.demand.answers) === JSON.stringify(base.answers);
    const ds = base.diagnostics;
    rows.push({
      example: f,
      goal,
      facts: [...base.factsByPredicate().values()].reduce((n, x) => n + x.length, 0),
      answers: base.answers?.length ?? null,
      errors: ds.filter((d) => d.severity === 'error').length,
      undecided: ds.filter((d) => d.code === 'undecided').length,
      millis: { naive: results.naive.stats.millis, seminaive: base.stats.millis, demand: results.demand.stats.millis, mutable: results.mutable.stats.millis },
      agree,
    });
  }
  const inferred = inferExamples();
  const user = userRelationExamples();
  const onnx = onnxModels();
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ examples: rows, programs: inferred, userRelations: user, onnxModels: onnx }, null, 2)}\n`);
  } else {
    const header = ['example', 'facts', 'goal answers', 'errors', 'undecided', 'naive ms', 'seminaive ms', 'demand ms', 'agree'];
    const table = rows.map((r) => [
      r.example,
      String(r.facts),
      r.answers === null ? '-' : String(r.answers),
      String(r.errors),
      String(r.undecided),
      String(r.millis.naive),
      String(r.millis.seminaive),
      String(r.millis.demand),
      r.agree ? 'yes' : 'NO',
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    process.stdout.write(`shapelog demo: examples/rules/*.rules with every strategy (errors and undecided conditions are part of the examples)\n\n`);
    process.stdout.write(`${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
    for (const t of table) process.stdout.write(`${line(t)}\n`);
    const header2 = ['program', 'relation instances', 'rules ms', 'relay ms', 'errors', 'agree'];
    const table2 = inferred.map((r) => [
      r.program,
      String(r.instances),
      String(r.millis.rules),
      String(r.millis.relay),
      String(r.errors),
      r.agree ? 'yes' : 'NO',
    ]);
    const widths2 = header2.map((h, i) => Math.max(h.length, ...table2.map((t) => t[i]!.length)));
    const line2 = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths2[i]!) : c.padStart(widths2[i]!))).join('  ');
    process.stdout.write(
      `\nshapelog infer: examples/relay/**/*.relay typed by the rule engine (relations/*.rules) and by Relay's algorithm (relations/imperative/)\n\n`,
    );
    process.stdout.write(`${line2(header2)}\n${widths2.map((w) => '-'.repeat(w)).join('  ')}\n`);
    for (const t of table2) process.stdout.write(`${line2(t)}\n`);
    process.stdout.write(`\nshapelog infer --relations examples/relations/*.rules: operators written as rules only\n\n`);
    for (const u of user)
      process.stdout.write(`${u.program}: ${u.errors === 0 ? `@main : ${u.result}` : `${u.errors} errors`} (with ${u.relations.join(', ')})\n`);
    const header3 = ['model', 'nodes', 'values', 'typed', 'exact', 'symbolic', 'unknown', 'errors', 'ms', 'kind', 'from'];
    const table3 = onnx.map((r) =>
      r.nodes === null
        ? [r.model, '-', '-', '-', '-', '-', '-', '-', '-', r.kind, `${r.source}: not installed`]
        : [
            r.model,
            String(r.nodes),
            String(r.values),
            String(r.typed),
            String(r.exact),
            String(r.symbolic),
            String(r.unknown),
            String(r.errors),
            String(r.millis),
            r.kind,
            r.source,
          ],
    );
    const widths3 = header3.map((h, i) => Math.max(h.length, ...table3.map((t) => t[i]!.length)));
    const line3 = (cells: string[]) =>
      cells
        .map((c, i) => (i === 0 || i >= 9 ? c.padEnd(widths3[i]!) : c.padStart(widths3[i]!)))
        .join('  ')
        .trimEnd();
    process.stdout.write(`\nshapelog infer MODEL.onnx: real models from npm (examples/onnx/models.json), as shipped: symbolic batch and image sizes\n\n`);
    process.stdout.write(`${line3(header3)}\n${widths3.map((w) => '-'.repeat(w)).join('  ')}\n`);
    for (const t of table3) process.stdout.write(`${line3(t)}\n`);
    process.stdout.write(
      `\nTry: npx shapelog query examples/rules/broadcast.rules\n     npx shapelog query examples/rules/graph.rules --goal 'path(a, X)' --json\n     npx shapelog infer examples/relay/mlp.relay\n     npx shapelog infer examples/relay/conv.relay --explain %0\n     npx shapelog infer examples/relations/attention.relay --relations examples/relations/*.rules\n     npx shapelog infer examples/onnx/models/silero_vad_v5.onnx --shape input=1,512 --shape state=2,1,128 --value sr=16000\n`,
    );
  }
  return rows.every((r) => r.agree) && inferred.every((r) => r.agree) && user.every((u) => u.errors === 0) && onnx.every((r) => r.errors === 0)
    ? EXIT_OK
    : EXIT_USER_ERROR;
}
