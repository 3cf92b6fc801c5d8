// Arithmetic and comparison on terms. Integers, size variables (atoms used as numbers,
// such as `n`) and symbolic dims are all numbers here; everything goes through the
// canonical form of solver/terms/dims.ts, with a fast path for plain integers. Floats
// combine with ints and floats in double precision (floor division gives an int); a
// float never mixes with a symbolic dim (no result).
//
// Results are three-valued: a term id, WAIT (the value depends on a hole, or a
// comparison cannot be decided yet), or FAIL (not numbers, or decided false).
import type { ArithOp, CompareOp } from '../language/ast.js';
import {
  type Dim,
  DimError,
  dimAdd,
  dimAsInteger,
  dimAsVariable,
  dimCompare,
  dimConst,
  dimFloorDiv,
  dimMax,
  dimMin,
  dimMod,
  dimMul,
  dimSub,
  dimVar,
} from './dims.js';
import { Kind, type TermId, type TermStore } from './term-store.js';

export const WAIT = -1;
export const FAIL = -2;

export { DimError };

/** An arithmetic error the user must see (overflow, division by zero, non-number operands). */
export class ArithmeticError extends Error {}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** The canonical number term for a dim: an Int, an Atom (a lone size variable), or a Dim. */
export function dimTerm(store: TermStore, d: Dim): TermId {
  const n = dimAsInteger(d);
  if (n !== null) return store.int(n);
  const v = dimAsVariable(d);
  if (v !== null) return store.atom(v);
  return store.dim(d);
}

/**
 * The dim a term stands for, WAIT if it is a hole, or null if it is not a number or is an
 * integer beyond ±2^53 (an int64 of a model; the rule language refuses such literals),
 * which no dim holds exactly (unsafeInt tells those apart).
 */
export function termDim(store: TermStore, id: TermId): Dim | typeof WAIT | null {
  switch (store.kind(id)) {
    case Kind.Int: {
      const v = store.intValue(id);
      return Number.isSafeInteger(v) ? dimConst(v) : null;
    }
    case Kind.Atom:
      return id === store.nil ? null : dimVar(store.text(id));
    case Kind.Dim:
      return store.dimOf(id);
    case Kind.Hole:
      return WAIT;
    default:
      return null;
  }
}

/** The value of an integer beyond ±2^53, else null: exact only against another integer (compare and arith do those as numbers). */
function unsafeInt(store: TermStore, id: TermId): number | null {
  return store.kind(id) === Kind.Int && !Number.isSafeInteger(store.intValue(id)) ? store.intValue(id) : null;
}

function isNumberLike(store: TermStore, id: TermId): boolean {
  const k = store.kind(id);
  return k === Kind.Int || k === Kind.Dim || (k === Kind.Atom && id !== store.nil);
}

/** The atom `'?'` is Relay's Any: an unknown dim that is never resolved. */
export const ANY = '?';

function isAny(store: TermStore, t: TermId): boolean {
  return store.kind(t) === Kind.Atom && store.text(t) === ANY;
}

/** The value of an Int or Float term, null for any other term. */
function constantValue(store: TermStore, id: TermId): number | null {
  const k = store.kind(id);
  if (k === Kind.Int) return store.intValue(id);
  if (k === Kind.Float) return store.floatValue(id);
  return null;
}

export function arith(store: TermStore, op: ArithOp | 'min' | 'max', a: TermId, b: TermId): TermId {
  if (store.kind(a) === Kind.Int && store.kind(b) === Kind.Int) return intArith(store, op, store.intValue(a), store.intValue(b));
  if (store.kind(a) === Kind.Float || store.kind(b) === Kind.Float) {
    const x = constantValue(store, a);
    const y = constantValue(store, b);
    if (x === null || y === null) return store.kind(a) === Kind.Hole || store.kind(b) === Kind.Hole ? WAIT : FAIL;
    return floatArith(store, op, x, y);
  }
  // arithmetic with Any is Any
  if (isAny(store, a) && termDim(store, b) !== null) return a;
  if (isAny(store, b) && termDim(store, a) !== null) return b;
  const da = termDim(store, a);
  const db = termDim(store, b);
  if (da === WAIT || db === WAIT) return WAIT;
  // against a symbolic dim, an integer beyond ±2^53 has no exact sum, product or bound
  const big = unsafeInt(store, a) ?? unsafeInt(store, b);
  if (big !== null) throw new ArithmeticError(`integer overflow: ${big} is beyond ±2^53`);
  if (da === null || db === null) return FAIL;
  try {
    switch (op) {
      case '+':
        return dimTerm(store, dimAdd(da, db));
      case '-':
        return dimTerm(store, dimSub(da, db));
      case '*':
        return dimTerm(store, dimMul(da, db));
      case '/':
        return dimTerm(store, dimFloorDiv(da, db));
      case '%':
        return dimTerm(store, dimMod(da, db));
      case 'min':
        return dimTerm(store, dimMin(da, db));
      case 'max':
        return dimTerm(store, dimMax(da, db));
    }
  } catch (e) {
    if (e instanceof DimError) throw new ArithmeticError(e.message);
    throw e;
  }
}

function intArith(store: TermStore, op: ArithOp | 'min' | 'max', x: number, y: number): TermId {
  let r: number;
  switch (op) {
    case '+':
      r = x + y;
      break;
    case '-':
      r = x - y;
      break;
    case '*':
      r = x * y;
      break;
    case '/':
      if (y === 0) throw new ArithmeticError('division by zero');
      r = Math.floor(x / y);
      if (Math.abs(r) > MAX_SAFE || !Number.isSafeInteger(x) || !Number.isSafeInteger(y)) throw new ArithmeticError('integer overflow');
      // Math.floor on large quotients can be off by one; correct it exactly
      while (r * y > x && y > 0) r--;
      break;
    case '%':
      if (y === 0) throw new ArithmeticError('modulo by zero');
      r = x - y * Math.floor(x / y);
      break;
    case 'min':
      r = Math.min(x, y);
      break;
    case 'max':
      r = Math.max(x, y);
      break;
  }
  if (!Number.isSafeInteger(r)) throw new ArithmeticError(`integer overflow: the result of ${x} ${op} ${y} exceeds 2^53 - 1`);
  return store.int(r);
}

/**
 * Arithmetic with a float operand, in double precision: `+ - * % min max` give a float,
 * `/` the floor of the real quotient as an int (floor division, as on ints), so
 * `-((Lo - Hi) / St)` is ceil((Hi - Lo) / St) for floats too.
 */
function floatArith(store: TermStore, op: ArithOp | 'min' | 'max', x: number, y: number): TermId {
  switch (op) {
    case '+':
      return store.float(x + y);
    case '-':
      return store.float(x - y);
    case '*':
      return store.float(x * y);
    case '/': {
      if (y === 0) throw new ArithmeticError('division by zero');
      const q = Math.floor(x / y);
      if (!Number.isSafeInteger(q)) throw new ArithmeticError(`integer overflow: the floor of ${x} / ${y} exceeds 2^53 - 1`);
      return store.int(q);
    }
    case '%':
      if (y === 0) throw new ArithmeticError('modulo by zero');
      return store.float(x - y * Math.floor(x / y));
    case 'min':
      return x <= y ? store.float(x) : store.float(y);
    case 'max':
      return x >= y ? store.float(x) : store.float(y);
  }
}

function compareValues(op: CompareOp, x: number, y: number): boolean {
  switch (op) {
    case '==':
      return x === y;
    case '!=':
      return x !== y;
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    case '>=':
      return x >= y;
  }
}

/**
 * Three-valued comparison: true, false, or undefined when it cannot be decided now
 * (a hole inside, or a symbolic dim such as `n == 1`). `==`/`!=` on non-numbers
 * compare structurally: different ground terms are unequal; with holes inside, equal
 * only if identical, otherwise undecided.
 */
export function compare(store: TermStore, op: CompareOp, a: TermId, b: TermId): boolean | undefined {
  if (store.kind(a) === Kind.Int && store.kind(b) === Kind.Int) return compareValues(op, store.intValue(a), store.intValue(b));
  if (store.kind(a) === Kind.Float || store.kind(b) === Kind.Float) {
    // a float against an int or a float: numerically
    const x = constantValue(store, a);
    const y = constantValue(store, b);
    if (x !== null && y !== null) return compareValues(op, x, y);
  }
  if (isNumberLike(store, a) && isNumberLike(store, b)) {
    if (isAny(store, a) || isAny(store, b)) return undefined;
    if (a === b) return op === '==' || op === '<=' || op === '>=';
    const big = unsafeInt(store, a) ?? unsafeInt(store, b);
    if (big !== null) throw new ArithmeticError(`cannot compare ${big}, beyond ±2^53, with a symbolic dim`);
    return dimCompare(termDim(store, a) as Dim, termDim(store, b) as Dim, op);
  }
  if (op === '==' || op === '!=') {
    const eq = structuralEquals(store, a, b);
    if (eq === undefined) return undefined;
    return op === '==' ? eq : !eq;
  }
  if (store.kind(a) === Kind.Hole || store.kind(b) === Kind.Hole) return undefined;
  throw new ArithmeticError(`cannot order non-numbers with ${op}`);
}

/**
 * Structural equality of two resolved terms: true if identical, false if they differ at
 * a place where neither side is a hole, else undefined (a binding could still make them
 * equal). Numbers inside are compared as numbers (three-valued), so `[n]` vs `[3]` is undecided.
 */
export function structuralEquals(store: TermStore, a: TermId, b: TermId): boolean | undefined {
  if (a === b) return true;
  const stack: TermId[] = [a, b];
  let unknown = false;
  while (stack.length > 0) {
    const y = stack.pop()!;
    const x = stack.pop()!;
    if (x === y) continue;
    const kx = store.kind(x);
    const ky = store.kind(y);
    if (kx === Kind.Hole || ky === Kind.Hole) {
      unknown = true;
      continue;
    }
    if (isNumberLike(store, x) && isNumberLike(store, y)) {
      if (unsafeInt(store, x) !== null || unsafeInt(store, y) !== null) {
        // two integers are equal only as the same term (checked above); against a dim, undecided
        if (kx === Kind.Int && ky === Kind.Int) return false;
        unknown = true;
        continue;
      }
      const c = dimCompare(termDim(store, x) as Dim, termDim(store, y) as Dim, '==');
      if (c === false) return false;
      if (c === undefined) unknown = true;
      continue;
    }
    if (kx !== ky) return false;
    if (kx === Kind.Cons) {
      stack.push(store.head(x), store.head(y), store.tail(x), store.tail(y));
      continue;
    }
    if (kx === Kind.Compound) {
      if (store.functorSym(x) !== store.functorSym(y) || store.arity(x) !== store.arity(y)) return false;
      for (let i = 0; i < store.arity(x); i++) stack.push(store.arg(x, i), store.arg(y, i));
      continue;
    }
    return false; // distinct floats, strings, atoms that are not both numbers...
  }
  return unknown ? undefined : true;
}

/**
 * Syntactic equality modulo holes (the meaning of `X = Y` as a test and of `X \= Y`):
 * true if identical, false if the terms differ at a position where neither is a hole
 * (so `n` and `3` differ, and `float32` and `int32` differ), undefined otherwise.
 */
export function syntacticEquals(store: TermStore, a: TermId, b: TermId): boolean | undefined {
  if (a === b) return true;
  if (store.isGround(a) && store.isGround(b)) return false;
  const stack: TermId[] = [a, b];
  let unknown = false;
  while (stack.length > 0) {
    const y = stack.pop()!;
    const x = stack.pop()!;
    if (x === y) continue;
    const kx = store.kind(x);
    const ky = store.kind(y);
    if (kx === Kind.Hole || ky === Kind.Hole) {
      unknown = true;
      continue;
    }
    if (kx !== ky) return false;
    if (kx === Kind.Cons) {
      stack.push(store.head(x), store.head(y), store.tail(x), store.tail(y));
    } else if (kx === Kind.Compound) {
      if (store.functorSym(x) !== store.functorSym(y) || store.arity(x) !== store.arity(y)) return false;
      for (let i = 0; i < store.arity(x); i++) stack.push(store.arg(x, i), store.arg(y, i));
    } else {
      return false;
    }
  }
  return unknown ? undefined : true;
}
