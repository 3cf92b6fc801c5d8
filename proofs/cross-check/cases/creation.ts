// Cross-check sweep cases for the creation family (relations/ops/creation.ts).
import { type CaseGenerator } from '../case-kit.js';

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
};
