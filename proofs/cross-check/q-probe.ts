import { runSweep } from './compare.js';
for (const op of process.argv.slice(2)) {
  const [r] = runSweep([op], { keep: 1000 });
  const cls = new Map<string, number>();
  for (const c of r!.counterexamples) {
    const k = 'error' in c.rules ? 'rules-error' : c.rules.type === '_' ? ('error' in c.relay ? 'rules-stuck/relay-error' : 'rules-stuck/relay-type') : ('error' in c.relay ? 'rules-type/relay-error' : 'both-type');
    cls.set(k, (cls.get(k) ?? 0) + 1);
    if (k !== 'rules-stuck/relay-error') console.log(k, c.line, JSON.stringify(c.rules), JSON.stringify(c.relay));
  }
  console.log(op, [...cls]);
}
