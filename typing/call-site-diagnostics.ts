// One mistake, one message: the diagnostics of a typed program consolidated per call
// site, the same way for both strategies.
//
// At one call site:
//  - a relation's own error message (an `error(...)` rule, a twin's error) says what
//    is wrong; the unification clashes and the generic "cannot infer the result type"
//    that follow from the same mistake are dropped;
//  - undecided conditions are named as the user would write them, positively and once
//    (`n != 1` and `n == 1` are one question, `n == 1`), whichever rule or file asked;
//  - when the site's result could not be inferred, its undecided conditions become part
//    of that one error ("... : n == 1 cannot be decided") instead of warnings beside it.
// Diagnostics without a call site pass through unchanged, in their order.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Span } from '../diagnostics/span.js';

/** The code of "a call whose inputs are known but whose result nothing determined". */
export const UNDETERMINED = 'undetermined';

/** `A op B cannot be decided` with the comparison put positively: `!=` as `==`, `<` as `>=`, `>` as `<=`. */
const COMPARISON = /^(.+?) (==|!=|<=|>=|<|>) (.+?) cannot be decided$/;
const POSITIVE: Readonly<Record<string, string>> = { '==': '==', '!=': '==', '<=': '<=', '>=': '>=', '<': '>=', '>': '<=' };

/** The message without its `operator: ` prefix, and the prefix. */
function splitPrefix(message: string): [prefix: string, rest: string] {
  const i = message.indexOf(': ');
  return i < 0 ? ['', message] : [message.slice(0, i + 2), message.slice(i + 2)];
}

/** The user-level condition of an undecided comparison (`n == 1`), or null for other waits. */
export function undecidedCondition(message: string): string | null {
  const m = COMPARISON.exec(splitPrefix(message)[1]);
  if (m === null) return null;
  return `${m[1]} ${POSITIVE[m[2]!]} ${m[3]}`;
}

const siteKey = (s: Span) => `${s.file}\u0000${s.start.offset}\u0000${s.end.offset}`;

export function oneDiagnosticPerMistake(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const bySite = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) if (d.span !== null) (bySite.get(siteKey(d.span)) ?? bySite.set(siteKey(d.span), []).get(siteKey(d.span))!).push(d);
  const replaced = new Map<Diagnostic, Diagnostic | null>();
  for (const group of bySite.values()) {
    const own = group.filter((d) => d.severity === 'error' && d.code === 'error-fact');
    const generic = group.filter((d) => d.code === UNDETERMINED);
    const undecided = group.filter((d) => d.code === 'undecided');
    if (own.length > 0) {
      for (const d of group) if (d.code === 'clash' || d.code === UNDETERMINED || d.code === 'undecided') replaced.set(d, null);
      continue;
    }
    const conditions = [...new Set(undecided.map((d) => undecidedCondition(d.message)).filter((c): c is string => c !== null))];
    // the same question asked twice (or as a negation) is one warning
    const seen = new Set<string>();
    for (const d of undecided) {
      const c = undecidedCondition(d.message);
      if (c === null) {
        // a wait that names no comparison says less than one that does
        if (conditions.length > 0) replaced.set(d, null);
        continue;
      }
      if (seen.has(c) || generic.length > 0) replaced.set(d, null);
      else replaced.set(d, { ...d, message: `${splitPrefix(d.message)[0]}${c} cannot be decided` });
      seen.add(c);
    }
    if (generic.length > 0) {
      const [first, ...rest] = generic.sort((a, b) => b.message.length - a.message.length);
      for (const d of rest) replaced.set(d, null);
      if (conditions.length > 0 && !first!.message.includes(' cannot be decided'))
        replaced.set(first!, { ...first!, message: `${first!.message}: ${conditions.join(' and ')} cannot be decided` });
    }
  }
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const r = replaced.get(d);
    if (r === undefined) out.push(d);
    else if (r !== null) out.push(r);
  }
  return out;
}
