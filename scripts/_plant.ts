import { checkOp } from '../proofs/cross-check/harness.js';
import { answersWith, plantedLibrary } from '../proofs/cross-check/versions.js';
import { typeofCall } from '../typing/typeof.js';
const plants: [string, string, string, string][] = [
  ['nn.conv2d', 'conv.rules', '(X1 + P1 - (K1 - 1) * D1 - 1) / S1 + 1], OS = [Y[R0], Y[R1], Y[R2], Y[R3]]', '(X1 + P1 - (K1 - 1) * D0 - 1) / S1 + 1], OS = [Y[R0], Y[R1], Y[R2], Y[R3]]'],
  ['nn.conv2d', 'conv.rules', '(Wd + P1 - (K1 - 1) * D1 - 1) / S1 + 1], OD)', '(Wd + P1 - (K1 - 1) * D0 - 1) / S1 + 1], OD)'],
  ['nn.conv2d', 'conv.rules', '(X1 + P1 - (K1 - 1) * D1 - 1) / S1 + 1], OS = [Y[R0], Y[R1], Y[R2], Y[R3]]', '(X1 + P1 - (K1 - 1) * D1 - 1) / S0 + 1], OS = [Y[R0], Y[R1], Y[R2], Y[R3]]'],
  ['nn.conv2d', 'conv.rules', '(Wd + P1 - (K1 - 1) * D1 - 1) / S1 + 1], OD)', '(Wd + P1 - (K1 - 1) * D1 - 1) / S0 + 1], OD)'],
];
const which = process.argv.slice(2).map(Number);
for (const [i, [op, file, find, replace]] of plants.entries()) {
  if (which.length > 0 && !which.includes(i)) continue;
  const lib = plantedLibrary(file, find, replace);
  const c = { op: 'nn.conv2d', attrs: { dilation: [1, 2] }, args: ['Tensor[(1, 3, 8, 8), float32]', 'Tensor[(4, 3, 3, 3), float32]'] };
  const c2 = { op: 'nn.conv2d', attrs: { dilation: [1, 2], channels: 4, kernel_size: [3, 3] }, args: ['Tensor[(1, 3, 8, 8), float32]', '_'] };
  console.log(i, JSON.stringify(typeofCall(c, 'rules', {}, lib)), JSON.stringify(typeofCall(c2, 'rules', {}, lib)));
  const t0 = Date.now();
  const r = checkOp(op, { random: 0, reference: false, answer: answersWith(lib), keep: 1 });
  console.log(i, r.cases, r.disagree, r.counterexamples[0]?.line, (Date.now() - t0) / 1000);
}
