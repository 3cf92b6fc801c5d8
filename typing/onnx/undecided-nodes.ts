// The conditions on symbolic dims that typing an ONNX graph left undecided, by node, for
// gradual checking (`shapelog infer MODEL.onnx --gradual`). Read from the engine's waits
// at the fixpoint, as the Relay rules strategy reads them (typing/rules-strategy.ts): a
// rule that only finds errors and waits on its last condition reports the error when it
// holds, so the condition needed is its negation; one waiting on an earlier condition
// decides nothing alone and is left out. Each condition says whether the node's outputs
// were determined anyway: at a node whose outputs are not, the conditions are the
// alternatives one of which would type it (`n == 1`, `n == 3` for Add of n against 3).
import type { CompiledProgram } from '../../solver/compile/program.js';
import type { Solver } from '../../solver/engine/solve.js';
import { resolve } from '../../solver/store/union-find.js';
import type { TermId, TermStore } from '../../solver/terms/term-store.js';
import { termDim } from '../../solver/terms/arith.js';
import type { Dim, DimCompareOp } from '../../solver/terms/dims.js';
import type { OnnxNode } from '../../frontends/onnx/model.js';
import { errorOnly, NEGATED } from '../rules-strategy.js';

export interface UndecidedAtNode {
  readonly node: OnnxNode;
  readonly left: Dim;
  readonly op: DimCompareOp;
  readonly right: Dim;
  /** Whether the condition is what an error rule waits on (negated here), not what typing the node waits on. */
  readonly negatedError: boolean;
}

/** The undecided conditions of a solved graph, each at the node whose fact it was waiting on. */
export function undecidedAtNodes(
  solver: Solver,
  store: TermStore,
  program: CompiledProgram,
  nodeOf: (fact: TermId) => OnnxNode | undefined,
): UndecidedAtNode[] {
  if (solver.limitHit !== null) return [];
  const out: UndecidedAtNode[] = [];
  const errorRules = errorOnly(program.rules);
  const uf = solver.db.uf;
  for (const r of solver.residuals()) {
    if (r.alternative || r.condition === undefined) continue;
    const node = [...r.premises, ...(r.sources ?? [])].map(nodeOf).find((x) => x !== undefined);
    if (node === undefined) continue;
    const head = r.plan.rule.head;
    const findsErrors = head.k === 'error' || (head.k === 'atom' && errorRules.has(head.pred));
    if (findsErrors && r.steps.slice(r.step + 1).some((st) => st.k === 'compare' || st.k === 'equal' || st.k === 'test' || st.k === 'neg')) continue;
    const left = termDim(store, resolve(store, uf, r.condition.left));
    const right = termDim(store, resolve(store, uf, r.condition.right));
    if (left === null || right === null || typeof left !== 'object' || typeof right !== 'object') continue;
    out.push({ node, left, op: findsErrors ? NEGATED[r.condition.op] : r.condition.op, right, negatedError: findsErrors });
  }
  return out;
}
