#!/usr/bin/env node
// Entry point of the `shapelog` command: builds the grammar if needed, then runs the
// TypeScript CLI through tsx's loader.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (['rules', 'relay', 'itir'].some((g) => !existsSync(join(root, 'grammar', 'generated', `${g}-parser.js`)))) {
  await import(pathToFileURL(join(root, 'scripts', 'build-grammar.js')).href);
}
register();
const { main } = await import(pathToFileURL(join(root, 'cli', 'main.ts')).href);
process.exitCode = await main(process.argv.slice(2));
