// Where onnxruntime's execution is not the ground truth: cases in which onnxruntime
// produces a shape that contradicts the ONNX specification (and ONNX's own shape
// inference where it knows the opset), found by `shapelog check --onnx`. A case that
// matches one is reported as a runtime deviation, not as the rules being wrong. Each
// entry says what onnxruntime does and which case shows it.
import type { NodeRecord } from './cases.js';

export interface RuntimeDeviation {
  readonly ops: readonly string[];
  readonly applies: (r: NodeRecord) => boolean;
  readonly what: string;
}

const REDUCTIONS = [
  'ArgMax',
  'ArgMin',
  'ReduceL1',
  'ReduceL2',
  'ReduceLogSum',
  'ReduceLogSumExp',
  'ReduceMax',
  'ReduceMean',
  'ReduceMin',
  'ReduceProd',
  'ReduceSum',
  'ReduceSumSquare',
];

const shapeOf = (r: NodeRecord, i: number): readonly (number | string | null)[] | null => {
  const x = r.inputs[i];
  return x === undefined || 'absent' in x ? null : x.shape;
};

/** A pool window that does not fit the padded input on some axis (explicit pads and default dilations). */
function windowDoesNotFit(r: NodeRecord): boolean {
  const shape = shapeOf(r, 0);
  const kernel = r.attributes['kernel_shape']?.value as number[] | undefined;
  if (shape === null || kernel === undefined) return false;
  const pads = (r.attributes['pads']?.value as number[] | undefined) ?? kernel.flatMap(() => [0, 0]);
  const dilations = (r.attributes['dilations']?.value as number[] | undefined) ?? kernel.map(() => 1);
  return kernel.some((k, i) => {
    const x = shape[2 + i];
    return typeof x === 'number' && x + (pads[i] ?? 0) + (pads[i + kernel.length] ?? 0) < (dilations[i] ?? 1) * (k - 1) + 1;
  });
}

export const RUNTIME_DEVIATIONS: readonly RuntimeDeviation[] = [
  {
    ops: REDUCTIONS,
    applies: (r) => (shapeOf(r, 0) ?? []).includes(0),
    what: "on an empty input onnxruntime's reduction kernels return the input's shape, the reduced axes unreduced (ArgMax/ArgMin at opset 13 on (0, 2): onnxruntime (0, 2), ONNX's inference and the rules (0, 1))",
  },
  {
    ops: ['AveragePool', 'MaxPool', 'LpPool'],
    applies: windowDoesNotFit,
    what: "when a window does not fit the padded input, onnxruntime divides truncating toward zero and gives 1 or 0 where the specification's floor gives 0 or a negative size (AveragePool (1, 1, 1, 1), kernel 2, stride 2: onnxruntime 1, the formula 0)",
  },
];

/** The deviation a case falls under, if any. */
export function runtimeDeviationOf(r: NodeRecord): RuntimeDeviation | null {
  return RUNTIME_DEVIATIONS.find((d) => d.ops.includes(r.op_type) && d.applies(r)) ?? null;
}
