// Cross-check sweep cases for the indexing family (relations/ops/indexing.ts).
import { type CaseGenerator } from '../case-kit.js';

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
};
