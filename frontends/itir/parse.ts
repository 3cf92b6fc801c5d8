// Reads the s-expression text of the iterator IR (grammar/itir.peggy reads the lists and
// atoms) and builds the IR of frontends/itir/ast.ts. Every mistake is a `UserError`
// with a located `syntax` diagnostic: malformed s-expressions (from Peggy), misplaced
// forms (`(lambda x ...)`, a `define` inside an expression) and nesting deeper than
// MAX_NESTING, which is rejected before parsing, so no input overflows the stack.
import { type SyntaxErrorStyle, syntaxDiagnostic } from '../../diagnostics/peggy-errors.js';
import { parse as peggyParse, SyntaxError as PeggySyntaxError } from '../../grammar/generated/itir-parser.js';
import { diagnostic, UserError } from '../../diagnostics/diagnostic.js';
import type { Position } from '../../diagnostics/span.js';
import type { Closure, Define, Expr, Fencil, Param, Program, Span, TopLevel } from './ast.js';

/** Parentheses may nest this deep; the readers and the typing are recursive. */
export const MAX_NESTING = 1000;

type SExpr =
  | { k: 'list'; items: SExpr[]; span: Span }
  | { k: 'int' | 'float'; text: string; span: Span }
  | { k: 'offset' | 'axis' | 'sym'; name: string; span: Span };

const FORMS = new Set(['lambda', 'let', 'define', 'closure', 'fencil']);

export function parseItir(text: string, file: string): Program {
  checkNesting(text, file);
  let sexprs: SExpr[];
  try {
    sexprs = peggyParse(text, { file, grammarSource: file }) as SExpr[];
  } catch (e) {
    if (e instanceof PeggySyntaxError) throw new UserError([syntaxDiagnostic(e, text, file, ITIR_SYNTAX)]);
    throw e;
  }
  const items = sexprs.map(topLevel);
  const exprs = items.filter((i) => i.k !== 'define' && i.k !== 'closure' && i.k !== 'fencil');
  if (items.length === 0)
    fail('the file holds nothing: write a definition, a closure, a fencil or an expression', {
      file,
      start: { offset: 0, line: 1, column: 1 },
      end: { offset: 0, line: 1, column: 1 },
    });
  if (exprs.length > 0 && items.length > 1) fail('a file holds either one bare expression, or definitions, closures and fencils', exprs[0]!.span);
  const fencils = items.filter((i) => i.k === 'fencil');
  if (fencils.length > 0 && items.length > 1)
    fail('a fencil must be alone in its file (put its definitions inside it)', (items.find((i) => i.k !== 'fencil') ?? fencils[1])!.span);
  return { items };
}

function fail(message: string, span: Span, notes: string[] = []): never {
  throw new UserError([diagnostic('error', 'syntax', message, span, notes)]);
}

function topLevel(s: SExpr): TopLevel {
  if (s.k === 'list' && s.items[0]?.k === 'sym') {
    const head = s.items[0].name;
    if (head === 'define') return define(s);
    if (head === 'closure') return closure(s);
    if (head === 'fencil') return fencil(s);
  }
  return expr(s);
}

function params(s: SExpr | undefined, where: Span, what: string): Param[] {
  if (s === undefined || s.k !== 'list') fail(`${what} needs a parameter list such as (x y)`, s?.span ?? where);
  const seen = new Set<string>();
  return s.items.map((p) => {
    if (p.k !== 'sym' || FORMS.has(p.name)) fail('a parameter must be a symbol', p.span);
    if (seen.has(p.name)) fail(`parameter ${p.name} appears twice`, p.span);
    seen.add(p.name);
    return { name: p.name, span: p.span };
  });
}

function define(s: SExpr & { k: 'list' }): Define {
  const sig = s.items[1];
  if (s.items.length !== 3 || sig?.k !== 'list' || sig.items[0]?.k !== 'sym') fail('a definition is (define (NAME PARAM ...) BODY)', s.span);
  const name = sig.items[0] as SExpr & { k: 'sym' };
  return {
    k: 'define',
    name: name.name,
    nameSpan: name.span,
    params: params({ k: 'list', items: sig.items.slice(1), span: sig.span }, s.span, 'a definition'),
    body: expr(s.items[2]!),
    span: s.span,
  };
}

function closure(s: SExpr & { k: 'list' }): Closure {
  const inputs = s.items[4];
  if (s.items.length !== 5 || inputs?.k !== 'list') fail('a stencil closure is (closure DOMAIN STENCIL OUTPUT (INPUT ...))', s.span);
  return { k: 'closure', domain: expr(s.items[1]!), stencil: expr(s.items[2]!), output: expr(s.items[3]!), inputs: inputs.items.map(expr), span: s.span };
}

function fencil(s: SExpr & { k: 'list' }): Fencil {
  const name = s.items[1];
  if (name?.k !== 'sym' || s.items.length < 3) fail('a fencil is (fencil NAME (PARAM ...) DEFINE-OR-CLOSURE ...)', s.span);
  const ps = params(s.items[2], s.span, 'a fencil');
  const defines: Define[] = [];
  const closures: Closure[] = [];
  for (const item of s.items.slice(3)) {
    const t = item.k === 'list' && item.items[0]?.k === 'sym' ? item.items[0].name : '';
    if (t === 'define') defines.push(define(item as SExpr & { k: 'list' }));
    else if (t === 'closure') closures.push(closure(item as SExpr & { k: 'list' }));
    else fail('a fencil holds definitions (define ...) and stencil closures (closure ...)', item.span);
  }
  return { k: 'fencil', name: name.name, params: ps, defines, closures, span: s.span };
}

function expr(s: SExpr): Expr {
  switch (s.k) {
    case 'int':
      return { k: 'lit', type: 'int', text: s.text, span: s.span };
    case 'float':
      return { k: 'lit', type: 'float', text: s.text, span: s.span };
    case 'offset':
      return { k: 'offset', name: s.name, span: s.span };
    case 'axis':
      return { k: 'axis', name: s.name, span: s.span };
    case 'sym':
      if (s.name === 'true' || s.name === 'false') return { k: 'lit', type: 'bool', text: s.name, span: s.span };
      if (FORMS.has(s.name)) fail(`${s.name} is a special form: write (${s.name} ...)`, s.span);
      return { k: 'sym', name: s.name, span: s.span };
    case 'list': {
      const [head, ...rest] = s.items;
      if (head === undefined) fail('() is not an expression: a call needs a function', s.span);
      if (head.k === 'sym' && head.name === 'lambda') {
        if (s.items.length !== 3) fail('a lambda is (lambda (PARAM ...) BODY)', s.span);
        return { k: 'lambda', params: params(s.items[1], s.span, 'a lambda'), body: expr(s.items[2]!), span: s.span };
      }
      if (head.k === 'sym' && head.name === 'let') {
        const bs = s.items[1];
        if (s.items.length !== 3 || bs?.k !== 'list') fail('a let is (let ((NAME EXPR) ...) BODY)', s.span);
        const seen = new Set<string>();
        const bindings = bs.items.map((b) => {
          if (b.k !== 'list' || b.items.length !== 2 || b.items[0]!.k !== 'sym') fail('a let binding is (NAME EXPR)', b.span);
          const n = b.items[0] as SExpr & { k: 'sym' };
          if (seen.has(n.name)) fail(`${n.name} is bound twice in this let`, n.span);
          seen.add(n.name);
          return { param: { name: n.name, span: n.span }, value: expr(b.items[1]!) };
        });
        return { k: 'let', bindings, body: expr(s.items[2]!), span: s.span };
      }
      if (head.k === 'sym' && FORMS.has(head.name))
        fail(`${head.name} is only allowed at the top level${head.name === 'define' || head.name === 'closure' ? ' or directly inside a fencil' : ''}`, s.span);
      return { k: 'call', fn: expr(head), args: rest.map(expr), span: s.span };
    }
  }
}

/** Rejects parentheses nested deeper than MAX_NESTING, pointing at the first one past the limit. */
function checkNesting(text: string, file: string): void {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  let outermost: Position | null = null;
  const at = (start: Position): Span => ({ file, start, end: { ...start, offset: start.offset + 1, column: start.column + 1 } });
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      line++;
      lineStart = i + 1;
    } else if (c === ';') {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === '(') {
      if (depth === 0) outermost = { offset: i, line, column: i - lineStart + 1 };
      if (++depth > MAX_NESTING) {
        const start: Position = { offset: i, line, column: i - lineStart + 1 };
        fail(`parentheses nested deeper than ${MAX_NESTING} levels`, { file, start, end: { ...start, offset: i + 1, column: start.column + 1 } }, [
          'split the computation into definitions (define (f x) ...) or let bindings',
        ]);
      }
    } else if (c === ')') {
      if (depth === 0) fail('this parenthesis closes nothing', at({ offset: i, line, column: i - lineStart + 1 }));
      depth--;
    }
  }
  if (depth > 0 && outermost !== null)
    fail(`this parenthesis is never closed (${depth} ${depth === 1 ? 'is' : 'are'} open at the end of the file)`, at(outermost));
}

/** Syntax errors in ITIR text. A token is a run of name characters (`tuple_get`, `1.5`, `'i'`, `@x`); no continuations. */
const ITIR_SYNTAX: SyntaxErrorStyle = {
  token: /[A-Za-z0-9_.'@-]+/y,
  continuations: new Set(),
  notes: (text, _start, found) =>
    found === null && /\(/.test(text) ? ['a parenthesis is not closed'] : found === ')' ? ['this parenthesis closes nothing'] : [],
};
