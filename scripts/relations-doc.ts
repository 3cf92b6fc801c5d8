// Builds docs/relations.md from the operator declarations and the rules of the rule
// files (relations/*.rules): per operator its relation, arguments,
// attributes, result, output-shape formula, backward inference, errors (the
// messages of the relation's error rules), deviations from TVM, an example
// call with the type the rules infer, and the rules themselves.
//
//   npm run docs:relations            write docs/relations.md
//   npm run docs:relations -- --check exit 1 if docs/relations.md is stale
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ruleLibrary } from '../relations/library.js';
import { allOps, attrValueText, describeType, type AttrSpec, type OpInfo } from '../relations/catalogue.js';
import { argSignature } from '../relations/op-arity.js';
import { typeofCall } from '../typing/typeof.js';
import { attrValue } from '../relations/imperative/solve-one.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'docs', 'relations.md');

/** One rule or relation declaration of a rule file: its whole lines, from the line it starts on to the line it ends on. */
interface Statement {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** The rules and relation declarations of the library (operator, text and group declarations are shown per operator instead). */
function loadStatements(): Statement[] {
  const out: Statement[] = [];
  for (const program of ruleLibrary().sources.programs) {
    const file = program.file.replace(/^.*?(relations\/[^/]+\.rules)$/, '$1');
    const lines = ruleLibrary().sources.texts.get(program.file)!.split('\n');
    let last = 0;
    for (const s of program.statements) {
      if (s.kind !== 'clause' && s.kind !== 'relation') continue;
      // statements sharing a line are shown once, together
      const from = Math.max(s.span.start.line, last + 1);
      if (from > s.span.end.line) continue;
      out.push({ file, line: from, text: lines.slice(from - 1, s.span.end.line).join('\n') });
      last = s.span.end.line;
    }
  }
  return out;
}

const ALL = loadStatements();

function rulesOf(relation: string): Statement[] {
  const re = new RegExp(`\\b${relation}\\(`);
  return ALL.filter((s) => re.test(s.text));
}

function errorsOf(relation: string): string[] {
  const msgs = rulesOf(relation).flatMap((s) => [...s.text.matchAll(/error\("((?:[^"\\]|\\.)*)"\)/g)].map((m) => m[1]!));
  return [...new Set(msgs)];
}

function attrRow(s: AttrSpec): string {
  const def = s.default === 'required' ? '*required*' : `\`${attrValueText(s.default)}\``;
  const constraint = [
    describeType(s),
    s.min !== undefined ? `each >= ${s.min}` : '',
    s.max !== undefined ? `each <= ${s.max}` : '',
    s.format !== undefined ? s.format : '',
  ]
    .filter((x) => x !== '')
    .join('; ');
  return `| \`${s.name}\` | ${constraint} | ${def} | ${s.doc.replace(/\|/g, '\\|')} |`;
}

function resultText(op: OpInfo): string {
  switch (op.result.kind) {
    case 'tensor':
      return 'a tensor';
    case 'tuple':
      return `a tuple of ${op.result.size} tensors`;
    case 'depends':
      return `a tuple whose size depends on \`${op.result.attr}\`: ${op.result.rule}`;
  }
}

function exampleText(op: OpInfo): string[] {
  if (op.example === undefined) return [];
  const req = { op: op.name, args: op.example.args, ...(op.example.attrs !== undefined ? { attrs: op.example.attrs } : {}) };
  const a = typeofCall(req, 'rules');
  const attrs = Object.entries(op.example.attrs ?? {}).map(([k, v]) => `${k}=${attrValueText(attrValue(v))}`);
  const call = `${op.name}(${[...op.example.args.map((t, i) => `${op.args[i] ?? `arg${i}`}: ${t}`), ...attrs].join(', ')})`;
  return [
    '**Example**',
    '',
    '```',
    call,
    `  → ${'type' in a ? a.type : `error: ${a.error}`}`,
    ...('type' in a && a.args.some((t, i) => t !== op.example!.args[i]) ? [`  arguments inferred: ${a.args.join(', ')}`] : []),
    '```',
    '',
  ];
}

function section(op: OpInfo): string[] {
  const out: string[] = [`### \`${op.name}\``, '', op.doc, ''];
  out.push(`- **relation**: \`${op.relation}\``);
  out.push(
    `- **arguments**: ${
      op.args.length === 0
        ? 'none'
        : argSignature(op)
            .split(', ')
            .map((a) => `\`${a}\``)
            .join(', ')
    }`,
  );
  out.push(`- **result**: ${resultText(op)}`);
  if (op.formula !== undefined) out.push(`- **output shape**: ${op.formula}`);
  out.push(`- **infers backwards**: ${op.backwards ?? 'nothing'}`);
  out.push('');
  if (op.attrs.length > 0) {
    out.push('| attribute | type and constraint | default | meaning |', '|---|---|---|---|', ...op.attrs.map(attrRow), '');
  }
  const errors = errorsOf(op.relation);
  if (errors.length > 0) out.push('**Errors** (from the rules; `{X}` is filled in):', '', ...errors.map((e) => `- ${e}`), '');
  if (op.deviations !== undefined && op.deviations.length > 0) out.push('**Deviations from TVM**', '', ...op.deviations.map((d) => `- ${d}`), '');
  out.push(...exampleText(op));
  return out;
}

function relationRules(relation: string): string[] {
  const rules = rulesOf(relation);
  if (rules.length === 0) return [];
  const byFile = new Map<string, Statement[]>();
  for (const s of rules) byFile.set(s.file, [...(byFile.get(s.file) ?? []), s]);
  const out = [`### \`${relation}\``, ''];
  for (const [file, ss] of byFile) out.push(`From \`${file}\`:`, '', '```prolog', ...ss.map((s) => s.text), '```', '');
  return out;
}

function familyOf(op: OpInfo): string {
  return op.relation;
}

export function render(): string {
  const ops = allOps();
  const relations = [...new Set(ops.map(familyOf))];
  const out: string[] = [
    '# Relation library',
    '',
    '<!-- Generated by scripts/relations-doc.ts from the declarations and rules in relations/*.rules: do not edit; run `npm run docs:relations`. -->',
    '',
    `${ops.length} operators, typed by ${relations.length} relations. Each is written as rules (\`relations/*.rules\`) and as a hand-coded twin (\`relations/imperative/\`); \`shapelog check\` cross-checks the two on an exhaustive sweep and random cases, and both against the reference executor (\`proofs/reference/\`). Attribute names, argument order and defaults follow TVM's Python API.`,
    '',
    '## Operators',
    '',
    '| operator | relation | arguments | result |',
    '|---|---|---|---|',
    ...ops.map(
      (op) =>
        `| [\`${op.name}\`](#${anchor(op.name)}) | \`${op.relation}\` | ${argSignature(op)} | ${op.result.kind === 'tensor' ? 'tensor' : op.result.kind === 'tuple' ? `tuple of ${op.result.size}` : 'tuple'} |`,
    ),
    '',
  ];
  for (const op of ops) out.push(...section(op));
  out.push('## The rules of each relation', '');
  for (const r of relations) out.push(...relationRules(r));
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

function anchor(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9_ -]/g, '')
    .replace(/ /g, '-');
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const text = render();
  if (process.argv.includes('--check')) {
    let old = '';
    try {
      old = readFileSync(target, 'utf8');
    } catch {
      /* missing */
    }
    if (old !== text) {
      console.error('docs/relations.md is out of date: run `npm run docs:relations`');
      process.exit(1);
    }
    console.log('docs/relations.md is up to date');
  } else {
    writeFileSync(target, text);
    console.log(`wrote docs/relations.md (${allOps().length} operators)`);
  }
}
