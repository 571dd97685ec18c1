// SPDX-License-Identifier: MIT
// The install step with a prebuilt binary package (@hammer-load/<platform>-<arch>, an optional
// dependency as in esbuild): a verified binary is used and becomes the `hammer` command itself;
// a bad one is said in one line and the install falls back to building from source; with no way
// to build, one line says what to do. The Node wrapper (Windows, checkouts) passes on argv, exit
// codes and signals. (Building from source: install_source.test.js.)
'use strict';

const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const install = require('../scripts/install.js');
const { binaryPackage } = require('../scripts/stage.js');
const { platformKey, executableName, binaryPackageName } = require('../lib/binary.js');
const { hammerBin, needsBuild, tempDir, startServer } = require('./helpers.js');
const { packTarball, packBinaryPackage, installGlobally, cmakeVersion, kInstallFlags } =
  require('./package.js');

const key = platformKey();
const exe = executableName();
const kZeros = '0'.repeat(64);
const version = cmakeVersion(path.join(__dirname, '..', '..'));

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function editManifest(dir, edit) {
  const file = path.join(dir, 'package.json');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(manifest);
  fs.writeFileSync(file, JSON.stringify(manifest));
}

test('verifiedBinary: the declared checksum, checksums.json, the version, the path', (t) => {
  const sandbox = tempDir(t, 'hammer-verify-');
  const binary = path.join(sandbox, 'fake-hammer');
  fs.writeFileSync(binary, 'not really hammer\n');
  const digest = sha256(binary);
  const file = path.join(sandbox, 'good', 'bin', exe);

  const good = binaryPackage(path.join(sandbox, 'good'), binary).dir;
  assert.equal(install.verifiedBinary(good, { version, checksums: {} }), file);
  assert.equal(install.verifiedBinary(good, { version, checksums: { [key]: digest } }), file);
  assert.throws(() => install.verifiedBinary(good, { version, checksums: { [key]: kZeros } }), {
    message: `checksum mismatch for ${file}: hammer-load's checksums.json expects ${kZeros}, ` +
             `got ${digest}`,
  });
  assert.throws(() => install.verifiedBinary(good, { version: '9.9.9', checksums: {} }), {
    message: `${binaryPackageName(key)} is version ${version}, hammer-load is 9.9.9`,
  });

  editManifest(good, (manifest) => { manifest.hammer.sha256 = kZeros; });
  assert.throws(() => install.verifiedBinary(good, { version, checksums: {} }), {
    message: `checksum mismatch for ${file}: expected ${kZeros}, got ${digest}`,
  });
  editManifest(good, (manifest) => { manifest.hammer.binary = '../fake-hammer'; });
  assert.throws(() => install.verifiedBinary(good, { version, checksums: {} }),
                /must be a path inside the package/);
  editManifest(good, (manifest) => { manifest.hammer.binary = 'bin/none'; });
  assert.throws(() => install.verifiedBinary(good, { version, checksums: {} }), /is missing$/);

  assert.equal(install.findBinaryPackage(key, sandbox), null, 'not installed: null');
});

test('building from source names what is missing, and the prebuilt route, in one line', (t) => {
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
  assert.equal(install.explainFailure('some other failure'), null);
  assert.equal(install.prebuiltAdvice('linux-x64'),
               'or let npm install the prebuilt binary @hammer-load/linux-x64 (online, without ' +
               '--omit=optional or --no-optional)');
  assert.match(install.prebuiltAdvice('linux-arm64'),
               /^no prebuilt hammer for linux-arm64 in this release/);
});

// Runs `bin` in a process group of its own (no terminal: a signal reaches hammer only through
// what `bin` is); resolves to {code, signal, stdout, stderr}.
// `signalOnStderr`: the signal goes once the command has written to stderr (hammer's progress
// lines: it is running and its handlers are in place), not at a time a busy machine may not
// have reached yet.
function runCommand(bin, args, { signalAfterMs = 0, signal = null, signalOnStderr = false } = {}) {
  return new Promise((resolve) => {
    const child = childProcess.spawn(bin, args,
                                     { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    let signalled = false;
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (signal && signalOnStderr && !signalled) {
        signalled = true;
        child.kill(signal);
      }
    });
    const timers = [setTimeout(() => child.kill('SIGKILL'), 30000)];
    if (signal && !signalOnStderr) timers.push(setTimeout(() => child.kill(signal), signalAfterMs));
    child.on('close', (code, killedBy) => {
      for (const timer of timers) clearTimeout(timer);
      resolve({ code, signal: killedBy, stdout, stderr });
    });
  });
}

// The source build's progress, read from the build tool's own lines: the first step, every 10%
// more, and the link, with N of M (ninja) or the percent (make).
test('the source build reports configure, compile N of M and link from ninja\'s or make\'s lines',
     () => {
  assert.deepEqual(install.parseProgress('[12/86] Building CXX object CMakeFiles/hammer_report.dir/src/report/html_report.cc.o'),
                   { done: 12, total: 86, percent: 13, what: 'compile', file: 'src/report/html_report.cc' });
  assert.deepEqual(install.parseProgress('[ 40%] Building CXX object CMakeFiles/hammer.dir/src/cli/main.cc.o'),
                   { done: null, total: null, percent: 40, what: 'compile', file: 'src/cli/main.cc' });
  assert.equal(install.parseProgress('-- Configuring done'), null);
  const printed = [];
  const report = install.progressReporter((line) => printed.push(line));
  report('[0/2] Re-checking globbed directories...');
  for (let done = 1; done <= 20; ++done) {
    report(done === 20 ? '[20/20] Linking CXX executable hammer'
      : done === 15 ? '[15/20] Linking CXX static library libhammer_report.a'
        : `[${done}/20] Building CXX object CMakeFiles/x.dir/src/a${done}.cc.o`);
  }
  assert.deepEqual(printed, [
    'compiling 1 of 20: src/a1.cc', 'compiling 2 of 20: src/a2.cc', 'compiling 4 of 20: src/a4.cc',
    'compiling 6 of 20: src/a6.cc', 'compiling 8 of 20: src/a8.cc', 'compiling 10 of 20: src/a10.cc',
    'compiling 12 of 20: src/a12.cc', 'compiling 14 of 20: src/a14.cc', 'compiling 16 of 20: src/a16.cc',
    'compiling 18 of 20: src/a18.cc', 'linking hammer (20 of 20)']);
});

test('npm install -g with the platform package: its verified binary is the hammer command',
     { skip: needsBuild, timeout: 180000 }, async (t) => {
  const sandbox = tempDir(t, 'hammer-npm-good-');
  const platform = await packBinaryPackage(sandbox, hammerBin);
  const checksums = path.join(sandbox, 'checksums.json');
  fs.writeFileSync(checksums, JSON.stringify({ [key]: platform.sha256 }));
  const tarball = await packTarball(sandbox, { checksums });
  const result = await installGlobally(sandbox, [platform.tarball, tarball]);
  assert.equal(result.status, 0, result.output);
  assert.match(result.output, new RegExp(`installed the prebuilt binary from ` +
                                         `${binaryPackageName(key)} \\(SHA-256 verified\\); ` +
                                         'the hammer command runs it directly'));
  assert.equal(fs.existsSync(path.join(result.packageDir, 'source', 'build')), false, 'nothing was built');
  assert.equal(sha256(path.join(result.packageDir, 'native', exe)), sha256(hammerBin));
  // The command npm linked is the native binary: no Node start-up, no Node process beside it.
  assert.equal(sha256(fs.realpathSync(result.bin)), sha256(hammerBin));

  const versionLine = await runCommand(result.bin, ['--version']);
  assert.deepEqual([versionLine.code, versionLine.stdout], [0, `hammer ${version}\n`]);
  const bad = await runCommand(result.bin, ['-c', 'abc', 'http://127.0.0.1:9/']);
  assert.equal(bad.code, 1);
  assert.equal(bad.stderr, "hammer: --connections: expected a whole number >= 1, got 'abc'\n");

  // The man page npm links, and the completions, are what this hammer generates.
  const manLink = path.join(result.prefix, 'share', 'man', 'man1', 'hammer.1');
  const generated = (kind) => childProcess.execFileSync(hammerBin, ['--generate', kind],
                                                        { encoding: 'utf8' });
  assert.equal(fs.readFileSync(manLink, 'utf8'), generated('man'));
  assert.equal(fs.readFileSync(path.join(result.packageDir, 'completions', 'hammer.bash'), 'utf8'),
               generated('bash'));
  assert.equal(fs.readFileSync(path.join(result.packageDir, 'completions', '_hammer'), 'utf8'),
               generated('zsh'));
});

// What the README says of npm 11's allowScripts (seen with npm 11.19): a global install of the
// tarball runs hammer-load's install step that no approval covers, then warns "1 package has
// install scripts not yet covered by allowScripts" naming it; --allow-scripts=hammer-load does
// not cover a tarball (npm matches it by name for registry packages), the tarball's absolute
// path does. Either way the install step ran: hammer is in place. An npm without allowScripts
// (10 and older) prints no notice.
test('npm 11\'s allowScripts notice: the install step runs anyway; the tarball\'s path approves it',
     { skip: needsBuild, timeout: 240000 }, async (t) => {
  const sandbox = tempDir(t, 'hammer-npm-scripts-');
  const platform = await packBinaryPackage(sandbox, hammerBin);
  const tarball = await packTarball(sandbox);
  const others = kInstallFlags.filter((flag) => !flag.startsWith('--allow-scripts'));
  const outcomes = [];
  for (const [name, approval] of [['none', []], ['name', ['--allow-scripts=hammer-load']],
                                  ['path', [`--allow-scripts=${tarball}`]]]) {
    const dir = path.join(sandbox, name);
    fs.mkdirSync(dir);
    const result = await installGlobally(dir, [platform.tarball, tarball],
                                         { flags: [...others, ...approval] });
    assert.equal(result.status, 0, result.output);
    assert.equal(sha256(fs.realpathSync(result.bin)), sha256(hammerBin), `${name}: the install step ran`);
    const notice = /not yet covered by allowScripts/.test(result.output);
    if (notice) {
      assert.match(result.output, /hammer-load@\S+ \(preinstall: node scripts\/install\.js --check; install: node scripts\/install\.js\)/);
    }
    outcomes.push([name, notice]);
  }
  const npmVersion = childProcess.execFileSync(process.env.NPM || 'npm', ['--version'],
                                               { encoding: 'utf8' }).trim();
  if (Number(npmVersion.split('.')[0]) >= 11 && outcomes[0][1]) {
    assert.deepEqual(outcomes, [['none', true], ['name', true], ['path', false]], npmVersion);
  }
});

test('a platform package whose checksum is wrong is refused in one line; the install falls ' +
     'back to the source build, and with no cmake says what to do',
     { skip: needsBuild, timeout: 180000 }, async (t) => {
  const sandbox = tempDir(t, 'hammer-npm-bad-');
  const platform = await packBinaryPackage(sandbox, hammerBin, (manifest) => {
    manifest.hammer.sha256 = kZeros;
  });
  const tarball = await packTarball(sandbox);
  const result = await installGlobally(sandbox, [platform.tarball, tarball],
                                       { env: { CMAKE: path.join(sandbox, 'no-cmake') } });
  assert.notEqual(result.status, 0, result.output);
  const file = path.join(result.prefix, 'lib', 'node_modules', '@hammer-load', key, 'bin', exe);
  assert.ok(result.output.includes(`hammer-load: checksum mismatch for ${file}: expected ` +
                                   `${kZeros}, got ${sha256(hammerBin)}; building from source ` +
                                   'instead\n'), result.output);
  assert.match(result.output, new RegExp(
    `hammer-load: cmake not found \\(tried '${path.join(sandbox, 'no-cmake')}'\\): building ` +
    'hammer from source needs CMake >= 3\\.21 .*; or let npm install the prebuilt binary ' +
    `${binaryPackageName(key)} \\(online, without --omit=optional or --no-optional\\)\\n`));
  assert.equal(fs.existsSync(path.join(result.packageDir, 'native', exe)), false);
  // It failed at preinstall, before npm linked the command: no link left pointing at nothing.
  assert.throws(() => fs.lstatSync(result.bin), { code: 'ENOENT' });
  assert.throws(() => fs.lstatSync(path.join(result.prefix, 'share', 'man', 'man1', 'hammer.1')),
                { code: 'ENOENT' });
});

test('the Node wrapper (Windows, a checkout) passes on argv, exit codes and signals',
     { skip: needsBuild, timeout: 150000 }, async (t) => {
  const sandbox = tempDir(t, 'hammer-wrapper-');
  for (const entry of ['package.json', 'bin', 'lib']) {
    fs.cpSync(path.join(__dirname, '..', entry), path.join(sandbox, entry), { recursive: true });
  }
  const wrapper = path.join(sandbox, 'bin', 'hammer');
  assert.match(fs.readFileSync(wrapper, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  const missing = await runCommand(wrapper, ['--version']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr,
               new RegExp(`^hammer: the native binary for ${key} is missing .*reinstall hammer-load`));

  fs.mkdirSync(path.join(sandbox, 'native'));
  fs.copyFileSync(hammerBin, path.join(sandbox, 'native', exe));
  const versionLine = await runCommand(wrapper, ['--version']);
  assert.deepEqual([versionLine.code, versionLine.stdout], [0, `hammer ${version}\n`]);
  const bad = await runCommand(wrapper, ['-c', 'abc', 'http://127.0.0.1:9/']);
  assert.equal(bad.code, 1);
  assert.equal(bad.stderr, "hammer: --connections: expected a whole number >= 1, got 'abc'\n");

  const url = await startServer(t);
  const interrupted = await runCommand(wrapper, ['--json', '--progress-fd', '2', '-c', '2', '-t',
                                                 '1', '-d', '20s', url],
                                       { signal: 'SIGINT', signalOnStderr: true });
  assert.equal(interrupted.code, 0, interrupted.stderr);
  const report = JSON.parse(interrupted.stdout);
  assert.equal(report.interrupted, true, 'SIGINT reached hammer, which reported');
  assert.ok(report.requests.completed > 0);
});
