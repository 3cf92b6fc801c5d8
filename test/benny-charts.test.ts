// benny's chart pages load Chart.js from a CDN; bench/benny-suites.ts inlines the local bundle
// instead, so the saved charts render offline.
import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inlineChartJs } from '../bench/benny-suites.js';

test('a benny chart page gets Chart.js inlined in place of the CDN <script src>', (t) => {
  const page = join(mkdtempSync(join(tmpdir(), 'shapelog-benny-')), 'suite.chart.html');
  // the shape of benny 3.7's page head
  writeFileSync(
    page,
    '<!DOCTYPE html><html><head><script src="https://cdn.jsdelivr.net/npm/chart.js@3.5.1/dist/chart.min.js"></script></head><body><canvas id="chart1234"></canvas><script>new Chart(document.getElementById("chart1234"), {});</script></body></html>',
  );
  inlineChartJs(page);
  const html = readFileSync(page, 'utf8');
  t.notRegex(html, /<script[^>]*\bsrc=/i);
  t.notRegex(html, /cdn\.jsdelivr/);
  t.regex(html, /<script>\n\/\*!\n \* Chart\.js v4/);
  t.regex(html, /new Chart\(document\.getElementById\("chart1234"\)/);
});
