// SPDX-License-Identifier: MIT
// A plain `npm pack` (its prepack stages the source, man page and completions), then
// `npm install -g` of the tarball offline, with no platform package: the install step builds
// hammer from the bundled source (CMake, Release, the hammer target only), puts it in place of
// the bin/hammer wrapper, and the installed `hammer` and API work. Slow (a compile): CTest runs
// it in release builds only.
'use strict';

const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { needsBuild, tempDir, startServer } = require('./helpers.js');
const { packTarball, installGlobally, cmakeVersion } = require('./package.js');

test('npm pack, then npm install -g builds hammer from the bundled source; hammer is the command',
     { skip: needsBuild, timeout: 600000 }, async (t) => {
  const sandbox = tempDir(t, 'hammer-npm-source-');
  const tarball = await packTarball(sandbox);
  const listing = childProcess.execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
  for (const file of ['source/src/cli/main.cc', 'source/src/cli/flags.h', 'source/CMakeLists.txt',
                      'man/hammer.1', 'completions/hammer.bash', 'completions/_hammer',
                      'bin/hammer', 'scripts/install.js', 'lib/index.d.ts']) {
    assert.match(listing, new RegExp(`^package/${file.replace('.', '\\.')}$`, 'm'), file);
  }
  assert.doesNotMatch(listing, /^package\/(source\/)?(tests|bench|fuzz|tools|test|build)\//m);
  assert.doesNotMatch(listing, /_test\.cc$|^package\/scripts\/stage\.js$/m);

  // With the settings the tests' own build was configured with (CTest passes them), each compile
  // line is the release build's, so a compiler cache serves it: on a busy two-core machine a
  // cold compile of the 84 sources, beside the next preset's build, ran past 10 minutes.
  const env = { HAMMER_BUILD_JOBS: '2', HAMMER_CMAKE_ARGS: process.env.HAMMER_TEST_CMAKE_ARGS || '' };
  const result = await installGlobally(sandbox, tarball, { env, timeoutMs: 550000 });
  assert.equal(result.status, 0, result.output);
  assert.match(result.output, /hammer-load: no prebuilt binary for linux-x64 \(@hammer-load\/linux-x64 is not installed\): building hammer from source/);
  // What the build is doing as it goes, and how long it took (npm shows it with
  // --foreground-scripts, as the tests install).
  assert.match(result.output, /^hammer-load: configuring the build \(CMake, Release/m);
  assert.match(result.output, /^hammer-load: configured in \d+\.\d s$/m);
  const compiled = [...result.output.matchAll(/^hammer-load: compiling (\d+) of (\d+): src\/\S+\.cc$/gm)];
  assert.ok(compiled.length >= 2, `compile progress lines:\n${result.output}`);
  assert.ok(compiled.every(([, done, total]) => Number(done) <= Number(total)));
  assert.match(result.output, /^hammer-load: linking hammer \((\d+) of \1\)$/m);
  assert.match(result.output, /^hammer-load: built hammer from source in \d+\.\d s \(configure \d+\.\d s, compile and link \d+\.\d s\)$/m);
  assert.equal(fs.existsSync(path.join(result.packageDir, 'source', 'build')), false,
               'build dir removed');

  const version = childProcess.spawnSync(result.bin, ['--version'], { encoding: 'utf8' });
  assert.equal(version.status, 0, version.stderr);
  assert.equal(version.stdout, `hammer ${cmakeVersion(path.join(__dirname, '..', '..'))}\n`);
  const command = fs.readFileSync(fs.realpathSync(result.bin));
  assert.equal(command.subarray(0, 4).toString('latin1'), '\x7fELF', 'the command is native');
  assert.ok(fs.existsSync(path.join(result.prefix, 'share', 'man', 'man1', 'hammer.1')));

  // The installed package's API runs the binary it built.
  const { run, binaryPath } = require(result.packageDir);
  assert.equal(binaryPath(), path.join(result.packageDir, 'native', 'hammer'));
  const url = await startServer(t);
  const report = await run({ url, connections: 2, threads: 1, duration: '0.5s', rate: 100 });
  assert.ok(report.requests.total > 0);
  assert.equal(report.latency.stopwatch, 'corrected');
  assert.ok(report.hammer.latency.corrected && report.hammer.latency.uncorrected);
});
