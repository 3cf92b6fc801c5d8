// The numbers the store and the engine pass side by side, each a type of its own
// (egglog's `define_id!`): a round's stamp, a rule's number, and a fact's origin (a rule,
// or one of two named sentinels). A branded number is a plain number at run time; the
// brand only makes the compiler refuse one where another is due, so that
// `record(fact, round, origin)` cannot take its arguments in the wrong order. A value of
// these types is made by the functions here, or read back from the typed array that
// stores it by that array's owner.

declare const STAMP: unique symbol;
/**
 * A round's timestamp. The facts a round adds carry its stamp; a snapshot whose next
 * stamp is N holds the facts stamped below N. Stamps start at FIRST_STAMP; NEVER (0) is
 * below every one.
 */
export type Stamp = number & { readonly [STAMP]: true };

/** Below every stamp: when a plan never ran, or a window that starts at the beginning. */
export const NEVER = 0 as Stamp;
/** The stamp of an empty database's first round. */
export const FIRST_STAMP = 1 as Stamp;

/** The stamp of the round after the one stamped `s`. */
export function nextStamp(s: Stamp): Stamp {
  return (s + 1) as Stamp;
}

declare const RULE: unique symbol;
/** A compiled rule's number: its index in the program's rules (compile/ir.ts `Rule.id`). */
export type RuleId = number & { readonly [RULE]: true };

export function ruleId(index: number): RuleId {
  return index as RuleId;
}

declare const SENTINEL: unique symbol;
type OriginSentinel = number & { readonly [SENTINEL]: true };

/** The origin of a fact stated in the source text. */
export const GIVEN = -1 as OriginSentinel;
/** The origin of the resolved form of an older fact, rebuilt once holes it mentions were bound (its one premise is the older fact). */
export const REBUILT = -2 as OriginSentinel;

/** What put a fact in the database: the rule that derived it, GIVEN or REBUILT. */
export type Origin = RuleId | typeof GIVEN | typeof REBUILT;
