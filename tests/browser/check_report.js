// SPDX-License-Identifier: MIT
// Loads a hammer HTML report in headless Chromium, from disk, offline, and checks it as a
// reader's browser sees it. Speaks the DevTools protocol over --remote-debugging-pipe (fds 3
// and 4, NUL-separated JSON) with node's built-ins only: no puppeteer, no npm package.
//
// Usage: node check_report.js CHROMIUM REPORT.html EXPECT.json SCREENSHOT.png
// EXPECT.json: {"runs": [{"document": "run.json", "hgrm": {"corrected": "run.hgrm",
//   "uncorrected": "run.uncorrected.hgrm"}}], "sweep": false}
// Prints one line per check; exits 1 when any fails.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [chromium, reportPath, expectPath, screenshotPath] = process.argv.slice(2);
const expect = JSON.parse(fs.readFileSync(expectPath, 'utf8'));
const failures = [];
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'hammer-browser-'));
const browser = spawn(chromium, [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-default-browser-check',
  '--disable-extensions', '--disable-background-networking', '--disable-sync',
  '--remote-debugging-pipe', `--user-data-dir=${profile}`,
  // Belt and braces: any request that escaped the offline emulation would go to a dead proxy.
  '--proxy-server=http://127.0.0.1:9', '--proxy-bypass-list=<-loopback>', 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let stderr = '';
browser.stderr.on('data', (chunk) => { stderr += chunk; });
const toBrowser = browser.stdio[3];
const fromBrowser = browser.stdio[4];

let nextId = 1;
const pending = new Map();
const listeners = [];
let buffered = '';
fromBrowser.on('data', (chunk) => {
  buffered += chunk.toString('utf8');
  let end;
  while ((end = buffered.indexOf('\0')) >= 0) {
    const message = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    if (message.id && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(JSON.stringify(message.error)));
      else resolve(message.result);
    } else if (message.method) {
      for (const listener of listeners) listener(message);
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = nextId++;
  const message = { id, method, params };
  if (sessionId) message.sessionId = sessionId;
  toBrowser.write(JSON.stringify(message) + '\0');
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
function waitFor(method, sessionId) {
  return new Promise((resolve) => {
    listeners.push(function once(message) {
      if (message.method === method && message.sessionId === sessionId) {
        listeners.splice(listeners.indexOf(once), 1);
        resolve(message.params);
      }
    });
  });
}

async function main() {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const consoleErrors = [];
  const requests = [];
  listeners.push((message) => {
    if (message.sessionId !== sessionId) return;
    const p = message.params;
    if (message.method === 'Runtime.consoleAPICalled' && (p.type === 'error' || p.type === 'warning')) {
      consoleErrors.push(p.args.map((arg) => arg.value).join(' '));
    } else if (message.method === 'Runtime.exceptionThrown') {
      consoleErrors.push(p.exceptionDetails.text);
    } else if (message.method === 'Log.entryAdded' && p.entry.level === 'error') {
      consoleErrors.push(p.entry.text);
    } else if (message.method === 'Network.requestWillBeSent') {
      requests.push(p.request.url);
    }
  });
  for (const method of ['Runtime.enable', 'Log.enable', 'Network.enable', 'Page.enable']) {
    await send(method, {}, sessionId);
  }
  await send('Network.emulateNetworkConditions',
             { offline: true, latency: 0, downloadThroughput: 0, uploadThroughput: 0 }, sessionId);
  await send('Emulation.setDeviceMetricsOverride',
             { width: 1280, height: 900, deviceScaleFactor: 1, mobile: false }, sessionId);
  const loaded = waitFor('Page.loadEventFired', sessionId);
  const url = 'file://' + path.resolve(reportPath);
  await send('Page.navigate', { url }, sessionId);
  await loaded;

  const probe = await send('Runtime.evaluate', {
    returnByValue: true,
    expression: `(() => {
      const cells = {};
      for (const row of document.querySelectorAll('#summary tr[data-percentile], table.summary tr[data-percentile]')) {
        const tds = row.querySelectorAll('td[data-ns]');
        cells[row.dataset.percentile] = Array.from(tds).map((td) => Number(td.dataset.ns));
      }
      const curves = Array.from(document.querySelectorAll('svg.chart polyline.series')).map((line) => ({
        chart: line.closest('svg').id, series: line.dataset.series,
        points: line.getAttribute('points').trim().split(/\\s+/).filter(Boolean).length }));
      const svgs = Array.from(document.querySelectorAll('svg.chart')).map((svg) => ({
        id: svg.id, width: svg.getBoundingClientRect().width,
        title: svg.querySelector('title') ? svg.querySelector('title').textContent : '' }));
      // Each chart's legend, in the SVG's own units: where every entry (its line sample and its
      // text) lies, to check that none is cut off by the viewBox or overlaps another.
      const legends = Array.from(document.querySelectorAll('svg.chart')).map((svg) => {
        const box = svg.viewBox.baseVal;
        const lines = Array.from(svg.querySelectorAll('line.legend-line'));
        const entries = Array.from(svg.querySelectorAll('text.legend')).map((text, i) => {
          const t = text.getBBox();
          const l = lines[i].getBBox();
          return { name: text.textContent, left: Math.min(l.x, t.x), right: t.x + t.width,
                   top: Math.min(t.y, l.y - 2), bottom: t.y + t.height };
        });
        const axis = svg.querySelector('line.axis');
        return { id: svg.id, width: box.width, height: box.height, entries,
                 plotTop: axis ? Number(axis.getAttribute('y1')) : box.height };
      });
      // Every curve's line style as the browser draws it, and the caption's words for it.
      const styles = Array.from(document.querySelectorAll('svg.chart .series')).map((curve) => ({
        chart: curve.closest('svg').id, series: curve.dataset.series, tag: curve.tagName,
        dash: getComputedStyle(curve).strokeDasharray, d: curve.getAttribute('d'),
        points: Number(curve.dataset.points) }));
      const axisX = Object.fromEntries(Array.from(document.querySelectorAll('svg.chart')).map(
        (svg) => [svg.id, svg.querySelector('line.axis') ? Number(svg.querySelector('line.axis').getAttribute('x1')) : null]));
      const captionSpans = Array.from(document.querySelectorAll('#comparison-styles span[data-series]'))
        .map((span) => ({ series: span.dataset.series, dash: span.dataset.dash, text: span.textContent }));
      const compareRows = Array.from(document.querySelectorAll('#compare-rows tr[data-percentile]'))
        .map((row) => ({ percentile: row.dataset.percentile, verdict: row.dataset.verdict,
          shown: row.querySelector('td.verdict').textContent,
          visible: row.getBoundingClientRect().height > 0 }));
      const gates = Array.from(document.querySelectorAll('#gates tr[data-gate]'))
        .map((row) => ({ percentile: row.dataset.gate, tripped: row.dataset.tripped === 'true' }));
      const rps = document.getElementById('requests-per-second');
      return { compareRows, gates, svgs, curves, cells, legends, styles, axisX, captionSpans, scripts: document.scripts.length,
        requestsPerSecond: rps ? rps.textContent : null,
        scrollWidth: document.documentElement.scrollWidth,
        height: document.documentElement.scrollHeight,
        findings: document.querySelectorAll('#findings li').length,
        footer: document.getElementById('config') ? document.getElementById('config').textContent : '',
        headings: Array.from(document.querySelectorAll('h2')).map((h) => h.textContent) };
    })()`,
  }, sessionId);
  const page = probe.result.value;

  check(requests.every((request) => request.startsWith('file://')),
        `no network request (requests: ${requests.length}, all file://)`);
  check(page.scripts === 0, `no script in the page (${page.scripts})`);
  check(page.scrollWidth <= 1280, `fits 1280 px without horizontal scrolling (${page.scrollWidth})`);
  check(page.svgs.length >= (expect.sweep ? 2 : expect.compareCommand ? 1 : 3), `SVG charts present: ${page.svgs.map((s) => s.id).join(', ')}`);
  check(page.svgs.every((svg) => svg.width >= 900), `each chart is at least 900 px wide at 1280 px`);
  check(page.findings >= 1, `findings listed first (${page.findings})`);
  check(page.footer.includes('hammer ') && page.footer.includes('url'), 'config and version at the foot');
  check(page.headings[0] === 'Findings' || page.headings[0] === 'Comparison',
        `first section: ${page.headings[0]}`);

  // No legend entry is cut off by its chart's edge, runs into another, or into the plot.
  for (const legend of page.legends) {
    const { entries } = legend;
    const inside = entries.every((e) => e.left >= 0 && e.right <= legend.width && e.top >= 0 &&
                                        e.bottom <= legend.plotTop);
    let overlaps = 0;
    for (let i = 0; i < entries.length; ++i) {
      for (let j = i + 1; j < entries.length; ++j) {
        const a = entries[i];
        const b = entries[j];
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) ++overlaps;
      }
    }
    const widest = Math.max(0, ...entries.map((e) => e.right));
    check(inside && overlaps === 0,
          `${legend.id}: legend of ${entries.length} within ${legend.width}x${legend.height} above the plot ` +
          `(rightmost ${widest.toFixed(0)}, overlaps ${overlaps})`);
  }
  // A per-second series is a step path from the run's start (the axis at x = 0), one level
  // per timeline row.
  if (expect.timeline) {
    const document = JSON.parse(fs.readFileSync(expect.timeline, 'utf8'));
    const rows = document.timeline.rows.length;
    for (const chart of ['timeline-throughput', 'timeline-latency']) {
      const curves = page.styles.filter((c) => c.chart === chart);
      check(curves.length > 0 && curves.every((c) => c.tag === 'path' && c.d && c.d.startsWith('M')),
            `${chart}: ${curves.length} curves, each drawn as steps (${curves.map((c) => c.tag).join(', ')})`);
      const requests = curves.find((c) => c.series === 'requests/s');
      if (requests) {
        const x0 = Number(/^M([\d.]+)/.exec(requests.d)[1]);
        const levels = (requests.d.match(/H/g) || []).length;
        check(Math.abs(x0 - page.axisX[chart]) < 0.05 && levels === rows && requests.points === rows,
              `${chart}: requests/s starts at the run's start (x ${x0} = axis ${page.axisX[chart]}), ` +
              `${levels} levels for ${rows} rows`);
      }
    }
  }
  // The comparison's caption names each curve drawn, in the line style the browser draws it.
  if (expect.comparison) {
    const words = { '': 'solid', '6 3': 'dashed', '14 5': 'long dashes', '2 3': 'dotted',
                    '10 3 2 3': 'dash-dot', '1 6': 'sparse dots' };
    const drawn = page.styles.filter((c) => c.chart === 'comparison-chart');
    check(page.captionSpans.length === drawn.length,
          `caption names ${page.captionSpans.length} curves, ${drawn.length} drawn`);
    for (const curve of drawn) {
      const dash = curve.dash === 'none' ? '' : curve.dash.replace(/px/g, '').replace(/,\s*/g, ' ');
      const span = page.captionSpans.find((s) => s.series === curve.series);
      check(span && span.dash === dash && span.text === `${curve.series}: ${words[dash]}`,
            `${curve.series}: drawn ${words[dash] || dash} (${dash || 'no dashes'}), caption says ` +
            `${span ? JSON.stringify(span.text) : 'nothing'}`);
    }
    const kinds = new Set(drawn.map((c) => c.dash));
    check(kinds.size === drawn.length, `no two curves share a line style (${kinds.size} of ${drawn.length})`);
  }

  for (const [index, run] of (expect.runs || []).entries()) {
    const document = JSON.parse(fs.readFileSync(run.document, 'utf8'));
    const chart = expect.runs.length > 1 ? 'comparison-chart' : 'spectrum-chart';
    for (const [name, hgrm] of Object.entries(run.hgrm || {})) {
      // Every .hgrm line but the 100% one (its 1/(1-q) is infinite) is a point of the curve.
      const lines = fs.readFileSync(hgrm, 'utf8').split('\n').filter((l) => /^\s+\d/.test(l));
      const curve = page.curves.find((c) => c.chart === chart && c.series === name);
      check(curve && curve.points === lines.length - 1,
            `${chart}: ${name} curve has ${curve ? curve.points : 'no'} points, .hgrm has ${lines.length - 1} below 100%`);
    }
    if (expect.runs.length === 1) {
      const latency = document.latency;
      for (const [label, cells] of Object.entries(page.cells)) {
        if (label === 'max') continue;
        const want = [latency.corrected, latency.uncorrected].filter(Boolean)
          .map((h) => h.percentiles_ns[label]);
        check(JSON.stringify(cells) === JSON.stringify(want),
              `p${label}: page ${JSON.stringify(cells)} ns = JSON ${JSON.stringify(want)}`);
      }
      const want = [latency.corrected, latency.uncorrected].filter(Boolean).map((h) => h.max_ns);
      check(JSON.stringify(page.cells.max) === JSON.stringify(want),
            `max: page ${JSON.stringify(page.cells.max)} = JSON ${JSON.stringify(want)}`);
      check(page.requestsPerSecond === document.requests.per_second.toFixed(2),
            `requests/s: page ${page.requestsPerSecond} = JSON ${document.requests.per_second}`);
    }
  }
  if (expect.comparison) {
    const overlaid = page.curves.filter((c) => c.chart === 'comparison-chart');
    check(overlaid.length === expect.comparison, `comparison chart overlays ${overlaid.length} curves`);
  }
  // hammer compare -o: a row per row of its --json document, each with that verdict, shown in
  // the text table's words (a row the host's noise held says so: "no change (host noise 52us)",
  // and one with too few requests above it: "no change (too few requests above it: 0.2)");
  // each gate with its outcome.
  if (expect.compareCommand) {
    const document = JSON.parse(fs.readFileSync(expect.compareCommand, 'utf8'));
    const words = { better: 'better', worse: 'worse', no_change: 'no change' };
    check(page.compareRows.length === document.rows.length && page.compareRows.length > 0,
          `compare rows: page ${page.compareRows.length}, JSON ${document.rows.length}`);
    for (const row of document.rows) {
      const shown = page.compareRows.find((r) => r.percentile === row.percentile);
      const worded = shown && (row.too_few_requests
        ? shown.shown.startsWith(words[row.verdict] + ' (too few requests above it: ')
        : row.within_host_noise
        ? shown.shown.startsWith(words[row.verdict] + ' (host noise ')
        : shown.shown === words[row.verdict]);
      check(shown && shown.visible && shown.verdict === row.verdict && worded,
            `p${row.percentile}: page ${shown ? shown.verdict + ' "' + shown.shown + '"' : 'no row'}, JSON ${row.verdict}`);
    }
    const gated = document.rows.filter((row) => row.fail_if_percent !== null);
    check(page.gates.length === gated.length &&
          gated.every((row) => page.gates.some((g) => g.percentile === row.percentile && g.tripped === row.failed)),
          `gates: page ${JSON.stringify(page.gates)}, JSON ${gated.length}`);
  }
  if (expect.sweep) {
    const document = JSON.parse(fs.readFileSync(expect.sweep, 'utf8'));
    const curve = page.curves.find((c) => c.chart === 'sweep-throughput');
    check(curve && curve.points === document.sweep.steps.length,
          `sweep throughput curve has one point per step (${curve ? curve.points : 'none'})`);
  }

  const pdf = await send('Page.printToPDF', { printBackground: true }, sessionId);
  check(pdf.data.length > 1000, `prints to PDF (${Math.round(pdf.data.length * 0.75)} bytes)`);
  const metrics = await send('Page.getLayoutMetrics', {}, sessionId);
  const height = Math.ceil(metrics.cssContentSize.height);
  const shot = await send('Page.captureScreenshot', {
    format: 'png', captureBeyondViewport: true,
    clip: { x: 0, y: 0, width: 1280, height, scale: 1 } }, sessionId);
  fs.writeFileSync(screenshotPath, Buffer.from(shot.data, 'base64'));
  console.log(`screenshot ${screenshotPath}: 1280x${height} px, ${fs.statSync(screenshotPath).size} bytes`);
  check(consoleErrors.length === 0, `console has no errors (${JSON.stringify(consoleErrors)})`);
  await send('Browser.close').catch(() => {});
}

const timer = setTimeout(() => {
  console.log('FAIL timed out\n' + stderr.slice(-2000));
  browser.kill('SIGKILL');
  process.exit(1);
}, 60000);
main().then(() => {
  clearTimeout(timer);
  // The profile goes once the browser has exited (it writes there until then).
  browser.on('exit', () => {
    try { fs.rmSync(profile, { recursive: true, force: true }); } catch (error) { /* tmp */ }
    process.exit(failures.length ? 1 : 0);
  });
  browser.kill('SIGKILL');
}, (error) => {
  console.log('FAIL ' + error.stack + '\n' + stderr.slice(-2000));
  browser.kill('SIGKILL');
  process.exit(1);
});
