// Chart.js for pages that must render offline: the library's UMD bundle as text, ready to
// be inlined in a `<script>` element (no CDN, no network). Used by `shapelog bench --html`
// and by the benny charts in bench/.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { packageRoot } from '../relations/library.js';

/** The Chart.js UMD bundle, with every `</script` escaped so it can sit inside a `<script>` element. */
export function inlineChartJsSource(): string {
  // the package ships it in dist/vendor/ (scripts/build.js); a development checkout has chart.js
  // installed, whose `chart.js` resolves to dist/chart.cjs with the UMD bundle beside it
  const shipped = join(packageRoot(), 'dist', 'vendor', 'chart.umd.min.js');
  const umd = existsSync(shipped) ? shipped : join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js');
  return readFileSync(umd, 'utf8').replace(/<\/script/gi, '<\\/script');
}
