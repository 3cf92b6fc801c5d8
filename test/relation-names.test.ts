// The names of the relations the compiler makes (solver/compile/relation-names.ts) are
// read back only through the functions that make them: every made name reads back as
// what it was made as, and no name a rule file can write is taken for a made one.
import test from 'ava';
import fc from 'fast-check';
import {
  adornedName,
  demandName,
  demandOfCopy,
  errorRelation,
  isAdornedCopy,
  isAuxiliary,
  isDemandRelation,
  isErrorRelation,
  isInternal,
  isProjection,
  partName,
  projectionName,
  userPredOf,
} from '../solver/compile/relation-names.js';
import { parseProgram } from '../solver/language/parse.js';

/** Predicate names as the rule language writes them (lower-case identifiers). */
const predicate = fc.stringMatching(/^[a-z][A-Za-z0-9_]{0,12}$/);
const pattern = fc.stringMatching(/^[bf]{1,8}$/);

test('a made name reads back as what it was made as', (t) => {
  fc.assert(
    fc.property(predicate, pattern, fc.nat(10_000), (p, pat, n) => {
      const copy = adornedName(p, pat);
      const demand = demandName(p, pat);
      t.true(isAdornedCopy(copy) && isInternal(copy) && !isAuxiliary(copy) && !isDemandRelation(copy));
      t.is(userPredOf(copy), p);
      t.is(demandOfCopy(copy), demand);
      t.true(isDemandRelation(demand) && isAuxiliary(demand) && isInternal(demand) && !isAdornedCopy(demand));
      t.is(userPredOf(demand), null);
      t.is(demandOfCopy(demand), null);
      for (const made of [projectionName(n), partName(n)]) {
        t.true(isProjection(made) && isAuxiliary(made) && !isDemandRelation(made) && !isErrorRelation(made));
        t.is(userPredOf(made), null);
      }
      const error = errorRelation(n);
      t.true(isErrorRelation(error) && isAuxiliary(error) && !isProjection(error));
      t.not(errorRelation(n + 1), error);
    }),
  );
});

test('no predicate a rule file can write is taken for a made one', (t) => {
  fc.assert(
    fc.property(predicate, (p) => {
      // the rule language accepts it as a predicate name, and no made name
      t.is(parseProgram(`${p}(1).`, 'x.rules').statements.length, 1);
      for (const made of [adornedName(p, 'bf'), demandName(p, 'bf'), projectionName(3), partName(3), errorRelation(3)])
        t.throws(() => parseProgram(`${made}(1).`, 'x.rules'), undefined, made);
      t.false(isInternal(p));
      t.false(isAuxiliary(p) || isDemandRelation(p) || isProjection(p) || isErrorRelation(p) || isAdornedCopy(p));
      t.is(userPredOf(p), p);
      t.is(demandOfCopy(p), null);
    }),
  );
});
