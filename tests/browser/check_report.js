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
      const rps = document.getElementById('requests-per-second');
      return { svgs, curves, cells, scripts: document.scripts.length,
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
  check(page.svgs.length >= (expect.sweep ? 2 : 3), `SVG charts present: ${page.svgs.map((s) => s.id).join(', ')}`);
  check(page.svgs.every((svg) => svg.width >= 900), `each chart is at least 900 px wide at 1280 px`);
  check(page.findings >= 1, `findings listed first (${page.findings})`);
  check(page.footer.includes('hammer ') && page.footer.includes('url'), 'config and version at the foot');
  check(page.headings[0] === 'Findings' || page.headings[0] === 'Comparison',
        `first section: ${page.headings[0]}`);

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
