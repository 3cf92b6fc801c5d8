// What an edit of the rules changed: one operator's sweep and random cases (the same
// cases as the cross-check, harness.ts) typed by the rules as they are and by another
// version of the library (older rule files, versions.ts). Every case whose answer
// changed is reported; the first few are shrunk (shrink.ts) to a minimal case that
// still changes, as a ready-to-paste `shapelog typeof` line with both answers.
//
// Two answers are the same when classify (compare.ts) has them agree: both refusals
// (whatever the messages), or the same result and argument types. A crash on either
// side is always a change.
import type { RuleLibrary } from '../../relations/library.js';
import { typeofCall, type TypeofAnswer, type TypeofRequest } from '../../typing/typeof.js';
import { classify, disagreementKind, safeTypeof } from './compare.js';
import { casesToCheck } from './harness.js';
import { shrinkCase } from './shrink.js';
import { rulesAnswer } from './versions.js';

export interface VersionOptions {
  readonly depth?: number;
  readonly random?: number;
  readonly seed?: number;
  /** Changed cases shrunk per operator (default 10); the others are reported as found. */
  readonly shrink?: number;
  readonly onCase?: () => void;
}

export interface AnswerChange {
  /** The case as a `shapelog typeof` input line: shrunk for the first few, else as found. */
  readonly line: string;
  readonly found: string;
  readonly shrunk: boolean;
  readonly source: 'sweep' | 'random';
  /** The answer of the rules as they are now, and of the other version. */
  readonly now: TypeofAnswer;
  readonly before: TypeofAnswer;
  /** `now type / before error` and so on. */
  readonly kind: string;
}

export interface VersionDiff {
  readonly op: string;
  readonly cases: number;
  readonly same: number;
  readonly changed: number;
  /** Every changed case (shrunk ones first, the same shrunk line once). */
  readonly changes: AnswerChange[];
}

const nowAnswer = (c: TypeofRequest): TypeofAnswer => safeTypeof(c, 'rules', (x, s) => typeofCall(x, s));

/** Whether the two versions answer `c` differently. */
function differs(before: (c: TypeofRequest) => TypeofAnswer) {
  return (c: TypeofRequest): boolean => classify(nowAnswer(c), before(c)).kind === 'disagree';
}

export function compareVersions(op: string, older: RuleLibrary, options: VersionOptions = {}): VersionDiff {
  const before = rulesAnswer(older);
  const { sweep, random } = casesToCheck(op, options);
  const found: { c: TypeofRequest; source: 'sweep' | 'random'; now: TypeofAnswer; before: TypeofAnswer }[] = [];
  const seen = new Set<string>();
  let cases = 0;
  for (const [source, list] of [
    ['sweep', sweep],
    ['random', random],
  ] as const) {
    for (const c of list) {
      const key = JSON.stringify(c);
      options.onCase?.();
      if (seen.has(key)) continue;
      seen.add(key);
      cases++;
      const a = nowAnswer(c);
      const b = before(c);
      if (classify(a, b).kind === 'disagree') found.push({ c, source, now: a, before: b });
    }
  }
  const limit = options.shrink ?? 10;
  const changes: AnswerChange[] = [];
  const lines = new Set<string>();
  for (const [i, f] of found.entries()) {
    const small = i < limit ? shrinkCase(f.c, differs(before)) : f.c;
    const line = JSON.stringify(small);
    if (i < limit && lines.has(line)) continue;
    lines.add(line);
    const now = i < limit ? nowAnswer(small) : f.now;
    const was = i < limit ? before(small) : f.before;
    changes.push({
      line,
      found: JSON.stringify(f.c),
      shrunk: i < limit,
      source: f.source,
      now,
      before: was,
      kind: disagreementKind(now, was).replace('rules', 'now').replace('relay', 'before'),
    });
  }
  return { op, cases, same: cases - found.length, changed: found.length, changes };
}
