// SPDX-License-Identifier: MIT
// `npm install -g` of the packed tarball with no prebuilt binary for this platform: the install
// step builds hammer from the bundled source (CMake, Release, the hammer target only), and the
// installed `hammer` and API work. Slow (a compile): CTest runs it in release builds only.
'use strict';

const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { needsBuild, tempDir, startServer } = require('./helpers.js');
const { packTarball, installGlobally, cmakeVersion } = require('./package.js');

test('npm install -g builds hammer from the bundled source; hammer --version runs',
     { skip: needsBuild, timeout: 600000 }, async (t) => {
  const sandbox = tempDir(t, 'hammer-npm-source-');
  const tarball = await packTarball(sandbox);
  const listing = childProcess.execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
  assert.match(listing, /^package\/source\/src\/cli\/main\.cc$/m);
  assert.match(listing, /^package\/source\/CMakeLists\.txt$/m);
  assert.doesNotMatch(listing, /^package\/(source\/)?(tests|bench|fuzz|tools|prebuilt)\//m);
  assert.doesNotMatch(listing, /_test\.cc$/m);

  const result = await installGlobally(sandbox, tarball,
                                       { env: { HAMMER_BUILD_JOBS: '2' }, timeoutMs: 550000 });
  assert.equal(result.status, 0, result.output);
  assert.equal(fs.existsSync(path.join(result.packageDir, 'build')), false, 'build dir removed');

  const version = childProcess.spawnSync(result.bin, ['--version'], { encoding: 'utf8' });
  assert.equal(version.status, 0, version.stderr);
  assert.equal(version.stdout, `hammer ${cmakeVersion()}\n`);

  // The installed package's API runs the binary it built.
  const { run, binaryPath } = require(result.packageDir);
  assert.equal(binaryPath(), path.join(result.packageDir, 'native', 'hammer'));
  const url = await startServer(t);
  const report = await run({ url, connections: 2, threads: 1, duration: '0.5s', rate: 100 });
  assert.ok(report.requests.completed > 0);
  assert.ok(report.latency.corrected && report.latency.uncorrected);
});
