// The result of one run of a program, reduced to a count and a sha256 of its sorted text so
// that strategies can be compared across processes: a rule file's facts (grouped by
// predicate, sorted) and error messages, a goal's answers, or a Relay program's binding types.
import { createHash } from 'node:crypto';
import type { RunResult } from '../solver/run.js';
import type { InferResult } from '../typing/infer.js';
import type { AnswerDigest } from './bench-protocol.js';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function errorMessages(diagnostics: readonly { severity: string; message: string }[]): string[] {
  return diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => d.message)
    .sort();
}

/** Every fact and error message of a rule program's run; with a goal, its answers instead of the facts. */
export function rulesDigest(r: RunResult): AnswerDigest {
  const errors = errorMessages(r.diagnostics);
  const answers = r.answerTexts;
  if (answers !== null)
    return { what: 'answers', count: answers.length, digest: sha256([...answers, '% errors', ...errors].join('\n')), errors: errors.length };
  const lines: string[] = [];
  let count = 0;
  for (const [pred, facts] of r.factsByPredicate()) {
    lines.push(`% ${pred}`, ...facts);
    count += facts.length;
  }
  lines.push('% errors', ...errors);
  return { what: 'facts', count, digest: sha256(lines.join('\n')), errors: errors.length };
}

/**
 * Every binding's type and each function's type; whether the program has type errors, not
 * their wording (the strategies word them differently), as `shapelog demo` compares them.
 */
export function typesDigest(r: InferResult): AnswerDigest {
  const errors = r.diagnostics.filter((d) => d.severity === 'error').length;
  const lines = [
    ...[...r.outcome.functions].map(([name, type]) => `@${name} : ${type}`).sort(),
    ...r.outcome.bindings.map((b) => `@${b.fn} ${b.name} : ${b.type}`),
    `type errors: ${errors > 0 ? 'yes' : 'no'}`,
  ];
  return { what: 'types', count: r.outcome.bindings.length, digest: sha256(lines.join('\n')), errors };
}
