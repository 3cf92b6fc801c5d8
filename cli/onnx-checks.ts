// `shapelog checks MODEL.onnx --dims N=3,T=16`: the residual checks that
// `infer MODEL.onnx --gradual` inserts (typing/onnx/gradual.ts), evaluated for concrete
// sizes of the model's size variables (its dim_params, and the fresh or join size
// variables the checks mention): each failing check is printed with its node (index,
// name, op_type); exit 1 if any fails, 0 when all hold. Bad input: a size that is not a
// non-negative integer, a name the model has no size variable for, sizes missing for a
// check's variables (exit 2); a model with no size variables or with type errors (exit 1).
import { readModel } from '../typing/onnx/model-types.js';
import { dimNamesOf, type OnnxCheck, typeModelGradually } from '../typing/onnx/gradual.js';
import { checkVariables } from '../typing/residual-checks.js';
import { evaluateChecks, parseDims, sizesProblem } from './gradual.js';
import { EXIT_OK, EXIT_USAGE, EXIT_USER_ERROR } from './report.js';

export interface OnnxChecksOptions {
  /** `N=3,T=16`, possibly given several times. */
  readonly dims: readonly string[];
  readonly json: boolean;
}

function usage(message: string): number {
  process.stderr.write(`error: ${message}\n`);
  return EXIT_USAGE;
}

/** `node 3 "to_6x4" (Reshape)`. */
function nodeText(c: OnnxCheck): string {
  return `node ${c.index} "${c.node}" (${c.opType})`;
}

export function checksOnnx(file: string, o: OnnxChecksOptions): number {
  const sizes = parseDims(o.dims);
  if (typeof sizes === 'string') return usage(sizes);
  const g = typeModelGradually(readModel(file));
  const errors = g.typed.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    for (const d of g.typed.diagnostics) process.stderr.write(`${file}: ${d.severity}: ${d.message}\n`);
    return EXIT_USER_ERROR;
  }
  const known = new Set([...dimNamesOf(g.typed.inputs.map((v) => v.type)), ...g.freshDims, ...g.checks.flatMap(checkVariables)]);
  if (known.size === 0) {
    process.stderr.write(
      `error: ${file} has no size variables (no dim_param, no dim left unknown): its shapes are all known, so there is nothing to check at run time\n`,
    );
    return EXIT_USER_ERROR;
  }
  const problem = sizesProblem(file, sizes, known, g.checks);
  if (problem !== null) return problem;
  const results = evaluateChecks(g.checks, sizes);
  const failing = results.filter((r) => !r.holds);
  if (o.json) {
    const checks = results.map((r) => ({
      node: { index: r.check.index, name: r.check.node, op_type: r.check.opType },
      condition: r.check.condition,
      assumes: r.check.assumes,
      variables: checkVariables(r.check),
      holds: r.holds,
      ...(r.error === null ? {} : { error: r.error }),
    }));
    process.stdout.write(`${JSON.stringify({ dims: sizes, checks, failed: failing.length }, null, 2)}\n`);
  } else {
    for (const r of failing) {
      const values = checkVariables(r.check)
        .map((v) => `${v} = ${sizes[v]}`)
        .join(', ');
      process.stdout.write(`${file}: ${nodeText(r.check)}: check failed: ${r.check.condition} (${values})${r.error === null ? '' : `: ${r.error}`}\n`);
    }
    process.stdout.write(`${results.length - failing.length} of ${results.length} checks hold\n`);
  }
  return failing.length > 0 ? EXIT_USER_ERROR : EXIT_OK;
}
