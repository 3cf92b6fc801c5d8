// The ONNX wire schema's coders built by protobufjs's reflection (parsing the schema
// onnx-wire.proto, generating each message's functions): what the static code of
// wire-static.js was generated from, kept for the test that checks both read the same.
import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import type { WireMessage, WireType } from './wire-schema.js';

/** The schema file (beside this source file: for tests and scripts run from the sources, not the bundle). */
export const WIRE_PROTO = new URL('./onnx-wire.proto', import.meta.url);

let root: protobuf.Root | null = null;

/** The message type `name` of the schema, by reflection (parsed once). */
export function reflectedWireType(name: WireMessage): WireType {
  root ??= protobuf.parse(readFileSync(WIRE_PROTO, 'utf8'), { keepCase: true }).root;
  return root.lookupType(`shapelog.onnx.${name}`) as unknown as WireType;
}
