// Summaries of timing samples (cli/sample-stats.ts), against values worked out by hand.
import test from 'ava';
import { median, pairedRatio, spread } from '../cli/sample-stats.js';

test('median, min and max of samples', (t) => {
  t.is(median([3, 1, 2]), 2);
  t.is(median([4, 1, 3, 2]), 2.5);
  t.true(Number.isNaN(median([])));
  t.deepEqual(spread([5, 1, 9, 3]), { median: 4, min: 1, max: 9 });
});

test('a ratio taken pair by pair: median and quartiles of a[i] / b[i]', (t) => {
  // ratios 1, 2, 3, 4, 5 in shuffled pairs
  t.deepEqual(pairedRatio([30, 10, 50, 20, 40], [10, 10, 10, 10, 10]), { median: 3, q1: 2, q3: 4 });
  // a slow spell on both sides of the second pair: two pairs of three say 2, while the ratio of
  // the medians (100 / 100) mixes samples from different spells
  const a = [100, 900, 100];
  const b = [50, 450, 100];
  t.is(median(a) / median(b), 1);
  t.deepEqual(pairedRatio(a, b), { median: 2, q1: 2, q3: 2 });
  // pairs beyond the shorter list are ignored
  t.deepEqual(pairedRatio([2, 4, 6, 99], [1, 2, 3]), { median: 2, q1: 2, q3: 2 });
  const none = pairedRatio([], []);
  t.true(Number.isNaN(none.median) && Number.isNaN(none.q1) && Number.isNaN(none.q3));
});
