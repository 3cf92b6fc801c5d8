// The graph inputs an ONNX command is told about (`infer MODEL.onnx` and `check MODEL.onnx`):
// --shape NAME=d0,d1 (a dim: an integer, a name or ?), --dim PARAM=N and --value NAME=v0,v1
// (row-major integers), parsed, then checked against the model: each name a graph input,
// each value list one that fills the input's shape.
import type { OnnxGraph } from '../frontends/onnx/model.js';

type Dim = number | string | null;

function usage(message: string): never {
  throw new UsageError(message);
}

class UsageError extends Error {}

export interface OnnxInputs {
  readonly shapes: Map<string, Dim[]>;
  readonly dims: Map<string, number>;
  readonly values: Map<string, number[]>;
}

/** The three options' values, or what is wrong with one (a usage error). */
export function parseOnnxInputs(shapes: readonly string[], dims: readonly string[], values: readonly string[]): OnnxInputs | string {
  try {
    return { shapes: parseShapes(shapes), dims: parseDims(dims), values: parseValues(values) };
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return e.message;
  }
}

/** What in `inputs` does not fit the model: a name that is not a graph input, values that cannot fill its shape; null when all fit. */
export function onnxInputsProblem(graph: OnnxGraph, inputs: OnnxInputs): string | null {
  const names = new Set(graph.inputs.map((v) => v.name));
  for (const [flag, given] of [
    ['--shape', inputs.shapes.keys()],
    ['--value', inputs.values.keys()],
  ] as const)
    for (const name of given)
      if (!names.has(name)) return `${flag} ${name}: the model has no graph input '${name}' (its inputs: ${[...names].join(', ') || 'none'})`;
  for (const [name, vs] of inputs.values) {
    const input = graph.inputs.find((v) => v.name === name)!;
    const problem = valueCountProblem(inputs.shapes.get(name) ?? (input.type?.kind === 'tensor' ? input.type.shape : null), vs.length);
    if (problem !== null) return `--value ${name}: ${vs.length} value${vs.length === 1 ? '' : 's'} for a graph input ${problem}`;
  }
  return null;
}

function parseShapes(specs: readonly string[]): Map<string, Dim[]> {
  const out = new Map<string, Dim[]>();
  for (const s of specs) {
    const m = /^([^=]+)=(.*)$/.exec(s);
    if (m === null) usage(`--shape ${s}: expected NAME=d0,d1,... (a dim is an integer, a name or ?)`);
    const dims =
      m[2]!.trim() === ''
        ? []
        : m[2]!.split(',').map((d): Dim => {
            const t = d.trim();
            if (t === '?') return null;
            if (/^\d+$/.test(t)) return Number(t);
            if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(t)) return t;
            return usage(`--shape ${s}: '${t}' is not a dim (an integer, a name or ?)`);
          });
    out.set(m[1]!, dims);
  }
  return out;
}

function parseDims(specs: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of specs) {
    // a dim_param may be any string, and an anonymous input dim is named `INPUT#AXIS`
    // (typing/onnx/input-dims.ts): the name is everything before the last '='
    const m = /^(.+)=(\d+)$/.exec(s);
    if (m === null) usage(`--dim ${s}: expected PARAM=N with N a non-negative integer`);
    out.set(m[1]!, Number(m[2]));
  }
  return out;
}

function parseValues(specs: readonly string[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const s of specs) {
    const m = /^([^=]+)=(-?\d+(?:,-?\d+)*)$/.exec(s.replace(/\s+/g, ''));
    if (m === null) usage(`--value ${s}: expected NAME=v0,v1,... (integers, row-major; bool as 0 and 1)`);
    const vs = m[2]!.split(',').map(Number);
    const big = vs.findIndex((v) => !Number.isSafeInteger(v));
    if (big >= 0) usage(`--value ${m[1]}: ${m[2]!.split(',')[big]} is not an integer between -(2^53 - 1) and 2^53 - 1`);
    out.set(m[1]!, vs);
  }
  return out;
}

/** Why `count` row-major values cannot fill a tensor of `shape` (fixed dims must divide the count; all fixed: equal it), or null. */
function valueCountProblem(shape: readonly (number | string | null)[] | null | undefined, count: number): string | null {
  if (shape === null || shape === undefined) return null;
  const fixed = shape.filter((d): d is number => typeof d === 'number');
  const size = fixed.reduce((a, b) => a * b, 1);
  const text = `of shape [${shape.map((d) => d ?? '?').join(', ')}]`;
  if (fixed.length === shape.length) return count === size ? null : `${text} (${size} element${size === 1 ? '' : 's'})`;
  if (size === 0) return count === 0 ? null : `${text} (0 elements)`;
  return count % size === 0 ? null : `${text} (a multiple of ${size} elements)`;
}
