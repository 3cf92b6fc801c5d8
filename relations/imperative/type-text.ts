// A small parser for Relay type text, for tests and tools:
//
//   type   := '_'                                   a type hole
//           | 'Tensor' '[' shape ',' dtype ']'
//           | DTYPE                                 a scalar: Tensor[(), DTYPE]
//           | '(' ')' | '(' type ',' ')' | '(' type (',' type)+ ','? ')'   tuples
//           | '(' type ')'                          parentheses
//           | 'fn' ('[' NAME (',' NAME)* ']')? '(' types? ')' '->' type
//           | NAME '[' types ']' | NAME             an ADT call / a type parameter
//   shape  := '(' (dim (',' dim)* ','?)? ')'
//   dim    := '?' (Any) | '_' (a dimension hole) | expr
//   expr   := integers, size variables (`n`, `batch`), + - * / % (floor division
//             and modulo) and parentheses: `2*n + 1`, `(h + 2) / 2`
//   dtype  := DTYPE | '_' (a dtype hole)
//
// Every `_` is a fresh hole in the given state. Relay itself has no syntax for
// dimension and dtype holes; `_` there is a shapelog extension, matching how
// `printType` prints them.

import { type Dim, DimError, dimAdd, dimConst, dimFloorDiv, dimMod, dimMul, dimNeg, dimSub, dimVar } from '../../solver/terms/dims.js';
import { ANY, type IDim, type IDtype, type IType, TypeSolverState, dimOf, isDtype } from './types.js';

export type ParseTypeResult = { readonly ok: true; readonly type: IType } | { readonly ok: false; readonly message: string };

class ParseError extends Error {}

type Token =
  | { kind: 'int'; value: number; pos: number }
  | { kind: 'name'; value: string; pos: number }
  | { kind: 'punct'; value: string; pos: number }
  | { kind: 'end'; pos: number };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i;
      while (j < text.length && /[0-9]/.test(text[j]!)) j++;
      const value = Number(text.slice(i, j));
      if (!Number.isSafeInteger(value)) throw new ParseError(`integer too large at ${i}: ${text.slice(i, j)}`);
      tokens.push({ kind: 'int', value, pos: i });
      i = j;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < text.length && /[A-Za-z0-9_.]/.test(text[j]!)) j++;
      tokens.push({ kind: 'name', value: text.slice(i, j), pos: i });
      i = j;
      continue;
    }
    if (text.startsWith('->', i)) {
      tokens.push({ kind: 'punct', value: '->', pos: i });
      i += 2;
      continue;
    }
    if ('()[],?+-*/%'.includes(c)) {
      tokens.push({ kind: 'punct', value: c, pos: i });
      i++;
      continue;
    }
    throw new ParseError(`unexpected character '${c}' at ${i}`);
  }
  tokens.push({ kind: 'end', pos: text.length });
  return tokens;
}

class Parser {
  private i = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly state: TypeSolverState,
    private readonly text: string,
  ) {}

  private peek(): Token {
    return this.tokens[this.i]!;
  }

  private next(): Token {
    return this.tokens[this.i++]!;
  }

  private isPunct(value: string): boolean {
    const t = this.peek();
    return t.kind === 'punct' && t.value === value;
  }

  private isName(value?: string): boolean {
    const t = this.peek();
    return t.kind === 'name' && (value === undefined || t.value === value);
  }

  private expect(value: string): void {
    const t = this.next();
    if (!(t.kind === 'punct' && t.value === value)) throw this.error(t, `expected '${value}'`);
  }

  private error(t: Token, what: string): ParseError {
    const found = t.kind === 'end' ? 'the end' : `'${String(t.value)}'`;
    return new ParseError(`${what} at ${t.pos}, found ${found} in: ${this.text}`);
  }

  /** A whole text that is one dimension expression (no `?` or `_`). */
  dimAll(): Dim {
    const d = this.expr();
    const end = this.peek();
    if (end.kind !== 'end') throw this.error(end, 'expected the end of the size');
    return d;
  }

  parseAll(): IType {
    const t = this.type();
    const end = this.peek();
    if (end.kind !== 'end') throw this.error(end, 'expected the end of the type');
    return t;
  }

  private type(): IType {
    const t = this.peek();
    if (t.kind === 'punct' && t.value === '(') return this.tupleOrParens();
    if (t.kind !== 'name') throw this.error(t, 'expected a type');
    this.next();
    if (t.value === '_') return this.state.freshType();
    if (t.value === 'Tensor' && this.isPunct('[')) {
      this.expect('[');
      const shape = this.shape();
      this.expect(',');
      const dtype = this.dtype();
      this.expect(']');
      return { kind: 'tensor', shape, dtype };
    }
    if (t.value === 'fn') return this.fn();
    if (isDtype(t.value)) return { kind: 'tensor', shape: [], dtype: t.value };
    if (this.isPunct('[')) {
      this.next();
      const args = this.typeList(']');
      return { kind: 'call', name: t.value, args };
    }
    return { kind: 'var', name: t.value };
  }

  private fn(): IType {
    const typeParams: string[] = [];
    if (this.isPunct('[')) {
      this.next();
      for (;;) {
        const n = this.next();
        if (n.kind !== 'name') throw this.error(n, 'expected a type parameter');
        typeParams.push(n.value);
        if (this.isPunct(',')) {
          this.next();
          continue;
        }
        this.expect(']');
        break;
      }
    }
    this.expect('(');
    const params = this.typeList(')');
    this.expect('->');
    const ret = this.type();
    return { kind: 'func', typeParams, params, ret };
  }

  /** Types separated by commas up to `close` (consumed); a trailing comma is allowed. */
  private typeList(close: string): IType[] {
    const out: IType[] = [];
    while (!this.isPunct(close)) {
      out.push(this.type());
      if (this.isPunct(',')) this.next();
      else break;
    }
    this.expect(close);
    return out;
  }

  private tupleOrParens(): IType {
    this.expect('(');
    if (this.isPunct(')')) {
      this.next();
      return { kind: 'tuple', fields: [] };
    }
    const first = this.type();
    if (this.isPunct(')')) {
      this.next();
      return first;
    }
    this.expect(',');
    const rest = this.typeList(')');
    return { kind: 'tuple', fields: [first, ...rest] };
  }

  private shape(): IDim[] {
    this.expect('(');
    const dims: IDim[] = [];
    while (!this.isPunct(')')) {
      dims.push(this.dim());
      if (this.isPunct(',')) this.next();
      else break;
    }
    this.expect(')');
    return dims;
  }

  private dim(): IDim {
    if (this.isPunct('?')) {
      this.next();
      return ANY;
    }
    if (this.isName('_')) {
      this.next();
      return this.state.freshDim();
    }
    const start = this.peek();
    const d = this.expr();
    if (d.terms.length === 0 && d.constant < 0) throw this.error(start, `a dimension cannot be negative (${d.constant})`);
    return dimOf(d);
  }

  private dtype(): IDtype {
    const t = this.next();
    if (t.kind !== 'name') throw this.error(t, 'expected a dtype');
    if (t.value === '_') return this.state.freshDtype();
    if (!isDtype(t.value)) throw this.error(t, `unknown dtype '${t.value}'`);
    return t.value;
  }

  private expr(): Dim {
    let left = this.term();
    while (this.isPunct('+') || this.isPunct('-')) {
      const op = (this.next() as { value: string }).value;
      const right = this.term();
      left = op === '+' ? dimAdd(left, right) : dimSub(left, right);
    }
    return left;
  }

  private term(): Dim {
    let left = this.factor();
    while (this.isPunct('*') || this.isPunct('/') || this.isPunct('%')) {
      const op = (this.next() as { value: string }).value;
      const right = this.factor();
      left = op === '*' ? dimMul(left, right) : op === '/' ? dimFloorDiv(left, right) : dimMod(left, right);
    }
    return left;
  }

  private factor(): Dim {
    const t = this.next();
    if (t.kind === 'int') return dimConst(t.value);
    if (t.kind === 'name' && t.value !== '_' && !t.value.includes('.')) return dimVar(t.value);
    if (t.kind === 'punct' && t.value === '(') {
      const e = this.expr();
      this.expect(')');
      return e;
    }
    if (t.kind === 'punct' && t.value === '-') return dimNeg(this.factor());
    throw this.error(t, 'expected a dimension');
  }
}

/** Parses Relay type text; every `_` becomes a fresh hole of `state`. */
export function parseType(text: string, state: TypeSolverState): ParseTypeResult {
  try {
    return { ok: true, type: new Parser(tokenize(text), state, text).parseAll() };
  } catch (e) {
    if (e instanceof ParseError || e instanceof DimError) return { ok: false, message: e.message };
    throw e;
  }
}

/** Parses a symbolic size such as `th` or `2*n + 1` (an attribute value of kind `dim`); a message when it is not one. */
export function parseDimText(text: string): Dim | string {
  try {
    return new Parser(tokenize(text), new TypeSolverState(), text).dimAll();
  } catch (e) {
    if (e instanceof ParseError || e instanceof DimError) return e.message;
    throw e;
  }
}
