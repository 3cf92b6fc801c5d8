// Mutations of layout_transform's imperative twin (see mutation.ts).
import type { Mutation } from './mutation.js';

const file = 'relations/imperative/layout_transform.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'layout-transform-src-factor-ignored',
    file,
    find: 'extent.set(a.primal, dMul(data.shape[j]!, factorOf(src.axes, a.primal)));',
    replace: 'extent.set(a.primal, data.shape[j]!);',
    ops: ['layout_transform'],
    what: 'a dropped factor: a primal axis of a packed src_layout keeps its outer dim as its extent',
  },
  {
    id: 'layout-transform-dst-not-divided',
    file,
    find: 'shape.push(dDiv(extent.get(a.primal)!, factorOf(dst.axes, a.primal)));',
    replace: 'shape.push(extent.get(a.primal)!);',
    ops: ['layout_transform'],
    what: 'a dropped division: an axis split by dst_layout keeps its whole extent',
  },
  {
    id: 'layout-transform-divisibility-unchecked',
    file,
    find: "dMod(e, a.factor),\n          '==',\n          intDim(0),",
    replace: "dMod(e, 1),\n          '==',\n          intDim(0),",
    ops: ['layout_transform'],
    what: 'a dropped check: a non-divisible split is accepted (floored, as TVM)',
  },
  {
    id: 'layout-transform-sub-dim-unchecked',
    file,
    find: "'==',\n        intDim(a.factor),\n        `dim ${j}",
    replace: "'==',\n        d,\n        `dim ${j}",
    ops: ['layout_transform'],
    what: 'a dropped check: a src sub-axis whose dim is not its factor is accepted',
  },
  {
    id: 'layout-transform-primals-unchecked',
    file,
    find: 'if (primalKey(src.axes) !== primalKey(dst.axes))',
    replace: 'if (primalKey(src.axes).length !== primalKey(dst.axes).length)',
    ops: ['layout_transform'],
    what: 'a weakened check: layouts with different primal axes of the same count are accepted',
  },
  {
    id: 'layout-transform-src-factor-of-dst',
    file,
    find: 'dMul(data.shape[j]!, factorOf(src.axes, a.primal))',
    replace: 'dMul(data.shape[j]!, factorOf(dst.axes, a.primal))',
    ops: ['layout_transform'],
    what: 'a swapped argument: the src extent multiplied by the dst factor',
  },
];
