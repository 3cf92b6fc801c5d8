// The part of the relation library a program can use. A program instantiates a few of
// the library's relations (ResNet-50: 10 of 66); a rule that reads a relation nothing
// instantiates or derives never fires, and a helper that only such rules call is never
// asked. Compiling only the rest gives the same fixpoint for that program at a fraction
// of the cost of compiling the whole library, which is most of what typing a program
// costs in a fresh process.
//
// Kept: every relation declaration (the layout of instances), and every clause that is
// *live* (each relation its body reads positively can have facts: it is instantiated,
// or a live clause derives it) and *needed* (its head is a unification, an error, or a
// declared relation, or it defines a predicate a needed clause calls). A needed
// predicate keeps its live clauses: a clause with a premise that can have no facts
// never fires, and its demand rules (asking for its helpers) would only run for
// nothing in every round that changes what they read (the 2-D and 3-D convolutions'
// attribute tables in a program of 1-D pools: half the plans such a program ran).
import type { Literal, Program, Statement } from '../solver/language/ast.js';

interface ClauseInfo {
  readonly statement: Statement;
  /** Predicate defined by the head; null for a unification head. */
  readonly head: string | null;
  readonly positive: readonly string[];
  readonly negative: readonly string[];
}

function bodyCalls(body: readonly Literal[]): { positive: string[]; negative: string[] } {
  const positive: string[] = [];
  const negative: string[] = [];
  for (const l of body) {
    if (l.kind === 'call') positive.push(l.pred);
    else if (l.kind === 'not') negative.push(l.call.pred);
  }
  return { positive, negative };
}

/**
 * The library's programs restricted to what can fire when only the relations in
 * `instantiated` have facts of their own. Statements keep their order and objects.
 */
export function librarySubset(programs: readonly Program[], instantiated: ReadonlySet<string>): Program[] {
  const clauses: ClauseInfo[] = [];
  const declared = new Set<string>();
  const definitions = new Map<string, ClauseInfo[]>();
  for (const p of programs) {
    for (const s of p.statements) {
      if (s.kind === 'relation') declared.add(s.name);
      if (s.kind !== 'clause') continue;
      const info: ClauseInfo = { statement: s, head: s.head.kind === 'call' ? s.head.pred : null, ...bodyCalls(s.body) };
      clauses.push(info);
      if (info.head !== null) {
        const list = definitions.get(info.head);
        if (list === undefined) definitions.set(info.head, [info]);
        else list.push(info);
      }
    }
  }
  // live: every positive premise can have facts (built-ins and undefined names do not constrain)
  const nonEmpty = new Set(instantiated);
  const live = new Set<ClauseInfo>();
  const canFire = (c: ClauseInfo) => c.positive.every((p) => nonEmpty.has(p) || (!declared.has(p) && !definitions.has(p)));
  for (let changed = true; changed; ) {
    changed = false;
    for (const c of clauses) {
      if (live.has(c) || !canFire(c)) continue;
      live.add(c);
      if (c.head !== null) nonEmpty.add(c.head);
      changed = true;
    }
  }
  // needed: live clauses with an effect (a unification, an error, a relation instance), and what they call
  const keep = new Set<Statement>();
  const called = new Set<string>();
  const work: ClauseInfo[] = [];
  for (const c of live) if (c.head === null || c.head === 'error' || declared.has(c.head)) work.push(c);
  while (work.length > 0) {
    const c = work.pop()!;
    if (keep.has(c.statement)) continue;
    keep.add(c.statement);
    for (const p of [...c.positive, ...c.negative]) {
      if (called.has(p)) continue;
      called.add(p);
      for (const d of definitions.get(p) ?? []) if (live.has(d)) work.push(d);
    }
  }
  return programs.map((p) => ({ file: p.file, statements: p.statements.filter((s) => s.kind !== 'clause' || keep.has(s)) }));
}
