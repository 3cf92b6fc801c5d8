// Writing inferred types back into a model: the original bytes, then a ModelProto that
// holds only graph.value_info entries. Protobuf merges a message field that occurs twice
// and appends repeated fields, so every reader sees the original model with the extra
// value_info, and nothing of the original is lost (not even fields shapelog does not read).
import { wireType } from './wire-schema.js';
import { dtypeNumber } from './dtypes.js';

export interface ValueInfoEntry {
  readonly name: string;
  readonly dtype: string;
  /** null: unknown rank; a dim: an int, a symbolic dim's text (written as dim_param), or null (unknown) */
  readonly shape: readonly (number | string | null)[] | null;
}

function typeProto(v: ValueInfoEntry): Record<string, unknown> {
  const shape = v.shape === null ? {} : { shape: { dim: v.shape.map((d) => (d === null ? {} : typeof d === 'number' ? { dim_value: d } : { dim_param: d })) } };
  return { tensor_type: { elem_type: dtypeNumber(v.dtype), ...shape } };
}

/** `model` with `entries` added to its main graph's value_info. */
export function withValueInfo(model: Uint8Array, entries: readonly ValueInfoEntry[]): Uint8Array {
  const Model = wireType('Model');
  const extra = Model.encode(Model.fromObject({ graph: [{ value_info: entries.filter((e) => dtypeNumber(e.dtype) !== null).map((e) => ({ name: e.name, type: typeProto(e) })) }] })).finish();
  const out = new Uint8Array(model.length + extra.length);
  out.set(model, 0);
  out.set(extra, model.length);
  return out;
}
