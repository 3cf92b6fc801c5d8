// Typing an ONNX graph with the ONNX relation library: every value gets a term
// (value-terms.ts), every node becomes a fact of the relation its operator declaration
// names (`Rel(input..., output, attr...)`, attributes by the relation's declaration,
// defaults filled in), the engine solves the whole graph to fixpoint, and each value's
// term, resolved, is its type. A rule's error is reported at the node whose fact it
// was derived from.
import { formatDiagnostic } from '../../diagnostics/diagnostic.js';
import { compileProgram, type CompiledProgram } from '../../solver/compile/program.js';
import { DEFAULT_LIMITS, type Limits } from '../../solver/engine/limits.js';
import { Solver } from '../../solver/engine/solve.js';
import { Database } from '../../solver/store/database.js';
import { GIVEN, REBUILT } from '../../solver/store/fact-meta.js';
import { resolve } from '../../solver/store/union-find.js';
import { RunResult } from '../../solver/run.js';
import { explainFact } from '../../solver/explain.js';
import { type TermId, TermStore } from '../../solver/terms/term-store.js';
import type { OnnxAttr, OnnxGraph, OnnxNode, OnnxType } from '../../frontends/onnx/model.js';
import { nodeLabel } from '../../frontends/onnx/model.js';
import { onnxLibrary, onnxOperatorAt, VARIADIC_ARG, type OnnxLibrary } from '../../relations/onnx/library.js';
import { ValueTerms, valueType, type ValueType } from './value-terms.js';
import { compiledCache, readCompiled, writeCompiled } from '../compiled-cache.js';

export interface TypedValue {
  readonly name: string;
  /** The op_type of the node producing it; 'input' or 'initializer' for graph values. */
  readonly op: string;
  readonly type: ValueType | null;
}

export interface NodeDiagnostic {
  readonly severity: 'error' | 'warning';
  /** The node concerned (null: the graph as a whole). */
  readonly node: OnnxNode | null;
  readonly message: string;
}

export interface TypedGraph {
  readonly inputs: readonly TypedValue[];
  /** Every node output, in node order. */
  readonly values: readonly TypedValue[];
  readonly outputs: readonly TypedValue[];
  readonly diagnostics: readonly NodeDiagnostic[];
  /** Why a value has its type: the derivation of the relation instance of the node producing it (null: a graph input, an initializer or no such value). */
  readonly explain: (value: string) => string | null;
}

export interface GraphTypeOptions {
  /** --shape NAME=d0,d1: a graph input's shape. */
  readonly shapes?: ReadonlyMap<string, readonly (number | string | null)[]>;
  /** --dim PARAM=N: a dim_param's value everywhere. */
  readonly dims?: ReadonlyMap<string, number>;
  readonly limits?: Partial<Limits>;
}

interface Shared {
  readonly store: TermStore;
  readonly program: CompiledProgram;
  readonly base: Solver;
}

/**
 * A relation attribute of this name is not an ONNX attribute: it is given FRESH_DIMS size
 * variables named after the node (`NonMaxSuppression_3_0`, ...), for dims only the values decide.
 */
export const FRESH_DIMS_ATTR = 'fresh_dims';
const FRESH_DIMS = 4;

let shared: Shared | null = null;

/**
 * The ONNX library compiled and solved on its own facts once per process; each graph
 * forks it. The compiled library is cached on disk (typing/compiled-cache.ts), keyed by
 * the rule files, their labels (spans name them) and the build: compiling it is most of
 * what a fresh process would otherwise spend on a small model.
 */
function compiledOnnx(lib: OnnxLibrary): Shared {
  if (shared !== null) return shared;
  const cache = compiledCache(`onnx\0${lib.key}\0${[...lib.sources.texts.keys()].join('\0')}`, null);
  let entry = cache === null ? null : readCompiled(cache);
  if (entry === null) {
    const store = new TermStore();
    entry = { store, compiled: compileProgram(store, lib.sources.programs, 'seminaive', null, new Set()) };
    if (cache !== null) writeCompiled(cache, entry);
  }
  const { store, compiled } = entry;
  if (!compiled.ok) throw new Error(`the ONNX relation library does not compile:\n${compiled.diagnostics.map((d) => formatDiagnostic(d, lib.sources.texts)).join('\n')}`);
  const base = new Solver(store, compiled.program.plans, 'seminaive', DEFAULT_LIMITS, Database.empty());
  base.addFacts(compiled.program.facts);
  base.solve();
  return (shared = { store, program: compiled.program, base });
}

function attrTerm(terms: ValueTerms, a: OnnxAttr): TermId | null {
  const s = terms.store;
  switch (a.kind) {
    case 'int':
      return s.int(a.value);
    case 'float':
      return s.float(a.value);
    case 'string':
      return s.str(a.value);
    case 'ints':
      return s.list(a.value.map((v) => s.int(v)));
    case 'floats':
      return s.list(a.value.map((v) => s.float(v)));
    case 'strings':
      return s.list(a.value.map((v) => s.str(v)));
    case 'tensor':
      return terms.tensor(a.value);
    case 'graph':
      // a subgraph as the rules see it: graph(InputTypes, OutputTypes), its declared types
      return s.compound('graph', [s.list(a.value.inputs.map((v) => terms.type(v.type))), s.list(a.value.outputs.map((v) => terms.type(v.type)))]);
    case 'graphs':
      return s.atom('graphs');
    default:
      return null;
  }
}

/** `t` with each dim_param made an unknown dim. */
function withoutDimParams(t: OnnxType | null): OnnxType | null {
  if (t === null) return null;
  switch (t.kind) {
    case 'tensor':
      return t.shape === null ? t : { ...t, shape: t.shape.map((d) => (typeof d === 'string' ? null : d)) };
    case 'sequence':
    case 'optional':
      return { ...t, elem: withoutDimParams(t.elem) };
    case 'map':
      return { ...t, value: withoutDimParams(t.value) };
  }
}

/** The types of every value of `graph`, whose nodes bind to operators at `opsets`. */
export function typeGraph(graph: OnnxGraph, opsets: ReadonlyMap<string, number>, options: GraphTypeOptions = {}): TypedGraph {
  const lib = onnxLibrary();
  const sh = compiledOnnx(lib);
  const store = sh.store.clone();
  const program = sh.program;
  const terms = new ValueTerms(store, options.dims);
  const diagnostics: NodeDiagnostic[] = [];
  const valueOf = new Map<string, TermId>();
  // A dim_param declared on a value the graph computes is only a label (ONNX merges a
  // declared type with the inferred one and fails only on two different dim_values): it
  // is an unknown dim here, so `p2o.DynamicDimension.3` on an output never clashes with
  // the input's `p2o.DynamicDimension.0` that the rules carry through.
  const declared = new Map([...graph.valueInfo, ...graph.outputs].map((v) => [v.name, withoutDimParams(v.type)]));
  const term = (name: string): TermId => {
    let t = valueOf.get(name);
    if (t === undefined) valueOf.set(name, (t = name === '' ? store.atom('absent') : terms.type(declared.get(name) ?? null)));
    return t;
  };
  const initializers = new Map(graph.initializers.map((t) => [t.name, t]));
  for (const v of graph.inputs) {
    if (initializers.has(v.name)) continue;
    const fixed = options.shapes?.get(v.name);
    const type = fixed !== undefined && v.type?.kind === 'tensor' ? { ...v.type, shape: fixed } : fixed !== undefined ? { kind: 'tensor' as const, dtype: null, shape: fixed } : v.type;
    valueOf.set(v.name, terms.type(type));
  }
  for (const t of graph.initializers) valueOf.set(t.name, terms.tensor(t));

  const facts = new Map<string, TermId[]>();
  const nodeOfFact = new Map<TermId, OnnxNode>();
  for (const n of graph.nodes) {
    const version = opsets.get(n.domain) ?? 0;
    const op = onnxOperatorAt(lib, n.domain, n.opType, version);
    if (op === null) {
      diagnostics.push({ severity: 'error', node: n, message: `${nodeLabel(n)}: no relation for ${n.domain === '' ? 'ai.onnx' : n.domain}.${n.opType} at opset ${version}` });
      continue;
    }
    const rel = op.info.relation;
    const decl = program.decls.get(rel)!;
    const args: TermId[] = [];
    if (op.info.args.length === 1 && op.info.args[0] === VARIADIC_ARG) args.push(store.list(n.inputs.map(term)));
    else {
      if (n.inputs.length > op.info.args.length) {
        diagnostics.push({ severity: 'error', node: n, message: `${nodeLabel(n)}: ${n.opType}-${op.since} takes at most ${op.info.args.length} inputs (${op.info.args.join(', ')}), the node gives ${n.inputs.length}` });
        continue;
      }
      op.info.args.forEach((_, i) => args.push(term(n.inputs[i] ?? '')));
    }
    // an omitted optional output is a fresh hole: its rules may fire, nothing reads it
    const output = (o: string) => (o === '' ? terms.hole() : term(o));
    args.push(op.info.result.kind === 'tensor' ? output(n.outputs[0] ?? '') : store.list(n.outputs.map(output)));
    let ok = true;
    for (const a of decl.attrs) {
      if (a.name === FRESH_DIMS_ATTR) {
        // sizes only the values decide: size variables of this node's own
        args.push(store.list(Array.from({ length: FRESH_DIMS }, (_, k) => store.atom(`${n.opType}_${n.index}_${k}`))));
        continue;
      }
      const given = n.attrs.get(a.name);
      const t = given === undefined ? null : attrTerm(terms, given);
      if (t !== null) args.push(t);
      else if (a.default !== null) args.push(a.default);
      else {
        diagnostics.push({ severity: 'error', node: n, message: `${nodeLabel(n)}: ${n.opType} needs attribute '${a.name}'` });
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    const fact = store.compound(rel, args);
    (facts.get(rel) ?? facts.set(rel, []).get(rel)!).push(fact);
    nodeOfFact.set(fact, n);
  }
  const solver = sh.base.fork(store, { ...DEFAULT_LIMITS, ...options.limits });
  solver.addFacts(facts);
  solver.solve();
  const run = new RunResult(store, program, solver, lib.sources.texts, 'seminaive');
  const uf = solver.db.uf;

  const nodeOf = (fact: TermId): OnnxNode | undefined => {
    const queue = [fact];
    const seen = new Set(queue);
    for (let i = 0; i < queue.length && i < 2_000; i++) {
      const n = nodeOfFact.get(queue[i]!);
      if (n !== undefined) return n;
      const p = solver.meta.provenance(queue[i]!);
      if (p === null || p.rule === GIVEN) continue;
      for (const q of p.rule === REBUILT ? p.premises.slice(0, 1) : p.premises) if (!seen.has(q)) seen.add(q) && queue.push(q);
    }
    return undefined;
  };
  // only errors: undecided conditions are the normal state of values not known (a
  // hole's data), and an output with unknown values is never "determined" in the engine's sense
  for (const { diagnostic: d, premises } of run.problems()) {
    if (d.severity !== 'error' || d.code === 'determined-nothing') continue;
    const node = premises.map(nodeOf).find((x) => x !== undefined) ?? null;
    const message = d.message.replace(/\?\d+/g, '_');
    diagnostics.push({ severity: d.severity, node, message: node === null ? message : `${nodeLabel(node)}: ${message}` });
  }
  const explain = (value: string): string | null => {
    const node = graph.nodes.find((n) => n.outputs.includes(value));
    if (node === undefined) return null;
    for (const [name, rel] of solver.db.relations) {
      if (name.startsWith('$') || name.includes('@')) continue;
      for (let i = 0; i < rel.log.length; i++) {
        const f = rel.log.get(i);
        if (solver.db.has(f) && nodeOf(f) === node) return explainFact({ store, meta: solver.meta, rules: program.rules, factSpans: program.factSpans, solver }, f);
      }
    }
    return null;
  };
  const typed = (name: string, op: string): TypedValue => ({ name, op, type: valueType(store, resolve(store, uf, term(name))) });
  return {
    inputs: graph.inputs.filter((v) => !initializers.has(v.name)).map((v) => typed(v.name, 'input')),
    values: graph.nodes.flatMap((n) => n.outputs.filter((o) => o !== '').map((o) => typed(o, n.opType))),
    outputs: graph.outputs.map((v) => typed(v.name, 'output')),
    diagnostics,
    explain,
  };
}
