// SPDX-License-Identifier: MIT
// The install step with prebuilt binaries: a verified one is used, a bad checksum fails the
// install naming the file; and the installed `hammer` wrapper passes on argv, exit codes and
// signals. (Building from source: install_source.test.js.)
'use strict';

const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const install = require('../scripts/install.js');
const { platformKey, executableName } = require('../lib/binary.js');
const { hammerBin, needsBuild, tempDir, startServer } = require('./helpers.js');
const { packTarball, installGlobally, cmakeVersion } = require('./package.js');

const key = platformKey();
const exe = executableName();
const kZeros = '0'.repeat(64);

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

// A prebuilt directory holding `binary` for this platform, with a manifest entry of `digest`
// (the file's real SHA-256 by default; null: no entry).
function prebuiltDir(dir, binary, digest = sha256(binary)) {
  fs.mkdirSync(path.join(dir, key), { recursive: true });
  fs.copyFileSync(binary, path.join(dir, key, exe));
  const manifest = digest === null ? {} : { [key]: { file: `${key}/${exe}`, sha256: digest } };
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return dir;
}

test('findVerifiedPrebuilt: a matching checksum, a mismatch, no entry, a missing file',
     (t) => {
  const sandbox = tempDir(t, 'hammer-prebuilt-');
  const binary = path.join(sandbox, 'fake-hammer');
  fs.writeFileSync(binary, 'not really hammer\n');

  const good = prebuiltDir(path.join(sandbox, 'good'), binary);
  assert.equal(install.findVerifiedPrebuilt(good), path.join(good, key, exe));

  const bad = prebuiltDir(path.join(sandbox, 'bad'), binary, kZeros);
  assert.throws(() => install.findVerifiedPrebuilt(bad), {
    message: `checksum mismatch for ${path.join(bad, key, exe)}: expected ${kZeros}, ` +
             `got ${sha256(binary)}`,
  });

  const unlisted = prebuiltDir(path.join(sandbox, 'unlisted'), binary, null);
  assert.throws(() => install.findVerifiedPrebuilt(unlisted), /^Error: no checksum for .*has no/);

  const missing = prebuiltDir(path.join(sandbox, 'missing'), binary);
  fs.rmSync(path.join(missing, key, exe));
  assert.throws(() => install.findVerifiedPrebuilt(missing), /the file is missing/);

  const escaping = path.join(sandbox, 'escaping');
  fs.mkdirSync(escaping);
  fs.writeFileSync(path.join(escaping, 'manifest.json'),
                   JSON.stringify({ [key]: { file: '../fake-hammer', sha256: sha256(binary) } }));
  assert.throws(() => install.findVerifiedPrebuilt(escaping), /must be a path inside/);

  const empty = path.join(sandbox, 'empty');
  fs.mkdirSync(empty);
  assert.equal(install.findVerifiedPrebuilt(empty), null);
});

test('building from source names what is missing: cmake, its version, zlib', (t) => {
  const sandbox = tempDir(t, 'hammer-cmake-');
  assert.throws(() => install.checkCmake(path.join(sandbox, 'no-such-cmake')),
                /^Error: cmake not found .*CMake >= 3\.21/);
  const oldCmake = path.join(sandbox, 'cmake');
  fs.writeFileSync(oldCmake, '#!/bin/sh\necho "cmake version 3.16.3"\n', { mode: 0o755 });
  assert.throws(() => install.checkCmake(oldCmake), { message: /^cmake 3\.16\.3 is too old/ });
  assert.match(install.explainFailure('Could NOT find ZLIB (missing: ZLIB_INCLUDE_DIR)'),
               /^zlib headers missing/);
  assert.match(install.explainFailure('No CMAKE_CXX_COMPILER could be found.'),
               /^no C\+\+ compiler/);
  assert.match(install.explainFailure('No CMAKE_C_COMPILER could be found.'),
               /^no C compiler/);
  assert.equal(install.explainFailure('some other failure'), null);
});

test('npm install of a package whose prebuilt binary has a wrong checksum fails naming the file',
     { skip: needsBuild, timeout: 120000 }, async (t) => {
  const sandbox = tempDir(t, 'hammer-npm-bad-');
  const prebuilt = prebuiltDir(path.join(sandbox, 'prebuilt'), hammerBin, kZeros);
  const tarball = await packTarball(sandbox, { prebuilt });
  const result = await installGlobally(sandbox, tarball, { env: { HAMMER_BUILD_JOBS: '1' } });

  assert.notEqual(result.status, 0, result.output);
  const installedFile = path.join(result.packageDir, 'prebuilt', key, exe);
  assert.ok(result.output.includes(`checksum mismatch for ${installedFile}: expected ${kZeros}, ` +
                                   `got ${sha256(hammerBin)}`), result.output);
  assert.doesNotMatch(result.output, /building hammer from source/);
  assert.equal(fs.existsSync(result.bin), false, 'no hammer command left behind');
});

// Runs the installed `hammer` in a process group of its own (no terminal: a signal reaches
// hammer only through the wrapper); resolves to {code, signal, stdout, stderr}.
function runWrapper(bin, args, { signalAfterMs = 0, signal = null } = {}) {
  return new Promise((resolve) => {
    const child = childProcess.spawn(bin, args,
                                     { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const timers = [setTimeout(() => child.kill('SIGKILL'), 30000)];
    if (signal) timers.push(setTimeout(() => child.kill(signal), signalAfterMs));
    child.on('close', (code, killedBy) => {
      for (const timer of timers) clearTimeout(timer);
      resolve({ code, signal: killedBy, stdout, stderr });
    });
  });
}

test('npm install with a verified prebuilt binary next to the package; the hammer wrapper',
     { skip: needsBuild, timeout: 120000 }, async (t) => {
  const sandbox = tempDir(t, 'hammer-npm-good-');
  const prebuilt = prebuiltDir(path.join(sandbox, 'prebuilt'), hammerBin);
  const tarball = await packTarball(sandbox);  // the prebuilt directory is beside it, not in it
  const result = await installGlobally(sandbox, tarball,
                                       { env: { HAMMER_PREBUILT_DIR: prebuilt } });
  assert.equal(result.status, 0, result.output);
  assert.equal(sha256(path.join(result.packageDir, 'native', exe)), sha256(hammerBin),
               'the installed binary is the prebuilt one');
  assert.equal(fs.existsSync(path.join(result.packageDir, 'build')), false, 'nothing was built');

  const version = await runWrapper(result.bin, ['--version']);
  assert.deepEqual([version.code, version.stdout], [0, `hammer ${cmakeVersion()}\n`]);

  const bad = await runWrapper(result.bin, ['-c', 'abc', 'http://127.0.0.1:9/']);
  assert.equal(bad.code, 1);
  assert.equal(bad.stderr, "hammer: --connections: expected a whole number >= 1, got 'abc'\n");

  const url = await startServer(t);
  const interrupted = await runWrapper(result.bin,
                                       ['--json', '-c', '2', '-t', '1', '-d', '60s', url],
                                       { signal: 'SIGINT', signalAfterMs: 2000 });
  assert.equal(interrupted.code, 0, interrupted.stderr);
  const report = JSON.parse(interrupted.stdout);
  assert.equal(report.interrupted, true, 'SIGINT reached hammer, which reported');
  assert.ok(report.requests.completed > 0);

  // SIGTERM ends hammer's run like Ctrl-C, report included; the wrapper ends as hammer did.
  const terminated = await runWrapper(result.bin, ['--json', '-c', '1', '-d', '60s', url],
                                      { signal: 'SIGTERM', signalAfterMs: 1000 });
  assert.equal(terminated.code, 0, terminated.stderr);
  assert.equal(JSON.parse(terminated.stdout).interrupted, true, 'SIGTERM reached hammer');
});
