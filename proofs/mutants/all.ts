// Every mutation, by family: the twins' (one file per family) and the rules' (rules.ts).
import type { Mutation } from './mutation.js';
import { MUTATIONS as conv } from './conv.js';
import { MUTATIONS as creation } from './creation.js';
import { MUTATIONS as elemwise } from './elemwise.js';
import { MUTATIONS as indexing } from './indexing.js';
import { MUTATIONS as nn } from './nn.js';
import { MUTATIONS as reduce } from './reduce.js';
import { MUTATIONS as shape } from './shape.js';
import { MUTATIONS as rules } from './rules.js';

export const FAMILIES: Readonly<Record<string, readonly Mutation[]>> = { elemwise, reduce, nn, conv, shape, creation, indexing };

/** Which side a mutation breaks: an imperative twin, or a rule file. */
export type MutantSide = 'twins' | 'rules';

export function allMutations(): { family: string; side: MutantSide; mutation: Mutation }[] {
  return [
    ...Object.entries(FAMILIES).flatMap(([family, ms]) => ms.map((mutation) => ({ family, side: 'twins' as const, mutation }))),
    ...rules.map((mutation) => ({ family: 'rules', side: 'rules' as const, mutation })),
  ];
}
