import { readFileSync } from 'node:fs';
import { inferText } from '../solver/infer/infer.js';
const f = process.argv[2]!;
const text = readFileSync(f, 'utf8');
for (const s of ['rules', 'relay'] as const) {
  const times: number[] = [];
  for (let i = 0; i < 8; i++) { const t = performance.now(); inferText(text, f, s); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(s, 'median', times[4]!.toFixed(0), 'ms', times.map(x => x.toFixed(0)).join(' '));
}
