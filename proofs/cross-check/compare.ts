// Runs one call case with both strategies (rules and the imperative twins) and
// classifies the pair of answers (the harness, harness.ts, runs it over many cases).
// Two refusals agree whatever their messages; a crash (an exception escaping a
// strategy) never agrees with anything, not even with another crash.
import { parseType } from '../../relations/imperative/type-text.js';
import { printType, TypeSolverState } from '../../relations/imperative/types.js';
import { typeofCall, type TypeofAnswer, type TypeofRequest } from '../../typing/typeof.js';

export type Verdict = { readonly kind: 'agree' } | { readonly kind: 'disagree'; readonly rules: TypeofAnswer; readonly relay: TypeofAnswer };

export interface Answers {
  readonly rules: TypeofAnswer;
  readonly relay: TypeofAnswer;
}

/** The answer standing for an exception that escaped a strategy: an error answer marked as a crash. */
export type CrashAnswer = { readonly error: string; readonly crash: true };

export function crashAnswer(e: unknown): CrashAnswer {
  return { error: `crash: ${e instanceof Error ? e.message : String(e)}`, crash: true };
}

export function isCrash(a: TypeofAnswer): boolean {
  return 'crash' in a && (a as CrashAnswer).crash;
}

/** Both strategies' answers to one call; an exception becomes a crash answer. */
export function answers(c: TypeofRequest): Answers {
  return { rules: safeTypeof(c, 'rules'), relay: safeTypeof(c, 'relay') };
}

/** One strategy's answer, an exception caught as a crash answer. */
export function safeTypeof(
  c: TypeofRequest,
  strategy: 'rules' | 'relay',
  run: (c: TypeofRequest, strategy: 'rules' | 'relay') => TypeofAnswer = typeofCall,
): TypeofAnswer {
  try {
    return run(c, strategy);
  } catch (e) {
    return crashAnswer(e);
  }
}

/** Type text in canonical form (symbolic sizes normalised), or the text itself if it does not parse. */
function canon(text: string): string {
  const p = parseType(text, new TypeSolverState());
  return p.ok ? printType(p.type) : text;
}

/** `agree` when both answers are refusals (not crashes), or both have the same result and argument types. */
export function classify(rules: TypeofAnswer, relay: TypeofAnswer): Verdict {
  if (isCrash(rules) || isCrash(relay)) return { kind: 'disagree', rules, relay };
  if ('error' in rules && 'error' in relay) return { kind: 'agree' };
  if ('type' in rules && 'type' in relay) {
    const same =
      canon(rules.type) === canon(relay.type) && rules.args.length === relay.args.length && rules.args.every((a, i) => canon(a) === canon(relay.args[i]!));
    if (same) return { kind: 'agree' };
  }
  return { kind: 'disagree', rules, relay };
}

/** Classifies both strategies' answers to `c`; `answer` is replaceable for testing the comparison itself. */
export function compareCase(c: TypeofRequest, answer: (c: TypeofRequest) => Answers = answers): Verdict {
  const { rules, relay } = answer(c);
  return classify(rules, relay);
}

/** What kind of disagreement: `stuck` = no error but an unresolved result (`_`); `crash` = an exception. */
export function disagreementKind(rules: TypeofAnswer, relay: TypeofAnswer): string {
  const side = (a: TypeofAnswer): string => (isCrash(a) ? 'crash' : 'error' in a ? 'error' : a.type === '_' ? 'stuck' : 'type');
  return `rules ${side(rules)} / relay ${side(relay)}`;
}
