// The cases of the ONNX cross-check: one-node calls in the record format of ONNX's
// node conformance data (`typeof --onnx`'s input). Seeds are the single-node cases of
// that data (seeds.jsonl, see README.md); each operator's sweep is its seeds, each seed
// at every opset version that has its own declaration, with one dim at a time made 1 or
// 0, and with dims made symbolic (every occurrence of a value the same size variable);
// --random N adds seeded random edits of those kinds, a dim changed to any small size
// and an int attribute moved by one.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normDomain } from '../../frontends/onnx/decode.js';
import { onnxLibrary } from '../../relations/onnx/library.js';
import { packageRoot } from '../../relations/library.js';

export type RecordDim = number | string | null;
export type RecordInput = { readonly absent: true } | { readonly dtype: string; readonly shape: readonly RecordDim[] | null; readonly values?: unknown };
export interface NodeRecord {
  readonly name?: string;
  readonly op_type: string;
  readonly domain: string;
  readonly opset: number;
  readonly attributes: Readonly<Record<string, { readonly type: string; readonly value: unknown }>>;
  readonly inputs: readonly RecordInput[];
  readonly outputs?: readonly unknown[];
}

export interface OnnxCase {
  /** What the case is: the seed's name and the edits made to it. */
  readonly label: string;
  readonly record: NodeRecord;
  /** Size variables of the record and the sizes they had in the seed (a concrete instance). */
  readonly sizes: ReadonlyMap<string, number>;
}

function seedsPath(): string {
  const beside = join(dirname(fileURLToPath(import.meta.url)), 'seeds.jsonl');
  return existsSync(beside) ? beside : join(packageRoot(), 'proofs', 'onnx-cross-check', 'seeds.jsonl');
}

let seeds: NodeRecord[] | null = null;

/** Every seed, in file order. */
export function allSeeds(): readonly NodeRecord[] {
  return (seeds ??= readFileSync(seedsPath(), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as NodeRecord));
}

/** `domain::op_type` of a record, the name --ops takes (the domain omitted for ai.onnx). */
export function opKey(r: Pick<NodeRecord, 'domain' | 'op_type'>): string {
  const d = normDomain(r.domain);
  return d === '' ? r.op_type : `${d}::${r.op_type}`;
}

/** The operators that have seeds, in file order. */
export function seededOps(): string[] {
  return [...new Set(allSeeds().map(opKey))];
}

const hasValues = (i: RecordInput): boolean => !('absent' in i) && i.values !== undefined;
const shapeOf = (i: RecordInput): readonly RecordDim[] | null => ('absent' in i ? null : i.shape);

function withShape(r: NodeRecord, input: number, shape: readonly RecordDim[]): NodeRecord {
  return { ...r, inputs: r.inputs.map((x, i) => (i === input ? { ...(x as Exclude<RecordInput, { absent: true }>), shape } : x)) };
}

/** Inputs whose shape may be edited: given, of known rank, without values (values fix the shape). */
function editable(r: NodeRecord): number[] {
  return r.inputs.flatMap((x, i) => (!hasValues(x) && shapeOf(x) !== null && shapeOf(x)!.length > 0 ? [i] : []));
}

/** Every occurrence of `value` in the editable inputs' shapes made the size variable `name`. */
function symbolic(r: NodeRecord, value: number, name: string): NodeRecord {
  let out = r;
  for (const i of editable(r))
    out = withShape(
      out,
      i,
      shapeOf(out.inputs[i]!)!.map((d) => (d === value ? name : d)),
    );
  return out;
}

/** The opset versions with their own declaration of the record's operator, from 7 on. */
function declaredVersions(r: NodeRecord): number[] {
  const list = onnxLibrary().byOp.get(`${normDomain(r.domain)}\0${r.op_type}`) ?? [];
  return [...new Set(list.map((o) => Math.max(7, o.since)))].sort((a, b) => a - b);
}

/** The sweep of one seed. */
export function sweepOf(seed: NodeRecord): OnnxCase[] {
  const name = seed.name ?? seed.op_type;
  const out: OnnxCase[] = [{ label: name, record: seed, sizes: new Map() }];
  for (const v of declaredVersions(seed))
    if (v !== seed.opset && normDomain(seed.domain) === '') out.push({ label: `${name} at opset ${v}`, record: { ...seed, opset: v }, sizes: new Map() });
  const first = editable(seed)[0];
  if (first !== undefined) {
    const shape = shapeOf(seed.inputs[first]!)!;
    for (let axis = 0; axis < Math.min(shape.length, 3); axis++) {
      if (shape[axis] !== 1)
        out.push({
          label: `${name} with input ${first} dim ${axis} = 1`,
          record: withShape(
            seed,
            first,
            shape.map((d, a) => (a === axis ? 1 : d)),
          ),
          sizes: new Map(),
        });
    }
    out.push({
      label: `${name} with input ${first} dim 0 = 0`,
      record: withShape(
        seed,
        first,
        shape.map((d, a) => (a === 0 ? 0 : d)),
      ),
      sizes: new Map(),
    });
    const values = [...new Set(shape.filter((d): d is number => typeof d === 'number' && d >= 2))].slice(0, 2);
    for (const v of values) out.push({ label: `${name} with every ${v} a size variable`, record: symbolic(seed, v, `s${v}`), sizes: new Map([[`s${v}`, v]]) });
    if (values.length === 2)
      out.push({
        label: `${name} with every dim of size >= 2 a size variable`,
        record: values.reduce((r, v) => symbolic(r, v, `s${v}`), seed),
        sizes: new Map(values.map((v) => [`s${v}`, v])),
      });
  }
  return out;
}

/** The seeded generator of the random edits (the reference executor's mulberry32). */
export { rng as seeded } from '../reference/tensor.js';

const SIZES = [0, 1, 2, 3, 4, 5, 7];

/** One random edit of a random seed of the operator. */
export function randomCase(seedsOfOp: readonly NodeRecord[], rand: () => number): OnnxCase {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const seed = pick(seedsOfOp);
  const name = seed.name ?? seed.op_type;
  const kinds = ['dim', 'dim', 'symbolic', 'opset', 'attribute'];
  for (let tries = 0; tries < 8; tries++) {
    const kind = pick(kinds);
    const inputs = editable(seed);
    if (kind === 'dim' && inputs.length > 0) {
      const i = pick(inputs);
      const shape = shapeOf(seed.inputs[i]!)!;
      const axis = Math.floor(rand() * shape.length);
      const size = pick(SIZES);
      return {
        label: `${name} with input ${i} dim ${axis} = ${size}`,
        record: withShape(
          seed,
          i,
          shape.map((d, a) => (a === axis ? size : d)),
        ),
        sizes: new Map(),
      };
    }
    if (kind === 'symbolic' && inputs.length > 0) {
      const values = [...new Set(inputs.flatMap((i) => shapeOf(seed.inputs[i]!)!.filter((d): d is number => typeof d === 'number' && d >= 1)))];
      if (values.length === 0) continue;
      const v = pick(values);
      return { label: `${name} with every ${v} a size variable`, record: symbolic(seed, v, `s${v}`), sizes: new Map([[`s${v}`, v]]) };
    }
    if (kind === 'opset') {
      const versions = declaredVersions(seed).filter((v) => v !== seed.opset);
      if (versions.length === 0 || normDomain(seed.domain) !== '') continue;
      const v = pick(versions);
      return { label: `${name} at opset ${v}`, record: { ...seed, opset: v }, sizes: new Map() };
    }
    if (kind === 'attribute') {
      const ints = Object.entries(seed.attributes).filter(([, a]) => a.type === 'int' || a.type === 'ints');
      if (ints.length === 0) continue;
      const [key, a] = pick(ints);
      const delta = rand() < 0.5 ? -1 : 1;
      const value = a.type === 'int' ? Number(a.value) + delta : (a.value as number[]).map((x, k) => (k === 0 ? x + delta : x));
      return {
        label: `${name} with ${key} = ${JSON.stringify(value)}`,
        record: { ...seed, attributes: { ...seed.attributes, [key]: { type: a.type, value } } },
        sizes: new Map(),
      };
    }
  }
  return { label: name, record: seed, sizes: new Map() };
}

/** The record with its size variables replaced by their sizes. */
export function concrete(c: OnnxCase): NodeRecord {
  if (c.sizes.size === 0) return c.record;
  return {
    ...c.record,
    inputs: c.record.inputs.map((x) =>
      'absent' in x || x.shape === null ? x : { ...x, shape: x.shape.map((d) => (typeof d === 'string' && c.sizes.has(d) ? c.sizes.get(d)! : d)) },
    ),
  };
}

/** Smaller versions of a record: each editable concrete dim above 1 made 1, then halved. */
export function smallerRecords(r: NodeRecord): NodeRecord[] {
  const out: NodeRecord[] = [];
  for (const i of editable(r)) {
    const shape = shapeOf(r.inputs[i]!)!;
    shape.forEach((d, a) => {
      if (typeof d !== 'number' || d <= 1) return;
      out.push(
        withShape(
          r,
          i,
          shape.map((x, b) => (b === a ? 1 : x)),
        ),
      );
      if (d > 2)
        out.push(
          withShape(
            r,
            i,
            shape.map((x, b) => (b === a ? Math.floor(d / 2) : x)),
          ),
        );
    });
  }
  return out;
}
