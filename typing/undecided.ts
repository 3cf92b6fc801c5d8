// Undecided conditions as both strategies report them for gradual checking: a
// comparison of symbolic dims that no derivation decided, with the operator call (or
// annotation) that asked for it. The rules strategy reads them from the engine's waits
// and assumed equalities, the relay strategy from its solver state's residual
// assumptions; typing/residual-checks.ts turns them into canonical checks.
import type { Span } from '../frontends/relay/ast.js';
import type { Dim, DimCompareOp } from '../solver/terms/dims.js';

export interface UndecidedCondition {
  readonly left: Dim;
  readonly op: DimCompareOp;
  readonly right: Dim;
  /** The call site (or annotation) that needs it. */
  readonly span: Span;
  /** The operator (`add`, `nn.conv2d`), or what a unification constraint was for (`annotation`). */
  readonly operator: string;
  /** The operator's relation (`Broadcast`, `Conv2D`), or null for a unification constraint. */
  readonly relation: string | null;
}
