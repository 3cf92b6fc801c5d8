// Typing time of iterator-IR programs against their size, rules vs imperative twin:
// fencils of 100 to 100,000 IR nodes (definitions in groups of ten levels, each level
// using the one below it twice, plus one stencil closure per group). Inference must be
// linear in program size: the time per node at 100,000 nodes must stay within 2x of the
// time per node at 10,000 (the original implementation rewrites every constraint at
// each substitution, which is quadratic). Writes bench/results/itir.json.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseItir } from '../frontends/itir/parse.js';
import type { Expr, TopLevel } from '../frontends/itir/ast.js';
import { inferItirText } from '../typing/itir/infer.js';
import { showType } from '../typing/itir/display.js';

const LEVELS = 10;

/** A well-typed fencil of about `target` nodes. */
export function benchProgram(target: number): string {
  const defs: string[] = [];
  const closures: string[] = [];
  const domain = '(domain (named_range @IDim 0 n) (named_range @JDim 0 m))';
  let nodes = 0;
  for (let g = 0; nodes < target; g++) {
    for (let l = 0; l < LEVELS && nodes < target; l++) {
      const name = `g${g}_${l}`;
      if (l === 0) defs.push(`(define (${name} x y) (plus (deref x) (multiplies (deref y) 2.0)))`);
      else {
        const below = `g${g}_${l - 1}`;
        defs.push(`(define (${name} x y) (plus (${below} x ((shift 'i 1) y)) (if_ (less (deref x) 0.0) (deref y) (${below} y x))))`);
      }
      nodes += l === 0 ? 10 : 26;
      if (l === LEVELS - 1 || nodes >= target) {
        closures.push(`(closure ${domain} ${name} out (a b))`);
        nodes += 14;
      }
    }
  }
  // the definitions last, in reverse order: typing must not depend on their order
  return `(fencil bench (n m out a b)\n${closures.join('\n')}\n${defs.reverse().join('\n')})\n`;
}

function countNodes(items: readonly TopLevel[]): number {
  let n = 0;
  const stack: Expr[] = [];
  for (const i of items) {
    if (i.k === 'fencil') {
      for (const d of i.defines) stack.push(d.body);
      for (const c of i.closures) stack.push(c.domain, c.stencil, c.output, ...c.inputs);
      n += 1 + i.defines.length + i.closures.length;
    } else if (i.k === 'define') stack.push(i.body);
    else if (i.k === 'closure') stack.push(i.domain, i.stencil, i.output, ...i.inputs);
    else stack.push(i);
  }
  while (stack.length > 0) {
    const e = stack.pop()!;
    n++;
    if (e.k === 'lambda') stack.push(e.body);
    else if (e.k === 'call') stack.push(e.fn, ...e.args);
    else if (e.k === 'let') stack.push(e.body, ...e.bindings.map((b) => b.value));
  }
  return n;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function main(): void {
  const sizes = [100, 1_000, 10_000, 100_000];
  const rows: { nodes: number; rules_ms: number; twin_ms: number; rules_us_per_node: number; twin_us_per_node: number }[] = [];
  // warm up both strategies
  for (let i = 0; i < 3; i++) for (const s of ['rules', 'twin'] as const) inferItirText(benchProgram(2_000), 'warm.itir', s);
  for (const size of sizes) {
    const text = benchProgram(size);
    const nodes = countNodes(parseItir(text, 'bench.itir').items);
    const samples = size >= 100_000 ? 3 : 5;
    const times: Record<'rules' | 'twin', number[]> = { rules: [], twin: [] };
    let types: Record<string, string> = {};
    for (let k = 0; k < samples; k++)
      for (const s of ['rules', 'twin'] as const) {
        const t0 = performance.now();
        const o = inferItirText(text, 'bench.itir', s);
        times[s].push(performance.now() - t0);
        if (o.diagnostics.length > 0) throw new Error(`${s} failed on the ${size}-node program: ${o.diagnostics[0]!.message}`);
        types = { ...types, [s]: o.items.map((i) => showType(i.type)).join('\n') };
      }
    if (types['rules'] !== types['twin']) throw new Error(`rules and twin disagree on the ${size}-node program`);
    const r = median(times.rules);
    const w = median(times.twin);
    rows.push({
      nodes,
      rules_ms: Math.round(r),
      twin_ms: Math.round(w),
      rules_us_per_node: Math.round((r * 1000) / nodes),
      twin_us_per_node: Math.round((w * 1000) / nodes),
    });
    console.log(
      `${String(nodes).padStart(7)} nodes: rules ${r.toFixed(0).padStart(6)} ms (${((r * 1000) / nodes).toFixed(0)} µs/node), twin ${w.toFixed(0).padStart(6)} ms (${((w * 1000) / nodes).toFixed(0)} µs/node)`,
    );
  }
  const at = (n: number) => rows.find((x) => x.nodes >= n * 0.9)!;
  const growth = (k: 'rules_us_per_node' | 'twin_us_per_node') => at(100_000)[k] / at(10_000)[k];
  const verdict = {
    rules_per_node_growth_10k_to_100k: +growth('rules_us_per_node').toFixed(2),
    twin_per_node_growth_10k_to_100k: +growth('twin_us_per_node').toFixed(2),
    linear: growth('rules_us_per_node') <= 2,
  };
  console.log(
    `time per node from 10k to 100k nodes: rules x${verdict.rules_per_node_growth_10k_to_100k}, twin x${verdict.twin_per_node_growth_10k_to_100k}: ${verdict.linear ? 'LINEAR (PASS)' : 'NOT LINEAR (FAIL)'}`,
  );
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'itir.json');
  writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), rows, verdict }, null, 2)}\n`);
  if (!verdict.linear) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
