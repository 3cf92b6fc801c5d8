// Typing an ONNX graph with the ONNX relation library: every value gets a term
// (value-terms.ts), every node becomes a fact of the relation its operator declaration
// names (`Rel(input..., output, attr...)`, attributes by the relation's declaration,
// defaults filled in), the engine solves the whole graph to fixpoint, and each value's
// term, resolved, is its type. A rule's error is reported at the node whose fact it
// was derived from.
import { formatDiagnostic } from '../../diagnostics/diagnostic.js';
import type { CompiledProgram } from '../../solver/compile/program.js';
import { DEFAULT_LIMITS, type Limits } from '../../solver/engine/limits.js';
import type { Plan } from '../../solver/compile/plan.js';
import { isInternal } from '../../solver/compile/relation-names.js';
import { Solver } from '../../solver/engine/solve.js';
import { Database } from '../../solver/store/database.js';
import { GIVEN, REBUILT } from '../../solver/store/ids.js';
import { resolve } from '../../solver/store/union-find.js';
import { RunResult } from '../../solver/run.js';
import { explainFact } from '../../solver/explain.js';
import type { TermId, TermStore } from '../../solver/terms/term-store.js';
import type { OnnxAttr, OnnxGraph, OnnxNode, OnnxType } from '../../frontends/onnx/model.js';
import { nodeLabel } from '../../frontends/onnx/model.js';
import { onnxLibrary, onnxOperatorAt, VARIADIC_ARG, type OnnxLibrary } from '../../relations/onnx/library.js';
import { attributeOutsideVersion } from '../../relations/onnx/attribute-versions.js';
import { EINSUM_EQUATION_ATTR, einsumTerm } from '../../relations/onnx/einsum-equation.js';
import { ValueTerms, valueType, type ValueType } from './value-terms.js';
import { typeControlFlow } from './control-flow.js';
import { undecidedAtNodes, type UndecidedAtNode } from './undecided-nodes.js';
import { compileLibraryPart, compiledCache } from '../compiled-cache.js';
import { AnonymousDims, inputDimParams } from './input-dims.js';

export interface TypedValue {
  readonly name: string;
  /** The op_type of the node producing it; 'input' or 'initializer' for graph values. */
  readonly op: string;
  readonly type: ValueType | null;
}

/** A value of a subgraph (If branch, Loop/Scan/SequenceMap body): `graph` says which (`loop_1.body/if_2.then_branch`). */
export interface SubgraphValue extends TypedValue {
  readonly graph: string;
  /** Where that graph is: from the main graph, node (its index as written) and graph attribute, outermost first. */
  readonly at: readonly SubgraphStep[];
}

export interface SubgraphStep {
  readonly node: number;
  readonly attr: string;
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
  /** Every value of every subgraph: its inputs and node outputs, by enclosing node, in order. */
  readonly subgraphValues: readonly SubgraphValue[];
  readonly outputs: readonly TypedValue[];
  readonly diagnostics: readonly NodeDiagnostic[];
  /** Why a value has its type: the derivation of the relation instance of the node producing it (null: a graph input, an initializer or no such value). */
  readonly explain: (value: string) => string | null;
  /** With the `undecided` option: the conditions on symbolic dims left undecided, by node. */
  readonly undecided?: readonly UndecidedAtNode[];
}

export interface GraphTypeOptions {
  /** --shape NAME=d0,d1: a graph input's shape. */
  readonly shapes?: ReadonlyMap<string, readonly (number | string | null)[]>;
  /** --dim PARAM=N: a dim_param's value everywhere (gradual typing also renames a size variable: PARAM to another name). */
  readonly dims?: ReadonlyMap<string, number | string>;
  /** --value NAME=v0,v1: a graph input's values (row-major integers; bool as 0 and 1), e.g. the sample rate an If tests. */
  readonly values?: ReadonlyMap<string, readonly number[]>;
  readonly limits?: Partial<Limits>;
  /**
   * Which part of the relation library to compile: the part the graph's relations use
   * ('part'), the whole library ('whole'), or by default the part for a process's first
   * few operator sets and then the whole library (compiledOnnx). Either gives the same types.
   */
  readonly library?: 'part' | 'whole';
  /** Also report the conditions left undecided, by node (gradual checking: undecided-nodes.ts). */
  readonly undecided?: boolean;
  /** Dim names that are size variables where a computed value's type declares them, as a graph input's dim_params are (gradual checking's fresh dims). */
  readonly sizeVariables?: ReadonlySet<string>;
}

export interface Shared {
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

/** The library compiled so far in this process, by the sorted relations it was compiled for ('*': all of them). */
const compiledLibraries = new Map<string, Shared>();
/**
 * How many operator sets a process compiles a part of the library for: a command types
 * one model (or a few), while a process typing many (typeof --onnx over the conformance
 * cases, the tests) would compile a part per set; after these, the whole library (also
 * cached on disk) serves every graph.
 */
const SUBSETS_PER_PROCESS = 2;

/**
 * The ONNX library compiled and solved on its own facts once per process and set of
 * relations; each graph forks it. Only the part a graph's relations can use is compiled
 * (typing/library-subset.ts: the same fixpoint for that graph), which is much smaller
 * than the whole library: a few dozen of its ~200 operators in a real model. The
 * compiled part is cached on disk (typing/compiled-cache.ts), keyed by the rule files,
 * their labels (spans name them), the build and the relations: compiling, or reading
 * the whole compiled library, is most of what a fresh process would otherwise spend on
 * a model. `relations`: those the graph instantiates (null: any); `always`: compile their
 * part even after SUBSETS_PER_PROCESS sets.
 */
export function compiledOnnx(lib: OnnxLibrary, relations: ReadonlySet<string> | null = null, always = false): Shared {
  const sorted = relations === null ? null : [...relations].sort();
  let key = sorted === null ? '*' : sorted.join(',');
  if (!always && !compiledLibraries.has(key) && sorted !== null && compiledLibraries.size - (compiledLibraries.has('*') ? 1 : 0) >= SUBSETS_PER_PROCESS)
    key = '*';
  const known = compiledLibraries.get(key);
  if (known !== undefined) return known;
  const subset = key === '*' ? null : relations;
  const cache = compiledCache(`onnx\0${lib.key}\0${[...lib.sources.texts.keys()].join('\0')}`, subset === null ? null : sorted);
  const { store, compiled } = compileLibraryPart(cache, () => lib.sources.programs, subset);
  if (!compiled.ok)
    throw new Error(`the ONNX relation library does not compile:\n${compiled.diagnostics.map((d) => formatDiagnostic(d, lib.sources.texts)).join('\n')}`);
  const base = new Solver(store, compiled.program.plans, 'seminaive', DEFAULT_LIMITS, Database.empty());
  base.addFacts(compiled.program.facts);
  base.solve();
  const sh = { store, program: compiled.program, base };
  compiledLibraries.set(key, sh);
  return sh;
}

/** The relations the nodes of `graph` and of its subgraphs bind to at `opsets` (those of operators the library declares). */
export function graphRelations(lib: OnnxLibrary, graph: OnnxGraph, opsets: ReadonlyMap<string, number>, into = new Set<string>()): Set<string> {
  for (const n of graph.nodes) {
    const op = onnxOperatorAt(lib, n.domain, n.opType, opsets.get(n.domain) ?? 0);
    if (op !== null) into.add(op.info.relation);
    for (const a of n.attrs.values()) {
      if (a.kind === 'graph') graphRelations(lib, a.value, opsets, into);
      else if (a.kind === 'graphs') for (const g of a.value) graphRelations(lib, g, opsets, into);
    }
  }
  return into;
}

/** `t` with each dim_param made an unknown dim. */
function withoutDimParams(t: OnnxType | null, keep: ReadonlySet<string>): OnnxType | null {
  if (t === null) return null;
  switch (t.kind) {
    case 'tensor':
      return t.shape === null ? t : { ...t, shape: t.shape.map((d) => (typeof d === 'string' && !keep.has(d) ? null : d)) };
    case 'sequence':
    case 'optional':
      return { ...t, elem: withoutDimParams(t.elem, keep) };
    case 'map':
      return { ...t, value: withoutDimParams(t.value, keep) };
  }
}

/** The dim_params of a type (in its tensors, sequences, optionals and maps). */
function dimParamsOf(t: OnnxType | null, into: Set<string>): Set<string> {
  if (t === null) return into;
  switch (t.kind) {
    case 'tensor':
      for (const d of t.shape ?? []) if (typeof d === 'string') into.add(d);
      return into;
    case 'sequence':
    case 'optional':
      return dimParamsOf(t.elem, into);
    case 'map':
      return dimParamsOf(t.value, into);
  }
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

/**
 * Where facts go while a graph is typed: the graph's own solver, or a scratch fork of it
 * (a Loop's fixpoint iterations, an If's worlds). The store, terms and solver change when
 * an If's surviving world is adopted (if-worlds.ts): read them from the context, not once.
 */
export interface TypingContext {
  /** The compiled library the solver runs (its relation declarations lay out the facts). */
  readonly program: CompiledProgram;
  store: TermStore;
  terms: ValueTerms;
  solver: Solver;
  /** Facts not yet handed to the solver. */
  pending: Map<string, TermId[]>;
  /** The node each given fact stands for (for diagnostics and --explain). */
  readonly nodeOfFact: Map<TermId, OnnxNode>;
  readonly diagnostics: NodeDiagnostic[];
  /** Every node output emitted in this context, with the scope it belongs to. */
  readonly emitted: { readonly name: string; readonly op: string; readonly term: TermId; readonly scope: Scope; readonly node: OnnxNode | null }[];
  /** False for a scratch context: what it derives is thrown away. */
  readonly main: boolean;
  /** A scratch context that is only asked whether it types (an If's world, if-worlds.ts): flush throws TypingFailed at its first error beyond this count. */
  stopAfterErrors?: number;
  /** Nodes already emitted by an adopted world (if-worlds.ts), which emitNodes skips. */
  readonly adopted?: Set<OnnxNode>;
}

/** Thrown by flush in a context with `stopAfterErrors` once an error is found: the rest need not be typed. */
export class TypingFailed extends Error {}

/**
 * The values visible in one graph: its own (inputs, initializers, node outputs) and
 * those of the graphs enclosing it (a subgraph may read an outer value by name).
 */
export class Scope {
  readonly values = new Map<string, TermId>();
  private readonly own: Set<string>;
  private readonly declared: Map<string, OnnxType | null>;
  constructor(
    readonly graph: OnnxGraph,
    readonly parent: Scope | null,
    /** '' for the main graph; `loop_1.body`, `loop_1.body/if_2.then_branch` for subgraphs. */
    readonly path: string,
    /** What a body node's message starts with: `node 3 (Loop "l") body: `. */
    readonly label: string,
    /** Prefix of the size variables a node of this graph names (unique across subgraphs). */
    readonly prefix: string,
    readonly at: readonly SubgraphStep[] = [],
    /** The main graph's input dim_params (those no --shape replaced): shared size variables. */
    readonly inputDims: ReadonlySet<string> = new Set(),
  ) {
    this.own = new Set(['', ...graph.inputs.map((v) => v.name), ...graph.initializers.map((t) => t.name), ...graph.nodes.flatMap((n) => n.outputs)]);
    // A dim_param declared on a value the graph computes is only a label (ONNX merges a
    // declared type with the inferred one and fails only on two different dim_values): it
    // is an unknown dim here, so `p2o.DynamicDimension.3` on an output never clashes with
    // the input's `p2o.DynamicDimension.0` that the rules carry through; unless it names a
    // dim of a main-graph input (`N` on both), which makes it that same size variable.
    this.declared = new Map([...graph.valueInfo, ...graph.outputs].map((v) => [v.name, withoutDimParams(v.type, inputDims)]));
  }

  /** The scope of subgraph `attr` of node `n` of this graph. */
  child(n: OnnxNode, attr: string, graph: OnnxGraph): Scope {
    const who = n.name !== '' ? n.name : `${n.opType}#${n.index}`;
    return new Scope(
      graph,
      this,
      `${this.path === '' ? '' : `${this.path}/`}${who}.${attr}`,
      `${this.label}${nodeLabel(n)} ${attr}: `,
      `${this.prefix}${n.opType}_${n.index}_${attr}_`,
      [...this.at, { node: n.index, attr }],
      this.inputDims,
    );
  }

  /** The term of value `name` as seen from this graph (created from its declared type at first use). */
  term(ctx: TypingContext, name: string): TermId {
    if (name === '') return ctx.store.atom('absent');
    for (let s: Scope | null = this; s !== null; s = s.parent) {
      const t = s.values.get(name);
      if (t !== undefined) return t;
      if (s.own.has(name) || s.parent === null) {
        const made = ctx.terms.type(s.declared.get(name) ?? null);
        s.values.set(name, made);
        return made;
      }
    }
    throw new Error('unreachable: the main scope answers every name');
  }

  /** Gives value `name` of this graph the term `t` when it has no term yet and no declared type. */
  bindUndeclared(name: string, t: TermId): void {
    if (name === '' || !this.own.has(name) || this.values.has(name) || (this.declared.get(name) ?? null) !== null) return;
    this.values.set(name, t);
  }

  /** The label a node of this graph has in messages. */
  nodeLabel(n: OnnxNode): string {
    return `${this.label}${nodeLabel(n)}`;
  }
}

/** A context typing into `sh`'s library from scratch. */
function mainContext(sh: Shared, options: GraphTypeOptions): TypingContext {
  const store = sh.store.clone();
  return {
    program: sh.program,
    store,
    terms: new ValueTerms(store, options.dims),
    solver: sh.base.fork(store, { ...DEFAULT_LIMITS, ...options.limits }),
    pending: new Map(),
    nodeOfFact: new Map(),
    diagnostics: [],
    emitted: [],
    main: true,
    adopted: new Set(),
  };
}

/** A scratch copy of `ctx` (after its pending facts are solved): what is derived in it stays there. */
export function scratchContext(ctx: TypingContext): TypingContext {
  flush(ctx);
  const store = ctx.store.clone();
  return {
    program: ctx.program,
    store,
    terms: new ValueTerms(store, ctx.terms.fixedDims),
    solver: ctx.solver.fork(store),
    pending: new Map(),
    nodeOfFact: new Map(),
    diagnostics: [],
    emitted: [],
    main: false,
  };
}

/** Hands the pending facts to the solver and runs it to fixpoint. */
export function flush(ctx: TypingContext): void {
  if (ctx.pending.size === 0) return;
  ctx.solver.addFacts(ctx.pending);
  ctx.pending = new Map();
  ctx.solver.solve();
  if (ctx.stopAfterErrors !== undefined && (ctx.diagnostics.some((d) => d.severity === 'error') || ruleErrorCount(ctx) > ctx.stopAfterErrors))
    throw new TypingFailed();
}

/**
 * A count that grows whenever the rules find an error in `ctx` (error facts, unification
 * clashes, arithmetic errors, a limit hit); a fork starts with its parent's. Cheaper than
 * building the diagnostics (RunResult.problems), which only the final answer needs.
 */
export function ruleErrorCount(ctx: TypingContext): number {
  const s = ctx.solver;
  let n = s.clashes.length + s.runtimeErrors.size + (s.limitHit ? 1 : 0);
  const relations = s.db.relations;
  for (const name of errorRelations(s.plans)) n += relations.get(name)?.size ?? 0;
  return n;
}

/** The relations the error rules among `plans` write (`$error:<rule>`): a few, where a solved graph's database holds hundreds. */
const errorRelationsOf = new WeakMap<readonly Plan[], readonly string[]>();
function errorRelations(plans: readonly Plan[]): readonly string[] {
  let names = errorRelationsOf.get(plans);
  if (names === undefined) errorRelationsOf.set(plans, (names = [...new Set(plans.flatMap((p) => (p.head.k === 'error' ? [p.head.rel] : [])))]));
  return names;
}

/** `t` with every bound hole replaced by its value. */
export function resolved(ctx: TypingContext, t: TermId): TermId {
  return resolve(ctx.store, ctx.solver.db.uf, t);
}

/** Extra relation attributes a control-flow node's fact gets (its bodies' terms, joins). */
export type ExtraAttrs = ReadonlyMap<string, TermId>;

/** Emits the fact of node `n` of `scope`'s graph (its relation, inputs, outputs, attributes). */
export function emitNode(ctx: TypingContext, scope: Scope, n: OnnxNode, opsets: ReadonlyMap<string, number>, extra: ExtraAttrs = new Map()): void {
  const lib = onnxLibrary();
  const { store, terms } = ctx;
  const label = scope.nodeLabel(n);
  const version = opsets.get(n.domain) ?? 0;
  const op = onnxOperatorAt(lib, n.domain, n.opType, version);
  const fail = (message: string): void => void ctx.diagnostics.push({ severity: 'error', node: n, message: `${label}: ${message}` });
  const constant = constantValue(ctx, scope, n);
  for (const o of n.outputs) if (o !== '') ctx.emitted.push({ name: o, op: n.opType, term: scope.term(ctx, o), scope, node: n });
  if (op === null) return fail(`no relation for ${n.domain === '' ? 'ai.onnx' : n.domain}.${n.opType} at opset ${version}`);
  const unknownAttr = attributeOutsideVersion(n, version);
  if (unknownAttr !== null) return fail(unknownAttr);
  const rel = op.info.relation;
  const decl = ctx.program.decls.get(rel)!;
  // resolved: a value solved before this fact (the graph is solved incrementally, at each
  // control-flow node) enters the fact as what it is now, not as holes bound elsewhere
  const term = (name: string) => resolved(ctx, scope.term(ctx, name));
  const args: TermId[] = [];
  if (op.info.args.length === 1 && op.info.args[0] === VARIADIC_ARG) args.push(store.list(n.inputs.map(term)));
  else {
    if (n.inputs.length > op.info.args.length)
      return fail(`${n.opType}-${op.since} takes at most ${op.info.args.length} inputs (${op.info.args.join(', ')}), the node gives ${n.inputs.length}`);
    op.info.args.forEach((_, i) => {
      args.push(term(n.inputs[i] ?? ''));
    });
  }
  // an omitted optional output is a fresh hole: its rules may fire, nothing reads it
  const output = (o: string) => (o === '' ? terms.hole() : term(o));
  args.push(op.info.result.kind === 'tensor' ? output(n.outputs[0] ?? '') : store.list(n.outputs.map(output)));
  for (const a of decl.attrs) {
    const given = extra.get(a.name);
    if (given !== undefined) {
      args.push(given);
      continue;
    }
    if (a.name === FRESH_DIMS_ATTR) {
      // sizes only the values decide: size variables of this node's own
      args.push(store.list(Array.from({ length: FRESH_DIMS }, (_, k) => store.atom(`${scope.prefix}${n.opType}_${n.index}_${k}`))));
      continue;
    }
    const attr = n.attrs.get(a.name);
    const t =
      attr === undefined
        ? null
        : constant !== null && a.name === 'value'
          ? constant
          : a.name === EINSUM_EQUATION_ATTR && attr.kind === 'string'
            ? einsumTerm(store, attr.value)
            : attrTerm(terms, attr);
    if (typeof t === 'string') return fail(t);
    if (t !== null) args.push(t);
    else if (a.default !== null) args.push(a.default);
    else return fail(`${n.opType} needs attribute '${a.name}'`);
  }
  const fact = store.compound(rel, args);
  (ctx.pending.get(rel) ?? ctx.pending.set(rel, []).get(rel)!).push(fact);
  ctx.nodeOfFact.set(fact, n);
}

/**
 * A Constant node's output whose type nothing declares and nothing has read yet is its
 * `value` tensor's term from the start (what the Constant rule would bind it to): the
 * nodes reading it see a known tensor in their first round instead of waiting for the
 * binding, and its fact is ground (still given, for --explain and the rule's checks).
 */
function constantValue(ctx: TypingContext, scope: Scope, n: OnnxNode): TermId | null {
  if (n.opType !== 'Constant' || n.domain !== '' || n.attrs.size !== 1 || n.outputs.length !== 1) return null;
  const value = n.attrs.get('value');
  if (value?.kind !== 'tensor') return null;
  // one term for the attribute and the output (a float tensor's unknown data is one hole, not two)
  const t = ctx.terms.tensor(value.value);
  scope.bindUndeclared(n.outputs[0]!, t);
  return t;
}

/** Emits every node of `scope`'s graph, control-flow nodes through their own typing (control-flow.ts). */
export function emitGraph(ctx: TypingContext, scope: Scope, opsets: ReadonlyMap<string, number>): void {
  emitNodes(ctx, scope, scope.graph.nodes, opsets);
}

/** Emits `nodes` of `scope`'s graph, in order (the whole graph, or what follows a node: if-worlds.ts). */
export function emitNodes(ctx: TypingContext, scope: Scope, nodes: readonly OnnxNode[], opsets: ReadonlyMap<string, number>): void {
  for (const n of nodes) {
    if (ctx.adopted?.has(n)) continue;
    if (n.domain === '' && hasSubgraph(n)) typeControlFlow(ctx, scope, n, opsets);
    else emitNode(ctx, scope, n, opsets);
  }
}

function hasSubgraph(n: OnnxNode): boolean {
  for (const a of n.attrs.values()) if (a.kind === 'graph' && a.value.nodes.length > 0) return true;
  return false;
}

/** The node whose fact `fact` was derived from (its given fact's node, found through the provenance), if any. */
function nodeOfFactIn(ctx: TypingContext): (fact: TermId) => OnnxNode | undefined {
  const solver = ctx.solver;
  return (fact) => {
    const queue = [fact];
    const seen = new Set(queue);
    for (let i = 0; i < queue.length && i < 2_000; i++) {
      const n = ctx.nodeOfFact.get(queue[i]!);
      if (n !== undefined) return n;
      const p = solver.meta.provenance(queue[i]!);
      if (p === null || p.rule === GIVEN) continue;
      for (const q of p.rule === REBUILT ? p.premises.slice(0, 1) : p.premises) if (!seen.has(q)) seen.add(q) && queue.push(q);
    }
    return undefined;
  };
}

/**
 * The errors the rules found in `ctx` (solved), each at the node it was derived from,
 * labelled by the scope that node was emitted in (`fallback`'s label when none is known).
 */
export function ruleErrors(ctx: TypingContext, fallback: Scope): NodeDiagnostic[] {
  const run = new RunResult(ctx.store, ctx.program, ctx.solver, onnxLibrary().sources.texts, 'seminaive');
  const scopeOfNode = new Map<OnnxNode, Scope>();
  for (const e of ctx.emitted) if (e.node !== null) scopeOfNode.set(e.node, e.scope);
  const nodeOf = nodeOfFactIn(ctx);
  const out: NodeDiagnostic[] = [];
  // only errors: undecided conditions are the normal state of values not known (a
  // hole's data), and an output with unknown values is never "determined" in the engine's sense
  for (const { diagnostic: d, premises } of run.problems('rule-errors')) {
    if (d.severity !== 'error') continue;
    const node = premises.map(nodeOf).find((x) => x !== undefined) ?? null;
    const message = d.message.replace(/\?\d+/g, '_');
    out.push({ severity: d.severity, node, message: node === null ? message : `${(scopeOfNode.get(node) ?? fallback).nodeLabel(node)}: ${message}` });
  }
  return out;
}

/** The types of every value of `graph`, whose nodes bind to operators at `opsets`. */
export function typeGraph(graph: OnnxGraph, opsets: ReadonlyMap<string, number>, options: GraphTypeOptions = {}): TypedGraph {
  const lib = onnxLibrary();
  const sh = compiledOnnx(lib, options.library === 'whole' ? null : graphRelations(lib, graph, opsets), options.library === 'part');
  const ctx = mainContext(sh, options);
  const program = sh.program;
  const initializerNames = new Set(graph.initializers.map((t) => t.name));
  // the inputs' types as typed: --shape applied, then each anonymous dim a size variable of its own (input-dims.ts)
  const taken = inputDimParams(graph);
  for (const shape of options.shapes?.values() ?? []) for (const d of shape) if (typeof d === 'string') taken.add(d);
  const anonymous = new AnonymousDims(taken);
  const inputTypes = new Map<string, OnnxType | null>();
  for (const v of graph.inputs) {
    if (initializerNames.has(v.name)) continue;
    const fixed = options.shapes?.get(v.name);
    const type =
      fixed !== undefined && v.type?.kind === 'tensor'
        ? { ...v.type, shape: fixed }
        : fixed !== undefined
          ? { kind: 'tensor' as const, dtype: null, shape: fixed }
          : v.type;
    inputTypes.set(v.name, anonymous.named(v.name, type));
  }
  const inputDims = new Set<string>();
  for (const v of graph.inputs) if (!initializerNames.has(v.name) && !options.shapes?.has(v.name)) dimParamsOf(inputTypes.get(v.name) ?? null, inputDims);
  for (const name of options.sizeVariables ?? []) inputDims.add(name);
  const top = new Scope(graph, null, '', '', '', [], inputDims);
  const initializers = new Map(graph.initializers.map((t) => [t.name, t]));
  for (const v of graph.inputs) {
    if (initializers.has(v.name)) continue;
    const type = inputTypes.get(v.name) ?? null;
    const given = options.values?.get(v.name);
    top.values.set(v.name, given === undefined ? ctx.terms.type(type) : ctx.terms.withValues(ctx.terms.type(type), given));
  }
  for (const t of graph.initializers) top.values.set(t.name, ctx.terms.tensor(t));
  emitGraph(ctx, top, opsets);
  flush(ctx);
  // read after the typing: an If typed per world may have handed ctx the surviving world's store and solver (if-worlds.ts)
  const { store, solver } = ctx;
  const diagnostics = ctx.diagnostics;
  const nodeOf = nodeOfFactIn(ctx);
  diagnostics.push(...ruleErrors(ctx, top));
  const explain = (value: string): string | null => {
    const node = ctx.emitted.find((e) => e.name === value && e.node !== null)?.node;
    if (node === undefined || node === null) return null;
    for (const [name, rel] of solver.db.relations) {
      if (isInternal(name)) continue;
      for (let i = 0; i < rel.log.length; i++) {
        const f = rel.log.get(i);
        if (solver.db.has(f) && nodeOf(f) === node)
          return explainFact({ store, meta: solver.meta, rules: program.rules, factSpans: program.factSpans, solver }, f);
      }
    }
    return null;
  };
  const typeOfTerm = (t: TermId) => valueType(store, resolved(ctx, t));
  const typed = (name: string, op: string): TypedValue => ({ name, op, type: typeOfTerm(top.term(ctx, name)) });
  return {
    inputs: graph.inputs.filter((v) => !initializers.has(v.name)).map((v) => typed(v.name, 'input')),
    values: ctx.emitted.filter((e) => e.scope === top && e.node !== null).map((e) => ({ name: e.name, op: e.op, type: typeOfTerm(e.term) })),
    subgraphValues: ctx.emitted
      .filter((e) => e.scope !== top)
      .map((e) => ({ name: e.name, op: e.op, type: typeOfTerm(e.term), graph: e.scope.path, at: e.scope.at })),
    outputs: graph.outputs.map((v) => typed(v.name, 'output')),
    diagnostics,
    explain,
    ...(options.undecided === true ? { undecided: undecidedAtNodes(solver, store, program, nodeOf) } : {}),
  };
}
