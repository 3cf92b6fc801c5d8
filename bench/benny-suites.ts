// benny ops/sec suites (secondary to the median-of-N table): each suite is saved as JSON and
// as a chart.html into which Chart.js is inlined, since benny's page loads it from a CDN and
// is blank offline.

import b from 'benny';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inlineChartJsSource } from '../cli/chart-js.js';

export interface BennyCase {
  readonly name: string;
  readonly run: () => unknown;
}

export interface BennySuite {
  readonly name: string;
  /** File name without extension, under the results folder. */
  readonly file: string;
  readonly cases: readonly BennyCase[];
}

export async function runBennySuites(suites: readonly BennySuite[], folder: string): Promise<void> {
  // Every operation is a whole fixpoint (0.01–20 s): ask benchmark.js for as few samples as it
  // allows. Even so it calls each operation about 3 times (pretest, calibration, sample).
  const config = b.configure({ minDisplayPrecision: 2, cases: { minSamples: 1, maxTime: 0, delay: 0, initCount: 1 } });
  for (const s of suites) {
    await b.suite(
      s.name,
      config,
      // benny calls the outer function to look at its result; the inner one is the timed operation.
      ...s.cases.map((c) => b.add(c.name, () => c.run)),
      b.cycle(),
      b.complete(),
      b.save({ file: s.file, folder, format: 'json', details: true }),
      b.save({ file: s.file, folder, format: 'chart.html' }),
    );
    inlineChartJs(join(folder, `${s.file}.chart.html`));
  }
}

const CDN_SCRIPT = /<script src="https:\/\/cdn\.jsdelivr\.net\/npm\/chart\.js[^"]*"><\/script>/;

/** Replaces benny's CDN `<script src>` with the local Chart.js UMD bundle. */
export function inlineChartJs(htmlFile: string): void {
  if (!existsSync(htmlFile)) return;
  const html = readFileSync(htmlFile, 'utf8');
  if (!CDN_SCRIPT.test(html)) {
    console.error(`bench: no Chart.js CDN <script> found in ${htmlFile}; left unchanged`);
    return;
  }
  const lib = inlineChartJsSource();
  writeFileSync(
    htmlFile,
    html.replace(CDN_SCRIPT, () => `<script>\n${lib}\n</script>`),
  );
}
