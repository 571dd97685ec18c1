#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// npm's install step for hammer-load: puts the native hammer binary at native/hammer[.exe] and,
// where it can, over bin/hammer, so the installed command is hammer itself, with no Node
// process in between.
//
// 1. The prebuilt binary of the optional dependency @hammer-load/<platform>-<arch> (npm installs
//    it only on its own os/cpu) is used only after its SHA-256 matches the one that package
//    declares, and the one in this package's checksums.json when that has an entry. A mismatch,
//    a version that is not this package's, or a binary that does not run here is said in one
//    line, and hammer is built from source instead.
// 2. Otherwise hammer is built from the bundled source (source/) with CMake >= 3.21 and a C++20
//    compiler, Release, the `hammer` target only. When it cannot be, the install fails with one
//    line saying what is missing and what to do: at preinstall (`--check`), before npm links
//    the command, so nothing is left pointing at a package npm removed. The build says what it
//    is doing as it goes (configure, compile N of M read from the build tool's [N/M] or [ P%]
//    lines, link) and how long it took; npm shows it with --foreground-scripts (npm hides an
//    install script's output otherwise, unless the script fails).
'use strict';

const childProcess = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { packageRoot, supportedPlatforms, platformKey, executableName, binaryPackageName,
        installedBinaryPath } = require('../lib/binary.js');

const kMinCmake = [3, 21];

class InstallError extends Error {}

function log(line) {
  process.stderr.write(`hammer-load: ${line}\n`);
}

function sha256File(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function ownVersion() {
  return JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8')).version;
}

// This package's own record of each platform binary's SHA-256 (written by scripts/release.sh
// when it packs them together), or {} when it has none.
function readChecksums(root = packageRoot) {
  const file = path.join(root, 'checksums.json');
  if (!fs.existsSync(file)) return {};
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InstallError(`cannot read ${file}: ${error.message}`);
  }
}

// The directory of the installed binary package for `key`, or null when npm did not install it
// (another platform, --omit=optional, offline, or not published for this version).
function findBinaryPackage(key = platformKey(), from = packageRoot) {
  try {
    return path.dirname(require.resolve(`${binaryPackageName(key)}/package.json`,
                                        { paths: [from] }));
  } catch {
    return null;
  }
}

// The binary of the package in `dir`, once its version and SHA-256 check out; throws an
// InstallError saying what did not.
function verifiedBinary(dir, { key = platformKey(), version = ownVersion(),
                               checksums = readChecksums() } = {}) {
  const name = binaryPackageName(key);
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  } catch (error) {
    throw new InstallError(`${name}: cannot read its package.json: ${error.message}`);
  }
  if (manifest.version !== version) {
    throw new InstallError(`${name} is version ${manifest.version}, hammer-load is ${version}`);
  }
  const relative = manifest.hammer?.binary;
  if (typeof relative !== 'string' || path.isAbsolute(relative) ||
      relative.split(/[\\/]/).includes('..')) {
    throw new InstallError(`${name}: package.json "hammer.binary" must be a path inside the ` +
                           `package, got ${JSON.stringify(relative)}`);
  }
  const file = path.join(dir, relative);
  if (!fs.existsSync(file)) throw new InstallError(`${name}: ${file} is missing`);
  const actual = sha256File(file);
  const declared = String(manifest.hammer.sha256 ?? '').toLowerCase();
  if (actual !== declared) {
    throw new InstallError(`checksum mismatch for ${file}: expected ${declared || '(none)'}, ` +
                           `got ${actual}`);
  }
  const recorded = checksums[key];
  if (recorded !== undefined && String(recorded).toLowerCase() !== actual) {
    throw new InstallError(`checksum mismatch for ${file}: hammer-load's checksums.json ` +
                           `expects ${recorded}, got ${actual}`);
  }
  return file;
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

// The prebuilt route, for the line that says what to do when there is no way to build.
function prebuiltAdvice(key = platformKey()) {
  if (!supportedPlatforms.includes(key)) {
    return `no prebuilt hammer for ${key} in this release (there are for ` +
           `${supportedPlatforms.join(', ')}): build from source is the only way here`;
  }
  return `or let npm install the prebuilt binary ${binaryPackageName(key)} (online, without ` +
         '--omit=optional or --no-optional)';
}

function findSourceDir() {
  const bundled = path.join(packageRoot, 'source');
  if (fs.existsSync(path.join(bundled, 'CMakeLists.txt'))) return bundled;
  // A checkout of the repository (npm install inside npm/): the source is one level up.
  const checkout = path.join(packageRoot, '..');
  if (fs.existsSync(path.join(checkout, 'src', 'cli', 'main.cc'))) return checkout;
  throw new InstallError(`no prebuilt binary for ${platformKey()} and no bundled source ` +
                         `(${bundled}) to build one from: pack the package with npm pack in ` +
                         `npm/ (its prepack step adds the source), ${prebuiltAdvice()}`);
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

// Reads the build tool's progress lines: ninja's "[12/86] Building CXX object .../foo.cc.o",
// make's "[ 14%] Building CXX object ...". Returns { done, total, percent, what, file } or null.
function parseProgress(line) {
  const ninja = /^\[(\d+)\/(\d+)\]\s+(.*)$/.exec(line);
  const make = ninja ? null : /^\[\s*(\d+)%\]\s+(.*)$/.exec(line);
  if (!ninja && !make) return null;
  const text = ninja ? ninja[3] : make[2];
  const done = ninja ? Number(ninja[1]) : null;
  const total = ninja ? Number(ninja[2]) : null;
  const percent = ninja ? Math.floor((100 * done) / total) : Number(make[1]);
  const compiled = /Building C(?:XX)? object .*?((?:src|tools)\/\S+?)\.o$/.exec(text);
  const linked = /Linking \S+ executable (\S+)/.exec(text);
  return { done, total, percent, what: compiled ? 'compile' : linked ? 'link' : 'other',
           file: compiled ? compiled[1] : linked ? path.basename(linked[1]) : null };
}

// What to print for the build's progress: the first compile, then one each 10% more of the
// build, and the link of hammer, as "compiling 23 of 86: src/report/html_report.cc" (ninja's
// steps) or "compiling 40%: ..." (make's). Other steps (ninja's [0/2] re-check, archiving a
// library) only move the count.
function progressReporter(print = log) {
  let next = 0;
  return (line) => {
    const step = parseProgress(line);
    if (!step || step.done === 0 || step.what === 'other') return;
    const count = step.total ? `${step.done} of ${step.total}` : `${step.percent}%`;
    if (step.what === 'link') {
      print(`linking ${step.file} (${count})`);
    } else if (step.percent >= next) {
      print(`compiling ${count}: ${step.file}`);
      next = (Math.floor(step.percent / 10) + 1) * 10;
    }
  };
}

// Runs one build step, its output read line by line into `onLine` and kept for the failure
// message; resolves to { status, output, ms }.
function runStep(command, args, onLine = () => {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = childProcess.spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let pending = '';
    const take = (chunk) => {
      const text = chunk.toString('utf8');
      output += text;
      pending += text;
      let newline;
      while ((newline = pending.indexOf('\n')) >= 0) {
        onLine(pending.slice(0, newline).replace(/\r$/, ''));
        pending = pending.slice(newline + 1);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) => resolve({ status: null, output: error.message,
                                           ms: Date.now() - started }));
    child.on('close', (status) => {
      if (pending) onLine(pending);
      resolve({ status, output, ms: Date.now() - started });
    });
  });
}

async function buildFromSource() {
  const source = findSourceDir();
  const cmake = process.env.CMAKE || 'cmake';
  try {
    checkCmake(cmake);
    checkCompiler();
  } catch (error) {
    if (error instanceof InstallError) error.message += `; ${prebuiltAdvice()}`;
    throw error;
  }
  // Two levels inside the source, as the release preset's build/release is: ccache rewrites
  // paths relative to the build directory, so the compile lines then match a release build's
  // of the same sources and its cache serves them (the test suite's second build of hammer).
  const build = path.join(source, 'build', 'npm-install');
  fs.rmSync(build, { recursive: true, force: true });

  const configure = ['-S', source, '-B', build, '-DCMAKE_BUILD_TYPE=Release',
                     '-DHAMMER_BUILD_TESTS=OFF', '-DHAMMER_BUILD_BENCH=OFF'];
  // HAMMER_CMAKE_ARGS: more -D settings for the configure step, split at whitespace
  // (e.g. "-DHAMMER_TLS=OFF", or the test suite's -DHAMMER_WERROR=ON, whose compile lines then
  // match the release build's and come from its compiler cache).
  const extra = (process.env.HAMMER_CMAKE_ARGS || '').split(/\s+/).filter((arg) => arg !== '');
  configure.push(...extra);
  const ninja = capture('ninja', ['--version']).status === 0;
  if (ninja) configure.push('-G', 'Ninja');
  const jobs = process.env.HAMMER_BUILD_JOBS ||
    String(os.availableParallelism ? os.availableParallelism() : os.cpus().length);
  const steps = [
    ['configure', configure],
    ['build', ['--build', build, '--target', 'hammer', '--config', 'Release', '--parallel', jobs]],
  ];
  const started = Date.now();
  const took = {};
  for (const [name, args] of steps) {
    if (name === 'configure') {
      log(`configuring the build (CMake, Release${ninja ? ', Ninja' : ''}) in ${build}`);
    } else {
      log(`compiling hammer with ${jobs} job${jobs === '1' ? '' : 's'} (HAMMER_BUILD_JOBS sets ` +
          'how many)');
    }
    const result = await runStep(cmake, args, name === 'build' ? progressReporter() : undefined);
    took[name] = result.ms;
    if (result.status !== 0) {
      const reason = explainFailure(result.output);
      throw new InstallError(`building hammer from source failed at the ${name} step after ` +
                             `${seconds(result.ms)}${reason ? `: ${reason}` : ''}\n` +
                             `${tail(result.output)}`);
    }
    if (name === 'configure') log(`configured in ${seconds(result.ms)}`);
  }
  log(`built hammer from source in ${seconds(Date.now() - started)} (configure ` +
      `${seconds(took.configure)}, compile and link ${seconds(took.build)})`);
  const exe = executableName();
  const built = [path.join(build, exe), path.join(build, 'Release', exe)].find(fs.existsSync);
  if (!built) throw new InstallError(`the build finished but ${exe} is not in ${build}`);
  const cleanup = () => {
    fs.rmSync(build, { recursive: true, force: true });
    try {
      fs.rmdirSync(path.dirname(build));  // build/, unless something else is in it
    } catch {
      // not empty (a checkout's own builds): left as it was
    }
  };
  return { built, cleanup };
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

// Under node_modules, on a system with real executables, bin/hammer (the file npm links the
// `hammer` command to) becomes the native binary itself: no Node start-up on every run, and no
// Node process beside hammer. In a checkout of the repository, or on Windows (npm's .cmd shims
// run node), the wrapper stays.
function replaceWrapper() {
  const inNodeModules = packageRoot.split(path.sep).includes('node_modules');
  if (process.platform === 'win32' || !inNodeModules) return false;
  const wrapper = path.join(packageRoot, 'bin', 'hammer');
  const staged = `${wrapper}.native`;
  fs.rmSync(staged, { force: true });
  try {
    fs.linkSync(installedBinaryPath(), staged);
  } catch {
    fs.copyFileSync(installedBinaryPath(), staged);
  }
  fs.chmodSync(staged, 0o755);
  fs.renameSync(staged, wrapper);  // atomic: the command is the wrapper or hammer, never neither
  return true;
}

function finish(how) {
  const direct = replaceWrapper();
  log(`${how}; the hammer command runs it ${direct ? 'directly' : 'through bin/hammer (Node)'}`);
}

async function install() {
  const key = platformKey();
  const name = binaryPackageName(key);
  const dir = findBinaryPackage(key);
  if (dir) {
    let binary = null;
    try {
      binary = verifiedBinary(dir);
    } catch (error) {
      if (!(error instanceof InstallError)) throw error;
      log(`${error.message}; building from source instead`);
    }
    const problem = binary && place(binary);
    if (binary && !problem) {
      finish(`installed the prebuilt binary from ${name} (SHA-256 verified)`);
      return;
    }
    if (problem) log(`${problem}; building from source instead`);
  } else if (!supportedPlatforms.includes(key)) {
    log(`no prebuilt hammer for ${key} in this release: building hammer from source ` +
        '(a minute or two; its progress follows)');
  } else {
    log(`no prebuilt binary for ${key} (${name} is not installed): building hammer from ` +
        'source (a minute or two; its progress follows)');
  }
  const { built, cleanup } = await buildFromSource();
  const problem = place(built);
  cleanup();
  if (problem) throw new InstallError(problem);
  finish(`built ${installedBinaryPath()} from source`);
}

// preinstall: whether install() can succeed, checked before npm links the `hammer` command, so a
// machine with no usable prebuilt binary and no way to build gets its one line and no command
// left pointing at nothing (npm removes a failed package but not its links).
function check() {
  const dir = findBinaryPackage();
  if (dir) {
    try {
      verifiedBinary(dir);
      return;
    } catch (error) {
      if (!(error instanceof InstallError)) throw error;
      log(`${error.message}; building from source instead`);
    }
  }
  findSourceDir();
  try {
    checkCmake(process.env.CMAKE || 'cmake');
    checkCompiler();
  } catch (error) {
    if (error instanceof InstallError) error.message += `; ${prebuiltAdvice()}`;
    throw error;
  }
}

if (require.main === module) {
  const fail = (error) => {
    if (!(error instanceof InstallError)) throw error;
    process.stderr.write(`hammer-load: ${error.message}\n`);
    process.exit(1);
  };
  try {
    if (process.argv.includes('--check')) {
      check();
    } else {
      install().catch((error) => {
        try {
          fail(error);
        } catch (other) {
          process.stderr.write(`${other.stack || other}\n`);
          process.exit(1);
        }
      });
    }
  } catch (error) {
    fail(error);
  }
}

module.exports = {
  InstallError, findBinaryPackage, verifiedBinary, sha256File, explainFailure, checkCmake,
  prebuiltAdvice, parseProgress, progressReporter,
};
