// Chart.js for pages that must render offline: the library's UMD bundle as text, ready to
// be inlined in a `<script>` element (no CDN, no network). Used by `shapelog bench --html`
// and by the benny charts in bench/.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The Chart.js UMD bundle, with every `</script` escaped so it can sit inside a `<script>` element. */
export function inlineChartJsSource(): string {
  // `chart.js` resolves to dist/chart.cjs; the UMD bundle sits next to it (it is not in `exports`).
  const umd = join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js');
  return readFileSync(umd, 'utf8').replace(/<\/script/gi, '<\\/script');
}
