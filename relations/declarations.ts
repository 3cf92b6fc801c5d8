// Operator declarations: reads the `operator`, `attrs` (attribute group) and `text`
// statements of parsed rule files into the catalogue's `OpInfo` entries, and checks
// them statically. Every problem is a diagnostic at the spot it concerns:
// an unknown relation (with a suggestion), a relation whose arity or attributes do not
// fit the operator, an unknown attribute type, string format, text or group, a default
// of the wrong type, a malformed constraint, a duplicate operator, attribute, text or
// group, and an example whose arguments or attributes do not fit the declaration.
// (Whether the example types is checked above this layer, by running it:
// `typing/declaration-examples.ts`.)
//
// Names of texts and groups are global across the files read together, so a shared
// deviation is written once. The declarations come from the same parse as the rules.
import type { AstTerm, AttrItem, DeclText, NamedArg, OperatorDecl, Program, Statement } from '../solver/language/ast.js';
import type { AttrValue } from './attr-value.js';
import type { Span } from '../diagnostics/span.js';
import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic.js';
import { didYouMean } from '../diagnostics/suggest.js';
import { type AttrSpec, type AttrType, DEFAULT_SPAN, type OpInfo, type ResultArity, type StringFormat } from './schema.js';
import { attrValueText, checkValue } from './attr-check.js';
import type { AttrJs } from './imperative/solve-one.js';

export const ATTR_TYPES: readonly AttrType[] = [
  'int',
  'float',
  'float?',
  'bool',
  'string',
  'int?',
  'ints',
  'ints?',
  'ints|int',
  'ints|int?',
  'pairs',
  'floats',
  'dims',
];
export const STRING_FORMATS: readonly StringFormat[] = ['dtype', 'dtype-or-empty', 'layout', 'layout-or-empty'];

export interface DeclaredOps {
  /** In file order, then statement order. */
  readonly ops: OpInfo[];
  readonly diagnostics: Diagnostic[];
}

type RelationStatement = Extract<Statement, { kind: 'relation' }>;

/**
 * The operators declared in `programs`, checked against the relations declared there.
 * An operator declared in one of the `overridable` files (the built-in library) may be
 * declared again in a later file: the later declaration replaces it, with a warning.
 */
export function declaredOps(programs: readonly Program[], overridable: ReadonlySet<string> = new Set()): DeclaredOps {
  const diagnostics: Diagnostic[] = [];
  const err = (message: string, span: Span, notes: string[] = []) => diagnostics.push(diagnostic('error', 'declaration', message, span, notes));

  const texts = new Map<string, { value: string; span: Span }>();
  const groups = new Map<string, { items: readonly AttrItem[]; span: Span }>();
  const relations = new Map<string, RelationStatement>();
  const decls: OperatorDecl[] = [];
  for (const p of programs) {
    for (const s of p.statements) {
      if (s.kind === 'text') {
        const prev = texts.get(s.name);
        if (prev !== undefined) err(`text ${s.name} is declared twice`, s.span, [`first declared at ${where(prev.span)}`]);
        else texts.set(s.name, { value: s.value, span: s.span });
      } else if (s.kind === 'attrgroup') {
        const prev = groups.get(s.name);
        if (prev !== undefined) err(`attribute group ${s.name} is declared twice`, s.span, [`first declared at ${where(prev.span)}`]);
        else groups.set(s.name, { items: s.items, span: s.span });
      } else if (s.kind === 'relation') {
        if (!relations.has(s.name)) relations.set(s.name, s);
      } else if (s.kind === 'operator') decls.push(s);
    }
  }

  const text = (t: DeclText): string | null => {
    if (t.kind === 'string') return t.value;
    const found = texts.get(t.name);
    if (found !== undefined) return found.value;
    err(`unknown text '${t.name}'${didYouMean(t.name, texts.keys())}`, t.span, ['a text is declared with `text NAME = "...".`']);
    return null;
  };

  const ops: OpInfo[] = [];
  const seen = new Map<string, Span>();
  for (const d of decls) {
    const op = readOperator(d);
    if (op === null) continue;
    const prev = seen.get(op.name);
    if (prev !== undefined && overridable.has(prev.file) && !overridable.has(d.name.span.file)) {
      diagnostics.push(
        diagnostic('warning', 'override', `operator ${op.name} overrides the built-in declaration`, d.name.span, [`the built-in one is at ${where(prev)}`]),
      );
      ops[ops.findIndex((o) => o.name === op.name)] = op;
      seen.set(op.name, d.name.span);
      continue;
    }
    if (prev !== undefined) {
      err(`operator ${op.name} is declared twice`, d.name.span, [`first declared at ${where(prev)}`]);
      continue;
    }
    seen.set(op.name, d.name.span);
    ops.push(op);
  }
  return { ops, diagnostics };

  function readOperator(d: OperatorDecl): OpInfo | null {
    const before = diagnostics.length;
    const name = d.name.value;
    const args = d.args.map((a) => a.name);
    for (const [i, a] of d.args.entries()) if (args.indexOf(a.name) !== i) err(`${name} has two arguments named '${a.name}'`, a.span);
    const requiredArgs = d.args.findIndex((a) => a.optional);
    for (const a of d.args.slice(requiredArgs < 0 ? d.args.length : requiredArgs)) {
      if (!a.optional) err(`${name}: argument '${a.name}' follows an optional argument, so it must be optional too (write '${a.name}?')`, a.span);
    }

    // attributes, with groups spliced in
    const attrs: AttrSpec[] = [];
    const attrSpan = new Map<string, Span>();
    const addAttr = (item: AttrItem) => {
      const spec = readAttr(item);
      if (spec === null) return;
      if (attrSpan.has(spec.name) || args.includes(spec.name)) {
        err(`${name} has two attributes or arguments named '${spec.name}'`, item.span);
        return;
      }
      attrSpan.set(spec.name, item.span);
      attrs.push(spec);
    };
    let doc: string | null = null;
    let formula: string | undefined;
    let backwards: string | undefined;
    const deviations: string[] = [];
    let example: OpInfo['example'];
    let exampleItem: Extract<OperatorDecl['items'][number], { kind: 'example' }> | null = null;
    const once = new Map<string, Span>();
    for (const item of d.items) {
      if (item.kind === 'doc' || item.kind === 'formula' || item.kind === 'backwards' || item.kind === 'example') {
        const prev = once.get(item.kind);
        if (prev !== undefined) err(`${name} has two '${item.kind}' entries`, item.span, [`the first is at ${where(prev)}`]);
        once.set(item.kind, item.span);
      }
      switch (item.kind) {
        case 'attr':
          addAttr(item);
          break;
        case 'group': {
          const g = groups.get(item.name);
          if (g === undefined)
            err(`unknown attribute group '${item.name}'${didYouMean(item.name, groups.keys())}`, item.span, [
              'a group is declared with `attrs NAME { attr ... }`',
            ]);
          else for (const a of g.items) addAttr(a);
          break;
        }
        case 'doc':
          doc = text(item.text);
          break;
        case 'formula':
          formula = text(item.text) ?? undefined;
          break;
        case 'backwards':
          backwards = text(item.text) ?? undefined;
          break;
        case 'deviation': {
          const t = text(item.text);
          if (t !== null) deviations.push(t);
          break;
        }
        case 'example':
          exampleItem = item;
          break;
      }
    }
    if (doc === null && !once.has('doc')) err(`${name} has no doc line (write \`doc "what it computes"\`)`, d.name.span);
    const result = readResult(d, args, attrs);
    checkRelation(d, attrs);
    if (exampleItem !== null) example = readExample(name, exampleItem, args, attrs);
    if (diagnostics.length > before || result === null) return null;
    return {
      name,
      relation: d.relation.name,
      args,
      ...(requiredArgs >= 0 ? { requiredArgs } : {}),
      attrs,
      result,
      doc: doc ?? '',
      ...(formula !== undefined ? { formula } : {}),
      ...(backwards !== undefined ? { backwards } : {}),
      deviations,
      ...(example !== undefined ? { example } : {}),
      span: d.name.span,
      ...(exampleItem !== null ? { exampleSpan: exampleItem.span } : {}),
    };
  }

  function readAttr(item: AttrItem): AttrSpec | null {
    const before = diagnostics.length;
    const type = item.type.name as AttrType;
    if (!ATTR_TYPES.includes(type)) {
      err(`unknown attribute type '${item.type.name}'${didYouMean(item.type.name, ATTR_TYPES)}`, item.type.span, [`attribute types: ${ATTR_TYPES.join(', ')}`]);
    }
    const extra: { lengths?: number[]; min?: number; max?: number; choices?: string[]; format?: StringFormat } = {};
    for (const c of item.constraints) {
      if (c.kind in extra) err(`attribute '${item.name}' has two '${c.kind}' constraints`, c.span);
      switch (c.kind) {
        case 'lengths': {
          const v = constant(c.value);
          if (v === null || v.kind !== 'list' || !v.items.every((i) => i.kind === 'int' && i.value >= 0))
            err(`lengths must be a list of ints >= 0, such as [1, 2]`, c.value.span);
          else extra.lengths = v.items.map((i) => (i as { value: number }).value);
          break;
        }
        case 'min': {
          const v = constant(c.value);
          if (v === null || v.kind !== 'int') err('min must be an int', c.value.span);
          else extra.min = v.value;
          break;
        }
        case 'max': {
          const v = constant(c.value);
          if (v === null || v.kind !== 'int') err('max must be an int', c.value.span);
          else extra.max = v.value;
          break;
        }
        case 'choices': {
          const v = constant(c.value);
          if (v === null || v.kind !== 'list' || !v.items.every((i) => i.kind === 'string'))
            err('choices must be a list of strings, such as ["NCHW", "NHWC"]', c.value.span);
          else extra.choices = v.items.map((i) => (i as { value: string }).value);
          break;
        }
        case 'format': {
          const f = c.value.name as StringFormat;
          if (!STRING_FORMATS.includes(f))
            err(`unknown string format '${c.value.name}'${didYouMean(c.value.name, STRING_FORMATS)}`, c.value.span, [`formats: ${STRING_FORMATS.join(', ')}`]);
          else extra.format = f;
          break;
        }
      }
    }
    if ((extra.choices !== undefined || extra.format !== undefined) && type !== 'string')
      err(`attribute '${item.name}': choices and format apply to string attributes only`, item.span);
    const doc = text(item.doc);
    let def: AttrValue | 'required' = 'required';
    if (item.default !== null) {
      const v = constant(item.default);
      if (v === null)
        err(`the default of attribute '${item.name}' must be a constant (an int, float, string, true, false, none or a list of them)`, item.default.span);
      else def = v;
    }
    if (diagnostics.length > before || doc === null) return null;
    const spec: AttrSpec = { name: item.name, type, default: def, doc, ...extra };
    if (def !== 'required') {
      const problem = checkValue(spec, def);
      if (problem !== null) err(`the default of attribute '${item.name}' ${problem} (got ${attrValueText(def)})`, item.default!.span);
    }
    return diagnostics.length > before ? null : spec;
  }

  function readResult(d: OperatorDecl, args: readonly string[], attrs: readonly AttrSpec[]): ResultArity | null {
    const r = d.result;
    if (r.kind === 'tensor') return { kind: 'tensor' };
    if (r.kind === 'tuple') return { kind: 'tuple', size: r.size };
    if (!attrs.some((a) => a.name === r.attr) && !args.includes(r.attr)) {
      const names = [...args, ...attrs.map((a) => a.name)];
      err(`the result of ${d.name.value} depends on '${r.attr}', which is neither an argument nor an attribute${didYouMean(r.attr, names)}`, r.span);
      return null;
    }
    const rule = text(r.rule);
    return rule === null ? null : { kind: 'depends', attr: r.attr, rule };
  }

  /** The relation exists, takes the arguments and a result, and has every attribute of the operator. */
  function checkRelation(d: OperatorDecl, attrs: readonly AttrSpec[]): void {
    const rel = relations.get(d.relation.name);
    if (rel === undefined) {
      err(`unknown relation '${d.relation.name}'${didYouMean(d.relation.name, relations.keys())}`, d.relation.span, [
        'the relation that types an operator is declared with `relation Name(args..., out; attrs...).`',
      ]);
      return;
    }
    const want = d.args.length + 1;
    if (rel.params.length !== want) {
      err(
        `relation ${rel.name} takes ${rel.params.length} argument${rel.params.length === 1 ? '' : 's'} (${rel.params.map((p) => p.name).join(', ')}), but ${d.name.value} has ${d.args.length} and a result`,
        d.relation.span,
        [`${rel.name} is declared at ${where(rel.span)}`],
      );
    }
    const relAttrs = rel.attrs.map((a) => a.name);
    for (const a of attrs) {
      if (!relAttrs.includes(a.name)) {
        err(`${d.name.value}: relation ${rel.name} has no attribute '${a.name}'${didYouMean(a.name, relAttrs)}`, d.relation.span, [
          `${rel.name} is declared at ${where(rel.span)}`,
        ]);
      }
    }
  }

  function readExample(
    name: string,
    item: Extract<OperatorDecl['items'][number], { kind: 'example' }>,
    args: readonly string[],
    attrs: readonly AttrSpec[],
  ): OpInfo['example'] {
    const before = diagnostics.length;
    if (item.args.length !== args.length)
      err(
        `the example of ${name} has ${item.args.length} argument${item.args.length === 1 ? '' : 's'}; ${name} takes ${args.length} (${args.join(', ')})`,
        item.span,
      );
    const types = item.args.map(text);
    const values: Record<string, AttrJs> = {};
    for (const a of item.attrs) readExampleAttr(name, a, attrs, values);
    if (diagnostics.length > before || types.some((t) => t === null)) return undefined;
    return { ...(item.attrs.length > 0 ? { attrs: values } : {}), args: types as string[] };
  }

  function readExampleAttr(name: string, a: NamedArg, attrs: readonly AttrSpec[], into: Record<string, AttrJs>): void {
    const spec = attrs.find((s) => s.name === a.name);
    if (spec === undefined) {
      err(
        `the example of ${name} gives '${a.name}', which is not an attribute of ${name}${didYouMean(
          a.name,
          attrs.map((s) => s.name),
        )}`,
        a.span,
      );
      return;
    }
    if (a.name in into) {
      err(`the example of ${name} gives '${a.name}' twice`, a.span);
      return;
    }
    const v = constant(a.value);
    if (v === null) {
      err(`the example's value of '${a.name}' must be a constant`, a.value.span);
      return;
    }
    const problem = checkValue(spec, v);
    if (problem !== null) {
      err(`the example's ${a.name} ${problem} (got ${attrValueText(v)})`, a.value.span);
      return;
    }
    into[a.name] = toJs(v);
  }
}

/** A constant attribute value written in the rule language: ints, floats, strings, `true`, `false`, `none`, lists. */
function constant(t: AstTerm): AttrValue | null {
  const span = DEFAULT_SPAN;
  switch (t.kind) {
    case 'int':
    case 'float':
      return { kind: t.kind, value: t.value, span };
    case 'string':
      return { kind: 'string', value: t.value, span };
    case 'atom':
      if (t.name === 'true' || t.name === 'false') return { kind: 'bool', value: t.name === 'true', span };
      if (t.name === 'none') return { kind: 'none', span };
      return null;
    case 'neg': {
      const inner = constant(t.arg);
      return inner !== null && (inner.kind === 'int' || inner.kind === 'float') ? { ...inner, value: -inner.value } : null;
    }
    case 'list': {
      if (t.tail !== null) return null;
      const items = t.items.map(constant);
      return items.every((i) => i !== null) ? { kind: 'list', items: items as AttrValue[], span } : null;
    }
    default:
      return null;
  }
}

function toJs(v: AttrValue): AttrJs {
  switch (v.kind) {
    case 'none':
      return null;
    case 'list':
      return v.items.map(toJs);
    case 'dim':
      return v.text;
    default:
      return v.value;
  }
}

function where(s: Span): string {
  return `${s.file}:${s.start.line}:${s.start.column}`;
}
