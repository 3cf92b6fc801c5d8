// The operator catalogue: for each core Relay operator, its name, the relation
// that types it, its arguments in TVM's order, its attributes (types and defaults
// exactly as in TVM's Python API, `tvm.relay.*`), and the shape of its result.
//
// Shared by the rule-based and the imperative strategies: this file knows nothing
// about how a relation is solved.
//
// `checkAttrs` validates the attributes of one call: it fills in defaults, rejects
// unknown attributes (with a suggestion), duplicates, missing required attributes,
// values of the wrong type (`strides must be a list of 2 ints`) and values outside
// a documented range (`strides must be >= 1`), and normalises nothing else: an
// `int` given where `int or list` is allowed stays an `int`.

import type { Attr, AttrValue, Span } from '../frontends/relay/ast.js';
import { closest } from '../solver/language/suggest.js';

// ─── Attribute types ─────────────────────────────────────────────────────────

/**
 * - `int`, `float` (an int is accepted too), `bool`, `string`;
 * - `int?`: an int or None;
 * - `ints`: a list of ints; `ints?`: a list of ints or None;
 * - `ints|int`: an int or a list of ints (padding-like; TVM's Python API expands
 *   the int); `ints|int?`: the same, or None.
 */
export type AttrType = 'int' | 'float' | 'bool' | 'string' | 'int?' | 'ints' | 'ints?' | 'ints|int' | 'ints|int?';

/** What a string attribute must look like. */
export type StringFormat =
  /** A dtype name such as `float32`. */
  | 'dtype'
  /** A dtype name, or `""` for "same as the input". */
  | 'dtype-or-empty'
  /** A layout such as `NCHW`, `NHWC`, `NCHW16c`. */
  | 'layout'
  /** A layout, or `""` for "same as the input layout". */
  | 'layout-or-empty';

export interface AttrSpec {
  readonly name: string;
  readonly type: AttrType;
  /** The Python default; `'required'` when the Python signature has none. */
  readonly default: AttrValue | 'required';
  /** Allowed lengths of a list value (a single int, where allowed, is always fine). */
  readonly lengths?: readonly number[];
  /** Lower bound for every int in the value. */
  readonly min?: number;
  /** Allowed values of a string attribute. */
  readonly choices?: readonly string[];
  readonly format?: StringFormat;
  readonly doc: string;
}

/** `tensor`: one tensor; `tuple`: a tuple of `size` tensors; `depends`: a tuple whose size depends on an attribute. */
export type ResultArity =
  | { readonly kind: 'tensor' }
  | { readonly kind: 'tuple'; readonly size: number }
  | { readonly kind: 'depends'; readonly attr: string; readonly rule: string };

export interface OpInfo {
  /** Relay name: `nn.conv2d`, `add`. */
  readonly name: string;
  /** The relation that types it: `Conv2D`, `Broadcast`. Several ops may share one. */
  readonly relation: string;
  /** Argument names in TVM's order. */
  readonly args: readonly string[];
  readonly attrs: readonly AttrSpec[];
  readonly result: ResultArity;
  readonly doc: string;
}

// ─── Default values ──────────────────────────────────────────────────────────

/** The span given to attribute values filled in from defaults. */
export const DEFAULT_SPAN: Span = Object.freeze({
  file: '<default>',
  start: Object.freeze({ offset: 0, line: 1, column: 1 }),
  end: Object.freeze({ offset: 0, line: 1, column: 1 }),
});

const S = DEFAULT_SPAN;
const vInt = (value: number): AttrValue => ({ kind: 'int', value, span: S });
const vFloat = (value: number): AttrValue => ({ kind: 'float', value, span: S });
const vBool = (value: boolean): AttrValue => ({ kind: 'bool', value, span: S });
const vStr = (value: string): AttrValue => ({ kind: 'string', value, span: S });
const vInts = (...values: number[]): AttrValue => ({ kind: 'list', items: values.map(vInt), span: S });
const vNone: AttrValue = { kind: 'none', span: S };

// ─── The operators ───────────────────────────────────────────────────────────

function spec(name: string, type: AttrType, def: AttrValue | 'required', doc: string, extra: Partial<Omit<AttrSpec, 'name' | 'type' | 'default' | 'doc'>> = {}): AttrSpec {
  return { name, type, default: def, doc, ...extra };
}

const TENSOR: ResultArity = { kind: 'tensor' };

const stride2 = (name: string, doc: string) => spec(name, 'ints|int', vInts(1, 1), doc, { lengths: [2], min: 1 });
const padding2 = (doc: string) => spec('padding', 'ints|int', vInts(0, 0), doc, { lengths: [1, 2, 4], min: 0 });
const outDtype = spec('out_dtype', 'string', vStr(''), 'output dtype for mixed precision; "" = the input dtype', { format: 'dtype-or-empty' });

function broadcastOp(name: string, doc: string): OpInfo {
  return { name, relation: 'Broadcast', args: ['lhs', 'rhs'], attrs: [], result: TENSOR, doc };
}

function compareOp(name: string, doc: string): OpInfo {
  return { name, relation: 'BroadcastCompare', args: ['lhs', 'rhs'], attrs: [], result: TENSOR, doc };
}

function reduceOp(name: string, doc: string): OpInfo {
  return {
    name,
    relation: 'Reduce',
    args: ['data'],
    attrs: [
      spec('axis', 'ints|int?', vNone, 'axes to reduce; None (or []) = all axes'),
      spec('keepdims', 'bool', vBool(false), 'keep reduced axes as dimensions of size 1'),
      spec('exclude', 'bool', vBool(false), 'reduce over the axes NOT in axis'),
    ],
    result: TENSOR,
    doc,
  };
}

const OPS: readonly OpInfo[] = [
  broadcastOp('add', 'elementwise a + b with broadcasting'),
  broadcastOp('subtract', 'elementwise a - b with broadcasting'),
  broadcastOp('multiply', 'elementwise a * b with broadcasting'),
  broadcastOp('divide', 'elementwise a / b with broadcasting'),
  broadcastOp('power', 'elementwise a ** b with broadcasting'),
  broadcastOp('maximum', 'elementwise max(a, b) with broadcasting'),
  broadcastOp('minimum', 'elementwise min(a, b) with broadcasting'),
  compareOp('equal', 'elementwise a == b with broadcasting; bool result'),
  compareOp('less', 'elementwise a < b with broadcasting; bool result'),
  compareOp('greater', 'elementwise a > b with broadcasting; bool result'),
  { name: 'nn.relu', relation: 'Identity', args: ['data'], attrs: [], result: TENSOR, doc: 'max(x, 0)' },
  {
    name: 'nn.conv2d',
    relation: 'Conv2D',
    args: ['data', 'weight'],
    attrs: [
      stride2('strides', 'stride (height, width)'),
      padding2('padding: one int (all sides), (top/bottom, left/right) or (top, left, bottom, right)'),
      stride2('dilation', 'dilation (height, width)'),
      spec('groups', 'int', vInt(1), 'number of groups; groups = input channels is depthwise', { min: 1 }),
      spec('channels', 'int?', vNone, 'output channels (with kernel_size, determines the weight)', { min: 1 }),
      spec('kernel_size', 'ints|int?', vNone, 'kernel (height, width)', { lengths: [2], min: 1 }),
      spec('data_layout', 'string', vStr('NCHW'), 'layout of data and result: a permutation of NCHW', { format: 'layout' }),
      spec('kernel_layout', 'string', vStr('OIHW'), 'layout of the weight: a permutation of OIHW', { format: 'layout' }),
      spec('out_layout', 'string', vStr(''), 'layout of the result; "" = data_layout', { format: 'layout-or-empty' }),
      outDtype,
    ],
    result: TENSOR,
    doc: '2D convolution',
  },
  {
    name: 'nn.max_pool2d',
    relation: 'Pool2D',
    args: ['data'],
    attrs: [
      stride2('pool_size', 'window (height, width)'),
      stride2('strides', 'stride (height, width)'),
      stride2('dilation', 'dilation (height, width)'),
      padding2('padding: one int, (top/bottom, left/right) or (top, left, bottom, right)'),
      spec('layout', 'string', vStr('NCHW'), 'layout of the input', { format: 'layout' }),
      spec('out_layout', 'string', vStr(''), 'layout of the output (ignored by the type relation, as in TVM)', { format: 'layout-or-empty' }),
      spec('ceil_mode', 'bool', vBool(false), 'round the output size up instead of down'),
    ],
    result: TENSOR,
    doc: '2D max pooling',
  },
  {
    name: 'nn.avg_pool2d',
    relation: 'Pool2D',
    args: ['data'],
    attrs: [
      stride2('pool_size', 'window (height, width)'),
      stride2('strides', 'stride (height, width)'),
      stride2('dilation', 'dilation (height, width)'),
      padding2('padding: one int, (top/bottom, left/right) or (top, left, bottom, right)'),
      spec('layout', 'string', vStr('NCHW'), 'layout of the input', { format: 'layout' }),
      spec('out_layout', 'string', vStr(''), 'layout of the output (ignored by the type relation, as in TVM)', { format: 'layout-or-empty' }),
      spec('ceil_mode', 'bool', vBool(false), 'round the output size up instead of down'),
      spec('count_include_pad', 'bool', vBool(false), 'count padding in the average'),
    ],
    result: TENSOR,
    doc: '2D average pooling',
  },
  {
    name: 'nn.global_avg_pool2d',
    relation: 'GlobalPool2D',
    args: ['data'],
    attrs: [
      spec('layout', 'string', vStr('NCHW'), 'layout of the input', { format: 'layout' }),
      spec('out_layout', 'string', vStr(''), 'layout of the output (ignored by the type relation, as in TVM)', { format: 'layout-or-empty' }),
    ],
    result: TENSOR,
    doc: 'average over the whole height and width',
  },
  {
    name: 'nn.batch_norm',
    relation: 'BatchNorm',
    args: ['data', 'gamma', 'beta', 'moving_mean', 'moving_var'],
    attrs: [
      spec('axis', 'int', vInt(1), 'the channel axis; -1 = the last'),
      spec('epsilon', 'float', vFloat(1e-5), 'added to the variance'),
      spec('center', 'bool', vBool(true), 'add beta'),
      spec('scale', 'bool', vBool(true), 'multiply by gamma'),
    ],
    result: { kind: 'tuple', size: 3 },
    doc: 'batch normalisation: (normalised data, new moving mean, new moving variance)',
  },
  {
    name: 'nn.bias_add',
    relation: 'BiasAdd',
    args: ['data', 'bias'],
    attrs: [spec('axis', 'int', vInt(1), 'the axis the 1-D bias is added along')],
    result: TENSOR,
    doc: 'add a 1-D bias along one axis',
  },
  {
    name: 'nn.dense',
    relation: 'Dense',
    args: ['data', 'weight'],
    attrs: [spec('units', 'int?', vNone, 'output units (determines the weight)', { min: 1 }), outDtype],
    result: TENSOR,
    doc: 'Y = X W^T with W of shape (units, input_dim)',
  },
  {
    name: 'nn.batch_matmul',
    relation: 'BatchMatmul',
    args: ['tensor_a', 'tensor_b'],
    attrs: [
      outDtype,
      spec('transpose_a', 'bool', vBool(false), 'tensor_a is (b, k, m) instead of (b, m, k)'),
      spec('transpose_b', 'bool', vBool(true), 'tensor_b is (b, n, k) instead of (b, k, n)'),
    ],
    result: TENSOR,
    doc: 'batched matrix product of 3-D tensors (NT format by default)',
  },
  { name: 'nn.batch_flatten', relation: 'BatchFlatten', args: ['data'], attrs: [], result: TENSOR, doc: '(d1, d2, ..., dk) -> (d1, d2*...*dk)' },
  {
    name: 'reshape',
    relation: 'Reshape',
    args: ['data'],
    attrs: [
      spec('newshape', 'ints|int', 'required', 'the new shape; special values 0 (copy), -1 (infer), -2 (copy the rest), -3 (merge two), -4 (split one)', { min: -4 }),
      spec('allowzero', 'bool', vBool(false), '0 in newshape means size 0 instead of "copy"'),
    ],
    result: TENSOR,
    doc: 'reshape with the same number of elements',
  },
  {
    name: 'transpose',
    relation: 'Transpose',
    args: ['data'],
    attrs: [spec('axes', 'ints?', vNone, 'the permutation; None = reverse the axes')],
    result: TENSOR,
    doc: 'permute the axes',
  },
  {
    name: 'nn.softmax',
    relation: 'Softmax',
    args: ['data'],
    attrs: [spec('axis', 'int', vInt(-1), 'the axis to normalise over')],
    result: TENSOR,
    doc: 'softmax along one axis',
  },
  {
    name: 'concatenate',
    relation: 'Concatenate',
    args: ['data'],
    attrs: [spec('axis', 'int', 'required', 'the axis to join along')],
    result: TENSOR,
    doc: 'join a tuple of tensors along an axis',
  },
  {
    name: 'split',
    relation: 'Split',
    args: ['data'],
    attrs: [
      spec('indices_or_sections', 'ints|int', 'required', 'a number of equal sections, or the ascending indices to split at', { min: 1 }),
      spec('axis', 'int', vInt(0), 'the axis to split'),
    ],
    result: { kind: 'depends', attr: 'indices_or_sections', rule: 'a tuple of N tensors for N sections; of len(indices) + 1 for a list of indices' },
    doc: 'split a tensor into a tuple of tensors',
  },
  {
    name: 'nn.layer_norm',
    relation: 'LayerNorm',
    args: ['data', 'gamma', 'beta'],
    attrs: [
      spec('axis', 'int', vInt(-1), 'the axis to normalise over'),
      spec('epsilon', 'float', vFloat(1e-5), 'added to the variance'),
      spec('center', 'bool', vBool(true), 'add beta'),
      spec('scale', 'bool', vBool(true), 'multiply by gamma'),
    ],
    result: TENSOR,
    doc: 'layer normalisation',
  },
  {
    name: 'expand_dims',
    relation: 'ExpandDims',
    args: ['data'],
    attrs: [
      spec('axis', 'int', 'required', 'where to insert, in [-ndim - 1, ndim]'),
      spec('num_newaxis', 'int', vInt(1), 'how many axes of size 1 to insert', { min: 0 }),
    ],
    result: TENSOR,
    doc: 'insert axes of size 1',
  },
  {
    name: 'squeeze',
    relation: 'Squeeze',
    args: ['data'],
    attrs: [spec('axis', 'ints?', vNone, 'the axes (of size 1) to remove; None = every axis of size 1')],
    result: TENSOR,
    doc: 'remove axes of size 1',
  },
  reduceOp('sum', 'sum over axes'),
  reduceOp('mean', 'mean over axes'),
  {
    name: 'take',
    relation: 'Take',
    args: ['data', 'indices'],
    attrs: [
      spec('axis', 'int?', vNone, 'the axis to take along; None = the flattened input'),
      spec('batch_dims', 'int', vInt(0), 'number of leading batch dimensions shared by data and indices'),
      spec('mode', 'string', vStr('clip'), 'out-of-bound indices: clip, wrap or fast', { choices: ['clip', 'wrap', 'fast'] }),
    ],
    result: TENSOR,
    doc: 'gather elements along an axis',
  },
  {
    name: 'cast',
    relation: 'Cast',
    args: ['data'],
    attrs: [spec('dtype', 'string', 'required', 'the target dtype', { format: 'dtype' })],
    result: TENSOR,
    doc: 'convert to another dtype',
  },
  { name: 'where', relation: 'Where', args: ['condition', 'x', 'y'], attrs: [], result: TENSOR, doc: 'select from x where condition is non-zero, else from y (all three broadcast)' },
];

const BY_NAME: ReadonlyMap<string, OpInfo> = new Map(OPS.map((op) => [op.name, op]));

/** Every operator in the catalogue, in a stable order. */
export function allOps(): readonly OpInfo[] {
  return OPS;
}

/** The operator, or undefined. */
export function findOp(name: string): OpInfo | undefined {
  return BY_NAME.get(name);
}

export type OpLookup = { readonly ok: true; readonly op: OpInfo } | { readonly ok: false; readonly message: string };

/** The operator, or `unknown operator 'nn.conv3x3'; did you mean 'nn.conv2d'?`. */
export function lookupOp(name: string): OpLookup {
  const op = BY_NAME.get(name);
  if (op !== undefined) return { ok: true, op };
  return { ok: false, message: `unknown operator '${name}'${suggestion(name, BY_NAME.keys())}` };
}

function suggestion(name: string, candidates: Iterable<string>): string {
  const list = [...candidates];
  let best = closest(name, list);
  // `conv2d` for `nn.conv2d`: also try the name without (or with) a namespace.
  if (best === null) {
    const bare = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
    best = list.find((c) => c.slice(c.lastIndexOf('.') + 1) === bare) ?? closest(bare, list.map((c) => c.slice(c.lastIndexOf('.') + 1)));
    if (best !== null && !list.includes(best)) best = list.find((c) => c.endsWith(`.${best}`) || c === best) ?? null;
  }
  return best === null ? '' : `; did you mean '${best}'?`;
}

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
    values.set(a.name, a.value);
  }
  for (const s of op.attrs) {
    if (values.has(s.name) || attrs.some((a) => a.name === s.name)) continue;
    if (s.default === 'required') errors.push({ message: `${op.name}: missing required attribute '${s.name}' (${describeType(s)})`, span: callSpan });
    else values.set(s.name, s.default);
  }
  return { values, errors };
}

/** `must be a list of 2 ints`, `must be >= 1`, or null when the value fits. */
function checkValue(s: AttrSpec, v: AttrValue): string | null {
  const typeOk = (() => {
    switch (s.type) {
      case 'int':
        return isInt(v);
      case 'float':
        return v.kind === 'float' || isInt(v);
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
    }
  })();
  if (!typeOk) return `must be ${describeType(s)}`;
  const ints = v.kind === 'int' ? [v.value] : v.kind === 'list' ? v.items.map((i) => (i as { value: number }).value) : [];
  // A single int where a list is allowed is always fine (TVM's Python API expands
  // it); the lengths constrain lists.
  if (s.lengths !== undefined && v.kind === 'list' && !s.lengths.includes(v.items.length)) {
    return `must be a list of ${orList(s.lengths.map(String))} ints`;
  }
  if (s.min !== undefined) {
    const bad = ints.find((i) => i < s.min!);
    if (bad !== undefined) return `must be >= ${s.min}`;
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
  }
}
