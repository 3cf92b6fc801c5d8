// `npm run conformance:onnx`: every case of ONNX's node conformance data
// (../shared/conformance/onnx-node/visible.jsonl) typed with the ONNX relations: a
// single-node case as a `typeof --onnx` request, an `_expanded` case (the operator's
// function body inlined into many nodes) by typing its model file like `shapelog infer`.
// A case passes when every output has the recorded dtype and shape. Writes the per-op
// table to docs/onnx.md (between the CONFORMANCE markers) and prints the pass rates.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { typeNodeRequest, type OutputAnswer } from '../typing/onnx/node-request.js';
import { readModel, typeModel } from '../typing/onnx/model-types.js';
import { UserError } from '../diagnostics/diagnostic.js';

const DATA = process.argv[2] ?? join(process.cwd(), '..', 'shared', 'conformance', 'onnx-node');
const DOC = join(process.cwd(), 'docs', 'onnx.md');

interface Case {
  name: string;
  op_type: string;
  expanded: boolean;
  outputs: { absent?: boolean; kind?: string; dtype?: string; shape?: number[] }[];
}

function expectedText(o: Case['outputs'][number]): string {
  return o.absent ? 'absent' : o.kind !== undefined && o.kind !== 'tensor' ? o.kind : `${o.dtype}${JSON.stringify(o.shape)}`;
}
function gotText(o: OutputAnswer | undefined): string {
  if (o === undefined) return 'missing';
  if ('absent' in o) return 'absent';
  if ('kind' in o) return o.kind;
  return `${o.dtype ?? '?'}${o.shape === null ? '[?]' : JSON.stringify(o.shape).replace(/null/g, '?')}`;
}

function runCase(c: Case & Record<string, unknown>): string | null {
  let got: OutputAnswer[];
  try {
    if (c.expanded) {
      const typed = typeModel(readModel(join(DATA, 'models', c.name, 'model.onnx')));
      const err = typed.diagnostics.find((d) => d.severity === 'error');
      if (err) return err.message;
      const declared = typed.outputs.map(
        (v): OutputAnswer =>
          v.type === null
            ? { dtype: null, shape: null }
            : v.type.kind === 'tensor'
              ? { dtype: v.type.dtype, shape: v.type.shape }
              : v.type.kind === 'absent'
                ? { absent: true }
                : { kind: v.type.kind, elem: null },
      );
      // the model's graph outputs are the record's outputs that are not absent, in order
      let next = 0;
      got = c.outputs.map((o): OutputAnswer => (o.absent ? { absent: true } : (declared[next++] ?? { dtype: null, shape: null })));
    } else {
      const a = typeNodeRequest(c);
      if ('error' in a) return a.error;
      got = [...a.outputs];
    }
  } catch (e) {
    if (e instanceof UserError) return e.message;
    return `crash: ${e instanceof Error ? e.message : String(e)}`;
  }
  const want = c.outputs.map(expectedText);
  const have = c.outputs.map((_, i) => gotText(got[i]));
  return want.every((w, i) => w === have[i]) ? null : `expected ${want.join(', ')}; got ${have.join(', ')}`;
}

function main(): void {
  const file = join(DATA, 'visible.jsonl');
  if (!existsSync(file)) {
    process.stderr.write(`conformance:onnx: ${file} not found (give the folder of visible.jsonl as the argument)\n`);
    process.exit(2);
  }
  const cases = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Case & Record<string, unknown>);
  const byOp = new Map<string, { pass: number; total: number; xpass: number; xtotal: number; failures: string[] }>();
  let pass = 0,
    total = 0,
    xpass = 0,
    xtotal = 0;
  for (const c of cases) {
    const r = byOp.get(c.op_type) ?? byOp.set(c.op_type, { pass: 0, total: 0, xpass: 0, xtotal: 0, failures: [] }).get(c.op_type)!;
    const failure = runCase(c);
    if (c.expanded) {
      r.xtotal++;
      xtotal++;
      if (failure === null) {
        r.xpass++;
        xpass++;
      }
    } else {
      r.total++;
      total++;
      if (failure === null) {
        r.pass++;
        pass++;
      }
    }
    if (failure !== null) r.failures.push(`${c.name}: ${failure.replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 160)}`);
  }
  const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`);
  const rows = [...byOp.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([op, r]) =>
        `| ${op} | ${r.total ? `${r.pass}/${r.total}` : '-'} | ${r.xtotal ? `${r.xpass}/${r.xtotal}` : '-'} | ${r.failures.slice(0, 2).join('<br>')}${r.failures.length > 2 ? ` (+${r.failures.length - 2} more)` : ''} |`,
    );
  const summary = `Single-node cases: ${pass}/${total} (${pct(pass, total)}); \`_expanded\` models: ${xpass}/${xtotal} (${pct(xpass, xtotal)}).`;
  const table = [summary, '', '| op_type | node cases | _expanded | failures (first two) |', '|---|---|---|---|', ...rows].join('\n');
  const begin = '<!-- CONFORMANCE BEGIN (npm run conformance:onnx) -->';
  const end = '<!-- CONFORMANCE END -->';
  const doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : `# ONNX\n\n${begin}\n${end}\n`;
  const at = doc.indexOf(begin);
  const to = doc.indexOf(end);
  writeFileSync(DOC, at < 0 || to < 0 ? `${doc}\n${begin}\n${table}\n${end}\n` : `${doc.slice(0, at + begin.length)}\n${table}\n${doc.slice(to)}`);
  console.log(summary);
}

main();
