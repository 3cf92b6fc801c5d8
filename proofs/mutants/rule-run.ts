// One mutation of a rule file, run in this process: the library with the mutated file
// (proofs/cross-check/versions.ts) types each of the mutation's operators on the sweep
// and seeded random cases, against the imperative twins (the unmutated ones) and the
// reference executor. Detected when the twins disagree with the mutated rules, or the
// reference executor finds an answer unsound, a rejection its STRICTER entry does not
// cover, or crashes.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { checkOp } from '../cross-check/harness.js';
import { answersWith, plantedLibrary } from '../cross-check/versions.js';
import { type Mutation, occurrences } from './mutation.js';

export interface RuleMutantOutcome {
  readonly outcome: 'detected' | 'survived' | 'invalid';
  /** The first counterexample (or reference problem) when detected; the reason when invalid. */
  readonly detail: string;
}

export function runRuleMutation(root: string, m: Mutation, random: number): RuleMutantOutcome {
  const n = occurrences(readFileSync(join(root, m.file), 'utf8'), m.find);
  if (n !== 1) return { outcome: 'invalid', detail: `the text to replace occurs ${n} times in ${m.file}` };
  let library: ReturnType<typeof plantedLibrary>;
  try {
    library = plantedLibrary(basename(m.file), m.find, m.replace);
  } catch (e) {
    return { outcome: 'invalid', detail: e instanceof Error ? e.message : String(e) };
  }
  const answer = answersWith(library);
  for (const op of m.ops) {
    const r = checkOp(op, { random, seed: 7, answer, keep: 1 });
    if (r.disagree > 0) return { outcome: 'detected', detail: r.counterexamples[0]?.line ?? '' };
    const problem = r.reference?.problems[0];
    if (problem !== undefined) return { outcome: 'detected', detail: `reference ${problem.kind}: ${problem.line}` };
  }
  return { outcome: 'survived', detail: '' };
}
