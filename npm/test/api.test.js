// SPDX-License-Identifier: MIT
// run() against the built hammer and a local test server: the summary and document it resolves
// to, the errors it rejects with, and how options become hammer's arguments.
'use strict';

const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { run, isSweep } = require('../lib/index.js');
const { hammerBin, needsBuild, tempDir, startServer, getText } = require('./helpers.js');

function assertHistogram(histogram, name) {
  assert.ok(histogram, `${name} histogram present`);
  assert.ok(histogram.count > 0, `${name}.count > 0`);
  assert.ok(histogram.min_ns > 0 && histogram.max_ns >= histogram.min_ns, `${name} min/max`);
  assert.ok(histogram.percentiles_ns['99'] >= histogram.percentiles_ns['50'], `${name} p99 >= p50`);
  assert.match(histogram.hdr, /^HISTF/);
}

// Every member name of a report (percentile keys and verdict figures aside) is declared in
// index.d.ts, so the declarations keep up with the document.
function memberNames(value, names = new Set(), parent = '') {
  if (Array.isArray(value)) {
    for (const item of value) memberNames(item, names, parent);
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (parent === 'percentiles_ns' || parent === 'figures' || parent === 'status_codes') continue;
      names.add(key);
      memberNames(child, names, key);
    }
  }
  return names;
}

test('an open-loop run resolves to the summary and, under hammer, the document: requests, both ' +
     'histograms, dispatch lag, errors', { skip: needsBuild, timeout: 30000 }, async (t) => {
  const url = await startServer(t);
  const summary = await run({ binary: hammerBin, url, connections: 4, threads: 2, duration: '1s',
                              rate: 400, timeout: '2s', method: 'GET' });
  const result = summary.hammer;
  assert.equal(result.hammer.schema, 1);
  assert.deepEqual([result.config.mode, result.config.connections, result.config.threads,
                    result.config.rate, result.config.timeout_ms],
                   ['open', 4, 2, 400, 2000]);
  assert.ok(result.requests.completed > 0, `completed ${result.requests.completed}`);
  assert.equal(result.status['2xx'], result.requests.completed);
  assertHistogram(result.latency.corrected, 'corrected');
  assertHistogram(result.latency.uncorrected, 'uncorrected');
  assert.ok(result.dispatch_lag.dispatched > 0);
  assert.deepEqual(result.errors, { connect: 0, read: 0, write: 0, timeout: 0, parse: 0, tls: 0 });
  assert.ok(Array.isArray(result.verdicts));
  assert.equal(result.interrupted, false);

  // The summary: the corrected stopwatch (open loop), in milliseconds, named.
  assert.equal(summary.latency.stopwatch, 'corrected');
  const corrected = result.latency.corrected;
  assert.deepEqual([summary.latency.p50, summary.latency.p90, summary.latency.p99,
                    summary.latency.average, summary.latency.max],
                   [corrected.percentiles_ns['50'] / 1e6, corrected.percentiles_ns['90'] / 1e6,
                    corrected.percentiles_ns['99'] / 1e6, corrected.mean_ns / 1e6,
                    corrected.max_ns / 1e6]);
  assert.deepEqual([summary.requests.total, summary.requests.average, summary.non2xx,
                    summary.errors, summary.timeouts, summary.mode, summary.rate],
                   [result.requests.completed, result.requests.per_second, 0, 0, 0, 'open', 400]);

  const declarations = fs.readFileSync(path.join(__dirname, '..', 'lib', 'index.d.ts'), 'utf8');
  for (const name of memberNames({ ...summary, hammer: undefined })) {
    assert.match(declarations, new RegExp(`['"]?${name}['"]?\\??:`),
                 `member '${name}' of the summary is declared in index.d.ts`);
  }
  for (const name of memberNames(result)) {
    assert.match(declarations, new RegExp(`['"]?${name.replace('.', '\\.')}['"]?\\??:`),
                 `member '${name}' of the report is declared in index.d.ts`);
  }
});

test('a closed-loop run has no corrected histogram and no dispatch lag',
     { skip: needsBuild, timeout: 30000 }, async (t) => {
  const url = await startServer(t);
  const summary = await run({ binary: hammerBin, url, connections: 2, threads: 1,
                              duration: 0.5 });
  const result = summary.hammer;
  assert.equal(summary.latency.stopwatch, 'uncorrected');
  assert.equal(summary.latency.p99, result.latency.uncorrected.percentiles_ns['99'] / 1e6);
  assert.equal(result.config.mode, 'closed');
  assert.ok(result.requests.completed > 0);
  assert.equal(result.latency.corrected, null);
  assertHistogram(result.latency.uncorrected, 'uncorrected');
  assert.equal(result.dispatch_lag, null);
});

// The CLI's own stderr line for the same arguments.
function cliError(args) {
  const result = childProcess.spawnSync(hammerBin, args, { encoding: 'utf8' });
  assert.equal(result.status, 1);
  return result.stderr.trim();
}

for (const connections of ['abc', 0]) {
  test(`connections: ${JSON.stringify(connections)} rejects with the CLI's message naming the flag`,
       { skip: needsBuild, timeout: 15000 }, async () => {
    const url = 'http://127.0.0.1:9/';
    await assert.rejects(run({ binary: hammerBin, url, connections }), (error) => {
      assert.match(error.message, /^hammer: --connections: /);
      assert.equal(error.message, cliError([`--connections=${connections}`, url]));
      assert.equal(error.exitCode, 1);
      return true;
    });
  });
}

test('a missing URL and a bad duration reject with the CLI\'s message',
     { skip: needsBuild, timeout: 15000 }, async () => {
  await assert.rejects(run({ binary: hammerBin }), { message: cliError([]) });
  await assert.rejects(run({ binary: hammerBin, url: 'http://127.0.0.1:9/', duration: '-1s' }),
                       { message: /^hammer: --duration: / });
});

test('nothing listening: rejects with exit 2 and hammer\'s reason',
     { skip: needsBuild, timeout: 15000 }, async () => {
  // Port 9 (discard) on 127.0.0.1: nothing listens there in CI.
  await assert.rejects(run({ binary: hammerBin, url: 'http://127.0.0.1:9/', duration: 1 }),
                       (error) => {
                         assert.equal(error.exitCode, 2);
                         assert.match(error.message, /^hammer: cannot connect to 127\.0\.0\.1:9/);
                         return true;
                       });
});

test('an AbortSignal ends the run early like Ctrl-C, with a report of the part measured',
     { skip: needsBuild, timeout: 30000 }, async (t) => {
  const url = await startServer(t);
  const started = Date.now();
  const result = await run({ binary: hammerBin, url, connections: 2, threads: 1, duration: '60s',
                             rate: 200, signal: AbortSignal.timeout(1000) });
  assert.equal(result.interrupted, true);
  assert.ok(result.requests.total > 0);
  assert.ok(Date.now() - started < 20000, 'stopped long before the 60 s duration');
});

// An abort right after run() reaches hammer before it can take Ctrl-C (it is still starting):
// no document, so run() rejects, and with the signal's reason (an AbortError), as it does for
// a signal aborted before run(), never with "ended by SIGINT". Should hammer have been quick
// enough to report, the document resolves as usual.
test('an abort while hammer is still starting rejects with the signal\'s reason',
     { skip: needsBuild, timeout: 30000 }, async (t) => {
  const url = await startServer(t);
  for (let attempt = 0; attempt < 3; ++attempt) {
    const controller = new AbortController();
    const running = run({ binary: hammerBin, url, connections: 1, duration: '30s',
                          signal: controller.signal });
    controller.abort();
    await running.then(
      (result) => assert.equal(result.interrupted, true),
      (error) => {
        assert.equal(error, controller.signal.reason);
        assert.equal(error.name, 'AbortError');
      });
  }
  const before = new AbortController();
  before.abort();
  await assert.rejects(run({ binary: hammerBin, url, signal: before.signal }),
                       { name: 'AbortError' });
});

test('unknown option names and bad option types are rejected before hammer runs', async () => {
  await assert.rejects(run({ url: 'http://127.0.0.1:9/', connection: 5 }),
                       { name: 'TypeError', message: "run(): unknown option 'connection'" });
  await assert.rejects(run({ url: 'http://127.0.0.1:9/', headers: 'X-A: b' }), TypeError);
  await assert.rejects(run({ url: 'http://127.0.0.1:9/', body: 42 }), TypeError);
  await assert.rejects(run('http://127.0.0.1:9/'), TypeError);
  await assert.rejects(run({ url: 'http://127.0.0.1:9/', binary: '/nonexistent/hammer' }),
                       { message: /^hammer: cannot run \/nonexistent\/hammer: .*ENOENT/,
                         exitCode: null });
});

// A stand-in for hammer that prints its arguments and the --body and --requests files' contents
// as JSON; its --help prints `help`.
function echoBinary(t, help = 'Usage: hammer [options] URL\n') {
  const dir = tempDir(t, 'hammer-echo-');
  const file = path.join(dir, 'echo-hammer');
  fs.writeFileSync(file, `#!${process.execPath}
const fs = require('node:fs');
const args = process.argv.slice(2);
if (args[0] === '--help') {
  process.stdout.write(${JSON.stringify(help)});
  process.exit(0);
}
const body = args.find((arg) => arg.startsWith('--body='));
const requests = args.find((arg) => arg.startsWith('--requests='));
const read = (file) => file && fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
const lines = requests && read(requests.slice(11));
process.stdout.write(JSON.stringify({ args, bodyPath: body && body.slice(7),
  body: body && read(body.slice(7)), requestsPath: requests && requests.slice(11),
  requests: lines && lines.trim().split('\\n').map((line) => JSON.parse(line)) }));
`, { mode: 0o755 });
  return file;
}

// What the echo binary was given: the document it printed, under the summary's `hammer`.
async function echo(options) {
  return (await run(options)).hammer;
}

test('options become --flag=value arguments, headers repeated -H, the URL after --',
     async (t) => {
  const binary = echoBinary(t);
  const echoed = await echo({
    binary, url: 'http://127.0.0.1:8080/x', connections: 8, threads: 2, duration: '3s',
    rate: '2k', warmup: '1s', method: 'POST', timeout: 500, closedLoop: true,
    headers: { 'X-One': 1, 'X-Many': ['a', 'b'] }, args: ['--latency'],
  });
  assert.deepEqual(echoed.args, [
    '--json', '--connections=8', '--threads=2', '--duration=3s', '--rate=2k', '--warmup=1s',
    '--method=POST', '--timeout=500', '--closed-loop', '--header=X-One: 1',
    '--header=X-Many: a', '--header=X-Many: b', '--latency', '--', 'http://127.0.0.1:8080/x',
  ]);
  const fromArray = await echo({ binary, url: 'http://h/', headers: ['A: 1', ['B', '2']] });
  assert.deepEqual(fromArray.args, ['--json', '--header=A: 1', '--header=B: 2', '--', 'http://h/']);
});

test('a string or Buffer body goes through a temporary file, removed after the run',
     async (t) => {
  const binary = echoBinary(t);
  for (const body of ['{"a":1}', Buffer.from('bytes\u00e9')]) {
    const echoed = await echo({ binary, url: 'http://h/', body });
    assert.equal(echoed.body, body.toString());
    assert.equal(fs.existsSync(echoed.bodyPath), false, 'body file removed');
  }
});

test('slo: one --slo each; the report has slo and slo_passed, and a miss (exit 3) resolves',
     { skip: needsBuild, timeout: 30000 }, async (t) => {
  const url = await startServer(t);
  const met = await run({ binary: hammerBin, url, connections: 2, threads: 1, duration: '0.5s',
                          rate: 100, slo: { p99: '5s', errors: '1%' } });
  assert.equal(isSweep(met), false);
  assert.deepEqual(met.slo.map((outcome) => [outcome.key, outcome.unit, outcome.pass]),
                   [['p99', 'ns', true], ['errors', 'ratio', true]]);
  assert.equal(met.slo[0].limit, 5e9);
  assert.equal(met.slo_passed, true);
  // p50 under 1 ns cannot be met: hammer exits 3, and run() still resolves with the document.
  const missed = await run({ binary: hammerBin, url, connections: 2, threads: 1,
                             duration: '0.5s', rate: 100, slo: ['p50=1ns'] });
  assert.equal(missed.slo_passed, false);
  assert.equal(missed.slo[0].pass, false);
  assert.ok(missed.slo[0].measured > 1);
});

test('a list of rates is a sweep: isSweep(), its steps, onStep per step and onProgress per step',
     { skip: needsBuild, timeout: 60000 }, async (t) => {
  const url = await startServer(t);
  const steps = [];
  const progress = [];
  const result = await run({ binary: hammerBin, url, connections: 2, threads: 1, duration: '0.5s',
                             rate: [100, 200], slo: { p99: '5s' },
                             onStep: (step) => steps.push(step),
                             onProgress: (event) => progress.push(event) });
  assert.equal(isSweep(result), true);
  assert.equal(result.sweep.kind, 'rate');
  assert.deepEqual(result.sweep.levels, [100, 200]);
  assert.deepEqual(result.sweep.steps.map((step) => step.level), [100, 200]);
  assert.ok(result.sweep.steps.every((step) => step.requests.completed > 0 && step.slo_passed));
  // Whether a level "meets" also reads the dispatch bounds (server share < 5%), which a busy
  // machine can break at 200 req/s: the capacity is judged against the steps of this run.
  const met = result.sweep.steps.filter((step) => step.meets).map((step) => step.level);
  assert.equal(result.sweep.capacity.found, met.length > 0);
  if (met.length > 0) assert.equal(result.sweep.capacity.level, Math.max(...met));
  // A sweep's slo_passed is "some level met every SLO" (docs/json.md): the capacity's finding,
  // not each step's slo_passed (a CI run read false with both steps' SLOs passed, the dispatch
  // bounds broken at both levels on a loaded machine).
  assert.equal(result.slo_passed, result.sweep.capacity.found);
  assert.deepEqual(steps.map((step) => [step.type, step.step.index, step.step.level]),
                   [['step', 1, 100], ['step', 2, 200]]);
  assert.deepEqual(steps.map((step) => step.completed),
                   result.sweep.steps.map((step) => step.requests.completed));
  assert.ok(progress.length > 0, 'progress during the sweep');
  assert.ok(progress.every((event) => event.type === 'progress' && event.step.index >= 1));
});

test('onProgress: at most every 100 ms, the run as it goes', { skip: needsBuild, timeout: 30000 },
     async (t) => {
  const url = await startServer(t);
  const calls = [];
  const result = await run({ binary: hammerBin, url, connections: 2, threads: 1, duration: '1.5s',
                             rate: 200, onProgress: (event) => calls.push([Date.now(), event]) });
  assert.ok(calls.length >= 3, `${calls.length} progress events in 1.5 s`);
  for (let i = 1; i < calls.length; ++i) {
    assert.ok(calls[i][0] - calls[i - 1][0] >= 99, `event ${i} came ${calls[i][0] -
              calls[i - 1][0]} ms after the one before`);
    assert.ok(calls[i][1].elapsed_ns > calls[i - 1][1].elapsed_ns);
    assert.ok(calls[i][1].completed >= calls[i - 1][1].completed);
  }
  const [, last] = calls[calls.length - 1];
  assert.deepEqual([last.type, last.phase, last.total_ns, last.step], ['progress', 'measured',
                                                                       1.5e9, undefined]);
  assert.ok(last.completed <= result.requests.total);
});

test('a callback that throws stops the run, and run() rejects with its error',
     { skip: needsBuild, timeout: 30000 }, async (t) => {
  const url = await startServer(t);
  const started = Date.now();
  await assert.rejects(run({ binary: hammerBin, url, connections: 2, threads: 1, duration: '60s',
                             rate: 100, onProgress: () => { throw new Error('enough'); } }),
                       { message: 'enough' });
  assert.ok(Date.now() - started < 20000, 'stopped long before the 60 s duration');
});

// A stand-in for hammer that prints `stdout` and then exits with `code` or kills itself with
// `signal`.
function fakeHammer(t, { stdout = '', stderr = '', code = 0, signal = null }) {
  const dir = tempDir(t, 'hammer-fake-');
  const file = path.join(dir, 'fake-hammer');
  fs.writeFileSync(file, `#!${process.execPath}
process.stdout.write(${JSON.stringify(stdout)});
process.stderr.write(${JSON.stringify(stderr)});
${signal ? `process.stdout.end(() => process.kill(process.pid, '${signal}'));`
    : `process.stdout.end(() => process.exit(${code}));`}
`, { mode: 0o755 });
  return file;
}

test('the rule: a document resolves whatever the exit status or signal; no document rejects',
     async (t) => {
  const doc = JSON.stringify({ hammer: { schema: 1 }, verdicts: [{ code: 'run_failed' }] });
  for (const ending of [{ code: 0 }, { code: 2 }, { code: 3 }, { signal: 'SIGTERM' }]) {
    const binary = fakeHammer(t, { stdout: doc, ...ending });
    assert.deepEqual((await run({ binary, url: 'http://h/' })).hammer, JSON.parse(doc),
                     JSON.stringify(ending));
  }
  const cases = [
    [{ code: 1, stderr: 'hammer: --rate: bad\n' },
     { message: 'hammer: --rate: bad', exitCode: 1, signal: null }],
    [{ code: 2, stderr: 'hammer: cannot connect to h:80: refused\n' },
     { message: 'hammer: cannot connect to h:80: refused', exitCode: 2 }],
    [{ code: 2 }, { message: 'hammer: exit 2 without a report', exitCode: 2 }],
    [{ signal: 'SIGKILL' }, { message: 'hammer: ended by SIGKILL before it reported',
                              exitCode: null, signal: 'SIGKILL' }],
    [{ code: 0, stdout: '{"cut' }, { message: /^hammer: exit 0 with unreadable JSON: / }],
  ];
  for (const [ending, expected] of cases) {
    await assert.rejects(run({ binary: fakeHammer(t, ending), url: 'http://h/' }), expected,
                         JSON.stringify(ending));
  }
});

test('slo, levels and callbacks become arguments; wrong types are TypeErrors', async (t) => {
  const binary = echoBinary(t);
  const echoed = await echo({ binary, url: 'http://h/', rate: ['1k', 2000], slo: { p99: '50ms' },
                             onStep: () => {} });
  assert.deepEqual(echoed.args, ['--json', '--rate=1k,2000', '--slo=p99=50ms', '--progress-fd=3',
                                 '--', 'http://h/']);
  const listed = await echo({ binary, url: 'http://h/', connections: [1, 2], slo: ['errors=1%'] });
  assert.deepEqual(listed.args, ['--json', '--connections=1,2', '--slo=errors=1%', '--',
                                 'http://h/']);
  await assert.rejects(run({ binary, url: 'http://h/', slo: 'p99=5ms' }), TypeError);
  await assert.rejects(run({ binary, url: 'http://h/', duration: [1, 2] }), TypeError);
  await assert.rejects(run({ binary, url: 'http://h/', onProgress: 'yes' }), TypeError);
});

// The script a user arriving from autocannon writes, run as they run it (node script.js): two
// request paths, three seconds, p50/p99/non2xx printed. The server's own count of each path
// is the document's per-line count.
test('the autocannon-style script: two paths for 3 s, p50, p99 and non2xx printed',
     { skip: needsBuild, timeout: 60000 }, async (t) => {
  const url = await startServer(t, 'fast', ['--count-paths', '1']);
  const dir = tempDir(t, 'hammer-seed-');
  const script = path.join(dir, 'seed.js');
  fs.writeFileSync(script, `const { run } = require(${JSON.stringify(path.join(__dirname, '..'))});

async function main() {
  const result = await run({
    binary: ${JSON.stringify(hammerBin)},
    url: ${JSON.stringify(url)},
    connections: 10,
    duration: 3,
    requests: [{ method: 'GET', path: '/' }, { method: 'GET', path: '/api' }],
  });
  console.log(\`p50 \${result.latency.p50} ms\`);
  console.log(\`p99 \${result.latency.p99} ms\`);
  console.log(\`non2xx \${result.non2xx}\`);
  console.log(JSON.stringify(result.hammer.requests_file.lines.map((l) => [l.path, l.completed])));
}
main().catch((error) => { console.error(error.message); process.exitCode = 1; });
`);
  const ran = childProcess.spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 50000 });
  assert.equal(ran.status, 0, ran.stderr);
  const lines = ran.stdout.trim().split('\n');
  console.log(lines.slice(0, 3).join('\n'));
  assert.match(lines[0], /^p50 \d+(\.\d+)?(e-\d+)? ms$/);
  assert.match(lines[1], /^p99 \d+(\.\d+)?(e-\d+)? ms$/);
  assert.ok(Number(lines[1].split(' ')[1]) >= Number(lines[0].split(' ')[1]), 'p99 >= p50');
  assert.equal(lines[2], 'non2xx 0');
  const perPath = JSON.parse(lines[3]);
  assert.deepEqual(perPath.map(([p]) => p), ['/', '/api']);
  assert.ok(perPath.every(([, completed]) => completed > 0), lines[3]);
  // The server saw each path as often as the document says it was answered.
  const counts = await getText(`${url}__counts`);
  for (const [p, completed] of perPath) {
    assert.match(counts, new RegExp(`^${completed} ${p.replace('/', '\\/')}$`, 'm'), counts);
  }
});

test('non2xx counts every answer that is not 2xx, beside the status classes',
     { skip: needsBuild, timeout: 30000 }, async (t) => {
  const url = await startServer(t, 'status', ['--status', '404']);
  const result = await run({ binary: hammerBin, url, connections: 2, threads: 1, duration: 0.5 });
  assert.ok(result.requests.total > 0);
  assert.equal(result.non2xx, result.requests.total);
  assert.equal(result['4xx'], result.requests.total);
  assert.equal(result['2xx'], 0);
  assert.equal(result.errors, 0, 'a 404 is an answer, not an error');
});

test('requests: an array becomes a JSON Lines file for --requests, removed after; a path is ' +
     'passed on', async (t) => {
  const binary = echoBinary(t);
  const echoed = await echo({ binary, url: 'http://h/', requests: [
    { path: '/a' },
    { method: 'POST', path: '/b', headers: { 'Content-Type': 'application/json', 'X-N': 1 },
      body: '{"x":1}', name: 'create' },
    { method: 'PUT', path: '/c', body: Buffer.from([0, 1, 2]) },
  ] });
  assert.match(echoed.args.find((arg) => arg.startsWith('--requests=')), /hammer-requests-/);
  assert.deepEqual(echoed.requests.slice(0, 2), [
    { path: '/a' },
    { method: 'POST', path: '/b', headers: { 'Content-Type': 'application/json', 'X-N': '1' },
      body: '{"x":1}', name: 'create' },
  ]);
  // Bytes go to a file of their own beside it (body_file), removed with it.
  assert.deepEqual(Object.keys(echoed.requests[2]), ['method', 'path', 'body_file']);
  assert.equal(fs.existsSync(echoed.requestsPath), false, 'requests file removed');
  assert.equal(fs.existsSync(path.dirname(echoed.requestsPath)), false, 'its folder removed');

  const fromFile = await echo({ binary, url: 'http://h/', requests: 'mix.jsonl' });
  assert.deepEqual(fromFile.args, ['--json', '--requests=mix.jsonl', '--', 'http://h/']);
  await assert.rejects(run({ binary, url: 'http://h/', requests: [] }), TypeError);
  await assert.rejects(run({ binary, url: 'http://h/', requests: [{ path: '/', setupRequest: 1 }] }),
                       { name: 'TypeError', message: /requests\[0\]: unknown member 'setupRequest'/ });
  await assert.rejects(run({ binary, url: 'http://h/', requests: 42 }), TypeError);
});

test('a bad request in the array is refused in hammer\'s words, named requests[i]',
     { skip: needsBuild, timeout: 15000 }, async (t) => {
  const url = await startServer(t);
  await assert.rejects(run({ binary: hammerBin, url, requests: [{ path: '/' }, { path: 'x' }] }),
                       (error) => {
                         assert.equal(error.exitCode, 1);
                         assert.match(error.message, /requests\[1\]: path must start with '\/'/);
                         assert.doesNotMatch(error.message, /hammer-requests-/);
                         return true;
                       });
});

// amount is hammer's request count (-n). A hammer without one (its --help lists no -n) makes
// it a clear error before anything runs; with one, it is passed on as -n N.
test('amount: -n N where hammer has it, else a clear error', async (t) => {
  const without = echoBinary(t);
  await assert.rejects(run({ binary: without, url: 'http://h/', amount: 1000 }),
                       { message: /^run\(\): amount needs hammer with -n / });
  const binary = echoBinary(t, '  -n, --requests-count N  stop after N requests\n');
  const echoed = await echo({ binary, url: 'http://h/', amount: 1000, connections: 2 });
  assert.deepEqual(echoed.args, ['--json', '--connections=2', '-n', '1000', '--', 'http://h/']);
  await assert.rejects(run({ binary, url: 'http://h/', amount: -1 }), TypeError);
  await assert.rejects(run({ binary, url: 'http://h/', amount: 1.5 }), TypeError);
  // A binary that cannot start says so, as without amount: not that it has no -n.
  await assert.rejects(run({ binary: '/nonexistent/hammer', url: 'http://h/', amount: 10 }),
                       { message: /^hammer: cannot run \/nonexistent\/hammer: .*ENOENT/,
                         exitCode: null });
});

test('amount with the built hammer: -n when its --help lists it, else the clear error',
     { skip: needsBuild, timeout: 30000 }, async (t) => {
  const url = await startServer(t);
  const help = childProcess.spawnSync(hammerBin, ['--help'], { encoding: 'utf8' }).stdout;
  if (!/^\s*-n[,\s]/m.test(help)) {
    await assert.rejects(run({ binary: hammerBin, url, amount: 100 }),
                         { message: /^run\(\): amount needs hammer with -n / });
    return;
  }
  const result = await run({ binary: hammerBin, url, connections: 2, threads: 1, amount: 100 });
  assert.equal(result.requests.total, 100);
});
