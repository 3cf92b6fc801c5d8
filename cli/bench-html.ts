// `shapelog bench --html OUT.html`: a self-contained page that renders offline: Chart.js
// inlined (no <script src>, no <link>, no network), the results embedded as JSON, a bar chart
// of each strategy's median with min–max whiskers, a bar chart of the cold first runs, and
// the same numbers as a plain table (readable without JavaScript).
import { benchJson, type BenchSummary, fmtMs, answerFields } from './bench-report.js';
import { inlineChartJsSource } from './chart-js.js';

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON that can sit inside a <script> element: no `<` (so no `</script>` or `<!--`). */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

// Draws the median bars' min–max whiskers (Chart.js has no error bars of its own).
const PAGE_SCRIPT = `
const data = JSON.parse(document.getElementById('bench-data').textContent);
const names = data.strategies.map((s) => s.name);
const whiskers = {
  id: 'whiskers',
  afterDatasetsDraw(chart) {
    const { ctx, scales: { y } } = chart;
    const bars = chart.getDatasetMeta(0).data;
    ctx.save();
    ctx.strokeStyle = '#222';
    ctx.lineWidth = 1.5;
    data.strategies.forEach((s, i) => {
      const x = bars[i].x, top = y.getPixelForValue(s.max_ms), bottom = y.getPixelForValue(s.min_ms), w = Math.min(10, bars[i].width / 4);
      ctx.beginPath();
      ctx.moveTo(x, top); ctx.lineTo(x, bottom);
      ctx.moveTo(x - w, top); ctx.lineTo(x + w, top);
      ctx.moveTo(x - w, bottom); ctx.lineTo(x + w, bottom);
      ctx.stroke();
    });
    ctx.restore();
  },
};
const common = (title) => ({
  animation: false,
  responsive: true,
  plugins: { legend: { display: false }, title: { display: true, text: title } },
  scales: { y: { beginAtZero: true, title: { display: true, text: 'ms' } } },
});
const steady = common('steady state: median of the samples\\' medians, whiskers min–max');
steady.scales.y.suggestedMax = Math.max(...data.strategies.map((s) => s.max_ms)) * 1.05;
new Chart(document.getElementById('steady'), {
  type: 'bar',
  data: { labels: names, datasets: [{ label: 'median (ms)', data: data.strategies.map((s) => s.median_ms), backgroundColor: data.strategies.map((s) => (s.agrees ? '#4e79a7' : '#e15759')) }] },
  options: steady,
  plugins: [whiskers],
});
new Chart(document.getElementById('cold'), {
  type: 'bar',
  data: { labels: names, datasets: [{ label: 'cold first run (ms)', data: data.strategies.map((s) => s.cold_ms), backgroundColor: '#f28e2b' }] },
  options: common('cold first run in a fresh process (median over the samples)'),
});
`;

export function renderBenchHtml(s: BenchSummary): string {
  const what = s.strategies[0]!.answer.what;
  const fields = answerFields(what);
  const rows = s.strategies
    .map(
      (x, i) =>
        `<tr><td>${escapeHtml(x.name)}</td><td>${fmtMs(x.coldMs)}</td><td>${fmtMs(x.steady.median)}</td><td>${fmtMs(x.steady.min)}</td><td>${fmtMs(x.steady.max)}</td>` +
        `<td>${x.sampleMediansMs.length}</td><td>${x.answer.count}</td><td>${i === 0 ? 'reference' : x.agrees ? 'yes' : `<strong>NO${x.contradictions !== null ? ` (${x.contradictions} contradicting)` : ''}</strong>`}</td></tr>`,
    )
    .join('\n');
  const verdict = s.agree
    ? s.strategies.length === 1
      ? ''
      : `All ${s.strategies.length} strategies compute the same result.`
    : '<strong>The strategies disagree</strong> (the first is the reference).';
  const title = `shapelog bench ${s.file}${s.goal !== null ? ` --goal '${s.goal}'` : ''}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
.charts { display: flex; flex-wrap: wrap; gap: 2em; }
.chart { width: 440px; }
table { border-collapse: collapse; margin-top: 1.5em; }
td, th { padding: 0.25em 0.8em; border-bottom: 1px solid #ddd; text-align: right; }
td:first-child, th:first-child { text-align: left; }
p { max-width: 60em; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>${s.runs} sample${s.runs === 1 ? '' : 's'} per strategy, each a fresh process: a cold first run, ${s.warmupMs} ms of warm-up, then timed runs for up to ${s.timedBudgetMs} ms; each sample's median run is one sample. ${verdict}</p>
<div class="charts">
<div class="chart"><canvas id="steady"></canvas></div>
<div class="chart"><canvas id="cold"></canvas></div>
</div>
<table>
<tr><th>strategy</th><th>cold (ms)</th><th>median (ms)</th><th>min (ms)</th><th>max (ms)</th><th>samples</th><th>${fields.count}</th><th>agree</th></tr>
${rows}
</table>
<script type="application/json" id="bench-data">${scriptJson(benchJson(s))}</script>
<script>
${inlineChartJsSource()}
</script>
<script>
${PAGE_SCRIPT}
</script>
</body>
</html>
`;
}
