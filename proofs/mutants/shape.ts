// Mutations of the shape family's imperative twins (see mutation.ts).
import type { Mutation } from './mutation.js';

export const MUTATIONS: readonly Mutation[] = [];
