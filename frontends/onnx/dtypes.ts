// ONNX's element types: the TensorProto.DataType numbers and the names shapelog prints
// (numpy-style, as in the conformance records: float32, int64, bool, ...).

const NAMES: readonly (string | null)[] = [
  null,
  'float32',
  'uint8',
  'int8',
  'uint16',
  'int16',
  'int32',
  'int64',
  'string',
  'bool',
  'float16',
  'float64',
  'uint32',
  'uint64',
  'complex64',
  'complex128',
  'bfloat16',
  'float8e4m3fn',
  'float8e4m3fnuz',
  'float8e5m2',
  'float8e5m2fnuz',
  'uint4',
  'int4',
  'float4e2m1',
  'float8e8m0',
  'uint2',
  'int2',
];

/** The name of data type number `n`, or null for UNDEFINED or a number this reader does not know. */
export function dtypeName(n: number): string | null {
  return NAMES[n] ?? null;
}

/** The data type number of a dtype name, or null. */
export function dtypeNumber(name: string): number | null {
  const i = NAMES.indexOf(name);
  return i > 0 ? i : null;
}

/** Integer and bool dtypes: their small tensors keep values (they drive shapes). */
export function isIntegral(dtype: string): boolean {
  return /^u?int(8|16|32|64)$/.test(dtype) || dtype === 'bool';
}
