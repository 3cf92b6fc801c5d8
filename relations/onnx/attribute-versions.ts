// Which attributes each ONNX operator version has: the one owner of that fact, read from
// attribute-versions.json (written by scripts/onnx-attribute-versions.py from ONNX's own
// schema registry, python3-onnx's onnx.defs, which covers opsets up to its release's
// newest: 17 for ai.onnx with onnx 1.12). The operator declarations give attributes
// their types and defaults and may share one relation across versions (Reshape 5 and 14);
// this table says which version has which, so that a node using an attribute that only a
// later (or only an earlier) version has is an error naming the node, the attribute and
// the versions that have it. A node at an opset newer than the table covers, or of an
// operator the table does not know, is not checked.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ONNX_RULES_DIR } from './library.js';

interface Table {
  readonly onnx: string;
  /** The newest opset version the table covers, per domain ('' = ai.onnx). */
  readonly newest: Readonly<Record<string, number>>;
  /** `domain::op_type` → [since_version, attribute names] per version, oldest first. */
  readonly ops: Readonly<Record<string, readonly (readonly [number, readonly string[]])[]>>;
}

let table: Table | null = null;

function attributeTable(): Table {
  return (table ??= JSON.parse(readFileSync(join(ONNX_RULES_DIR, 'attribute-versions.json'), 'utf8')) as Table);
}

/** The versions of an operator that have attribute `name`, as text: "opset 10 and later", "opsets 1 to 5", or null when none has it. */
export function versionsWithAttribute(domain: string, opType: string, name: string): string | null {
  const t = attributeTable();
  const versions = t.ops[`${domain}::${opType}`];
  if (versions === undefined) return null;
  const ranges: string[] = [];
  versions.forEach(([since, attrs], i) => {
    if (!attrs.includes(name)) return;
    const prev = versions[i - 1];
    if (prev?.[1].includes(name)) return; // continues the range before
    let j = i;
    while (j + 1 < versions.length && versions[j + 1]![1].includes(name)) j++;
    const next = versions[j + 1];
    ranges.push(next === undefined ? `opset ${since} and later` : next[0] - 1 === since ? `opset ${since}` : `opsets ${since} to ${next[0] - 1}`);
  });
  return ranges.length === 0 ? null : ranges.join(', ');
}

/** A node (its domain, op_type and attributes) at opset `version`: a message when its operator version lacks one of them; else null. */
export function attributeOutsideVersion(
  n: { readonly domain: string; readonly opType: string; readonly attrs: ReadonlyMap<string, unknown> },
  version: number,
): string | null {
  const t = attributeTable();
  const versions = t.ops[`${n.domain}::${n.opType}`];
  const newest = t.newest[n.domain];
  if (versions === undefined || newest === undefined || version > newest) return null;
  const bound = [...versions].reverse().find(([since]) => since <= version);
  if (bound === undefined) return null;
  for (const name of n.attrs.keys()) {
    if (bound[1].includes(name)) continue;
    const has = versionsWithAttribute(n.domain, n.opType, name);
    return `${n.opType}-${bound[0]} (the version of opset ${version}) has no attribute '${name}'; ${has === null ? `no version of ${n.opType} up to opset ${newest} has it` : `${n.opType} has it at ${has}`}`;
  }
  return null;
}
