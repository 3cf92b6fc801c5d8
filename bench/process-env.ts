// The environment the process-to-process benchmarks start their commands in: this
// process's own, without NODE_EXTRA_CA_CERTS unless the bench was given
// `--keep-ca-certs`. Node reads and parses that certificate bundle at every start,
// before any script runs (~100 ms of CPU per process on the machine bench/README.md's
// numbers come from, which sets it for its npm proxy, against ~30 ms for the rest of
// node's start): a setting of the machine, not a cost of shapelog, which opens no
// network connection. Every side of a comparison (shapelog, node itself, SWI-Prolog,
// python) gets the same environment.

/** Whether the bench keeps NODE_EXTRA_CA_CERTS (`--keep-ca-certs`). */
export const keepCaCerts = process.argv.includes('--keep-ca-certs');

/** NODE_EXTRA_CA_CERTS as this process has it (undefined when not set). */
export const caCerts = process.env['NODE_EXTRA_CA_CERTS'];

/** The environment of a measured command, with `extra` on top. */
export function benchEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (!keepCaCerts) delete env['NODE_EXTRA_CA_CERTS'];
  return env;
}

/** One sentence for a report: what the measured commands' environment had. */
export function caCertsNote(): string {
  if (caCerts === undefined) return 'NODE_EXTRA_CA_CERTS is not set.';
  return keepCaCerts
    ? `The commands run with NODE_EXTRA_CA_CERTS=${caCerts}, as set here.`
    : `The commands run without NODE_EXTRA_CA_CERTS (this machine sets it to ${caCerts}; node parses that bundle at every start; \`--keep-ca-certs\` keeps it).`;
}
