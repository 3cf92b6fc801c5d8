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
type ExampleItem = Extract<OperatorDecl['items'][number], { kind: 'example' }>;

/** The constraints written on an attribute (`lengths`, `min`, `max`, `choices`, `format`), those that are well-formed. */
interface AttrConstraints {
  lengths?: number[];
  min?: number;
  max?: number;
  choices?: string[];
  format?: StringFormat;
}

/** What the items of an operator's declaration give: its attributes (groups spliced in), its texts and its example as written. */
interface OperatorItems {
  readonly attrs: AttrSpec[];
  /** The doc line, or null when there is none or its text is unknown. */
  readonly doc: string | null;
  /** Whether a `doc` item is written (its text may still be unknown). */
  readonly hasDoc: boolean;
  readonly formula: string | undefined;
  readonly backwards: string | undefined;
  readonly deviations: string[];
  readonly exampleItem: ExampleItem | null;
}

/**
 * The operators declared in `programs`, checked against the relations declared there.
 * An operator declared in one of the `overridable` files (the built-in library) may be
 * declared again in a later file: the later declaration replaces it, with a warning.
 */
export function declaredOps(programs: readonly Program[], overridable: ReadonlySet<string> = new Set()): DeclaredOps {
  const reader = new DeclarationReader(programs);
  const ops = reader.operators(overridable);
  return { ops, diagnostics: reader.diagnostics };
}

/** The declarations of the files read together: their texts, attribute groups and relations by name, their operators in order, and the problems found so far. */
class DeclarationReader {
  readonly diagnostics: Diagnostic[] = [];
  private readonly texts = new Map<string, { value: string; span: Span }>();
  private readonly groups = new Map<string, { items: readonly AttrItem[]; span: Span }>();
  /** The first declaration of each relation. */
  private readonly relations = new Map<string, RelationStatement>();
  /** The operator declarations, in file order, then statement order. */
  private readonly decls: OperatorDecl[] = [];

  /** Indexes the texts, groups and relations of `programs` (reporting duplicate texts and groups) and collects their operator declarations. */
  constructor(programs: readonly Program[]) {
    for (const p of programs) {
      for (const s of p.statements) {
        if (s.kind === 'text') {
          const prev = this.texts.get(s.name);
          if (prev !== undefined) this.err(`text ${s.name} is declared twice`, s.span, [`first declared at ${where(prev.span)}`]);
          else this.texts.set(s.name, { value: s.value, span: s.span });
        } else if (s.kind === 'attrgroup') {
          const prev = this.groups.get(s.name);
          if (prev !== undefined) this.err(`attribute group ${s.name} is declared twice`, s.span, [`first declared at ${where(prev.span)}`]);
          else this.groups.set(s.name, { items: s.items, span: s.span });
        } else if (s.kind === 'relation') {
          if (!this.relations.has(s.name)) this.relations.set(s.name, s);
        } else if (s.kind === 'operator') this.decls.push(s);
      }
    }
  }

  /** Reports a declaration error. */
  private err(message: string, span: Span, notes: string[] = []): void {
    this.diagnostics.push(diagnostic('error', 'declaration', message, span, notes));
  }

  /** The value of a text written in place or named (null, reported, when the name is unknown). */
  private text(t: DeclText): string | null {
    if (t.kind === 'string') return t.value;
    const found = this.texts.get(t.name);
    if (found !== undefined) return found.value;
    this.err(`unknown text '${t.name}'${didYouMean(t.name, this.texts.keys())}`, t.span, ['a text is declared with `text NAME = "...".`']);
    return null;
  }

  /** The operators that are declared without errors, each once: a later declaration of a built-in (`overridable`) one replaces it, with a warning; other duplicates are errors. */
  operators(overridable: ReadonlySet<string>): OpInfo[] {
    const ops: OpInfo[] = [];
    const seen = new Map<string, Span>();
    for (const d of this.decls) {
      const op = this.readOperator(d);
      if (op === null) continue;
      const prev = seen.get(op.name);
      if (prev !== undefined && overridable.has(prev.file) && !overridable.has(d.name.span.file)) {
        this.diagnostics.push(
          diagnostic('warning', 'override', `operator ${op.name} overrides the built-in declaration`, d.name.span, [`the built-in one is at ${where(prev)}`]),
        );
        ops[ops.findIndex((o) => o.name === op.name)] = op;
        seen.set(op.name, d.name.span);
        continue;
      }
      if (prev !== undefined) {
        this.err(`operator ${op.name} is declared twice`, d.name.span, [`first declared at ${where(prev)}`]);
        continue;
      }
      seen.set(op.name, d.name.span);
      ops.push(op);
    }
    return ops;
  }

  /** The catalogue entry of operator declaration `d`, or null (reported) when anything in it is wrong. */
  private readOperator(d: OperatorDecl): OpInfo | null {
    const before = this.diagnostics.length;
    const name = d.name.value;
    const args = d.args.map((a) => a.name);
    for (const [i, a] of d.args.entries()) if (args.indexOf(a.name) !== i) this.err(`${name} has two arguments named '${a.name}'`, a.span);
    const requiredArgs = d.args.findIndex((a) => a.optional);
    for (const a of d.args.slice(requiredArgs < 0 ? d.args.length : requiredArgs)) {
      if (!a.optional) this.err(`${name}: argument '${a.name}' follows an optional argument, so it must be optional too (write '${a.name}?')`, a.span);
    }
    const { attrs, doc, hasDoc, formula, backwards, deviations, exampleItem } = this.readItems(d, args);
    if (doc === null && !hasDoc) this.err(`${name} has no doc line (write \`doc "what it computes"\`)`, d.name.span);
    const result = this.readResult(d, args, attrs);
    this.checkRelation(d, attrs);
    let example: OpInfo['example'];
    if (exampleItem !== null) example = this.readExample(name, exampleItem, args, attrs);
    if (this.diagnostics.length > before || result === null) return null;
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

  /** The items of operator declaration `d` (whose arguments are `args`): attributes with groups spliced in, texts, and the example as written; reports items written twice. */
  private readItems(d: OperatorDecl, args: readonly string[]): OperatorItems {
    const name = d.name.value;
    const attrs: AttrSpec[] = [];
    let doc: string | null = null;
    let formula: string | undefined;
    let backwards: string | undefined;
    const deviations: string[] = [];
    let exampleItem: ExampleItem | null = null;
    const once = new Map<string, Span>();
    for (const item of d.items) {
      if (item.kind === 'doc' || item.kind === 'formula' || item.kind === 'backwards' || item.kind === 'example') {
        const prev = once.get(item.kind);
        if (prev !== undefined) this.err(`${name} has two '${item.kind}' entries`, item.span, [`the first is at ${where(prev)}`]);
        once.set(item.kind, item.span);
      }
      switch (item.kind) {
        case 'attr':
          this.addAttr(name, args, item, attrs);
          break;
        case 'group': {
          const g = this.groups.get(item.name);
          if (g === undefined)
            this.err(`unknown attribute group '${item.name}'${didYouMean(item.name, this.groups.keys())}`, item.span, [
              'a group is declared with `attrs NAME { attr ... }`',
            ]);
          else for (const a of g.items) this.addAttr(name, args, a, attrs);
          break;
        }
        case 'doc':
          doc = this.text(item.text);
          break;
        case 'formula':
          formula = this.text(item.text) ?? undefined;
          break;
        case 'backwards':
          backwards = this.text(item.text) ?? undefined;
          break;
        case 'deviation': {
          const t = this.text(item.text);
          if (t !== null) deviations.push(t);
          break;
        }
        case 'example':
          exampleItem = item;
          break;
      }
    }
    return { attrs, doc, hasDoc: once.has('doc'), formula, backwards, deviations, exampleItem };
  }

  /** Adds attribute `item` of operator `name` to `attrs`, unless it is wrong or its name is taken by an argument (`args`) or an earlier attribute (reported). */
  private addAttr(name: string, args: readonly string[], item: AttrItem, attrs: AttrSpec[]): void {
    const spec = this.readAttr(item);
    if (spec === null) return;
    if (attrs.some((a) => a.name === spec.name) || args.includes(spec.name)) {
      this.err(`${name} has two attributes or arguments named '${spec.name}'`, item.span);
      return;
    }
    attrs.push(spec);
  }

  /** The spec of attribute `item`, or null (reported) when its type, a constraint, its doc or its default is wrong. */
  private readAttr(item: AttrItem): AttrSpec | null {
    const before = this.diagnostics.length;
    const type = item.type.name as AttrType;
    if (!ATTR_TYPES.includes(type)) {
      this.err(`unknown attribute type '${item.type.name}'${didYouMean(item.type.name, ATTR_TYPES)}`, item.type.span, [
        `attribute types: ${ATTR_TYPES.join(', ')}`,
      ]);
    }
    const extra = this.readConstraints(item);
    if ((extra.choices !== undefined || extra.format !== undefined) && type !== 'string')
      this.err(`attribute '${item.name}': choices and format apply to string attributes only`, item.span);
    const doc = this.text(item.doc);
    let def: AttrValue | 'required' = 'required';
    if (item.default !== null) {
      const v = constant(item.default);
      if (v === null)
        this.err(`the default of attribute '${item.name}' must be a constant (an int, float, string, true, false, none or a list of them)`, item.default.span);
      else def = v;
    }
    if (this.diagnostics.length > before || doc === null) return null;
    const spec: AttrSpec = { name: item.name, type, default: def, doc, ...extra };
    if (def !== 'required') {
      const problem = checkValue(spec, def);
      if (problem !== null) this.err(`the default of attribute '${item.name}' ${problem} (got ${attrValueText(def)})`, item.default!.span);
    }
    return this.diagnostics.length > before ? null : spec;
  }

  /** The well-formed constraints of attribute `item`; reports the malformed ones and those written twice. */
  private readConstraints(item: AttrItem): AttrConstraints {
    const extra: AttrConstraints = {};
    for (const c of item.constraints) {
      if (c.kind in extra) this.err(`attribute '${item.name}' has two '${c.kind}' constraints`, c.span);
      switch (c.kind) {
        case 'lengths': {
          const v = constant(c.value);
          if (v === null || v.kind !== 'list' || !v.items.every((i) => i.kind === 'int' && i.value >= 0))
            this.err(`lengths must be a list of ints >= 0, such as [1, 2]`, c.value.span);
          else extra.lengths = v.items.map((i) => (i as { value: number }).value);
          break;
        }
        case 'min': {
          const v = constant(c.value);
          if (v === null || v.kind !== 'int') this.err('min must be an int', c.value.span);
          else extra.min = v.value;
          break;
        }
        case 'max': {
          const v = constant(c.value);
          if (v === null || v.kind !== 'int') this.err('max must be an int', c.value.span);
          else extra.max = v.value;
          break;
        }
        case 'choices': {
          const v = constant(c.value);
          if (v === null || v.kind !== 'list' || !v.items.every((i) => i.kind === 'string'))
            this.err('choices must be a list of strings, such as ["NCHW", "NHWC"]', c.value.span);
          else extra.choices = v.items.map((i) => (i as { value: string }).value);
          break;
        }
        case 'format': {
          const f = c.value.name as StringFormat;
          if (!STRING_FORMATS.includes(f))
            this.err(`unknown string format '${c.value.name}'${didYouMean(c.value.name, STRING_FORMATS)}`, c.value.span, [
              `formats: ${STRING_FORMATS.join(', ')}`,
            ]);
          else extra.format = f;
          break;
        }
      }
    }
    return extra;
  }

  /** The result arity of operator declaration `d`, or null (reported) when it depends on a name that is neither an argument nor an attribute, or on an unknown text. */
  private readResult(d: OperatorDecl, args: readonly string[], attrs: readonly AttrSpec[]): ResultArity | null {
    const r = d.result;
    if (r.kind === 'tensor') return { kind: 'tensor' };
    if (r.kind === 'tuple') return { kind: 'tuple', size: r.size };
    if (!attrs.some((a) => a.name === r.attr) && !args.includes(r.attr)) {
      const names = [...args, ...attrs.map((a) => a.name)];
      this.err(`the result of ${d.name.value} depends on '${r.attr}', which is neither an argument nor an attribute${didYouMean(r.attr, names)}`, r.span);
      return null;
    }
    const rule = this.text(r.rule);
    return rule === null ? null : { kind: 'depends', attr: r.attr, rule };
  }

  /** The relation exists, takes the arguments and a result, and has every attribute of the operator. */
  private checkRelation(d: OperatorDecl, attrs: readonly AttrSpec[]): void {
    const rel = this.relations.get(d.relation.name);
    if (rel === undefined) {
      this.err(`unknown relation '${d.relation.name}'${didYouMean(d.relation.name, this.relations.keys())}`, d.relation.span, [
        'the relation that types an operator is declared with `relation Name(args..., out; attrs...).`',
      ]);
      return;
    }
    const want = d.args.length + 1;
    if (rel.params.length !== want) {
      this.err(
        `relation ${rel.name} takes ${rel.params.length} argument${rel.params.length === 1 ? '' : 's'} (${rel.params.map((p) => p.name).join(', ')}), but ${d.name.value} has ${d.args.length} and a result`,
        d.relation.span,
        [`${rel.name} is declared at ${where(rel.span)}`],
      );
    }
    const relAttrs = rel.attrs.map((a) => a.name);
    for (const a of attrs) {
      if (!relAttrs.includes(a.name)) {
        this.err(`${d.name.value}: relation ${rel.name} has no attribute '${a.name}'${didYouMean(a.name, relAttrs)}`, d.relation.span, [
          `${rel.name} is declared at ${where(rel.span)}`,
        ]);
      }
    }
  }

  /** The example of operator `name` (arguments `args`, attributes `attrs`), or undefined (reported) when its arguments or attributes do not fit. */
  private readExample(name: string, item: ExampleItem, args: readonly string[], attrs: readonly AttrSpec[]): OpInfo['example'] {
    const before = this.diagnostics.length;
    if (item.args.length !== args.length)
      this.err(
        `the example of ${name} has ${item.args.length} argument${item.args.length === 1 ? '' : 's'}; ${name} takes ${args.length} (${args.join(', ')})`,
        item.span,
      );
    const types = item.args.map((t) => this.text(t));
    const values: Record<string, AttrJs> = {};
    for (const a of item.attrs) this.readExampleAttr(name, a, attrs, values);
    if (this.diagnostics.length > before || types.some((t) => t === null)) return undefined;
    return { ...(item.attrs.length > 0 ? { attrs: values } : {}), args: types as string[] };
  }

  /** Puts the value the example of operator `name` gives attribute `a` into `into`, unless it is not an attribute of `attrs`, given twice, not a constant or not a value of the attribute (reported). */
  private readExampleAttr(name: string, a: NamedArg, attrs: readonly AttrSpec[], into: Record<string, AttrJs>): void {
    const spec = attrs.find((s) => s.name === a.name);
    if (spec === undefined) {
      this.err(
        `the example of ${name} gives '${a.name}', which is not an attribute of ${name}${didYouMean(
          a.name,
          attrs.map((s) => s.name),
        )}`,
        a.span,
      );
      return;
    }
    if (a.name in into) {
      this.err(`the example of ${name} gives '${a.name}' twice`, a.span);
      return;
    }
    const v = constant(a.value);
    if (v === null) {
      this.err(`the example's value of '${a.name}' must be a constant`, a.value.span);
      return;
    }
    const problem = checkValue(spec, v);
    if (problem !== null) {
      this.err(`the example's ${a.name} ${problem} (got ${attrValueText(v)})`, a.value.span);
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
