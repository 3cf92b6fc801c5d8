// The contract of a hand-coded (Relay-style) relation.
//
// A relation receives the argument types and the result type of one operator
// call — already resolved: holes that are bound are replaced by what they are
// bound to, unbound holes stay holes — the call's checked attributes, and a
// reporter. It inspects what is known, assigns (unifies) types through the
// reporter — forwards (the result) and, where TVM does, backwards (weights,
// biases, statistics) — and answers:
//
//   'done'  the relation has said everything it will ever say; never re-run it;
//   'wait'  not enough is known yet (an argument is a hole, a needed dimension is
//           a hole); re-run it when one of its holes is bound. What it could
//           already determine has been assigned;
//   error   the call is ill-typed (`{ kind: 'error', message }`).
//
// Symbolic sizes: a needed comparison that dims.ts cannot decide either makes
// the relation wait (when the result depends on the answer, e.g. broadcasting
// `n` with `5`) or is recorded as a residual assumption on the state (when it is
// only a side condition, e.g. `n % 2 = 0`). Each relation file lists its cases.

import type { AttrValue } from '../attr-value.js';
import { type DimCompareOp, DimError, dimCompare } from '../../solver/terms/dims.js';
import { type IDim, type IDtype, type IType, type TypeSolverState, dimValue, printDim, printDtype, printType } from './types.js';

export interface RelError {
  readonly kind: 'error';
  readonly message: string;
}

export type RelResult = 'done' | 'wait' | RelError;

/** The answer of `Reporter.require`. */
export type Check = 'ok' | 'pending' | RelError;

export type AttrMap = ReadonlyMap<string, AttrValue>;

export type RelationFn = (args: readonly IType[], out: IType, attrs: AttrMap, r: Reporter) => RelResult;

export interface Reporter {
  /** The operator being typed, for messages. */
  readonly op: string;
  /**
   * Unifies `actual` with `expected`; null on success, else an error naming `what`:
   * `nn.conv2d: the weight has type Tensor[(64, 4, 7, 7), float32], expected
   * Tensor[(64, 3, 7, 7), float32] (dimension 1: 4 vs 3)`.
   */
  assign(actual: IType, expected: IType, what: string): RelError | null;
  /** Unifies two dimensions; `what` names them in the error. */
  assignDim(actual: IDim, expected: IDim, what: string): RelError | null;
  /** Unifies two dtypes; `what` names them in the error. */
  assignDtype(actual: IDtype, expected: IDtype, what: string): RelError | null;
  /**
   * A side condition `left op right` on sizes: 'ok' when it holds (or when a side
   * is Any: unknown until run time, as in Relay), an error with `message` when it
   * provably fails, 'pending' when a side is a hole (re-check later), and 'ok'
   * plus a residual assumption when symbolic and undecided.
   */
  require(left: IDim, op: DimCompareOp, right: IDim, message: string): Check;
  /** An error `op: message`. */
  fail(message: string): RelError;
  /** Returns 'wait', remembering why (the last reason is kept). */
  wait(reason: string): 'wait';
  /** The current resolution of a type. */
  resolve(t: IType): IType;
}

export function isError(x: unknown): x is RelError {
  return typeof x === 'object' && x !== null && (x as { kind?: unknown }).kind === 'error';
}

/** A reporter over a solver state, for one relation instance of operator `op`. */
export class StateReporter implements Reporter {
  /** Why the relation last returned 'wait', if it said. */
  waitReason: string | null = null;

  constructor(
    readonly state: TypeSolverState,
    readonly op: string,
  ) {}

  assign(actual: IType, expected: IType, what: string): RelError | null {
    const before = [this.state.resolve(actual), this.state.resolve(expected)] as const;
    const res = this.state.unify(actual, expected, this.op);
    if (res.ok) return null;
    return this.fail(`${what} has type ${printType(before[0])}, expected ${printType(before[1])} (${res.message})`);
  }

  assignDim(actual: IDim, expected: IDim, what: string): RelError | null {
    const a = this.state.resolveDim(actual);
    const b = this.state.resolveDim(expected);
    const res = this.state.unifyDim(a, b, this.op);
    if (res.ok) return null;
    return this.fail(`${what}: ${printDim(a)} vs ${printDim(b)}`);
  }

  assignDtype(actual: IDtype, expected: IDtype, what: string): RelError | null {
    const a = this.state.resolveDtype(actual);
    const b = this.state.resolveDtype(expected);
    const res = this.state.unifyDtype(a, b);
    if (res.ok) return null;
    return this.fail(`${what}: ${printDtype(a)} vs ${printDtype(b)}`);
  }

  require(left: IDim, op: DimCompareOp, right: IDim, message: string): Check {
    const l = this.state.resolveDim(left);
    const rr = this.state.resolveDim(right);
    if (l.kind === 'any' || rr.kind === 'any') return 'ok';
    const a = dimValue(l);
    const b = dimValue(rr);
    if (a === null || b === null) return 'pending';
    let answer: boolean | undefined;
    try {
      answer = dimCompare(a, b, op);
    } catch (e) {
      if (!(e instanceof DimError)) throw e;
      answer = undefined;
    }
    if (answer === true) return 'ok';
    if (answer === false) return this.fail(message);
    this.state.addResidual(a, op, b, this.op);
    return 'ok';
  }

  fail(message: string): RelError {
    return { kind: 'error', message: `${this.op}: ${message}` };
  }

  wait(reason: string): 'wait' {
    this.waitReason = reason;
    return 'wait';
  }

  resolve(t: IType): IType {
    return this.state.resolve(t);
  }
}
