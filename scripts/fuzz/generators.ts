// Grammar-aware random inputs for the fuzz harness (fast-check arbitraries): rule
// files with goals, Relay programs calling catalogued operators, `typeof` JSON lines,
// token-level mutations of the bundled examples; small ONNX models (onnx-seeds.ts) edited
// byte by byte or as models; ONNX node-test records (`typeof --onnx` lines) edited; and
// the iterator-IR examples with atoms replaced. Values lean towards the edges:
// 0, 1, negative, 2^31, 2^53, 1e400, empty lists, holes, symbolic dims.
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeModel } from '../../frontends/onnx/decode.js';
import { encodeModel } from '../../frontends/onnx/encode.js';
import type { OnnxAttr, OnnxDim, OnnxGraph, OnnxModel } from '../../frontends/onnx/model.js';
import { allOps } from '../../relations/catalogue.js';
import { onnxSeeds } from './onnx-seeds.js';
import type { AttrSpec } from '../../relations/schema.js';

/** One fuzz case: what is run, and on which input. */
export type FuzzCase =
  | { readonly kind: 'rules'; readonly text: string; readonly goal: string }
  | { readonly kind: 'relay'; readonly text: string }
  | { readonly kind: 'typeof'; readonly line: string }
  /** An ONNX model's bytes, base64 (a case is saved as JSON). */
  | { readonly kind: 'onnx'; readonly model: string }
  /** A `typeof --onnx` line: one node call in the record format of ONNX's node tests. */
  | { readonly kind: 'onnx-node'; readonly line: string }
  /** A GT4Py iterator-IR program. */
  | { readonly kind: 'itir'; readonly text: string };

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The bundled example files with the given extension (examples/ and its subfolders, models excluded: too big per case). */
export function exampleTexts(ext: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory() && e.name !== 'models') walk(join(dir, e.name));
      else if (e.name.endsWith(ext)) out.push(readFileSync(join(dir, e.name), 'utf8'));
    }
  };
  walk(join(root, 'examples'));
  return out;
}

// ---------------------------------------------------------------- shared pieces

const edgeInt = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: -20, max: 64 }).map(String) },
  { weight: 2, arbitrary: fc.constantFrom('0', '1', '-1', '2147483648', '4294967296', '100000000') },
  { weight: 1, arbitrary: fc.constantFrom('9007199254740991', '9007199254740993', '1e400') },
);

/** Text mutations at token granularity: delete, duplicate, or insert a token from `tokens`; swap two slices. */
function mutate(text: string, tokens: readonly string[]): fc.Arbitrary<string> {
  const pos = fc.nat({ max: Math.max(0, text.length) });
  const edit = fc.oneof(
    fc.tuple(pos, fc.nat({ max: 12 })).map(
      ([p, n]) =>
        (s: string) =>
          s.slice(0, p) + s.slice(p + n),
    ),
    fc.tuple(pos, fc.nat({ max: 40 })).map(
      ([p, n]) =>
        (s: string) =>
          s.slice(0, p + n) + s.slice(p, p + n) + s.slice(p + n),
    ),
    fc.tuple(pos, fc.constantFrom(...tokens)).map(
      ([p, tok]) =>
        (s: string) =>
          s.slice(0, p) + tok + s.slice(p),
    ),
    fc.tuple(pos, pos).map(([a, b]) => (s: string) => {
      const [i, j] = a < b ? [a, b] : [b, a];
      const mid = Math.floor((i + j) / 2);
      return s.slice(0, i) + s.slice(mid, j) + s.slice(i, mid) + s.slice(j);
    }),
  );
  return fc.array(edit, { minLength: 1, maxLength: 4 }).map((edits) => edits.reduce((s, f) => f(s), text));
}

// ---------------------------------------------------------------- rules

const RULE_TOKENS = [
  '(',
  ')',
  '[',
  ']',
  ',',
  '.',
  ':-',
  'not ',
  '_',
  'X',
  'Y',
  '?1',
  '|',
  '=',
  '\\=',
  '==',
  '!=',
  '<',
  '+',
  '-',
  '*',
  '/',
  '%',
  '"s"',
  "'a b'",
  '1e400',
  '0',
  '-1',
  '9007199254740993',
  'error("e {X}")',
  'relation ',
  'import "x.rules".',
  '; k: ',
  '[0:]',
  '[1]',
  '/*',
  '\n',
  '%c\n',
];

const ruleVar = fc.constantFrom('X', 'Y', 'Z');
/** Predicates with fixed arities, so that most generated programs pass the static checks. */
const ARITY: Record<string, number> = { p: 1, q: 2, r: 2, edge: 2, path: 2 };
const rulePred = fc.constantFrom(...Object.keys(ARITY));

/** A ground value: small ints and edge values, atoms, lists, tensors, symbolic dims, holes. */
function ruleValue(depth: number): fc.Arbitrary<string> {
  const leaf = fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: -2, max: 6 }).map(String) },
    { weight: 1, arbitrary: edgeInt },
    { weight: 2, arbitrary: fc.constantFrom('a', 'b', 'float32', 'none', '"txt"', '?1', 'n', '2*n', '[]', '1.5') },
  );
  if (depth <= 0) return leaf;
  const sub = ruleValue(depth - 1);
  return fc.oneof(
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(sub, { maxLength: 4 }).map((xs) => `[${xs.join(', ')}]`) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.array(sub, { maxLength: 3 }), fc.constantFrom('float32', 'int32', '?2')).map(([xs, d]) => `tensor([${xs.join(', ')}], ${d})`),
    },
    { weight: 1, arbitrary: fc.tuple(sub, fc.constantFrom('+', '-', '*', '/', '%'), sub).map(([a, op, b]) => `${a} ${op} ${b}`) },
  );
}

/** An expression over bound variables: arithmetic, list functions, subscripts and slices. */
const ruleExpr: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: ruleVar },
  {
    weight: 2,
    arbitrary: fc
      .tuple(ruleVar, fc.constantFrom('+', '-', '*', '/', '%'), fc.oneof(ruleVar, fc.integer({ min: -2, max: 5 }).map(String)))
      .map(([a, op, b]) => `${a} ${op} ${b}`),
  },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('len', 'reverse', 'prod', 'sum'), ruleVar).map(([f, x]) => `${f}(${x})`) },
  { weight: 1, arbitrary: fc.tuple(ruleVar, ruleVar).map(([a, b]) => `append(${a}, ${b})`) },
  { weight: 1, arbitrary: fc.tuple(ruleVar, fc.integer({ min: -1, max: 3 })).map(([x, i]) => `${x}[${i}]`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(ruleVar, fc.option(fc.integer({ min: -1, max: 3 })), fc.option(fc.integer({ min: -1, max: 3 })))
      .map(([x, a, b]) => `${x}[${a ?? ''}:${b ?? ''}]`),
  },
  { weight: 1, arbitrary: ruleVar.map((x) => `-${x}`) },
);

/** A call whose arguments are variables (mostly) or values. */
const ruleCall = rulePred.chain((p) =>
  fc
    .array(fc.oneof({ weight: 3, arbitrary: ruleVar }, { weight: 1, arbitrary: ruleValue(1) }), { minLength: ARITY[p]!, maxLength: ARITY[p]! })
    .map((xs) => `${p}(${xs.join(', ')})`),
);

const ruleLiteral = fc.oneof(
  { weight: 4, arbitrary: ruleCall },
  { weight: 1, arbitrary: ruleCall.map((c) => `not ${c}`) },
  { weight: 2, arbitrary: fc.tuple(ruleVar, fc.constantFrom('==', '!=', '<', '<=', '>', '>=', '=', '\\='), ruleExpr).map(([a, op, b]) => `${a} ${op} ${b}`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('ground', 'hole', 'integer', 'is_list'), ruleVar).map(([b, x]) => `${b}(${x})`) },
);

/** A head for `p` whose arguments are variables of `body` (so that the rule is safe), or 1 when it has none. */
function headFrom(p: string, picks: readonly number[], body: string): string {
  const vars = [...new Set(body.match(/\b[XYZ]\b/g) ?? [])];
  const args = Array.from({ length: ARITY[p]! }, (_, i) => (vars.length === 0 ? '1' : vars[picks[i]! % vars.length]!));
  return `${p}(${args.join(', ')})`;
}

/** A fact, or a rule whose body starts with a call (so that most variables are bound). */
const ruleStatement = fc.oneof(
  {
    weight: 4,
    arbitrary: rulePred.chain((p) => fc.array(ruleValue(2), { minLength: ARITY[p]!, maxLength: ARITY[p]! }).map((xs) => `${p}(${xs.join(', ')}).`)),
  },
  {
    weight: 4,
    arbitrary: fc
      .tuple(rulePred, fc.array(fc.nat(), { minLength: 2, maxLength: 2 }), ruleCall, fc.array(ruleLiteral, { maxLength: 2 }))
      .map(([p, picks, first, rest]) => `${headFrom(p, picks, first)} :- ${[first, ...rest].join(', ')}.`),
  },
  { weight: 1, arbitrary: fc.tuple(ruleVar, ruleExpr, ruleCall).map(([v, e, c]) => `${v} = ${e} :- ${c}.`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(ruleCall, fc.array(ruleLiteral, { maxLength: 1 }))
      .map(([c, b]) => `error("bad${c.includes('X') ? ' {X}' : ''}") :- ${[c, ...b].join(', ')}.`),
  },
);

/** A generated rule file and a goal, or a mutated bundled example. */
export function rulesCase(): fc.Arbitrary<FuzzCase> {
  const examples = exampleTexts('.rules');
  // every predicate gets a fact, so that calls to it are not undefined
  const base = 'p(1).\nq(1, 2).\nr(a, [2, 3]).\nedge(1, 2).\nedge(2, 3).\npath(X, Y) :- edge(X, Y).\n';
  const generated = fc.array(ruleStatement, { minLength: 1, maxLength: 8 }).map((ss) => `${base + ss.join('\n')}\n`);
  const text = fc.oneof(
    { weight: 6, arbitrary: generated },
    { weight: 1, arbitrary: fc.constantFrom(...examples).chain((e) => mutate(e, RULE_TOKENS)) },
    { weight: 1, arbitrary: generated.chain((g) => mutate(g, RULE_TOKENS)) },
  );
  const goal = fc.oneof(
    { weight: 4, arbitrary: ruleCall },
    { weight: 2, arbitrary: fc.tuple(ruleCall, ruleLiteral).map(([c, l]) => `${c}, ${l}`) },
    { weight: 1, arbitrary: ruleCall.chain((g) => mutate(g, RULE_TOKENS)) },
  );
  return fc.tuple(text, goal).map(([t, g]): FuzzCase => ({ kind: 'rules', text: t, goal: g }));
}

// ---------------------------------------------------------------- Relay and typeof

const DTYPES = ['float32', 'float16', 'int32', 'int64', 'bool', 'uint8', 'float64'];
const RELAY_TOKENS = [
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ';',
  '%0',
  '%x',
  '.0',
  '.1',
  '=',
  '_',
  '?',
  'n',
  'Tensor[(2, 3), float32]',
  'add',
  'nn.conv2d',
  'axis=-1',
  '1f',
  'True',
  'let ',
  'fn ',
  'if (',
  'match',
  '/*',
  '//',
  '\n',
  '@main',
  '-> ',
  '2147483648',
  '1e400',
];

const dimText = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('1', '2', '3', '4', '8', '0', '16') },
  { weight: 1, arbitrary: fc.constantFrom('n', 'm', '?', '_', '2*n', 'n + 1', '2147483648', '9007199254740993') },
);

const tensorText = fc
  .tuple(fc.array(dimText, { maxLength: 5 }), fc.constantFrom(...DTYPES))
  .map(([ds, dt]) => `Tensor[(${ds.join(', ')}${ds.length === 1 ? ',' : ''}), ${dt}]`);

/** A Relay type as text: tensors mostly, sometimes `_`, a scalar dtype, or a tuple. */
export const typeText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: tensorText },
  { weight: 1, arbitrary: fc.constant('_') },
  { weight: 1, arbitrary: fc.constantFrom(...DTYPES) },
  { weight: 1, arbitrary: fc.array(tensorText, { maxLength: 3 }).map((ts) => `(${ts.join(', ')}${ts.length === 1 ? ',' : ''})`) },
);

/** A JSON attribute value for a spec, usually of its type, sometimes not. */
function attrValue(s: AttrSpec | null): fc.Arbitrary<unknown> {
  const int = fc.oneof({ weight: 12, arbitrary: fc.integer({ min: -3, max: 8 }) }, { weight: 1, arbitrary: fc.constantFrom(2 ** 31, 2 ** 32, 1e8, 2 ** 53) });
  const ints = fc.array(int, { maxLength: 5 });
  const wild = fc.oneof(fc.constant(null), fc.boolean(), fc.string({ maxLength: 6 }), fc.double(), ints, fc.constant({}), fc.constant([[1, 2], [3]]));
  if (s === null) return wild;
  const typed = ((): fc.Arbitrary<unknown> => {
    switch (s.type) {
      case 'int':
        return int;
      case 'int?':
        return fc.oneof(int, fc.constant(null));
      case 'float':
        return fc.oneof(fc.double({ noNaN: true, min: -10, max: 10 }), int);
      case 'float?':
        return fc.oneof(fc.double({ noNaN: true, min: -10, max: 10 }), int, fc.constant(null));
      case 'bool':
        return fc.boolean();
      case 'string':
        return s.choices !== undefined ? fc.constantFrom(...s.choices, '') : fc.constantFrom(...DTYPES, 'NCHW', 'NHWC', 'OIHW', '', 'x');
      case 'ints':
      case 'ints?':
      case 'ints|int':
      case 'ints|int?':
        return fc.oneof(ints, int, fc.constant(null));
      case 'pairs':
        return fc.array(fc.tuple(int, int), { maxLength: 4 });
      case 'floats':
        return fc.array(fc.double({ noNaN: true, min: -10, max: 10 }), { maxLength: 4 });
      case 'dims':
        return fc.array(fc.oneof(int, fc.constantFrom('n', 'th', '2*n', 'n +')), { maxLength: 4 });
    }
  })();
  return fc.oneof({ weight: 12, arbitrary: typed }, { weight: 1, arbitrary: wild });
}

/** An operator and attributes (some of its own, sometimes an unknown one), as a JS object. */
const opCall = fc.constantFrom(...allOps()).chain((op) =>
  fc
    .tuple(
      fc.subarray([...op.attrs]).chain((specs) => fc.tuple(...specs.map((s) => attrValue(s).map((v) => [s.name, v] as const)))),
      fc.option(fc.tuple(fc.constantFrom('axis', 'units', 'bogus'), attrValue(null)), { freq: 12 }),
    )
    .map(([pairs, extra]) => ({ op: op.name, arity: op.args.length, attrs: Object.fromEntries(extra ? [...pairs, extra] : pairs) })),
);

/** One typeof line: a well-formed call, a call with the wrong arity or field types, or a mutated line. */
export function typeofCase(): fc.Arbitrary<FuzzCase> {
  const wellFormed = opCall.chain(({ op, arity, attrs }) =>
    fc
      .tuple(fc.array(typeText, { minLength: Math.max(0, arity - 1), maxLength: arity + 1 }), fc.boolean())
      .map(([args, withAttrs]) => JSON.stringify(withAttrs ? { op, attrs, args } : { op, args })),
  );
  const oddShape = fc.oneof(
    fc.constantFrom(
      '{"op":"add","args":[1]}',
      '[null]',
      '{"op":"add","args":[null]}',
      '{"op":"nn.relu","attrs":{"x":{}},"args":["_"]}',
      '',
      '{}',
      '{"op":1,"args":[]}',
      '"add"',
      '{"op":"add","args":"_"}',
    ),
    fc
      .tuple(fc.constantFrom(...allOps().map((o) => o.name)), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }))
      .map(([op, args]) => JSON.stringify({ op, args })),
  );
  const line = fc.oneof(
    { weight: 6, arbitrary: wellFormed },
    { weight: 1, arbitrary: oddShape },
    { weight: 2, arbitrary: wellFormed.chain((l) => mutate(l, ['"', '[', ']', '{', '}', ',', ':', '_', '?', 'n', '-1', '1e400', 'null', '\\'])) },
  );
  return line.map((l): FuzzCase => ({ kind: 'typeof', line: l }));
}

function attrText(v: unknown): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : `${v}f`;
  if (Array.isArray(v)) return `[${v.map(attrText).join(', ')}]`;
  return 'None';
}

/** A `def @main` of 1-5 bindings, each an operator call on parameters or earlier bindings (or a projection). */
const generatedRelay = fc
  .tuple(
    fc.array(fc.option(typeText, { freq: 5 }), { minLength: 1, maxLength: 3 }),
    fc.array(fc.tuple(opCall, fc.array(fc.nat(), { maxLength: 4 }), fc.option(fc.nat({ max: 2 }), { freq: 5 })), { minLength: 1, maxLength: 5 }),
  )
  .map(([params, calls]) => {
    const names = params.map((_, i) => `%p${i}`);
    const lines: string[] = [];
    calls.forEach(([{ op, arity, attrs }, picks, proj], i) => {
      const args = Array.from({ length: arity }, (_, k) => names[(picks[k] ?? k) % names.length]!);
      const attrList = Object.entries(attrs).map(([k, v]) => `${k}=${attrText(v)}`);
      const call = `${op}(${[...args, ...attrList].join(', ')})`;
      lines.push(`  %${i} = ${proj === null ? call : `${call}.${proj}`};`);
      names.push(`%${i}`);
    });
    const sig = params.map((t, i) => (t === null ? `%p${i}` : `%p${i}: ${t}`)).join(', ');
    return `#[version = "0.0.5"]\ndef @main(${sig}) {\n${lines.join('\n')}\n  ${names[names.length - 1]}\n}\n`;
  });

/** A generated Relay program, or a mutated bundled example (examples/relay, examples/bad). */
export function relayCase(): fc.Arbitrary<FuzzCase> {
  const examples = exampleTexts('.relay');
  const text = fc.oneof(
    { weight: 6, arbitrary: generatedRelay },
    { weight: 1, arbitrary: fc.constantFrom(...examples).chain((e) => mutate(e, RELAY_TOKENS)) },
    { weight: 1, arbitrary: generatedRelay.chain((g) => mutate(g, RELAY_TOKENS)) },
  );
  return text.map((t): FuzzCase => ({ kind: 'relay', text: t }));
}

// ---------------------------------------------------------------- ONNX

/** Bytes a mutation writes: the edges of a varint (0x7f, 0x80, 0xff) and of a field key, and a few others. */
const EDGE_BYTE = fc.oneof(fc.constantFrom(0x00, 0x01, 0x02, 0x08, 0x10, 0x12, 0x1a, 0x22, 0x3a, 0x7f, 0x80, 0xff), fc.integer({ min: 0, max: 255 }));

/**
 * Byte-level edits of a protobuf message: set a byte (a varint's value or length, a
 * field's key or wire type), delete or duplicate a run, insert a few bytes, cut the end.
 * Most edits inside a varint keep the message well formed and change a dim, an
 * attribute or an opset version; the others test the reader's errors.
 */
function mutateBytes(bytes: Uint8Array): fc.Arbitrary<Uint8Array> {
  const pos = fc.nat({ max: Math.max(0, bytes.length - 1) });
  const edit = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(pos, EDGE_BYTE).map(
        ([p, v]) =>
          (b: Uint8Array) =>
            b.map((x, i) => (i === p ? v : x)),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(pos, fc.nat({ max: 16 })).map(
        ([p, n]) =>
          (b: Uint8Array) =>
            Uint8Array.from([...b.subarray(0, p), ...b.subarray(p + n)]),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(pos, fc.nat({ max: 32 })).map(
        ([p, n]) =>
          (b: Uint8Array) =>
            Uint8Array.from([...b.subarray(0, p + n), ...b.subarray(p, p + n), ...b.subarray(p + n)]),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(pos, fc.array(EDGE_BYTE, { minLength: 1, maxLength: 6 })).map(
        ([p, ins]) =>
          (b: Uint8Array) =>
            Uint8Array.from([...b.subarray(0, p), ...ins, ...b.subarray(p)]),
      ),
    },
    { weight: 1, arbitrary: pos.map((p) => (b: Uint8Array) => b.subarray(0, p)) },
  );
  return fc.array(edit, { minLength: 1, maxLength: 4 }).map((edits) => edits.reduce((b, f) => f(b), bytes));
}

/** Dims a graph input may be given: the edges of a size, a new or an unknown dim, and one past int32. */
const EDGE_DIM = fc.constantFrom<OnnxDim>(0, 1, 2, 3, 7, 64, 2 ** 31, 'M', 'N', null);
/** Ints an initializer or an attribute may be given: 0, ±1, the edges of an axis, and past int32 and 2^53. */
const EDGE_INT = fc.oneof(fc.integer({ min: -4, max: 8 }), fc.constantFrom(-(2 ** 31), 2 ** 31, 2 ** 40, -(2 ** 60), 2 ** 62));

/** `g` with the shape of its input `i` (modulo their number) made `f` of it, when that input is a tensor of known rank. */
function withInputShape(g: OnnxGraph, i: number, f: (shape: readonly OnnxDim[]) => OnnxDim[]): OnnxGraph {
  return {
    ...g,
    inputs: replaceAt(g.inputs, i, (v) => {
      const t = v.type;
      return t?.kind === 'tensor' && t.shape !== null ? { ...v, type: { ...t, shape: f(t.shape) } } : v;
    }),
  };
}

/**
 * Edits of a decoded model that keep it well formed, so that the typing runs: an input's
 * dim, its rank, an integer of an initializer or of an attribute, the opset version.
 */
function mutateModel(m: OnnxModel): fc.Arbitrary<Uint8Array> {
  const g = m.graph;
  const edit = fc.oneof(
    fc.tuple(fc.nat(), fc.nat(), EDGE_DIM).map(
      ([i, k, d]) =>
        (x: OnnxGraph) =>
          withInputShape(x, i, (shape) => replaceAt(shape, k, () => d)),
    ),
    fc.tuple(fc.nat(), fc.boolean(), EDGE_DIM).map(
      ([i, grow, d]) =>
        (x: OnnxGraph) =>
          withInputShape(x, i, (shape) => (grow ? [d, ...shape] : shape.slice(1))),
    ),
    fc.tuple(fc.nat(), fc.nat(), EDGE_INT).map(
      ([i, k, n]) =>
        (x: OnnxGraph): OnnxGraph => ({
          ...x,
          initializers: replaceAt(x.initializers, i, (t) => (t.values === null ? t : { ...t, values: replaceAt(t.values, k, () => n) })),
        }),
    ),
    fc.tuple(fc.nat(), fc.nat(), EDGE_INT).map(
      ([i, k, n]) =>
        (x: OnnxGraph): OnnxGraph => ({
          ...x,
          nodes: replaceAt(x.nodes, i, (node) => {
            const ints = [...node.attrs].filter(([, a]) => a.kind === 'int' || a.kind === 'ints');
            if (ints.length === 0) return node;
            const [name, a] = ints[k % ints.length]!;
            const changed: OnnxAttr =
              a.kind === 'int'
                ? { kind: 'int', value: n }
                : a.kind === 'ints'
                  ? { kind: 'ints', value: a.value.length > 0 ? replaceAt(a.value, k, () => n) : [n] }
                  : a;
            return { ...node, attrs: new Map([...node.attrs, [name, changed]]) };
          }),
        }),
    ),
  );
  const opset = fc.option(fc.constantFrom(1, 6, 7, 9, 11, 12, 13, 17, 18, 19, 21, 23), { nil: undefined });
  return fc.tuple(fc.array(edit, { minLength: 1, maxLength: 3 }), opset).map(([edits, version]) => {
    const opsets = new Map(m.opsets);
    if (version !== undefined) opsets.set('', version);
    return encodeModel(
      edits.reduce((x, f) => f(x), g),
      opsets,
      m.irVersion,
    );
  });
}

/**
 * A small ONNX model (onnx-seeds.ts): with a few bytes edited (what the reader must
 * refuse clearly), with its dims, integers or opset edited (what the typing must take),
 * or unedited.
 */
export function onnxCase(): fc.Arbitrary<FuzzCase> {
  const seeds = onnxSeeds();
  const decoded = seeds.map((b, i) => decodeModel(b, `seed${i}.onnx`));
  const seed = fc.constantFrom(...seeds);
  const model = fc.oneof(
    { weight: 4, arbitrary: seed.chain(mutateBytes) },
    { weight: 4, arbitrary: fc.constantFrom(...decoded).chain(mutateModel) },
    { weight: 1, arbitrary: seed },
  );
  return model.map((b): FuzzCase => ({ kind: 'onnx', model: Buffer.from(b).toString('base64') }));
}

// ---------------------------------------------------------------- typeof --onnx

type Json = Record<string, unknown>;

/** The node cases copied into the tests (test/fixtures/onnx/node-cases.jsonl), parsed. */
function nodeRecords(): Json[] {
  return readFileSync(join(root, 'test', 'fixtures', 'onnx', 'node-cases.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Json);
}

/** `xs` with its element at `i` (modulo its length) replaced by `f` of it; `xs` when empty. */
function replaceAt<T>(xs: readonly T[], i: number, f: (x: T) => T): T[] {
  return xs.map((x, j) => (j === i % Math.max(1, xs.length) ? f(x) : x));
}

/**
 * Edits of a node record: an input's dim, rank, dtype or one of its values; an integer
 * attribute (or one integer of a list); the opset; an input dropped or one more given.
 */
function mutateRecord(r: Json): fc.Arbitrary<string> {
  const inputs = (r['inputs'] as Json[] | undefined) ?? [];
  const dtype = fc.constantFrom('float32', 'float16', 'int64', 'int32', 'int8', 'uint8', 'bool', 'string', 'double');
  const edit = fc.oneof(
    fc.tuple(fc.nat(), fc.nat(), EDGE_DIM).map(
      ([i, k, d]) =>
        (x: Json[]) =>
          replaceAt(x, i, (v) => (Array.isArray(v['shape']) ? { ...v, shape: replaceAt(v['shape'] as unknown[], k, () => d) } : v)),
    ),
    fc.tuple(fc.nat(), fc.boolean(), EDGE_DIM).map(
      ([i, grow, d]) =>
        (x: Json[]) =>
          replaceAt(x, i, (v) =>
            Array.isArray(v['shape']) ? { ...v, shape: grow ? [d, ...(v['shape'] as unknown[])] : (v['shape'] as unknown[]).slice(1) } : v,
          ),
    ),
    fc.tuple(fc.nat(), dtype).map(
      ([i, t]) =>
        (x: Json[]) =>
          replaceAt(x, i, (v) => ({ ...v, dtype: t })),
    ),
    fc.tuple(fc.nat(), fc.nat(), EDGE_INT).map(
      ([i, k, n]) =>
        (x: Json[]) =>
          replaceAt(x, i, (v) => (Array.isArray(v['values']) ? { ...v, values: replaceAt(v['values'] as unknown[], k, () => n) } : v)),
    ),
    fc.nat().map((i) => (x: Json[]) => x.filter((_, j) => j !== i % Math.max(1, x.length))),
    fc.tuple(dtype, fc.array(EDGE_DIM, { maxLength: 3 })).map(([t, shape]) => (x: Json[]) => [...x, { name: 'extra', kind: 'tensor', dtype: t, shape }]),
  );
  const attr = fc.tuple(fc.nat(), fc.nat(), EDGE_INT).map(([i, k, n]) => (a: Json): Json => {
    const ints = Object.entries(a).filter(([, v]) => (v as Json)['type'] === 'int' || (v as Json)['type'] === 'ints');
    if (ints.length === 0) return a;
    const [name, v] = ints[i % ints.length]! as [string, Json];
    const value = v['type'] === 'int' ? n : replaceAt((v['value'] as number[] | undefined) ?? [n], k, () => n);
    return { ...a, [name]: { ...v, value } };
  });
  const opset = fc.option(fc.integer({ min: 1, max: 24 }), { nil: undefined });
  return fc.tuple(fc.array(edit, { maxLength: 3 }), fc.option(attr, { nil: undefined }), opset).map(([edits, a, version]) =>
    JSON.stringify({
      ...r,
      inputs: edits.reduce((x, f) => f(x), inputs),
      ...(a !== undefined ? { attributes: a((r['attributes'] as Json | undefined) ?? {}) } : {}),
      ...(version !== undefined ? { opset: version } : {}),
    }),
  );
}

/** A node test's record with its inputs, an attribute or its opset edited. */
export function onnxNodeCase(): fc.Arbitrary<FuzzCase> {
  return fc
    .constantFrom(...nodeRecords())
    .chain(mutateRecord)
    .map((line): FuzzCase => ({ kind: 'onnx-node', line }));
}

// ---------------------------------------------------------------- iterator IR

const ITIR_TOKENS = [
  '(',
  ')',
  ' ',
  'lambda',
  '(x)',
  'let',
  'deref',
  'shift',
  "'i",
  '1',
  '-1',
  '2.0',
  'true',
  'lift',
  'reduce',
  'plus',
  'minus',
  'if_',
  'eq',
  'make_tuple',
  'tuple_get',
  'x',
  'y',
  '@IDim',
  'named_range',
  'domain',
  'closure',
  'define',
  'fencil',
  ';c\n',
];

/** Atoms that keep an s-expression well formed where another atom stood. */
const ITIR_ATOMS = ITIR_TOKENS.filter((t) => /^[^()\s;]+$/.test(t));

/** Up to three atoms of `text` replaced by others: the parentheses stay balanced, so the typing runs. */
function replaceAtoms(text: string): fc.Arbitrary<string> {
  const atoms = [...text.matchAll(/[^()\s;]+/g)].filter((m) => !text.slice(text.lastIndexOf('\n', m.index) + 1, m.index).includes(';'));
  if (atoms.length === 0) return fc.constant(text);
  return fc.array(fc.tuple(fc.nat({ max: atoms.length - 1 }), fc.constantFrom(...ITIR_ATOMS)), { minLength: 1, maxLength: 3 }).map((edits) => {
    const at = new Map(edits.map(([i, a]) => [atoms[i]!.index, { length: atoms[i]![0].length, atom: a }]));
    let out = '';
    let from = 0;
    for (const [index, e] of [...at].sort((x, y) => x[0] - y[0])) {
      out += text.slice(from, index) + e.atom;
      from = index + e.length;
    }
    return out + text.slice(from);
  });
}

/** A bundled iterator-IR example (examples/itir, its bad ones included) with atoms replaced, or mutated token by token. */
export function itirCase(): fc.Arbitrary<FuzzCase> {
  const example = fc.constantFrom(...exampleTexts('.itir'));
  return fc
    .oneof({ weight: 3, arbitrary: example.chain(replaceAtoms) }, { weight: 1, arbitrary: example.chain((e) => mutate(e, ITIR_TOKENS)) })
    .map((text): FuzzCase => ({ kind: 'itir', text }));
}

/** Every kind of case. */
export function anyCase(): fc.Arbitrary<FuzzCase> {
  return fc.oneof(rulesCase(), relayCase(), typeofCase(), onnxCase(), onnxNodeCase(), itirCase());
}
