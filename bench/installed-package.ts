// The `shapelog` command as a user gets it, for the benchmarks that time whole processes:
// this repository packed (`npm pack`) and installed from the tarball into an empty folder,
// started through node_modules/.bin/shapelog (its `#!/usr/bin/env node` line). A
// development checkout's bin/shapelog.js does more at every start (it checks that dist/
// is newer than the sources, scripts/stale-inputs.cjs: ~8 ms here), which no installed
// copy does; `--checkout` in the benchmarks times it instead.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ShapelogCommand {
  /** The file to spawn (an executable script). */
  readonly bin: string;
  /** What was timed, for the report. */
  readonly description: string;
}

/** bin/shapelog.js of the checkout at `root` (compiled code after `npm run build`). */
export function checkoutCommand(root: string): ShapelogCommand {
  return { bin: join(root, 'bin', 'shapelog.js'), description: 'bin/shapelog.js in the repository (after `npm run build`)' };
}

/** Packs the checkout at `root` and installs the tarball, offline, into a new folder below `work`. */
export function installedCommand(root: string, work: string): ShapelogCommand {
  process.stderr.write('packing and installing the package …\n');
  const pack = spawnSync('npm', ['pack', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (pack.status !== 0 || tarball === undefined) throw new Error(`npm pack failed:\n${pack.stderr}`);
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  const install = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(work, tarball)], { cwd: app, encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${install.stderr}`);
  return { bin: join(app, 'node_modules', '.bin', 'shapelog'), description: `\`${tarball}\` installed into an empty folder (node_modules/.bin/shapelog)` };
}
