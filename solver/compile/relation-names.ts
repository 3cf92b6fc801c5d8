// The names of the relations the compiler makes, and how to read them back: the one
// owner of that encoding (every other file asks these functions, none parses a name).
//
// - An adorned copy `p@bbf`: the rules of a user's predicate `p` evaluated on demand,
//   for calls with this binding pattern (b: bound, f: free; compile/demand.ts).
// - A demand relation `$demand:p@bbf`: the bound arguments of the calls of `p@bbf` made
//   so far; the copy's rules read it first, so they fire only for what was asked.
// - A projection `$proj:N` and a part `$part:N` (compile/projection.ts): a per-call
//   relation read without the columns a rule ignores, and a rule split in two; their
//   facts stand for the facts they were derived from (explanations walk through them).
// - An error relation `$error:N`: the bindings for which rule N, whose head is `error(...)`,
//   fired (compile/plan.ts); each becomes a diagnostic.
//
// Every such name starts with `$` or contains `@`, which no predicate of the rule
// language can (its names are identifiers), so a user's relation is never taken for one.

const DEMAND = '$demand:';
const PROJECTION = '$proj:';
const PART = '$part:';
const ERROR = '$error:';

/** The copy of `pred` for calls with binding pattern `pattern` (`bcast@bbf`). */
export function adornedName(pred: string, pattern: string): string {
  return `${pred}@${pattern}`;
}

/** The demand relation of `pred`'s copy for `pattern` (`$demand:bcast@bbf`). */
export function demandName(pred: string, pattern: string): string {
  return `${DEMAND}${adornedName(pred, pattern)}`;
}

/** The demand relation guarding an adorned copy (`p@bf` → `$demand:p@bf`), or null when `name` is not an adorned copy. */
export function demandOfCopy(name: string): string | null {
  return isAdornedCopy(name) ? `${DEMAND}${name}` : null;
}

export function projectionName(n: number): string {
  return `${PROJECTION}${n}`;
}

export function partName(n: number): string {
  return `${PART}${n}`;
}

/** The relation of the errors rule `ruleId` reports. */
export function errorRelation(ruleId: number): string {
  return `${ERROR}${ruleId}`;
}

/** `$error:N`. */
export function isErrorRelation(name: string): boolean {
  return name.startsWith(ERROR);
}

/** `p@bbf`: an adorned copy of a user's predicate. */
export function isAdornedCopy(name: string): boolean {
  return !name.startsWith('$') && name.includes('@');
}

/** `$demand:p@bbf`. */
export function isDemandRelation(name: string): boolean {
  return name.startsWith(DEMAND);
}

/** `$proj:N` or `$part:N`: facts that stand for the facts they were derived from. */
export function isProjection(name: string): boolean {
  return name.startsWith(PROJECTION) || name.startsWith(PART);
}

/** A demand, projection, part or error relation: a relation with no user predicate behind it. */
export function isAuxiliary(name: string): boolean {
  return name.startsWith('$');
}

/** Any relation the compiler made: auxiliary, or an adorned copy (whose facts are also its predicate's, under userPredOf). */
export function isInternal(name: string): boolean {
  return isAuxiliary(name) || name.includes('@');
}

/** The user's predicate behind a relation (`bcast@bbf` → `bcast`, `edge` → `edge`), or null for an auxiliary relation. */
export function userPredOf(name: string): string | null {
  if (isAuxiliary(name)) return null;
  const at = name.indexOf('@');
  return at < 0 ? name : name.slice(0, at);
}
