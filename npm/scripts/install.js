#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// npm's install step for hammer-load: puts the native hammer binary at native/hammer[.exe].
//
// 1. A prebuilt binary for this platform (prebuilt/<platform>-<arch>/hammer[.exe] in the package,
//    or in $HAMMER_PREBUILT_DIR) is used only after its SHA-256 matches prebuilt/manifest.json.
//    A mismatch, or a binary the manifest does not vouch for, fails the install: it never falls
//    back to building, nor to the binary.
// 2. Otherwise hammer is built from the bundled source (source/) with CMake >= 3.21 and a C++20
//    compiler, Release, the `hammer` target only; what is missing is named when it cannot be.
'use strict';

const childProcess = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { packageRoot, prebuiltPlatforms, platformKey, executableName, installedBinaryPath } =
  require('../lib/binary.js');

const kMinCmake = [3, 21];

class InstallError extends Error {}

function log(line) {
  process.stderr.write(`hammer-load: ${line}\n`);
}

function sha256File(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function readManifest(dir) {
  const file = path.join(dir, 'manifest.json');
  if (!fs.existsSync(file)) return null;
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InstallError(`cannot read ${file}: ${error.message}`);
  }
}

// The verified prebuilt binary for `key` in `dir`, or null when `dir` has none for it.
function findVerifiedPrebuilt(dir, key = platformKey(), exe = executableName()) {
  const manifest = readManifest(dir);
  const entry = manifest && Object.hasOwn(manifest, key) ? manifest[key] : null;
  const relative = entry ? entry.file : path.join(key, exe);
  if (typeof relative !== 'string' || path.isAbsolute(relative) ||
      relative.split(/[\\/]/).includes('..')) {
    throw new InstallError(`${path.join(dir, 'manifest.json')}: "${key}".file must be a ` +
                           `path inside ${dir}, got ${JSON.stringify(relative)}`);
  }
  const file = path.join(dir, relative);
  const present = fs.existsSync(file);
  if (!entry) {
    if (!present) return null;
    throw new InstallError(`no checksum for ${file}: ${path.join(dir, 'manifest.json')} has no ` +
                           `"${key}" entry, so the binary cannot be verified`);
  }
  if (!present) {
    throw new InstallError(`${path.join(dir, 'manifest.json')} lists ${file} for "${key}", ` +
                           'but the file is missing');
  }
  const expected = String(entry.sha256 ?? '').toLowerCase();
  const actual = sha256File(file);
  if (actual !== expected) {
    throw new InstallError(`checksum mismatch for ${file}: expected ${expected || '(none)'}, ` +
                           `got ${actual}`);
  }
  return file;
}

function prebuiltDir() {
  const override = process.env.HAMMER_PREBUILT_DIR;
  if (override) {
    if (!fs.statSync(override, { throwIfNoEntry: false })?.isDirectory()) {
      throw new InstallError(`HAMMER_PREBUILT_DIR=${override} is not a directory`);
    }
    return path.resolve(override);
  }
  return path.join(packageRoot, 'prebuilt');
}

// Runs `command` and returns {status, output} (stdout and stderr together); status is null when
// it could not be started.
function capture(command, args, options = {}) {
  const result = childProcess.spawnSync(command, args, {
    encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'], ...options,
  });
  if (result.error) return { status: null, output: '', error: result.error };
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function checkCmake(cmake) {
  const result = capture(cmake, ['--version']);
  if (result.status === null) {
    throw new InstallError(`cmake not found (tried '${cmake}'): building hammer from source ` +
                           'needs CMake >= 3.21 (apt install cmake, brew install cmake); set ' +
                           'CMAKE to use another one');
  }
  const match = /cmake version (\d+)\.(\d+)(\.\d+)?/.exec(result.output);
  if (!match) throw new InstallError(`cannot tell the version of '${cmake}': ${result.output}`);
  const [major, minor] = [Number(match[1]), Number(match[2])];
  if (major < kMinCmake[0] || (major === kMinCmake[0] && minor < kMinCmake[1])) {
    throw new InstallError(`cmake ${match[0].slice(14)} is too old: building hammer needs ` +
                           `CMake >= ${kMinCmake.join('.')}`);
  }
}

function checkCompiler() {
  const candidates = process.env.CXX ? [process.env.CXX]
    : process.platform === 'win32' ? ['cl', 'clang++', 'g++'] : ['c++', 'g++', 'clang++'];
  for (const compiler of candidates) {
    const probe = process.platform === 'win32' && compiler === 'cl' ? [] : ['--version'];
    const result = capture(compiler, probe);
    if (result.status !== null) return compiler;
  }
  throw new InstallError(`no C++ compiler found (tried ${candidates.join(', ')}): building ` +
                         'hammer needs a C++20 compiler (g++ >= 10 or clang++ >= 12); set CXX ' +
                         'to use a specific one');
}

// A one-line reason for a failed configure or build, when the output says what is missing.
function explainFailure(output) {
  if (/Could NOT find ZLIB/i.test(output) || /zlib\.h: No such file/i.test(output)) {
    return 'zlib headers missing: install zlib1g-dev (Debian, Ubuntu), zlib-devel (Fedora) ' +
           'or zlib (Homebrew)';
  }
  if (/No CMAKE_CXX_COMPILER could be found/.test(output)) {
    return 'no C++ compiler found by CMake: install g++ or clang++, or set CXX';
  }
  if (/No CMAKE_C_COMPILER could be found/.test(output)) {
    return 'no C compiler found by CMake: install gcc or clang, or set CC';
  }
  if (/dialect "CXX20"|-std=c\+\+20|unrecognized command.line option.*c\+\+2a/.test(output)) {
    return 'the C++ compiler does not support C++20: use g++ >= 10 or clang++ >= 12 (set CXX)';
  }
  return null;
}

function tail(text, lines = 40) {
  return text.split('\n').slice(-lines).join('\n');
}

function findSourceDir() {
  const bundled = path.join(packageRoot, 'source');
  if (fs.existsSync(path.join(bundled, 'CMakeLists.txt'))) return bundled;
  // A checkout of the repository (npm install inside npm/): the source is one level up.
  const checkout = path.join(packageRoot, '..');
  if (fs.existsSync(path.join(checkout, 'src', 'cli', 'main.cc'))) return checkout;
  throw new InstallError(`no prebuilt binary for ${platformKey()} and no bundled source ` +
                         `(${bundled}) to build one from`);
}

function buildFromSource() {
  const source = findSourceDir();
  const cmake = process.env.CMAKE || 'cmake';
  checkCmake(cmake);
  checkCompiler();
  const build = path.join(packageRoot, 'build');
  fs.rmSync(build, { recursive: true, force: true });

  const configure = ['-S', source, '-B', build, '-DCMAKE_BUILD_TYPE=Release',
                     '-DHAMMER_BUILD_TESTS=OFF', '-DHAMMER_BUILD_BENCH=OFF'];
  if (capture('ninja', ['--version']).status === 0) configure.push('-G', 'Ninja');
  const jobs = process.env.HAMMER_BUILD_JOBS ||
    String(os.availableParallelism ? os.availableParallelism() : os.cpus().length);
  const steps = [
    ['configure', configure],
    ['build', ['--build', build, '--target', 'hammer', '--config', 'Release', '--parallel', jobs]],
  ];
  for (const [name, args] of steps) {
    const result = capture(cmake, args);
    if (result.status !== 0) {
      const reason = explainFailure(result.output);
      throw new InstallError(`building hammer from source failed at the ${name} step` +
                             `${reason ? `: ${reason}` : ''}\n${tail(result.output)}`);
    }
  }
  const exe = executableName();
  const built = [path.join(build, exe), path.join(build, 'Release', exe)].find(fs.existsSync);
  if (!built) throw new InstallError(`the build finished but ${exe} is not in ${build}`);
  return { built, cleanup: () => fs.rmSync(build, { recursive: true, force: true }) };
}

// Copies `from` to native/ and checks that it runs; returns an error message or null.
function place(from) {
  const target = installedBinaryPath();
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.rmSync(target, { force: true });
  fs.copyFileSync(from, target);
  fs.chmodSync(target, 0o755);
  const result = capture(target, ['--version']);
  if (result.status !== 0 || !/^hammer \d/.test(result.output)) {
    fs.rmSync(target, { force: true });
    return `${from} does not run here: ${result.error?.message || result.output.trim()}`;
  }
  return null;
}

function install() {
  const dir = prebuiltDir();
  const prebuilt = fs.existsSync(dir) ? findVerifiedPrebuilt(dir) : null;
  if (prebuilt) {
    const problem = place(prebuilt);
    if (!problem) {
      log(`installed the prebuilt binary for ${platformKey()} (SHA-256 verified)`);
      return;
    }
    log(`${problem}; building from source instead`);
  }
  const why = prebuiltPlatforms.includes(platformKey()) ? 'this package has no prebuilt binary for'
    : 'no prebuilt binaries are made for';
  log(`${why} ${platformKey()}: building hammer from source (a minute or two)`);
  const { built, cleanup } = buildFromSource();
  const problem = place(built);
  cleanup();
  if (problem) throw new InstallError(problem);
  log(`built and installed ${installedBinaryPath()}`);
}

if (require.main === module) {
  try {
    install();
  } catch (error) {
    if (!(error instanceof InstallError)) throw error;
    process.stderr.write(`hammer-load: ${error.message}\n`);
    process.exit(1);
  }
}

module.exports = { InstallError, findVerifiedPrebuilt, sha256File, explainFailure, checkCmake };
