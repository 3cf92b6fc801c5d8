// Typing real ONNX models: shapelog vs ONNX's own C++ shape inference (python3-onnx's
// `infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)`).
//
//   npm run bench:onnx [-- --runs N] [--quick] [--checkout] [--no-write]
//
// 1. Process to process, per model of examples/onnx/models.json: `shapelog infer MODEL
//    --json` (the package as a user gets it, packed and installed from its tarball:
//    bench/installed-package.ts; `--checkout`: bin/shapelog.js of this repository; caches
//    warm) against `python3 bench/onnx_infer_once.py
//    MODEL` (load, infer, print a count), each a fresh process, alternating which side
//    goes first, N runs each (default 9); medians of wall time and of CPU time (user +
//    sys, from /usr/bin/time: steadier than wall time on a busy machine).
// 2. In process: shapelog's library API (decodeModel + typeModel, after a warm-up) in
//    this node process against a Python loop timing infer_shapes on the loaded model
//    (bench/onnx_infer_loop.py); medians.
// 3. Fully known values, models as shipped: a value whose every dim is an integer or a
//    symbolic dim over the graph inputs' dim_params and the names shapelog gives their
//    anonymous dims (`input#0`, typing/onnx/input-dims.ts) (ONNX's fresh `unk__N` names
//    and the labels declared on outputs are not known dims).
// 4. Time per node from 30 to 3,000 nodes: chains of Conv/Relu/Add blocks written with
//    frontends/onnx/encode.ts (one shared 3x3 weight, a symbolic batch), typed in
//    process (median of 3 after a warm-up), and by ONNX in process for reference.
//
// Targets (issue 11, point 7): shapelog <= 1.0x ONNX process to process on every model;
// strictly more fully known values than ONNX on each model exported with a symbolic dim;
// time per node roughly constant (here: the largest per-node time within 2x of the
// smallest, 300 to 3,000 nodes, in process; 30 nodes is reported but is all fixed cost).
// Writes bench/results/onnx.json and the table between the onnx markers in bench/README.md.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { checkoutCommand, installedCommand } from './installed-package.js';
import { benchEnv, caCertsNote } from './process-env.js';
import { pairedRatio } from '../cli/sample-stats.js';
import { decodeModel } from '../frontends/onnx/decode.js';
import { encodeModel } from '../frontends/onnx/encode.js';
import type { OnnxGraph, OnnxNode } from '../frontends/onnx/model.js';
import { bundledModelPath, bundledModels, readBundledModel } from '../typing/onnx/bundled-models.js';
import { typeModel } from '../typing/onnx/model-types.js';
import { graphInputDims } from '../typing/onnx/input-dims.js';
import { type DimJson, fullyKnownShape } from '../typing/onnx/known-shapes.js';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = join(benchDir, '..');
const python = process.env['SHAPELOG_PYTHON'] ?? '/usr/bin/python3';
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '9' },
    quick: { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    'keep-ca-certs': { type: 'boolean', default: false },
    checkout: { type: 'boolean', default: false },
  },
});
const runs = values.quick ? 3 : Math.max(1, Number(values.runs));

const probe = spawnSync(python, ['-c', 'import onnx; print(onnx.__version__)'], { encoding: 'utf8' });
if (probe.status !== 0) {
  console.error(`bench:onnx needs python3-onnx (apt-get install python3-onnx; another interpreter with SHAPELOG_PYTHON): ${python} cannot import onnx`);
  process.exit(2);
}
const onnxVersion = probe.stdout.trim();
const hasTime = existsSync('/usr/bin/time');

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface ProcessRun {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** One fresh process; stdout discarded; wall time measured here, CPU time by /usr/bin/time. */
function processRun(cmd: string, args: readonly string[]): ProcessRun {
  const argv = hasTime ? ['-f', 'CPU %U %S', cmd, ...args] : args;
  const start = performance.now();
  const p = spawnSync(hasTime ? '/usr/bin/time' : cmd, argv, {
    env: benchEnv(),
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallMs = performance.now() - start;
  if (p.status !== 0 && p.status !== 1) throw new Error(`${cmd} ${args.join(' ')}: exit ${p.status}\n${p.stderr}`);
  const m = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(p.stderr);
  return { wallMs, cpuMs: m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN };
}

interface PyLoop {
  readonly ms: number[];
  readonly shapes: (DimJson[] | null)[];
  readonly input_params: string[];
}

function pythonLoop(path: string, n: number): PyLoop {
  const p = spawnSync(python, [join(benchDir, 'onnx_infer_loop.py'), path, String(n)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (p.status !== 0) throw new Error(`onnx_infer_loop.py ${path}: ${p.stderr}`);
  return JSON.parse(p.stdout) as PyLoop;
}

/** shapelog in this process: decode + type, `n` timed runs after one warm-up. */
function shapelogLoop(bytes: Uint8Array, n: number): { ms: number[]; shapes: (readonly DimJson[] | null)[] } {
  const once = () => typeModel(decodeModel(bytes, 'bench.onnx'));
  let typed = once();
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    typed = once();
    ms.push(performance.now() - start);
  }
  return { ms, shapes: typed.values.map((v) => (v.type !== null && v.type.kind === 'tensor' ? v.type.shape : null)) };
}

/** A chain of `blocks` Conv(3x3, pad 1) -> Relu -> Add(residual) blocks on [N, 8, 16, 16]: 3 nodes a block. */
function chainModel(blocks: number): Uint8Array {
  const tensor = (name: string) => ({ kind: 'tensor' as const, dtype: 'float32', shape: name === 'x0' ? ['N', 8, 16, 16] : null });
  const nodes: OnnxNode[] = [];
  const node = (opType: string, inputs: string[], output: string, attrs: [string, { kind: 'ints'; value: number[] }][] = []): OnnxNode => ({
    name: output,
    opType,
    domain: '',
    inputs,
    outputs: [output],
    attrs: new Map(attrs),
    index: nodes.length,
  });
  for (let b = 0; b < blocks; b++) {
    nodes.push(
      node('Conv', [`x${b}`, 'w'], `c${b}`, [
        ['pads', { kind: 'ints', value: [1, 1, 1, 1] }],
        ['kernel_shape', { kind: 'ints', value: [3, 3] }],
      ]),
    );
    nodes.push(node('Relu', [`c${b}`], `r${b}`));
    nodes.push(node('Add', [`r${b}`, `x${b}`], `x${b + 1}`));
  }
  const graph: OnnxGraph = {
    name: `chain${blocks}`,
    inputs: [{ name: 'x0', type: tensor('x0') }],
    outputs: [{ name: `x${blocks}`, type: tensor('out') }],
    valueInfo: [],
    initializers: [{ name: 'w', dtype: 'float32', dims: [8, 8, 3, 3], values: new Array(576).fill(0), external: false }],
    nodes,
  };
  return encodeModel(graph, new Map([['', 13]]), 8);
}

const work = mkdtempSync(join(tmpdir(), 'shapelog-bench-onnx-'));
const log = (s: string) => console.log(s);
try {
  const shapelog = values.checkout ? checkoutCommand(root) : installedCommand(root, work);
  // ---- 1.-3. the real models
  const models = bundledModels().filter((m) => bundledModelPath(m) !== null);
  const rows = models.map((m) => {
    const path = bundledModelPath(m)!;
    const bytes = readBundledModel(m)!;
    const graph = decodeModel(bytes, m.name).graph;
    const symbolic = graph.inputs.some((i) => i.type?.kind === 'tensor' && (i.type.shape === null || i.type.shape.some((d) => typeof d !== 'number')));
    // warm the caches (parse, compiled library; then the code cache, which bin/shapelog.js
    // leaves to a run that does not compile the library) and check the command types the model
    for (let warm = 0; warm < 2; warm++) processRun(shapelog.bin, ['infer', path, '--json']);
    const sl: ProcessRun[] = [];
    const py: ProcessRun[] = [];
    for (let r = 0; r < runs; r++) {
      const s = () => sl.push(processRun(shapelog.bin, ['infer', path, '--json']));
      const p = () => py.push(processRun(python, [join(benchDir, 'onnx_infer_once.py'), path]));
      if (r % 2 === 0) {
        s();
        p();
      } else {
        p();
        s();
      }
    }
    const inPy = pythonLoop(path, Math.max(runs, 9));
    const inSl = shapelogLoop(bytes, Math.max(3, Math.min(runs, 5)));
    // a dim known symbolically is made of the inputs' dim_params and the names of their anonymous dims (INPUT#AXIS)
    const params = new Set([...inPy.input_params, ...graphInputDims(graph)]);
    const row = {
      model: m.name,
      nodes: graph.nodes.length,
      values: inSl.shapes.length,
      symbolic,
      process: {
        shapelog: { wallMs: median(sl.map((x) => x.wallMs)), cpuMs: median(sl.map((x) => x.cpuMs)) },
        onnx: { wallMs: median(py.map((x) => x.wallMs)), cpuMs: median(py.map((x) => x.cpuMs)) },
        // run by run (the two sides of a run are adjacent in time): how far the ratio of the medians can be trusted
        wallRatioByRun: pairedRatio(
          sl.map((x) => x.wallMs),
          py.map((x) => x.wallMs),
        ),
        runs,
      },
      inProcess: { shapelogMs: median(inSl.ms), onnxMs: median(inPy.ms) },
      fullyKnown: {
        shapelog: inSl.shapes.filter((s) => fullyKnownShape(s, params)).length,
        onnx: inPy.shapes.filter((s) => fullyKnownShape(s, params)).length,
      },
    };
    const ratio = row.process.shapelog.wallMs / row.process.onnx.wallMs;
    log(
      `${m.name}: ${row.nodes} nodes; process ${row.process.shapelog.wallMs.toFixed(0)} / ${row.process.onnx.wallMs.toFixed(0)} ms wall (${ratio.toFixed(2)}x), cpu ${row.process.shapelog.cpuMs.toFixed(0)} / ${row.process.onnx.cpuMs.toFixed(0)} ms; in process ${row.inProcess.shapelogMs.toFixed(1)} / ${row.inProcess.onnxMs.toFixed(1)} ms; fully known ${row.fullyKnown.shapelog} / ${row.fullyKnown.onnx} of ${row.values}`,
    );
    return row;
  });

  // ---- 4. time per node
  const scaling = [10, 100, 333, 1000].map((blocks) => {
    const bytes = chainModel(blocks);
    const path = join(work, `chain-${blocks}.onnx`);
    writeFileSync(path, bytes);
    const sl = shapelogLoop(bytes, 3);
    const py = pythonLoop(path, 3);
    const nodes = blocks * 3;
    const params = new Set(py.input_params);
    const row = {
      nodes,
      shapelogMs: median(sl.ms),
      onnxMs: median(py.ms),
      shapelogMsPerNode: median(sl.ms) / nodes,
      onnxMsPerNode: median(py.ms) / nodes,
      fullyKnown: sl.shapes.filter((s) => fullyKnownShape(s, params)).length,
    };
    log(
      `chain of ${nodes} nodes: shapelog ${row.shapelogMs.toFixed(1)} ms (${row.shapelogMsPerNode.toFixed(3)} ms/node), ONNX ${row.onnxMs.toFixed(1)} ms (${row.onnxMsPerNode.toFixed(3)} ms/node); fully known ${row.fullyKnown}/${nodes}`,
    );
    return row;
  });

  const perNode = scaling.filter((s) => s.nodes >= 300).map((s) => s.shapelogMsPerNode);
  const spread = Math.max(...perNode) / Math.min(...perNode);
  const targets = [
    {
      target: 'shapelog <= 1.0x ONNX process to process (wall medians), every model',
      measured: rows.map((r) => `${r.model} ${(r.process.shapelog.wallMs / r.process.onnx.wallMs).toFixed(2)}x`).join(', '),
      pass: rows.every((r) => r.process.shapelog.wallMs <= r.process.onnx.wallMs),
    },
    {
      target: 'strictly more fully known values than ONNX, models with a symbolic input dim',
      measured: rows
        .filter((r) => r.symbolic)
        .map((r) => `${r.model} ${r.fullyKnown.shapelog} vs ${r.fullyKnown.onnx}`)
        .join(', '),
      pass: rows.filter((r) => r.symbolic).every((r) => r.fullyKnown.shapelog > r.fullyKnown.onnx),
    },
    {
      target: 'time per node roughly constant, 300 to 3,000 nodes in process (max/min <= 2)',
      measured: `${spread.toFixed(2)}x (${scaling.map((s) => `${s.nodes}: ${s.shapelogMsPerNode.toFixed(3)} ms`).join(', ')})`,
      pass: spread <= 2,
    },
  ];
  for (const t of targets) log(`${t.pass ? 'PASS' : 'FAIL'}  ${t.target}: ${t.measured}`);

  const summary = {
    date: new Date().toISOString(),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}, node ${process.version}, onnx ${onnxVersion}, load ${loadavg()[0]!.toFixed(1)} at the end`,
    runs,
    package: shapelog.description,
    models: rows,
    scaling,
    targets,
  };
  if (!values['no-write']) {
    mkdirSync(join(benchDir, 'results'), { recursive: true });
    writeFileSync(join(benchDir, 'results', 'onnx.json'), `${JSON.stringify(summary, null, 2)}\n`);
    const f0 = (x: number) => x.toFixed(0);
    const table = [
      `Measured ${summary.date} on ${summary.machine}; process medians of ${runs} runs per side; shapelog: ${summary.package}. ${caCertsNote()}`,
      '',
      '| model | nodes | process: shapelog / ONNX wall ms | ratio | run by run: median (quartiles) | CPU ms | ratio | in process: shapelog / ONNX ms | fully known: shapelog / ONNX (of values) |',
      '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
      ...rows.map(
        (r) =>
          `| ${r.model}${r.symbolic ? ' (symbolic)' : ''} | ${r.nodes} | ${f0(r.process.shapelog.wallMs)} / ${f0(r.process.onnx.wallMs)} | ${(r.process.shapelog.wallMs / r.process.onnx.wallMs).toFixed(2)}× | ${r.process.wallRatioByRun.median.toFixed(2)}× (${r.process.wallRatioByRun.q1.toFixed(2)}–${r.process.wallRatioByRun.q3.toFixed(2)}) | ${f0(r.process.shapelog.cpuMs)} / ${f0(r.process.onnx.cpuMs)} | ${(r.process.shapelog.cpuMs / r.process.onnx.cpuMs).toFixed(2)}× | ${r.inProcess.shapelogMs.toFixed(1)} / ${r.inProcess.onnxMs.toFixed(1)} | ${r.fullyKnown.shapelog} / ${r.fullyKnown.onnx} (${r.values}) |`,
      ),
      '',
      '| chain nodes | shapelog ms | ms per node | ONNX ms | ms per node |',
      '|--:|--:|--:|--:|--:|',
      ...scaling.map(
        (s) => `| ${s.nodes} | ${s.shapelogMs.toFixed(1)} | ${s.shapelogMsPerNode.toFixed(3)} | ${s.onnxMs.toFixed(1)} | ${s.onnxMsPerNode.toFixed(4)} |`,
      ),
      '',
      '| target | measured | result |',
      '|---|---|---|',
      ...targets.map((t) => `| ${t.target} | ${t.measured} | **${t.pass ? 'PASS' : 'FAIL'}** |`),
    ].join('\n');
    const block = `<!-- onnx:begin -->\n${table}\n<!-- onnx:end -->`;
    const readme = join(benchDir, 'README.md');
    const text = readFileSync(readme, 'utf8');
    writeFileSync(
      readme,
      text.includes('<!-- onnx:begin -->')
        ? text.replace(/<!-- onnx:begin -->[\s\S]*<!-- onnx:end -->/, block)
        : `${text.trimEnd()}\n\n## Real ONNX models (\`npm run bench:onnx\`)\n\n${block}\n`,
    );
  }
  process.exitCode = targets.every((t) => t.pass) ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
