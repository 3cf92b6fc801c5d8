// Size variables for the anonymous dims of a graph's inputs. A dim of a main-graph input
// with neither dim_value nor dim_param (`[?, ?]`) gets a size variable of its own, as
// symbolic shape engines do (PyTorch's s0, s1): named `INPUT#AXIS` (`input#0`, the first
// dim of input `input`), or, should that name be a dim_param of a graph input already,
// with `#` appended until it is not (`input#0#`), so it never stands for a declared dim.
// The values derived from it then have fully known symbolic shapes (`input#0 * 4`), and
// two dims derived from the same anonymous dim are equal. The name is what `--dim`
// fixes, what the listing and `--json` print, and what `--write-value-info` writes as a
// dim_param.
import type { OnnxDim, OnnxGraph, OnnxType } from '../../frontends/onnx/model.js';

/** The name of the anonymous dim `axis` of graph input `input` before disambiguation. */
export function anonymousDimBase(input: string, axis: number): string {
  return `${input}#${axis}`;
}

/** The dim_params of the tensor types of `graph`'s inputs (initializers listed as inputs excluded). */
export function inputDimParams(graph: OnnxGraph): Set<string> {
  const initializers = new Set(graph.initializers.map((t) => t.name));
  const out = new Set<string>();
  for (const v of graph.inputs) {
    if (initializers.has(v.name) || v.type?.kind !== 'tensor') continue;
    for (const d of v.type.shape ?? []) if (typeof d === 'string') out.add(d);
  }
  return out;
}

/** Names anonymous dims, never one of `taken` (the graph inputs' dim_params) nor twice. */
export class AnonymousDims {
  private readonly used: Set<string>;
  constructor(taken: ReadonlySet<string>) {
    this.used = new Set(taken);
  }

  /** The size variable of dim `axis` of input `input`. */
  name(input: string, axis: number): string {
    let name = anonymousDimBase(input, axis);
    while (this.used.has(name)) name += '#';
    this.used.add(name);
    return name;
  }

  /** `t` (input `input`'s type) with every anonymous dim of its tensor shape named; other types as they are. */
  named(input: string, t: OnnxType | null): OnnxType | null {
    if (t?.kind !== 'tensor' || t.shape === null || !t.shape.includes(null)) return t;
    return { ...t, shape: t.shape.map((d, axis): OnnxDim => (d === null ? this.name(input, axis) : d)) };
  }
}

/**
 * Every size variable the main graph's inputs stand for: their dim_params and the names of
 * their anonymous dims (what a fully known symbolic dim is an expression of).
 */
export function graphInputDims(graph: OnnxGraph): Set<string> {
  const params = inputDimParams(graph);
  const names = new AnonymousDims(params);
  const out = new Set(params);
  const initializers = new Set(graph.initializers.map((t) => t.name));
  for (const v of graph.inputs) {
    if (initializers.has(v.name)) continue;
    const t = names.named(v.name, v.type);
    if (t?.kind === 'tensor') for (const d of t.shape ?? []) if (typeof d === 'string') out.add(d);
  }
  return out;
}
