// Checking attribute values against their specs: the attributes of one call
// (`checkAttrs`: defaults, unknown/duplicate/missing attributes, types, ranges) and a
// single value (`checkValue`, also used on the defaults of operator declarations), with
// their wording (`describeType`, `attrValueText`).
import type { Attr, AttrValue } from './attr-value.js';
import type { Span } from '../diagnostics/span.js';
import { type AttrSpec, DEFAULT_SPAN, type OpInfo } from './schema.js';
import { closest } from '../diagnostics/suggest.js';
import { parseDimText } from './imperative/type-text.js';

// ─── Checking the attributes of a call ───────────────────────────────────────

export interface AttrError {
  readonly message: string;
  readonly span: Span;
}

export interface CheckedAttrs {
  /** Every attribute of the operator: given values, else defaults. Required attributes that are missing are absent. */
  readonly values: Map<string, AttrValue>;
  readonly errors: AttrError[];
}

/**
 * Validates the attributes of one call of `op`. `callSpan` locates errors that
 * have no attribute to point at (a missing required attribute).
 */
export function checkAttrs(op: OpInfo, attrs: readonly Attr[], callSpan: Span = DEFAULT_SPAN): CheckedAttrs {
  const values = new Map<string, AttrValue>();
  const errors: AttrError[] = [];
  const specs = new Map(op.attrs.map((s) => [s.name, s]));
  for (const a of attrs) {
    const s = specs.get(a.name);
    if (s === undefined) {
      const names = op.attrs.map((x) => x.name);
      const hint = closest(a.name, names);
      const tail = hint !== null ? `; did you mean '${hint}'?` : names.length === 0 ? ' (it takes no attributes)' : ` (its attributes: ${names.join(', ')})`;
      errors.push({ message: `${op.name} has no attribute '${a.name}'${tail}`, span: a.span });
      continue;
    }
    if (values.has(a.name)) {
      errors.push({ message: `${op.name}: attribute '${a.name}' is given twice`, span: a.span });
      continue;
    }
    const problem = checkValue(s, a.value);
    if (problem !== null) {
      errors.push({ message: `${op.name}: ${a.name} ${problem} (got ${attrValueText(a.value)})`, span: a.value.span });
      continue;
    }
    values.set(a.name, s.type === 'pairs' ? flattenPairs(a.value) : s.type === 'dims' ? symbolicSizes(a.value) : a.value);
  }
  for (const s of op.attrs) {
    if (values.has(s.name) || attrs.some((a) => a.name === s.name)) continue;
    if (s.default === 'required') errors.push({ message: `${op.name}: missing required attribute '${s.name}' (${describeType(s)})`, span: callSpan });
    else values.set(s.name, s.default);
  }
  return { values, errors };
}

/** `must be a list of 2 ints`, `must be >= 1`, or null when the value fits. */
export function checkValue(s: AttrSpec, v: AttrValue): string | null {
  const typeOk = (() => {
    switch (s.type) {
      case 'int':
        return isInt(v);
      case 'float':
        return v.kind === 'float' || isInt(v);
      case 'float?':
        return v.kind === 'float' || isInt(v) || v.kind === 'none';
      case 'bool':
        return v.kind === 'bool';
      case 'string':
        return v.kind === 'string';
      case 'int?':
        return isInt(v) || v.kind === 'none';
      case 'ints':
        return isInts(v);
      case 'ints?':
        return isInts(v) || v.kind === 'none';
      case 'ints|int':
        return isInts(v) || isInt(v);
      case 'ints|int?':
        return isInts(v) || isInt(v) || v.kind === 'none';
      case 'floats':
        return v.kind === 'list' && v.items.every((i) => i.kind === 'float' || isInt(i));
      case 'pairs':
        return isInts(v) || (v.kind === 'list' && v.items.every((p) => p.kind === 'list' && isInts(p) && p.items.length === 2));
      case 'dims':
        return v.kind === 'list' && v.items.every((i) => isInt(i) || isSymbolicSize(i));
    }
  })();
  if (!typeOk) return `must be ${describeType(s)}`;
  const flat = s.type === 'pairs' ? flattenPairs(v) : v;
  // (a symbolic size has no bound to check: TVM checks none either)
  const ints = flat.kind === 'int' ? [flat.value] : flat.kind === 'list' ? flat.items.flatMap((i) => (i.kind === 'int' ? [i.value] : [])) : [];
  // A single int where a list is allowed is always fine (TVM's Python API expands
  // it); the lengths constrain lists.
  if (s.lengths !== undefined && v.kind === 'list' && !s.lengths.includes(v.items.length)) {
    return `must be a list of ${orList(s.lengths.map(String))} ${s.type === 'dims' ? 'sizes' : 'ints'}`;
  }
  if (s.min !== undefined) {
    const bad = ints.find((i) => i < s.min!);
    if (bad !== undefined) return `must be >= ${s.min}`;
  }
  if (s.max !== undefined) {
    const bad = ints.find((i) => i > s.max!);
    if (bad !== undefined) return `must be <= ${s.max}`;
  }
  if (v.kind === 'string') {
    if (s.choices !== undefined && !s.choices.includes(v.value)) return `must be one of ${s.choices.map((c) => `"${c}"`).join(', ')}`;
    switch (s.format) {
      case 'dtype':
        if (!DTYPE.test(v.value)) return 'must be a dtype such as "float32"';
        break;
      case 'dtype-or-empty':
        if (v.value !== '' && !DTYPE.test(v.value)) return 'must be a dtype such as "float32", or ""';
        break;
      case 'layout':
        if (!LAYOUT.test(v.value)) return 'must be a layout such as "NCHW"';
        break;
      case 'layout-or-empty':
        if (v.value !== '' && !LAYOUT.test(v.value)) return 'must be a layout such as "NCHW", or ""';
        break;
      case undefined:
        break;
    }
  }
  return null;
}

const DTYPE = /^(bool|u?int(1|4|8|16|32|64)|float(8|16|32|64)|bfloat16)(x[1-9][0-9]*)?$/;
/** Primal axes are upper-case letters; a split axis is a factor and a lower-case letter (`16c`). */
const LAYOUT = /^([A-Z]|[1-9][0-9]*[a-z])+$/;

/** `[[a, b], [c, d]]` → `[a, b, c, d]`; a flat list stays as it is. */
function flattenPairs(v: AttrValue): AttrValue {
  if (v.kind !== 'list' || !v.items.some((i) => i.kind === 'list')) return v;
  return { ...v, items: v.items.flatMap((i) => (i.kind === 'list' ? i.items : [i])) };
}

/** A symbolic size: a `dim` value or a string (JSON's way to write one) that parses as a size expression. */
function isSymbolicSize(v: AttrValue): boolean {
  return (v.kind === 'dim' || v.kind === 'string') && typeof parseDimText(v.kind === 'dim' ? v.text : v.value) !== 'string';
}

/** A `dims` value with its string items read as symbolic sizes. */
function symbolicSizes(v: AttrValue): AttrValue {
  if (v.kind !== 'list') return v;
  return { ...v, items: v.items.map((i) => (i.kind === 'string' ? { kind: 'dim', text: i.value, span: i.span } : i)) };
}

function isInt(v: AttrValue): boolean {
  return v.kind === 'int' && Number.isSafeInteger(v.value);
}

function isInts(v: AttrValue): boolean {
  return v.kind === 'list' && v.items.every(isInt);
}

/** `a list of 2 ints`, `an int or a list of 1, 2 or 4 ints`, `an int or None`. */
export function describeType(s: AttrSpec): string {
  const lengths = s.lengths;
  const list = lengths === undefined ? 'a list of ints' : `a list of ${orList(lengths.map(String))} ints`;
  switch (s.type) {
    case 'int':
      return 'an int';
    case 'float':
      return 'a number';
    case 'float?':
      return 'a number or None';
    case 'bool':
      return 'True or False';
    case 'string':
      return s.choices !== undefined ? `one of ${s.choices.map((c) => `"${c}"`).join(', ')}` : 'a string';
    case 'int?':
      return 'an int or None';
    case 'ints':
      return list;
    case 'ints?':
      return `${list} or None`;
    case 'ints|int':
      return `an int or ${list}`;
    case 'ints|int?':
      return `an int, ${list} or None`;
    case 'pairs':
      return 'a list of [int, int] pairs';
    case 'floats':
      return lengths === undefined ? 'a list of numbers' : `a list of ${orList(lengths.map(String))} numbers`;
    case 'dims':
      return lengths === undefined ? 'a list of sizes (ints or size variables)' : `a list of ${orList(lengths.map(String))} sizes (ints or size variables)`;
  }
}

function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** Relay-like text of an attribute value: `[1, 1]`, `"NCHW"`, `True`, `None`. */
export function attrValueText(v: AttrValue): string {
  switch (v.kind) {
    case 'int':
    case 'float':
      return String(v.value);
    case 'bool':
      return v.value ? 'True' : 'False';
    case 'string':
      return JSON.stringify(v.value);
    case 'none':
      return 'None';
    case 'list':
      return `[${v.items.map(attrValueText).join(', ')}]`;
    case 'dim':
      return v.text;
  }
}
