// SPDX-License-Identifier: MIT
// run() against the built hammer and a local test server: the report it resolves to, the
// errors it rejects with, and how options become hammer's arguments.
'use strict';

const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { run } = require('../lib/index.js');
const { hammerBin, needsBuild, tempDir, startServer } = require('./helpers.js');

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

test('an open-loop run resolves to the report: requests, both histograms, dispatch lag, errors',
     { skip: needsBuild, timeout: 30000 }, async (t) => {
  const url = await startServer(t);
  const result = await run({ binary: hammerBin, url, connections: 4, threads: 2, duration: '1s',
                             rate: 400, timeout: '2s', method: 'GET' });
  assert.equal(result.hammer.schema, 1);
  assert.deepEqual([result.config.mode, result.config.connections, result.config.threads,
                    result.config.rate, result.config.timeout_ms],
                   ['open', 4, 2, 400, 2000]);
  assert.ok(result.requests.completed > 0, `completed ${result.requests.completed}`);
  assert.equal(result.status['2xx'], result.requests.completed);
  assertHistogram(result.latency.corrected, 'corrected');
  assertHistogram(result.latency.uncorrected, 'uncorrected');
  assert.ok(result.dispatch_lag.dispatched > 0);
  assert.deepEqual(result.errors, { connect: 0, read: 0, write: 0, timeout: 0, parse: 0 });
  assert.ok(Array.isArray(result.verdicts));
  assert.equal(result.interrupted, false);

  const declarations = fs.readFileSync(path.join(__dirname, '..', 'lib', 'index.d.ts'), 'utf8');
  for (const name of memberNames(result)) {
    assert.match(declarations, new RegExp(`['"]?${name.replace('.', '\\.')}['"]?\\??:`),
                 `member '${name}' of the report is declared in index.d.ts`);
  }
});

test('a closed-loop run has no corrected histogram and no dispatch lag',
     { skip: needsBuild, timeout: 30000 }, async (t) => {
  const url = await startServer(t);
  const result = await run({ binary: hammerBin, url, connections: 2, threads: 1,
                             duration: 0.5 });
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
  assert.ok(result.requests.completed > 0);
  assert.ok(Date.now() - started < 20000, 'stopped long before the 60 s duration');
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

// A stand-in for hammer that prints its arguments and the --body file's contents as JSON.
function echoBinary(t) {
  const dir = tempDir(t, 'hammer-echo-');
  const file = path.join(dir, 'echo-hammer');
  fs.writeFileSync(file, `#!${process.execPath}
const fs = require('node:fs');
const args = process.argv.slice(2);
const body = args.find((arg) => arg.startsWith('--body='));
process.stdout.write(JSON.stringify({ args, bodyPath: body && body.slice(7),
  body: body && fs.readFileSync(body.slice(7), 'utf8') }));
`, { mode: 0o755 });
  return file;
}

test('options become --flag=value arguments, headers repeated -H, the URL after --',
     async (t) => {
  const binary = echoBinary(t);
  const echoed = await run({
    binary, url: 'http://127.0.0.1:8080/x', connections: 8, threads: 2, duration: '3s',
    rate: '2k', warmup: '1s', method: 'POST', timeout: 500, closedLoop: true,
    headers: { 'X-One': 1, 'X-Many': ['a', 'b'] }, args: ['--latency'],
  });
  assert.deepEqual(echoed.args, [
    '--json', '--connections=8', '--threads=2', '--duration=3s', '--rate=2k', '--warmup=1s',
    '--method=POST', '--timeout=500', '--closed-loop', '--header=X-One: 1',
    '--header=X-Many: a', '--header=X-Many: b', '--latency', '--', 'http://127.0.0.1:8080/x',
  ]);
  const fromArray = await run({ binary, url: 'http://h/', headers: ['A: 1', ['B', '2']] });
  assert.deepEqual(fromArray.args, ['--json', '--header=A: 1', '--header=B: 2', '--', 'http://h/']);
});

test('a string or Buffer body goes through a temporary file, removed after the run',
     async (t) => {
  const binary = echoBinary(t);
  for (const body of ['{"a":1}', Buffer.from('bytes\u00e9')]) {
    const echoed = await run({ binary, url: 'http://h/', body });
    assert.equal(echoed.body, body.toString());
    assert.equal(fs.existsSync(echoed.bodyPath), false, 'body file removed');
  }
});
