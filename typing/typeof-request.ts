// Reading one `typeof` request from untrusted JSON: `{"op": "...", "attrs": {...},
// "args": ["Tensor[...]", "_"]}`. Every shape mistake (a non-string argument, an
// object-valued attribute, attributes nested too deeply) becomes a UserError naming
// the offending field, so one bad line never stops a stream of requests.
import type { AttrJs } from '../relations/imperative/solve-one.js';
import { diagnostic, UserError } from '../diagnostics/diagnostic.js';
import type { TypeofRequest } from './typeof.js';

/** Attribute values may be lists nested this deep. */
export const MAX_ATTR_NESTING = 32;

const EXPECTED = 'expected {"op": "...", "attrs": {...}, "args": ["Tensor[...]", "_"]}';

function fail(message: string): never {
  throw new UserError([diagnostic('error', 'typeof', message, null)]);
}

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** The value as an attribute value, or a UserError naming `where`. */
function attrJs(v: unknown, where: string, depth: number): AttrJs {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) fail(`${where}: ${v} is not a finite number`);
    return v;
  }
  if (Array.isArray(v)) {
    if (depth >= MAX_ATTR_NESTING) fail(`${where}: lists nested deeper than ${MAX_ATTR_NESTING} levels`);
    return v.map((x, i) => attrJs(x, `${where}[${i}]`, depth + 1));
  }
  return fail(`${where} is ${kindOf(v)}; an attribute is a number, a bool, a string, null or a list of those`);
}

/** A typeof request from a parsed JSON value, or a UserError saying which field is wrong. */
export function typeofRequest(value: unknown): TypeofRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`${EXPECTED}, got ${kindOf(value)}`);
  const o = value as Record<string, unknown>;
  if (typeof o['op'] !== 'string') fail(`"op" must be a string (${EXPECTED})`);
  if (!Array.isArray(o['args'])) fail(`"args" must be a list of types as strings (${EXPECTED})`);
  const args = o['args'] as unknown[];
  args.forEach((a, i) => {
    if (typeof a !== 'string') fail(`argument ${i + 1} is ${kindOf(a)}; each argument is a type as a string, e.g. "Tensor[(1, 3), float32]" or "_"`);
  });
  const unknownKeys = Object.keys(o).filter((k) => k !== 'op' && k !== 'args' && k !== 'attrs');
  if (unknownKeys.length > 0) fail(`unknown field${unknownKeys.length > 1 ? 's' : ''} ${unknownKeys.map((k) => JSON.stringify(k)).join(', ')} (${EXPECTED})`);
  if (o['attrs'] === undefined) return { op: o['op'], args: args as string[] };
  const attrs = o['attrs'];
  if (typeof attrs !== 'object' || attrs === null || Array.isArray(attrs)) fail(`"attrs" must be an object, got ${kindOf(attrs)}`);
  const out: Record<string, AttrJs> = {};
  for (const [k, v] of Object.entries(attrs)) out[k] = attrJs(v, `attribute ${k}`, 0);
  return { op: o['op'], attrs: out, args: args as string[] };
}
