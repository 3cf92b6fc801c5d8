// Checks a relation's answer to one call against the reference executor.
//
// The call's argument types (the relation's inferred ones when it answered with
// a type, so that backward inference is exercised too; else the given ones)
// must all be concrete and small (every dim <= MAX_DIM): random tensors of
// those types are built, the executor runs, and what it produces (or its
// refusal) is compared with the relation's answer:
//
//   agree        both refuse, or the executor's result has exactly the type the
//                relation inferred;
//   unsound      the relation gives a type but the executor refuses, or produces
//                a different type: the relation is wrong;
//   stricter     the relation refuses a call the executor runs. Expected only when
//                the operator's STRICTER entry covers this very call (decided by
//                the reference from the executed inputs, attributes and result);
//   crash        the executor threw something other than a refusal: a bug in the
//                reference, always a failure;
//   skipped      not executable (a symbolic or unknown dim, in a type or an
//                attribute, a dim above MAX_DIM, an attribute error, or no
//                executor for the operator).
import type { AttrMap } from '../../relations/imperative/relation.js';
import { checkAttrs, lookupOp } from '../../relations/catalogue.js';
import { attrs as attrList, type AttrJs } from '../../relations/imperative/solve-one.js';
import { parseType } from '../../relations/imperative/type-text.js';
import { type IType, printType, TypeSolverState } from '../../relations/imperative/types.js';
import type { TypeofAnswer, TypeofRequest } from '../../typing/typeof.js';
import type { AttrValue } from '../../relations/attr-value.js';
import { executorFor, stricterFor } from './registry.js';
import { ExecError, randomTensor, rng, typeText, type Value } from './tensor.js';

/** Calls with a dimension above this are not executed. */
export const MAX_DIM = 8;

export type ReferenceVerdict =
  | { readonly kind: 'agree'; readonly executed: string }
  | { readonly kind: 'unsound'; readonly relation: TypeofAnswer; readonly executed: string }
  | { readonly kind: 'stricter'; readonly relation: TypeofAnswer; readonly executed: string; readonly expected: string | null }
  | { readonly kind: 'crash'; readonly relation: TypeofAnswer; readonly executed: string }
  | { readonly kind: 'skipped'; readonly why: string };

/** A concrete argument: a shape and dtype, or a tuple of them. */
type Concrete = { readonly shape: number[]; readonly dtype: string } | readonly Concrete[];

function concrete(t: IType): Concrete | string {
  if (t.kind === 'tensor') {
    if (typeof t.dtype !== 'string') return 'an unknown dtype';
    const shape: number[] = [];
    for (const d of t.shape) {
      if (d.kind !== 'int') return 'a dimension that is not a constant';
      if (d.value > MAX_DIM) return `a dimension above ${MAX_DIM}`;
      shape.push(d.value);
    }
    return { shape, dtype: t.dtype };
  }
  if (t.kind === 'tuple') {
    const fields: Concrete[] = [];
    for (const f of t.fields) {
      const c = concrete(f);
      if (typeof c === 'string') return c;
      fields.push(c);
    }
    return fields;
  }
  return 'an argument that is not a tensor or a tuple';
}

function materialise(c: Concrete, next: () => number): Value {
  return Array.isArray(c)
    ? (c as readonly Concrete[]).map((f) => materialise(f, next))
    : randomTensor((c as { shape: number[] }).shape, (c as { dtype: string }).dtype, next);
}

/** A checked attribute value as a plain JS value. */
export function attrJs(v: AttrValue): AttrJs {
  switch (v.kind) {
    case 'int':
    case 'float':
    case 'bool':
    case 'string':
      return v.value;
    case 'none':
      return null;
    case 'list':
      return v.items.map(attrJs);
    case 'dim':
      return v.text;
  }
}

/** Does the value hold a symbolic size (`size=[th, tw]`)? Such a call cannot be executed. */
function isSymbolic(v: AttrValue): boolean {
  return v.kind === 'dim' || (v.kind === 'list' && v.items.some(isSymbolic));
}

function canon(text: string): string {
  const p = parseType(text, new TypeSolverState());
  return p.ok ? printType(p.type) : text;
}

/** The executor on one call with the given argument types; its result type text, or its refusal. */
export function execute(
  op: string,
  attrValues: AttrMap,
  argTypes: readonly string[],
  seed = 1,
):
  | { ok: true; type: string; value: Value; inputs: Value[]; attrs: Record<string, AttrJs> }
  | { ok: false; refusal: string }
  | { crash: string }
  | { skipped: string } {
  const exec = executorFor(op);
  if (exec === undefined) return { skipped: 'no executor' };
  const state = new TypeSolverState();
  const args: Concrete[] = [];
  for (const text of argTypes) {
    const p = parseType(text, state);
    if (!p.ok) return { skipped: `argument type ${text}: ${p.message}` };
    const c = concrete(p.type);
    if (typeof c === 'string') return { skipped: c };
    args.push(c);
  }
  const next = rng(seed);
  let inputs: Value[];
  try {
    inputs = args.map((c) => materialise(c, next));
  } catch (e) {
    if (e instanceof ExecError) return { skipped: e.message };
    throw e;
  }
  const attrs: Record<string, AttrJs> = {};
  for (const [k, v] of attrValues) {
    if (isSymbolic(v)) return { skipped: `a symbolic size in attribute ${k}` };
    attrs[k] = attrJs(v);
  }
  try {
    const value = exec(inputs, attrs);
    return { ok: true, type: typeText(value), value, inputs, attrs };
  } catch (e) {
    if (e instanceof ExecError) return { ok: false, refusal: e.message };
    return { crash: e instanceof Error ? e.message : String(e) };
  }
}

/** Compares a relation's answer to call `c` with the reference executor. */
export function referenceCheck(c: TypeofRequest, relation: TypeofAnswer): ReferenceVerdict {
  const found = lookupOp(c.op);
  if (!found.ok) return { kind: 'skipped', why: found.message };
  const checked = checkAttrs(found.op, attrList(c.attrs ?? {}));
  if (checked.errors.length > 0) return { kind: 'skipped', why: `attribute error: ${checked.errors[0]!.message}` };
  const argTypes = 'type' in relation ? relation.args : c.args;
  const run = execute(c.op, checked.values, argTypes);
  if ('skipped' in run) return { kind: 'skipped', why: run.skipped };
  if ('crash' in run) return { kind: 'crash', relation, executed: `crash: ${run.crash}` };
  if (!run.ok) {
    if ('error' in relation) return { kind: 'agree', executed: `refused: ${run.refusal}` };
    return { kind: 'unsound', relation, executed: `refused: ${run.refusal}` };
  }
  if ('error' in relation) {
    const stricter = stricterFor(c.op);
    const covered = stricter?.covers(run.inputs, run.attrs, run.value) === true;
    return { kind: 'stricter', relation, executed: run.type, expected: covered ? stricter!.reason : null };
  }
  if (canon(run.type) === canon(relation.type)) return { kind: 'agree', executed: run.type };
  return { kind: 'unsound', relation, executed: run.type };
}
