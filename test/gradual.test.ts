// Gradual typing (`infer --gradual`, `checks`): the residual checks of programs whose
// expected checks were worked out by hand, both strategies giving the same ones; typing
// under the assumptions; the printed program reading back; `shapelog checks` on good and
// bad input; and the gradual guarantee as fast-check properties over the bundled programs.
import test from 'ava';
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Module, RDim, RType } from '../frontends/relay/ast.js';
import { parseRelay, parseRelayType } from '../frontends/relay/parse.js';
import { printModule } from '../frontends/relay/print.js';
import { dimConst, dimVar, dimSub } from '../solver/terms/dims.js';
import type { InferStrategy } from '../typing/infer.js';
import { gradualText, inferGradual, inferGradualText, type GradualResult } from '../typing/gradual.js';
import { canonicalComparison, checkHolds, checkVariables, comparisonText, type ResidualCheck } from '../typing/residual-checks.js';
import { runShapelog } from './helpers.js';

const STRATEGIES: InferStrategy[] = ['rules', 'relay'];
const FIXTURES = join(import.meta.dirname, 'fixtures', 'gradual');
const fixture = (name: string) => join(FIXTURES, name);
/** The best-effort programs (if-joins, fresh dims, parameters without annotations): test/gradual-best-effort.test.ts. */
const BEST_EFFORT = join(import.meta.dirname, 'fixtures', 'gradual-best-effort');

function gradual(file: string, strategy: InferStrategy): GradualResult {
  return inferGradualText(readFileSync(file, 'utf8'), file, strategy);
}

const listed = (g: GradualResult) => g.checks.map((c) => `${c.span.start.line}:${c.span.start.column} ${c.operator}: ${c.condition}`);
const errorsOf = (g: GradualResult) => g.result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
const typeOf = (g: GradualResult, name: string) => g.result.outcome.bindings.find((b) => b.name === name)?.type;

// ---------------------------------------------------------------- canonical form

test('canonical form: constants right, variables left, order comparisons as E >= 0, divisibility as a modulo', (t) => {
  const c = (l: ReturnType<typeof dimVar>, op: Parameters<typeof canonicalComparison>[1], r: ReturnType<typeof dimVar>) => {
    const x = canonicalComparison(l, op, r);
    return x === null ? null : comparisonText(x);
  };
  t.is(c(dimConst(3), '==', dimVar('c')), 'c == 3');
  t.is(c(dimVar('c'), '==', dimConst(3)), 'c == 3');
  t.is(c(dimVar('h'), '>=', dimConst(7)), 'h - 7 >= 0');
  t.is(c(dimConst(7), '<=', dimVar('h')), 'h - 7 >= 0');
  t.is(c(dimVar('h'), '>', dimConst(6)), 'h - 7 >= 0');
  t.is(c(dimVar('n'), '==', dimVar('m')), 'm == n');
  t.is(c(dimSub(dimVar('n'), dimVar('m')), '!=', dimConst(0)), 'm != n');
  t.is(c(dimConst(3), '==', dimConst(3)), null, 'a decided comparison is no check');
});

// ---------------------------------------------------------------- checks of hand-worked programs

for (const s of STRATEGIES) {
  test(`${s}: a broadcast of n against 3 is typed under n == 1 || n == 3; conv2d needs c == 3 and h >= 3`, (t) => {
    const g = gradual(fixture('broadcast-conv.relay'), s);
    t.deepEqual(errorsOf(g), []);
    t.deepEqual(listed(g), ['3:8 add: n == 1 || n == 3', '4:8 nn.conv2d: c == 3', '4:8 nn.conv2d: h - 3 >= 0']);
    // under the check, n broadcast against 3 gives 3 whichever disjunct holds
    t.is(typeOf(g, '%0'), 'Tensor[(3, 4), float32]');
    t.is(typeOf(g, '%2'), 'Tensor[(12), float32]');
    t.is(g.checks[0]!.relation, 'Broadcast');
    t.is(g.checks[1]!.relation, 'Conv2D');
  });

  test(`${s}: reshape with -1 needs divisibility, a 7x7 pool needs h, w >= 7`, (t) => {
    const g = gradual(fixture('reshape-pool.relay'), s);
    t.deepEqual(errorsOf(g), []);
    t.deepEqual(listed(g), ['4:8 reshape: (h*w) % 4 == 0', '5:8 nn.max_pool2d: h - 7 >= 0', '5:8 nn.max_pool2d: w - 7 >= 0']);
    t.is(typeOf(g, '%2'), 'Tensor[(1, 8, h - 6, w - 6), float32]');
  });

  test(`${s}: a dim no rule determines gets a fresh size variable instead of failing`, (t) => {
    const g = gradual(fixture('unannotated.relay'), s);
    t.deepEqual(errorsOf(g), []);
    t.deepEqual(g.freshDims, ['d1']);
    t.is(typeOf(g, '%x'), 'Tensor[(d1, 784), float32]');
    t.deepEqual(listed(g), ['4:8 add: m == 1 || m == 128']);
    t.is(typeOf(g, '%1'), 'Tensor[(d1, 128), float32]');
  });

  test(`${s}: the printed program carries the checks as comments and reads back to the same program`, (t) => {
    const g = gradual(fixture('broadcast-conv.relay'), s);
    const text = gradualText(g);
    t.regex(text, /add\(%x, %y\) \/\* ty=Tensor\[\(3, 4\), float32\] \*\/ \/\* check: n == 1 \|\| n == 3 \*\//);
    t.regex(text, /\/\* check: c == 3; h - 3 >= 0 \*\//);
    const again = parseRelay(text, 'again.relay');
    // the same program (the result type printed in the signature aside)
    t.is(printModule({ ...again, functions: again.functions.map((f) => ({ ...f, ret: null })) }), printModule(g.result.module));
  });
}

test('a program without undecided conditions has no checks, and --gradual types it as infer does', (t) => {
  for (const s of STRATEGIES) {
    const g = gradual('examples/relay/conv.relay', s);
    t.deepEqual(g.checks, []);
    t.deepEqual(errorsOf(g), []);
  }
});

// ---------------------------------------------------------------- the command line

test('infer --gradual --checks-only and --json list the checks with their spans', (t) => {
  const only = runShapelog(['infer', fixture('broadcast-conv.relay'), '--gradual', '--checks-only']);
  t.is(only.code, 0, only.err);
  t.regex(only.out, /broadcast-conv\.relay:3:8: add: n == 1 \|\| n == 3/);
  t.is(only.out.trim().split('\n').length, 3);
  const json = runShapelog(['infer', fixture('broadcast-conv.relay'), '--gradual', '--json', '--strategy', 'relay']);
  t.is(json.code, 0, json.err);
  const parsed = JSON.parse(json.out) as { checks: { condition: string; span: { line: number; column: number; endColumn: number } }[] };
  t.deepEqual(
    parsed.checks.map((c) => [c.condition, c.span.line, c.span.column, c.span.endColumn]),
    [
      ['n == 1 || n == 3', 3, 8, 19],
      ['c == 3', 4, 8, 47],
      ['h - 3 >= 0', 4, 8, 47],
    ],
  );
});

test('checks --dims: failing checks with their call sites, exit 1; all holding, exit 0', (t) => {
  const bad = runShapelog(['checks', fixture('broadcast-conv.relay'), '--dims', 'n=2,h=2,c=3']);
  t.is(bad.code, 1, bad.err);
  t.regex(bad.out, /broadcast-conv\.relay:3:8: check failed: add needs n == 1 \|\| n == 3 \(n = 2\)/);
  t.regex(bad.out, /broadcast-conv\.relay:4:8: check failed: nn.conv2d needs h - 3 >= 0 \(h = 2\)/);
  t.notRegex(bad.out, /c == 3/);
  const good = runShapelog(['checks', fixture('broadcast-conv.relay'), '--dims', 'n=1', '--dims', 'h=224,c=3', '--json']);
  t.is(good.code, 0, good.err);
  const parsed = JSON.parse(good.out) as { failed: number; checks: { holds: boolean }[] };
  t.is(parsed.failed, 0);
  t.deepEqual(
    parsed.checks.map((c) => c.holds),
    [true, true, true],
  );
});

test('checks: bad --dims and programs without size variables are clear errors', (t) => {
  const notInt = runShapelog(['checks', fixture('broadcast-conv.relay'), '--dims', 'n=three']);
  t.is(notInt.code, 2);
  t.regex(notInt.err, /the size of n must be a non-negative integer, not 'three'/);
  const negative = runShapelog(['checks', fixture('broadcast-conv.relay'), '--dims', 'n=-1']);
  t.is(negative.code, 2);
  const unknown = runShapelog(['checks', fixture('broadcast-conv.relay'), '--dims', 'h=1,c=3,nn=2']);
  t.is(unknown.code, 2);
  t.regex(unknown.err, /has no size variable nn; did you mean n\?/);
  const missing = runShapelog(['checks', fixture('broadcast-conv.relay'), '--dims', 'n=3']);
  t.is(missing.code, 2);
  t.regex(missing.err, /need a size for c, h/);
  const none = runShapelog(['checks', 'examples/relay/conv.relay', '--dims', 'n=3']);
  t.is(none.code, 1);
  t.regex(none.err, /has no size variables/);
  const noDims = runShapelog(['checks', fixture('broadcast-conv.relay')]);
  t.is(noDims.code, 2);
  const help = runShapelog(['checks', '--help']);
  t.is(help.code, 0);
  t.regex(help.out, /--dims/);
  t.is(runShapelog(['infer', fixture('broadcast-conv.relay'), '--checks-only']).code, 2);
});

// ---------------------------------------------------------------- the gradual guarantee

/** The bundled Relay programs (examples/relay/**, examples/gradual/** when present, the gradual and best-effort fixtures), small enough for a property. */
function bundled(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(dir, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.relay') && statSync(p).size < 5_000) out.push(p);
    }
  };
  walk('examples/relay');
  walk('examples/gradual');
  walk(FIXTURES);
  walk(BEST_EFFORT);
  return out.sort();
}

const PROGRAMS = bundled();

function readModule(file: string): Module {
  return parseRelay(readFileSync(file, 'utf8'), file);
}

/** The module with the parameter dims chosen by `drop` (one flag per dim, in order) written `_`. */
function withoutDims(m: Module, drop: readonly boolean[]): Module {
  let k = 0;
  const dims = (t: RType): RType => {
    if (t.kind === 'tensor')
      return { ...t, shape: t.shape.map((d): RDim => (drop[k++ % Math.max(1, drop.length)] === true ? { kind: 'unknown', span: d.span } : d)) };
    if (t.kind === 'tuple') return { ...t, fields: t.fields.map(dims) };
    return t;
  };
  return { ...m, functions: m.functions.map((f) => ({ ...f, params: f.params.map((p) => (p.type === null ? p : { ...p, type: dims(p.type) })) })) };
}

function gradualModule(m: Module, file: string, strategy: InferStrategy): GradualResult {
  return inferGradual(m, new Map([[file, readFileSync(file, 'utf8')]]), strategy);
}

const failsWithoutGradual = new Map<string, boolean>();
function typeable(file: string, s: InferStrategy): boolean {
  const key = `${file}|${s}`;
  if (!failsWithoutGradual.has(key)) failsWithoutGradual.set(key, errorsOf(gradualModule(readModule(file), file, s)).length === 0);
  return failsWithoutGradual.get(key)!;
}

const program = fc.constantFrom(...PROGRAMS);
const strategy = fc.constantFrom<InferStrategy>('rules', 'relay');

test('removing annotations (parameter dims written _) never makes a typeable program untypeable', (t) => {
  fc.assert(
    fc.property(program, strategy, fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), (file, s, drop) => {
      fc.pre(typeable(file, s));
      const g = gradualModule(withoutDims(readModule(file), drop), file, s);
      t.deepEqual(errorsOf(g), [], `${file} (${s}) with dims removed by ${JSON.stringify(drop)}`);
      return errorsOf(g).length === 0;
    }),
    {
      numRuns: 8,
      seed: 14,
      // the best effort is in the property whatever the seed draws: if-joins, fresh dims, a dim no rule can write
      examples: [
        [join(BEST_EFFORT, 'if-join.relay'), 'relay', [false, true]],
        [join(BEST_EFFORT, 'if-join-declared.relay'), 'rules', [true, false, false]],
        [join(BEST_EFFORT, 'upsampling.relay'), 'rules', [false, true]],
        [join(BEST_EFFORT, 'ranked-by-later-use.relay'), 'relay', [true]],
      ],
    },
  );
});

test('adding the correct annotation (the inferred parameter type) never adds a check', (t) => {
  fc.assert(
    fc.property(
      program,
      strategy,
      fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
      fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
      (file, s, drop, annotate) => {
        fc.pre(typeable(file, s));
        const loose = withoutDims(readModule(file), drop);
        const before = gradualModule(loose, file, s);
        fc.pre(errorsOf(before).length === 0);
        // the parameters chosen by `annotate` get the type inference gave them
        let k = 0;
        const inferred = new Map(before.result.outcome.bindings.filter((b) => b.kind === 'param').map((b) => [b.name, b.type]));
        const annotated: Module = {
          ...loose,
          functions: loose.functions.map((f) => ({
            ...f,
            params: f.params.map((p) => {
              const ty = inferred.get(`%${p.name}`);
              return annotate[k++ % annotate.length] === true && ty !== undefined && !ty.includes('_') ? { ...p, type: parseRelayType(ty) } : p;
            }),
          })),
        };
        const after = gradualModule(annotated, file, s);
        const added = addedChecks(before.checks, after.checks);
        t.deepEqual(errorsOf(after), []);
        t.deepEqual(added, [], `${file} (${s})`);
        return added.length === 0 && errorsOf(after).length === 0;
      },
    ),
    {
      numRuns: 8,
      seed: 15,
      // a draw where the fresh names differ between the two runs and one check gets weaker
      // (`d3 == 1` before, `d3 == 1 || d3 == 256` after): neither is an added check
      examples: [
        [join('examples', 'gradual', 'seq2seq.relay'), 'relay', [true, true, true, false], [false, false, true, false, true, false]],
        // the best effort: an if-join's fresh dim, a parameter ranked by its use, a dim no rule can write
        [join(BEST_EFFORT, 'if-join.relay'), 'rules', [false], [true]],
        [join(BEST_EFFORT, 'unranked.relay'), 'relay', [false], [true]],
        [join(BEST_EFFORT, 'upsampling.relay'), 'rules', [false, false, true], [true]],
      ],
    },
  );
});

/**
 * The checks of `after` that `before` does not already impose. A check is a runtime
 * assertion at a call site, so one is added when its call site has more checks than
 * before, or when it is not implied by the site's earlier checks: all its size variables
 * occur there, and some sizes (searched 0..40) pass the earlier checks and fail it. Fresh
 * size variables are numbered by the order typing meets them, which an annotation can
 * change, so a check over other fresh names at a site that had as many checks is the
 * same assertion renamed.
 */
function addedChecks(before: readonly ResidualCheck[], after: readonly ResidualCheck[]): string[] {
  const site = (c: ResidualCheck) => `${c.span.file}:${c.span.start.offset}`;
  const bySite = new Map<string, ResidualCheck[]>();
  for (const c of before) bySite.set(site(c), [...(bySite.get(site(c)) ?? []), c]);
  const afterCount = new Map<string, number>();
  for (const c of after) afterCount.set(site(c), (afterCount.get(site(c)) ?? 0) + 1);
  const added: string[] = [];
  for (const c of after) {
    const earlier = bySite.get(site(c)) ?? [];
    if (earlier.some((e) => e.condition === c.condition)) continue;
    if (afterCount.get(site(c))! > earlier.length) {
      added.push(`${c.condition} (at ${site(c)}: ${afterCount.get(site(c))} checks, ${earlier.length} before)`);
      continue;
    }
    const known = new Set(earlier.flatMap((e) => checkVariables(e)));
    const vars = checkVariables(c);
    if (vars.some((v) => !known.has(v))) continue; // renamed fresh variables
    const names = [...known];
    const sizes: Record<string, number> = {};
    const stronger = (i: number): boolean => {
      if (i === names.length) return earlier.every((e) => checkHolds(e, sizes)) && !checkHolds(c, sizes);
      for (let v = 0; v <= 40; v++) {
        sizes[names[i]!] = v;
        if (stronger(i + 1)) return true;
      }
      return false;
    };
    if (names.length <= 3 && stronger(0)) added.push(`${c.condition} (stronger than ${earlier.map((e) => e.condition).join('; ')} at ${site(c)})`);
  }
  return added;
}

/** Sizes for the check's variables that violate it, by bounded search (0..40 each), or null. */
function violation(c: ResidualCheck): Record<string, number> | null {
  const vars = checkVariables(c);
  const sizes: Record<string, number> = {};
  const search = (i: number): boolean => {
    if (i === vars.length) {
      try {
        return !checkHolds(c, sizes);
      } catch {
        return false;
      }
    }
    for (let v = 0; v <= 40; v++) {
      sizes[vars[i]!] = v;
      if (search(i + 1)) return true;
    }
    return false;
  };
  return vars.length <= 3 && search(0) ? { ...sizes } : null;
}

test('every check emitted can fail: some sizes violate it', (t) => {
  let checked = 0;
  for (const file of PROGRAMS) {
    for (const s of STRATEGIES) {
      for (const c of gradual(file, s).checks) {
        checked++;
        t.not(violation(c), null, `${file} (${s}): ${c.condition} holds for every size up to 40`);
      }
    }
  }
  t.true(checked >= 9, `only ${checked} checks in the bundled programs`);
});

test('both strategies give the same checks on every bundled program', (t) => {
  for (const file of PROGRAMS) {
    const [a, b] = STRATEGIES.map((s) => listed(gradual(file, s)));
    t.deepEqual(a, b, file);
  }
});
