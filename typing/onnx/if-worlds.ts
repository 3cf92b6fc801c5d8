// Path-sensitive typing of an If whose condition is unknown ("worlds"). When the join of
// the two branches' outputs (type-join.ts) loses information (a rank, a dim, a dtype or
// known values that one branch has and the other does not), the rest of the If's graph
// (the nodes after it, their subgraphs included) is typed once per branch, each in a
// scratch fork of the solver in which the If's outputs are that branch's. A world in
// which a later node gets a type error (an error of the rules, a declared type
// contradicted, a node that cannot be emitted) is one that no successful execution takes,
// so it is dropped:
//   - one world survives: the If's outputs are that branch's (every execution that
//     succeeds takes it), and the dropped world is reported as a warning naming the If,
//     the branch assumed, and the node where the other branch fails with its message;
//     the typing continues from the surviving world (its solver and store), so the nodes
//     after the If are not typed a third time;
//   - both survive, or neither: the join, as without worlds (neither: the errors are
//     those the join gives).
// Bounds: worlds are forked only from the graph's own typing context (not inside a scratch
// fork: a world, a Loop's fixpoint round; so an If after one typed by worlds, in the same
// graph, is joined), two per If, and at most MAX_FORKS Ifs per
// typed graph (2 * MAX_FORKS worlds in all); past them, the join. What a world cannot see:
// a failure in an enclosing graph's nodes after the node holding this If (only the If's
// own graph is typed per world).
import type { OnnxNode } from '../../frontends/onnx/model.js';
import type { TermId } from '../../solver/terms/term-store.js';
import { copyTerm, joinTypes } from './type-join.js';
import {
  emitNodes,
  flush,
  ruleErrorCount,
  ruleErrors,
  scratchContext,
  TypingFailed,
  type NodeDiagnostic,
  type Scope,
  type TypingContext,
} from './graph-types.js';

/** How many Ifs of one typed graph may be typed per world (two worlds each). */
export const MAX_FORKS = 2;

export type Branch = 'then_branch' | 'else_branch';

/** Forks made so far, by main typing context. */
const forksMade = new WeakMap<TypingContext, number>();

/** Whether the join of `a` and `b` (resolved terms of ctx) is more general than either. */
export function joinLoses(ctx: TypingContext, a: TermId, b: TermId): boolean {
  const s = ctx.store;
  const probe = () => s.atom('$join_probe');
  return (
    joinTypes({ store: s, term: copyTerm(s, a, s) }, { store: s, term: b }, probe).changed ||
    joinTypes({ store: s, term: copyTerm(s, b, s) }, { store: s, term: a }, probe).changed
  );
}

/** A world in which the If takes `branch`: its context, and how it failed (null: it types). */
interface World {
  readonly branch: Branch;
  readonly ctx: TypingContext;
  readonly failure: NodeDiagnostic | null;
}

/**
 * Types If node `n` of `scope` and the nodes after it by worlds, when only one of its
 * worlds types: ctx then continues from that world (its store, solver and what it
 * emitted; the nodes after the If are marked emitted), the dropped world is reported in
 * ctx.diagnostics as a warning, and the answer is true. False (nothing emitted) when
 * both or neither type, or when no worlds are typed (nothing after the If, a scratch
 * context, the bound reached). `emitIf(c, branch)` emits the If's fact in context c with
 * its outputs those of `branch`; `losesInfo`: whether the join of the branches loses information.
 */
export function typedByWorld(
  ctx: TypingContext,
  scope: Scope,
  n: OnnxNode,
  opsets: ReadonlyMap<string, number>,
  losesInfo: boolean,
  emitIf: (c: TypingContext, branch: Branch) => void,
): boolean {
  if (!ctx.main || ctx.adopted === undefined || !losesInfo) return false;
  const at = scope.graph.nodes.indexOf(n);
  const rest = scope.graph.nodes.slice(at + 1);
  if (at < 0 || rest.length === 0) return false;
  const made = forksMade.get(ctx) ?? 0;
  if (made >= MAX_FORKS) return false;
  forksMade.set(ctx, made + 1);
  // the If's outputs and every value of the rest get their terms in ctx before the forks: a world must not be the first to name one
  for (const m of [n, ...rest]) for (const o of m.outputs) if (o !== '') scope.term(ctx, o);
  flush(ctx);
  const worlds = (['then_branch', 'else_branch'] as const).map((b) => typeWorld(ctx, scope, n, rest, opsets, b, emitIf));
  const alive = worlds.filter((w) => w.failure === null);
  if (alive.length !== 1) return false;
  const kept = alive[0]!;
  const dropped = worlds.find((w) => w.failure !== null)!;
  adopt(ctx, kept.ctx, [n, ...rest]);
  ctx.diagnostics.push({
    severity: 'warning',
    node: n,
    message: `${scope.nodeLabel(n)}: its condition is not known here; typed as taking ${kept.branch}, the only branch with which the graph types (the shapes of every execution that succeeds): with ${dropped.branch}, ${dropped.failure!.message}`,
  });
  return true;
}

/** Types the If (taking `branch`) and the nodes after it in a scratch fork of ctx; its first new error, if any. */
function typeWorld(
  ctx: TypingContext,
  scope: Scope,
  n: OnnxNode,
  rest: readonly OnnxNode[],
  opsets: ReadonlyMap<string, number>,
  branch: Branch,
  emitIf: (c: TypingContext, branch: Branch) => void,
): World {
  const before = ruleErrorCount(ctx);
  const w = scratchContext(ctx);
  // a world's errors are found through the provenance down to given facts, the graph's own among them
  for (const [fact, node] of ctx.nodeOfFact) w.nodeOfFact.set(fact, node);
  // the world stops at its first error (flush throws): only whether it types, and where it fails, matter
  w.stopAfterErrors = before;
  try {
    emitIf(w, branch);
    emitNodes(w, scope, rest, opsets);
    flush(w);
  } catch (e) {
    if (!(e instanceof TypingFailed)) throw e;
  }
  delete w.stopAfterErrors;
  const emitError = w.diagnostics.find((d) => d.severity === 'error');
  if (emitError !== undefined) return { branch, ctx: w, failure: emitError };
  if (ruleErrorCount(w) <= before) return { branch, ctx: w, failure: null };
  // the world's own errors: those at a node it emitted (the If's fact included)
  const own = new Set(w.emitted.map((e) => e.node));
  own.add(n);
  const errors = ruleErrors(w, scope);
  const failure = errors.find((d) => d.node !== null && own.has(d.node)) ??
    errors[0] ?? { severity: 'error' as const, node: null, message: 'the rules find an error' };
  return { branch, ctx: w, failure };
}

/**
 * ctx continues from world w (a fork of it that typed `nodes` without an error): w's
 * store (a superset of ctx's: every term of ctx means the same in it), solver and terms,
 * and what w emitted; `nodes` are marked emitted, so that ctx's own pass skips them.
 */
function adopt(ctx: TypingContext, w: TypingContext, nodes: readonly OnnxNode[]): void {
  ctx.store = w.store;
  ctx.terms = w.terms;
  ctx.solver = w.solver;
  ctx.pending = w.pending;
  for (const [fact, node] of w.nodeOfFact) ctx.nodeOfFact.set(fact, node);
  ctx.emitted.push(...w.emitted);
  ctx.diagnostics.push(...w.diagnostics);
  for (const m of nodes) ctx.adopted!.add(m);
}
