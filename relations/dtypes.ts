// The scalar dtypes shapelog types: those of the rules' dtype_name table
// (relations/lib.rules). One list for the imperative twins, the reference executor and
// Relay's constraint generation; test/dtypes.test.ts checks it against the rules' table.
export const SCALAR_DTYPES: ReadonlySet<string> = new Set([
  'bool',
  'int8',
  'int16',
  'int32',
  'int64',
  'uint8',
  'uint16',
  'uint32',
  'uint64',
  'float16',
  'float32',
  'float64',
  'bfloat16',
]);
