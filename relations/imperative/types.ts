// Types for the imperative (Relay-style) strategy.
//
// An independent representation of Relay types, with holes ("incomplete types")
// at three levels: a whole type, one dimension, or a dtype. Holes live in a
// mutable union-find (`TypeSolverState`); Relay's own solver works the same way.
//
// Dimensions are
//   * `int`  — a concrete size;
//   * `sym`  — a symbolic size, a NON-constant canonical `Dim` from
//              solver/terms/dims.ts (constants are always `int`, see `dimOf`);
//   * `any`  — Relay's `Any` (`?`): unknown and never resolved; it unifies with
//              everything and binds nothing;
//   * `hole` — a dimension left for inference;
//   * `open` — used only inside types that relations BUILD: "this dimension cannot
//              be computed yet". Unifying it with anything succeeds and binds
//              nothing; when a type hole is bound to a built type, every `open`
//              dimension becomes a fresh dimension hole. So `open` never ends up
//              stored in the state, and a relation that re-runs without new
//              information makes no bindings (no spurious progress).
//
// Unification of dimensions:
//   equal ints: ok; different ints: clash; hole: binds; Any: ok, binds nothing;
//   symbolic vs int, or symbolic vs another symbolic expression: decided with the
//   three-valued `dimCompare`: provably equal → ok, provably different → clash,
//   undecided → ok PLUS a residual assumption (`n = 3`) recorded on the state,
//   as shapelog's rule engine does. Never a silent pass.
// Distinct dtypes clash; rank mismatches clash. A failed `unify` is atomic: the
// bindings and residuals it made are undone.

import { type Dim, type DimCompareOp, DimError, dimCompare, dimConst, dimAsInteger, dimAsVariable, dimSub, dimToString } from '../../solver/terms/dims.js';

// ─── Representation ──────────────────────────────────────────────────────────

export type HoleKind = 'type' | 'dim' | 'dtype';

/** A hole (type variable of the solver). Ids are unique across the three kinds. */
export interface Hole {
  readonly kind: 'hole';
  readonly id: number;
}

export type IDim =
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'sym'; readonly dim: Dim }
  | { readonly kind: 'any' }
  | Hole
  | { readonly kind: 'open' };

/** A dtype name (`float32`) or a dtype hole. */
export type IDtype = string | Hole;

export interface TensorType {
  readonly kind: 'tensor';
  readonly shape: readonly IDim[];
  readonly dtype: IDtype;
}

export type IType =
  | TensorType
  | { readonly kind: 'tuple'; readonly fields: readonly IType[] }
  | { readonly kind: 'func'; readonly typeParams: readonly string[]; readonly params: readonly IType[]; readonly ret: IType }
  /** A type parameter in scope (`A`). */
  | { readonly kind: 'var'; readonly name: string }
  /** An ADT applied to arguments: `List[A]`. */
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly IType[] }
  | Hole;

// ─── Constructors ────────────────────────────────────────────────────────────

export const ANY: IDim = Object.freeze({ kind: 'any' });
export const OPEN: IDim = Object.freeze({ kind: 'open' });

export function intDim(value: number): IDim {
  return { kind: 'int', value };
}

/** A canonical Dim as an IDim: constants become `int`, others `sym`. */
export function dimOf(d: Dim): IDim {
  const c = dimAsInteger(d);
  return c !== null ? { kind: 'int', value: c } : { kind: 'sym', dim: d };
}

/** The canonical Dim of an int or symbolic dimension; null for Any, holes and open. */
export function dimValue(d: IDim): Dim | null {
  switch (d.kind) {
    case 'int':
      return dimConst(d.value);
    case 'sym':
      return d.dim;
    default:
      return null;
  }
}

export function tensorType(shape: readonly (IDim | number)[], dtype: IDtype): TensorType {
  return { kind: 'tensor', shape: shape.map((d) => (typeof d === 'number' ? intDim(d) : d)), dtype };
}

export function tupleType(fields: readonly IType[]): IType {
  return { kind: 'tuple', fields };
}

/** Scalar, vector and the common dtypes TVM prints: `float32`, `int64`, `uint8`, `bool`, `bfloat16`, `float32x4`. */
const DTYPE = /^(bool|u?int(1|4|8|16|32|64)|float(8|16|32|64)|bfloat16)(x[1-9][0-9]*)?$/;

export function isDtype(name: string): boolean {
  return DTYPE.test(name);
}

export function isIntDtype(name: string): boolean {
  return /^u?int\d+(x\d+)?$/.test(name);
}

// ─── Printing ────────────────────────────────────────────────────────────────

export interface PrintOptions {
  /** Print unresolved holes as `?t3`, `?d4`, `?e5` (debugging; NOT Relay syntax). Default: `_`. */
  readonly holeIds?: boolean;
}

export function printDim(d: IDim, options: PrintOptions = {}): string {
  switch (d.kind) {
    case 'int':
      return String(d.value);
    case 'sym':
      return dimToString(d.dim);
    case 'any':
      return '?';
    case 'hole':
      return options.holeIds ? `?d${d.id}` : '_';
    case 'open':
      return '_';
  }
}

export function printDtype(d: IDtype, options: PrintOptions = {}): string {
  return typeof d === 'string' ? d : options.holeIds ? `?e${d.id}` : '_';
}

export function printShape(shape: readonly IDim[], options: PrintOptions = {}): string {
  return `(${shape.map((d) => printDim(d, options)).join(', ')})`;
}

/**
 * Relay text syntax: `Tensor[(1, 3), float32]`, `Tensor[(5), float32]`, a scalar
 * `float32`, `?` for Any, `(A, B)`, `(A,)`, `fn (A) -> B`, `List[A]`; unresolved
 * holes print as `_` (a scalar with an unknown dtype as `Tensor[(), _]`).
 * Resolve the type first (`TypeSolverState.resolve`) to print what holes are bound to.
 */
export function printType(t: IType, options: PrintOptions = {}): string {
  switch (t.kind) {
    case 'tensor':
      if (t.shape.length === 0 && typeof t.dtype === 'string') return t.dtype;
      return `Tensor[${printShape(t.shape, options)}, ${printDtype(t.dtype, options)}]`;
    case 'tuple':
      if (t.fields.length === 1) return `(${printType(t.fields[0]!, options)},)`;
      return `(${t.fields.map((f) => printType(f, options)).join(', ')})`;
    case 'func': {
      const tp = t.typeParams.length > 0 ? `[${t.typeParams.join(', ')}]` : '';
      return `fn ${tp}(${t.params.map((p) => printType(p, options)).join(', ')}) -> ${printType(t.ret, options)}`;
    }
    case 'var':
      return t.name;
    case 'call':
      return t.args.length === 0 ? t.name : `${t.name}[${t.args.map((a) => printType(a, options)).join(', ')}]`;
    case 'hole':
      return options.holeIds ? `?t${t.id}` : '_';
  }
}

// ─── Residual assumptions ────────────────────────────────────────────────────

/** A condition on symbolic sizes that could not be decided and was assumed. */
export interface Residual {
  readonly left: Dim;
  readonly op: DimCompareOp;
  readonly right: Dim;
  /** `n = 3`, `n % 2 = 0`, `n + 6 >= 7` (`==` is written `=`). */
  readonly text: string;
  /** What asked for it (an operator name), if known. */
  readonly origin: string | null;
}

const FLIPPED: Record<DimCompareOp, DimCompareOp> = { '==': '==', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/**
 * Puts a condition with one constant side in a readable form: the expression on
 * the left, its constant moved to the right: `4 = n` → `n = 4`, `h + 6 >= 7` →
 * `h >= 1`. Other conditions are kept as they are.
 */
export function normaliseCondition(left: Dim, op: DimCompareOp, right: Dim): [Dim, DimCompareOp, Dim] {
  if (left.terms.length === 0 && right.terms.length > 0) [left, op, right] = [right, FLIPPED[op], left];
  if (right.terms.length === 0 && left.terms.length > 0 && left.constant !== 0) {
    try {
      const k = dimConst(left.constant);
      return [dimSub(left, k), op, dimSub(right, k)];
    } catch (e) {
      if (!(e instanceof DimError)) throw e;
    }
  }
  return [left, op, right];
}

export function residualText(left: Dim, op: DimCompareOp, right: Dim): string {
  return `${dimToString(left)} ${op === '==' ? '=' : op} ${dimToString(right)}`;
}

// ─── The solver state ────────────────────────────────────────────────────────

export type UnifyResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

const OK: UnifyResult = Object.freeze({ ok: true });

class Clash extends Error {
  constructor(readonly detail: string) {
    super(detail);
  }
}

/**
 * Mutable union-find over holes, with residual assumptions. Every binding and
 * every new residual increments `version`, so a caller can tell whether a run of
 * a relation made progress.
 */
export class TypeSolverState {
  private nextId = 0;
  private readonly kinds = new Map<number, HoleKind>();
  private readonly typeBindings = new Map<number, IType>();
  private readonly dimBindings = new Map<number, IDim>();
  private readonly dtypeBindings = new Map<number, IDtype>();
  private readonly residualKeys = new Set<string>();
  private readonly residualList: Residual[] = [];
  /** Undo log of the unification in progress (null outside `unify`). */
  private trail: (() => void)[] | null = null;
  private changes = 0;

  /** Increases with every binding and every new residual (a failed, undone unification leaves it unchanged). */
  get version(): number {
    return this.changes;
  }

  get residuals(): readonly Residual[] {
    return this.residualList;
  }

  // ── fresh holes

  private fresh(kind: HoleKind): Hole {
    const id = this.nextId++;
    this.kinds.set(id, kind);
    return { kind: 'hole', id };
  }

  freshType(): Hole {
    return this.fresh('type');
  }

  freshDim(): Hole {
    return this.fresh('dim');
  }

  freshDtype(): Hole {
    return this.fresh('dtype');
  }

  holeKind(id: number): HoleKind | undefined {
    return this.kinds.get(id);
  }

  // ── find (one level: follow hole-to-hole bindings to the representative)

  find(t: IType): IType {
    let cur = t;
    while (cur.kind === 'hole') {
      const next = this.typeBindings.get(cur.id);
      if (next === undefined) break;
      cur = next;
    }
    if (this.trail === null && t.kind === 'hole' && cur !== t) this.compressType(t.id, cur);
    return cur;
  }

  findDim(d: IDim): IDim {
    let cur = d;
    while (cur.kind === 'hole') {
      const next = this.dimBindings.get(cur.id);
      if (next === undefined) break;
      cur = next;
    }
    return cur;
  }

  findDtype(d: IDtype): IDtype {
    let cur = d;
    while (typeof cur !== 'string') {
      const next = this.dtypeBindings.get(cur.id);
      if (next === undefined) break;
      cur = next;
    }
    return cur;
  }

  /** Path compression (outside unification only, so that undo stays exact). */
  private compressType(id: number, target: IType): void {
    let cur: IType = { kind: 'hole', id };
    while (cur.kind === 'hole') {
      const next = this.typeBindings.get(cur.id);
      if (next === undefined || next === target) break;
      this.typeBindings.set(cur.id, target);
      cur = next;
    }
  }

  // ── resolve (deep)

  resolve(t: IType): IType {
    const r = this.find(t);
    switch (r.kind) {
      case 'tensor':
        return { kind: 'tensor', shape: r.shape.map((d) => this.findDim(d)), dtype: this.findDtype(r.dtype) };
      case 'tuple':
        return { kind: 'tuple', fields: r.fields.map((f) => this.resolve(f)) };
      case 'func':
        return { kind: 'func', typeParams: r.typeParams, params: r.params.map((p) => this.resolve(p)), ret: this.resolve(r.ret) };
      case 'call':
        return { kind: 'call', name: r.name, args: r.args.map((a) => this.resolve(a)) };
      case 'var':
      case 'hole':
        return r;
    }
  }

  resolveDim(d: IDim): IDim {
    return this.findDim(d);
  }

  resolveDtype(d: IDtype): IDtype {
    return this.findDtype(d);
  }

  /** Ids of the unresolved holes (of every kind) in `t`, in order of first occurrence. */
  holesIn(t: IType): number[] {
    const out: number[] = [];
    const seen = new Set<number>();
    const add = (id: number) => {
      if (!seen.has(id)) {
        seen.add(id);
        out.push(id);
      }
    };
    const visit = (x: IType): void => {
      const r = this.find(x);
      switch (r.kind) {
        case 'hole':
          add(r.id);
          return;
        case 'tensor':
          for (const d of r.shape) {
            const rd = this.findDim(d);
            if (rd.kind === 'hole') add(rd.id);
          }
          {
            const dt = this.findDtype(r.dtype);
            if (typeof dt !== 'string') add(dt.id);
          }
          return;
        case 'tuple':
          r.fields.forEach(visit);
          return;
        case 'func':
          r.params.forEach(visit);
          visit(r.ret);
          return;
        case 'call':
          r.args.forEach(visit);
          return;
        case 'var':
          return;
      }
    };
    visit(t);
    return out;
  }

  /** No unresolved holes anywhere in `t` (Any dimensions are fine). */
  isGround(t: IType): boolean {
    return this.holesIn(t).length === 0;
  }

  // ── residuals

  /** Records an undecided condition; returns false if it was already recorded. */
  addResidual(left0: Dim, op0: DimCompareOp, right0: Dim, origin: string | null = null): boolean {
    const [left, op, right] = normaliseCondition(left0, op0, right0);
    const text = residualText(left, op, right);
    if (this.residualKeys.has(text)) return false;
    this.residualKeys.add(text);
    this.residualList.push({ left, op, right, text, origin });
    this.changes++;
    this.trail?.push(() => {
      this.residualKeys.delete(text);
      this.residualList.pop();
    });
    return true;
  }

  // ── unification

  /**
   * Unifies two types. On a clash nothing is changed and the message says where:
   * `dimension 1: 3 vs 4`, `dtype float32 vs int32`, `rank 4 vs 3`, `field 0: ...`.
   * `origin` labels residual assumptions made on the way.
   */
  unify(a: IType, b: IType, origin: string | null = null): UnifyResult {
    return this.transaction(() => this.unifyTypes(a, b, origin));
  }

  unifyDim(a: IDim, b: IDim, origin: string | null = null): UnifyResult {
    return this.transaction(() => this.unifyDims(a, b, origin));
  }

  unifyDtype(a: IDtype, b: IDtype): UnifyResult {
    return this.transaction(() => this.unifyDtypes(a, b));
  }

  private transaction(body: () => void): UnifyResult {
    const outer = this.trail;
    const trail: (() => void)[] = [];
    const changesBefore = this.changes;
    this.trail = trail;
    try {
      body();
      if (outer !== null) outer.push(...trail);
      return OK;
    } catch (e) {
      if (!(e instanceof Clash)) throw e;
      for (let i = trail.length - 1; i >= 0; i--) trail[i]!();
      this.changes = changesBefore;
      return { ok: false, message: e.detail };
    } finally {
      this.trail = outer;
    }
  }

  private bindType(id: number, value: IType): void {
    if (this.occurs(id, value)) throw new Clash(`a type cannot contain itself (${printType(this.resolve(value))})`);
    const v = this.instantiateOpen(value);
    this.typeBindings.set(id, v);
    this.changes++;
    this.trail?.push(() => this.typeBindings.delete(id));
  }

  private bindDim(id: number, value: IDim): void {
    this.dimBindings.set(id, value);
    this.changes++;
    this.trail?.push(() => this.dimBindings.delete(id));
  }

  private bindDtype(id: number, value: IDtype): void {
    this.dtypeBindings.set(id, value);
    this.changes++;
    this.trail?.push(() => this.dtypeBindings.delete(id));
  }

  private occurs(id: number, t: IType): boolean {
    const r = this.find(t);
    switch (r.kind) {
      case 'hole':
        return r.id === id;
      case 'tuple':
        return r.fields.some((f) => this.occurs(id, f));
      case 'func':
        return r.params.some((p) => this.occurs(id, p)) || this.occurs(id, r.ret);
      case 'call':
        return r.args.some((a) => this.occurs(id, a));
      default:
        return false;
    }
  }

  /** Replaces `open` dimensions by fresh dimension holes (a type about to be stored). */
  private instantiateOpen(t: IType): IType {
    switch (t.kind) {
      case 'tensor':
        return t.shape.some((d) => d.kind === 'open')
          ? { kind: 'tensor', shape: t.shape.map((d) => (d.kind === 'open' ? this.freshDim() : d)), dtype: t.dtype }
          : t;
      case 'tuple':
        return { kind: 'tuple', fields: t.fields.map((f) => this.instantiateOpen(f)) };
      case 'func':
        return { kind: 'func', typeParams: t.typeParams, params: t.params.map((p) => this.instantiateOpen(p)), ret: this.instantiateOpen(t.ret) };
      case 'call':
        return { kind: 'call', name: t.name, args: t.args.map((a) => this.instantiateOpen(a)) };
      default:
        return t;
    }
  }

  private unifyTypes(a: IType, b: IType, origin: string | null): void {
    const x = this.find(a);
    const y = this.find(b);
    if (x === y) return;
    if (x.kind === 'hole' && y.kind === 'hole') {
      if (x.id !== y.id) this.bindType(x.id, y);
      return;
    }
    if (x.kind === 'hole') return this.bindType(x.id, y);
    if (y.kind === 'hole') return this.bindType(y.id, x);
    if (x.kind !== y.kind) throw new Clash(`${kindName(x)} vs ${kindName(y)}`);
    switch (x.kind) {
      case 'tensor': {
        const yt = y as TensorType;
        if (x.shape.length !== yt.shape.length) throw new Clash(`rank ${x.shape.length} vs ${yt.shape.length}`);
        this.unifyDtypes(x.dtype, yt.dtype);
        x.shape.forEach((d, i) => {
          try {
            this.unifyDims(d, yt.shape[i]!, origin);
          } catch (e) {
            if (e instanceof Clash) throw new Clash(`dimension ${i}: ${e.detail}`);
            throw e;
          }
        });
        return;
      }
      case 'tuple': {
        const yf = (y as typeof x).fields;
        if (x.fields.length !== yf.length) throw new Clash(`a tuple of ${x.fields.length} vs a tuple of ${yf.length}`);
        x.fields.forEach((f, i) => {
          this.nested(`field ${i}`, () => this.unifyTypes(f, yf[i]!, origin));
        });
        return;
      }
      case 'func': {
        const yfn = y as typeof x;
        if (x.params.length !== yfn.params.length) throw new Clash(`a function of ${x.params.length} parameters vs one of ${yfn.params.length}`);
        x.params.forEach((p, i) => {
          this.nested(`parameter ${i}`, () => this.unifyTypes(p, yfn.params[i]!, origin));
        });
        this.nested('result', () => this.unifyTypes(x.ret, yfn.ret, origin));
        return;
      }
      case 'var':
        if (x.name !== (y as typeof x).name) throw new Clash(`type parameter ${x.name} vs ${(y as typeof x).name}`);
        return;
      case 'call': {
        const yc = y as typeof x;
        if (x.name !== yc.name || x.args.length !== yc.args.length) throw new Clash(`${printType(this.resolve(x))} vs ${printType(this.resolve(yc))}`);
        x.args.forEach((p, i) => {
          this.nested(`argument ${i} of ${x.name}`, () => this.unifyTypes(p, yc.args[i]!, origin));
        });
        return;
      }
    }
  }

  private nested(where: string, body: () => void): void {
    try {
      body();
    } catch (e) {
      if (e instanceof Clash) throw new Clash(`${where}: ${e.detail}`);
      throw e;
    }
  }

  private unifyDtypes(a: IDtype, b: IDtype): void {
    const x = this.findDtype(a);
    const y = this.findDtype(b);
    if (typeof x === 'string' && typeof y === 'string') {
      if (x !== y) throw new Clash(`dtype ${x} vs ${y}`);
      return;
    }
    if (typeof x !== 'string') {
      if (typeof y !== 'string' && y.id === x.id) return;
      this.bindDtype(x.id, y);
      return;
    }
    this.bindDtype((y as Hole).id, x);
  }

  private unifyDims(a: IDim, b: IDim, origin: string | null): void {
    const x = this.findDim(a);
    const y = this.findDim(b);
    if (x.kind === 'open' || y.kind === 'open') return;
    if (x.kind === 'any' || y.kind === 'any') return; // Any unifies with anything, binding nothing
    if (x.kind === 'hole') {
      if (y.kind === 'hole' && y.id === x.id) return;
      return this.bindDim(x.id, y);
    }
    if (y.kind === 'hole') return this.bindDim(y.id, x);
    if (x.kind === 'int' && y.kind === 'int') {
      if (x.value !== y.value) throw new Clash(`${x.value} vs ${y.value}`);
      return;
    }
    const dx = dimValue(x)!;
    const dy = dimValue(y)!;
    // two different size variables are independent sizes: they clash, as in the rule
    // engine (where `n` against `2*m` or `n + 1` is compared numerically instead)
    const vx = dimAsVariable(dx);
    const vy = dimAsVariable(dy);
    if (vx !== null && vy !== null && vx !== vy) throw new Clash(`${vx} vs ${vy} (different size variables)`);
    let equal: boolean | undefined;
    try {
      equal = dimCompare(dx, dy, '==');
    } catch (e) {
      if (e instanceof DimError) equal = undefined;
      else throw e;
    }
    if (equal === true) return;
    if (equal === false) throw new Clash(`${printDim(x)} vs ${printDim(y)} (never equal)`);
    this.addResidual(dx, '==', dy, origin);
  }
}

function kindName(t: IType): string {
  switch (t.kind) {
    case 'tensor':
      return 'a tensor';
    case 'tuple':
      return 'a tuple';
    case 'func':
      return 'a function';
    case 'var':
      return `type parameter ${t.name}`;
    case 'call':
      return `an ADT (${t.name})`;
    case 'hole':
      return 'an unknown type';
  }
}
