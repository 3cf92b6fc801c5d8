// Prints the Relay IR (frontends/relay/ast.ts) in TVM's text format, v0.0.5, laid out as
// TVM's `astext()` lays it out: 2-space indentation, one graph binding per line, the
// result of a body on its own line. What it prints parses back (frontends/relay/parse.ts)
// to the same IR, spans aside.
import type { AttrValue, DimExpr, FunctionDef, Module, Param, Pattern, RDim, RExpr, RType, TypeDef, TypeParam } from './ast.js';

export interface PrintOptions {
  /**
   * The type of an expression, as text, printed TVM-style as ` /* ty=... *\/` after the
   * value of each binding and after the result of each body; null prints nothing.
   */
  readonly annotate?: (e: RExpr) => string | null;
  /** The type of a parameter, as text, printed as ` /* ty=... *\/` after it; null prints nothing. */
  readonly typeOfParam?: (p: Param) => string | null;
  /** The result type of a function written without one, as text, printed as `-> T` in its signature (as TVM does); null prints nothing. */
  readonly returnType?: (f: FunctionDef) => string | null;
  /** A comment printed as ` /* ... *\/` after the type annotation of an expression (gradual checks); null prints nothing. */
  readonly remark?: (e: RExpr) => string | null;
}

/** The whole module: the version header (if it has one), type definitions, then functions, separated by blank lines. */
export function printModule(m: Module, options: PrintOptions = {}): string {
  const printer = new Printer(options);
  const parts = [...m.typeDefs.map(printTypeDef), ...m.functions.map((f) => printer.functionDef(f))];
  const header = m.version === null ? '' : `#[version = ${quoteString(m.version)}]\n`;
  return header + parts.map((p) => `${p}\n`).join('\n');
}

/** One expression, laid out as if it started a line indented by `indent`. */
export function printExpr(e: RExpr, options: PrintOptions = {}, indent = ''): string {
  return new Printer(options).expr(e, indent);
}

// ---------------------------------------------------------------- types

/** A dtype name that is a scalar type on its own (`float32`): TVM's parser reads such names as dtypes. */
const SCALAR_DTYPE = /^(u?int|float|bfloat|bool)/;

/** `Tensor[(1, 3), float32]`, `Tensor[(5), float32]`, `float32`, `(T1, T2)`, `fn (T1) -> T2`, `List[A]`, `_`. */
export function printType(t: RType): string {
  switch (t.kind) {
    case 'tensor':
      if (t.shape.length === 0 && SCALAR_DTYPE.test(t.dtype)) return t.dtype;
      return `Tensor[(${t.shape.map(printDim).join(', ')}), ${t.dtype}]`;
    case 'tuple':
      return tupleText(t.fields.map(printType));
    case 'func':
      return `fn ${typeParamsText(t.typeParams)}(${t.params.map(printType).join(', ')}) -> ${printType(t.ret)}`;
    case 'var':
      return t.name;
    case 'call':
      return t.args.length === 0 ? t.name : `${t.name}[${t.args.map(printType).join(', ')}]`;
    case 'incomplete':
      return '_';
  }
}

export function printDim(d: RDim): string {
  switch (d.kind) {
    case 'int':
      return String(d.value);
    case 'any':
      return '?';
    case 'unknown':
      return '_';
    case 'sym':
      // A lone integer in parentheses, so that it reads back as symbolic, not as an int dim.
      return d.expr.kind === 'int' ? `(${d.expr.value})` : printDimExpr(d.expr);
  }
}

const PRECEDENCE = { '+': 1, '-': 1, '*': 2, '/': 2, '%': 2 } as const;

/** `2 * n + 1`, `(h + 2) / 2`: parentheses only where precedence and left-associativity need them. */
export function printDimExpr(e: DimExpr): string {
  switch (e.kind) {
    case 'int':
      return String(e.value);
    case 'var':
      return e.name;
    case 'binop': {
      const p = PRECEDENCE[e.op];
      const left = printDimExpr(e.left);
      const right = printDimExpr(e.right);
      const l = e.left.kind === 'binop' && PRECEDENCE[e.left.op] < p ? `(${left})` : left;
      const r = e.right.kind === 'binop' && PRECEDENCE[e.right.op] <= p ? `(${right})` : right;
      return `${l} ${e.op} ${r}`;
    }
  }
}

function typeParamsText(params: readonly TypeParam[]): string {
  if (params.length === 0) return '';
  return `[${params.map((p) => (p.kind === 'Type' ? p.name : `${p.name}: ${p.kind}`)).join(', ')}]`;
}

/** `()`, `(a,)`, `(a, b)` */
function tupleText(fields: readonly string[]): string {
  return fields.length === 1 ? `(${fields[0]},)` : `(${fields.join(', ')})`;
}

function printTypeDef(t: TypeDef): string {
  const constructors = t.constructors.map((c) => {
    const fields = c.fields.length === 0 ? '' : `(${c.fields.map(printType).join(', ')})`;
    return `  ${c.name}${fields},\n`;
  });
  return `type ${t.name}${typeParamsText(t.params)} {\n${constructors.join('')}}`;
}

// ---------------------------------------------------------------- values

/** An attribute value as Relay prints it: `[1, 2]`, `"NCHW"`, `True`, `1e-05f`, `None`. */
export function printAttrValue(v: AttrValue): string {
  switch (v.kind) {
    case 'int':
      return String(v.value);
    case 'float':
      return `${formatFloat(v.value)}f`;
    case 'bool':
      return v.value ? 'True' : 'False';
    case 'string':
      return quoteString(v.value);
    case 'list':
      return `[${v.items.map(printAttrValue).join(', ')}]`;
    case 'none':
      return 'None';
    case 'dim':
      return v.text;
  }
}

/** `1f`, `2.5f16`, `0.1f64`, `3`, `3i64`, `True`, as TVM prints scalar constants. */
export function printConstant(value: number | boolean, dtype: string): string {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  const float = /^float(16|32|64)$/.exec(dtype);
  if (float !== null) return `${formatFloat(value)}f${float[1] === '32' ? '' : float[1]}`;
  const int = /^(u?)int(8|16|32|64)$/.exec(dtype);
  if (int !== null && Number.isSafeInteger(value)) {
    const fitsInt32 = value >= -2147483648 && value <= 2147483647;
    return dtype === 'int32' && fitsInt32 ? String(value) : `${value}${int[1] === 'u' ? 'u' : 'i'}${int[2]}`;
  }
  throw new Error(`a constant ${value} of dtype ${dtype} has no Relay text form`);
}

/**
 * A float as C++'s `%g` prints it (what TVM prints: `1e-05`, `0.5`, `1`) when that reads
 * back as the same number, else the shortest text that does.
 */
export function formatFloat(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (Object.is(v, -0)) return '-0';
  const short = formatG(v, 6);
  if (Number(short) === v) return short;
  return String(v).replace(/e([+-])(\d)$/, 'e$10$2');
}

/** C's `%.{precision}g`. */
function formatG(v: number, precision: number): string {
  const [mantissa = '', exponentText = '0'] = v.toExponential(precision - 1).split('e');
  const exponent = Number(exponentText);
  const trim = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (exponent < -4 || exponent >= precision) {
    const digits = String(Math.abs(exponent)).padStart(2, '0');
    return `${trim(mantissa)}e${exponent < 0 ? '-' : '+'}${digits}`;
  }
  return trim(v.toFixed(precision - 1 - exponent));
}

function quoteString(s: string): string {
  const escaped = s.replace(/[\\"\n\t\r]/g, (c) => ({ '\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\r': '\\r' })[c] ?? c);
  return `"${escaped}"`;
}

export function printPattern(p: Pattern): string {
  switch (p.kind) {
    case 'wildcard':
      return '_';
    case 'var':
      return p.type === null ? `%${p.name}` : `%${p.name}: ${printType(p.type)}`;
    case 'constructor':
      return p.args.length === 0 ? p.name : `${p.name}(${p.args.map(printPattern).join(', ')})`;
    case 'tuple':
      return `(${p.fields.map(printPattern).join(', ')})`;
  }
}

// ---------------------------------------------------------------- expressions

class Printer {
  constructor(private readonly options: PrintOptions) {}

  functionDef(f: FunctionDef): string {
    const inferred = f.ret === null ? (this.options.returnType?.(f) ?? null) : null;
    return `def @${f.name}${this.signature(f.typeParams, f.params, f.ret, inferred)}${this.block(f.body, '')}`;
  }

  /** `[A](%x: A, %y) -> A ` */
  private signature(typeParams: readonly TypeParam[], params: readonly Param[], ret: RType | null, inferredRet: string | null = null): string {
    const ps = params.map((p) => {
      const annotation = this.options.typeOfParam?.(p) ?? null;
      const type = p.type === null ? '' : `: ${printType(p.type)}`;
      return `%${p.name}${type}${comment(annotation)}`;
    });
    const result = ret !== null ? printType(ret) : inferredRet;
    return `${typeParamsText(typeParams)}(${ps.join(', ')}) ${result === null ? '' : `-> ${result} `}`;
  }

  /** `{`, the body one level deeper, `}` at `indent`. */
  private block(body: RExpr, indent: string): string {
    return `{\n${this.body(body, `${indent}  `)}\n${indent}}`;
  }

  /** Bindings one per line, then the result; a loop, so a long chain of bindings is no deep recursion. */
  private body(e: RExpr, indent: string): string {
    const lines: string[] = [];
    let current = e;
    while (current.kind === 'let') {
      const value = `${this.expr(current.value, indent)}${this.annotation(current.value)}`;
      if (current.style === 'binding' && current.type === null) {
        lines.push(`${indent}%${current.name} = ${value};`);
      } else {
        // A graph binding has no place for a type: one with a type prints as a let.
        const type = current.type === null ? '' : `: ${printType(current.type)}`;
        lines.push(`${indent}let %${current.name}${type} = ${value};`);
      }
      current = current.body;
    }
    lines.push(`${indent}${this.expr(current, indent)}${this.annotation(current)}`);
    return lines.join('\n');
  }

  private annotation(e: RExpr): string {
    const type = this.options.annotate?.(e) ?? null;
    const remark = this.options.remark?.(e) ?? null;
    return comment(type) + (remark === null ? '' : ` /* ${remark.replace(/\*\//g, '* /')} */`);
  }

  expr(e: RExpr, indent: string): string {
    switch (e.kind) {
      case 'local':
        return `%${e.name}`;
      case 'global':
        return `@${e.name}`;
      case 'constructor':
      case 'op':
        return e.name;
      case 'constant':
        return printConstant(e.value, e.dtype);
      case 'call': {
        const args = e.args.map((a) => this.expr(a, indent));
        const attrs = e.attrs.map((a) => `${a.name}=${printAttrValue(a.value)}`);
        return `${this.operand(e.callee, indent)}(${[...args, ...attrs].join(', ')})`;
      }
      case 'tuple':
        return tupleText(e.fields.map((f) => this.expr(f, indent)));
      case 'proj':
        return `${this.operand(e.tuple, indent)}.${e.index}`;
      case 'let':
        // A let inside an expression: in parentheses, as TVM prints one.
        return `(\n${this.body(e, `${indent}  `)}\n${indent})`;
      case 'if':
        return `if (${this.expr(e.cond, indent)}) ${this.block(e.then, indent)} else ${this.block(e.else, indent)}`;
      case 'fn':
        return `fn ${this.signature(e.typeParams, e.params, e.ret)}${this.block(e.body, indent)}`;
      case 'match': {
        const inner = `${indent}  `;
        const clauses = e.clauses.map((c) => `${inner}${printPattern(c.pattern)} => ${this.block(c.body, inner)},\n`);
        return `match${e.complete ? '' : '?'} (${this.expr(e.scrutinee, indent)}) {\n${clauses.join('')}${indent}}`;
      }
    }
  }

  /** A callee or projected tuple: parenthesized unless it is already a postfix expression. */
  private operand(e: RExpr, indent: string): string {
    switch (e.kind) {
      case 'local':
      case 'global':
      case 'constructor':
      case 'op':
      case 'call':
      case 'proj':
      case 'tuple':
        return this.expr(e, indent);
      case 'let':
        return this.expr(e, indent); // already in parentheses
      default:
        return `(${this.expr(e, indent)})`;
    }
  }
}

/** ` /* ty=T *\/`, or nothing. */
function comment(type: string | null): string {
  return type === null ? '' : ` /* ty=${type.replace(/\*\//g, '* /')} */`;
}
