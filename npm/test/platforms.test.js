// SPDX-License-Identifier: MIT
// The platforms hammer-load ships a prebuilt binary for (lib/binary.js): package.json declares
// each as an optional dependency and allows its os/cpu; the launcher picks hammer.exe on win32
// and leaves Ctrl-C to the console there; a release packs a binary only under the key its header
// says (a Linux build is never win32-x64); and the win32-x64 package made from the MinGW-w64
// build (scripts/windows-check.sh --build-only) has the layout the install step verifies.
'use strict';

const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const binary = require('../lib/binary.js');
const install = require('../scripts/install.js');
const { cmakeVersion } = require('../scripts/stage.js');
const { hammerBin, needsBuild, tempDir, npm, npmEnv } = require('./helpers.js');

const npmDir = path.join(__dirname, '..');
const repoRoot = path.join(npmDir, '..');
const stage = path.join(npmDir, 'scripts', 'stage.js');
const version = cmakeVersion(repoRoot);
// The MinGW-w64 build of this checkout, when there is one (the windows-mingw preset's binary dir).
const windowsExe = process.env.HAMMER_WINDOWS_EXE ||
                   path.join(repoRoot, 'build', 'windows-mingw', 'hammer.exe');
const noWindowsExe = fs.existsSync(windowsExe)
  ? false : `no ${windowsExe} (scripts/windows-check.sh --build-only makes it)`;

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function stageCli(args) {
  return childProcess.spawnSync(process.execPath, [stage, ...args], { encoding: 'utf8' });
}

test('package.json declares one pinned optional dependency per prebuilt platform and allows ' +
     'its os and cpu', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(npmDir, 'package.json'), 'utf8'));
  assert.deepEqual(binary.supportedPlatforms,
                   ['darwin-arm64', 'darwin-x64', 'linux-x64', 'win32-x64']);
  assert.deepEqual(manifest.optionalDependencies, Object.fromEntries(
    binary.supportedPlatforms.map((key) => [`@hammer-load/${key}`, version])));
  for (const key of binary.supportedPlatforms) {
    const [os, cpu] = key.split('-');
    assert.ok(manifest.os.includes(os), `${key}: os ${os} allowed`);
    assert.ok(manifest.cpu.includes(cpu), `${key}: cpu ${cpu} allowed`);
  }
});

test('the launcher runs native/hammer.exe on win32 and native/hammer elsewhere', () => {
  assert.equal(binary.executableName('win32'), 'hammer.exe');
  assert.equal(binary.installedBinaryPath('win32'),
               path.join(binary.packageRoot, 'native', 'hammer.exe'));
  for (const platform of ['linux', 'darwin']) {
    assert.equal(binary.installedBinaryPath(platform),
                 path.join(binary.packageRoot, 'native', 'hammer'));
  }
  assert.equal(binary.binaryPackageName('win32-x64'), '@hammer-load/win32-x64');
});

test('the wrapper forwards signals on POSIX; on win32 it leaves Ctrl-C to the console, whose ' +
     'CTRL_C_EVENT hammer.exe gets itself (child.kill there would end it without a report)', () => {
  const posix = { SIGINT: 'forward', SIGTERM: 'forward', SIGHUP: 'forward', SIGQUIT: 'forward' };
  assert.deepEqual(binary.wrapperSignals('linux'), posix);
  assert.deepEqual(binary.wrapperSignals('darwin'), posix);
  assert.deepEqual(binary.wrapperSignals('win32'), { SIGINT: 'ignore', SIGBREAK: 'ignore' });
});

test('binaryPlatform reads the platform from an ELF, PE or Mach-O header', () => {
  const elf = (machine) => {
    const bytes = Buffer.alloc(64);
    bytes.writeUInt32BE(0x7f454c46, 0);
    bytes[5] = 1;  // little-endian
    bytes.writeUInt16LE(machine, 18);
    return bytes;
  };
  const pe = (machine) => {
    const bytes = Buffer.alloc(256);
    bytes.write('MZ', 0, 'latin1');
    bytes.writeUInt32LE(128, 60);
    bytes.write('PE\0\0', 128, 'latin1');
    bytes.writeUInt16LE(machine, 132);
    return bytes;
  };
  const macho = (cputype) => {
    const bytes = Buffer.alloc(32);
    bytes.writeUInt32LE(0xfeedfacf, 0);
    bytes.writeUInt32LE(cputype, 4);
    return bytes;
  };
  assert.equal(binary.binaryPlatform(elf(62)), 'linux-x64');
  assert.equal(binary.binaryPlatform(elf(183)), 'linux-arm64');
  assert.equal(binary.binaryPlatform(elf(3)), null, 'i386: not a platform of ours');
  assert.equal(binary.binaryPlatform(pe(0x8664)), 'win32-x64');
  assert.equal(binary.binaryPlatform(pe(0xaa64)), 'win32-arm64');
  assert.equal(binary.binaryPlatform(macho(0x01000007)), 'darwin-x64');
  assert.equal(binary.binaryPlatform(macho(0x0100000c)), 'darwin-arm64');
  const truncated = pe(0x8664).subarray(0, 100);  // the PE header's offset points past the end
  assert.equal(binary.binaryPlatform(truncated), null);
  assert.equal(binary.binaryPlatform(Buffer.from('#!/usr/bin/env node\n')), null);
});

test('a platform without a prebuilt binary is told so in the install step\'s one line', () => {
  assert.equal(install.prebuiltAdvice('linux-arm64'),
               'no prebuilt hammer for linux-arm64 in this release (there are for darwin-arm64, ' +
               'darwin-x64, linux-x64, win32-x64): build from source is the only way here');
  assert.match(install.prebuiltAdvice('win32-x64'),
               /^or let npm install the prebuilt binary @hammer-load\/win32-x64 \(online/);
});

test('a release packs a binary only under the platform its header says', { skip: needsBuild },
     (t) => {
  const sandbox = tempDir(t, 'hammer-release-key-');
  const linuxAsWindows = stageCli(['binary-package', path.join(sandbox, 'w'), hammerBin,
                                   'win32-x64']);
  assert.equal(linuxAsWindows.status, 1);
  assert.equal(linuxAsWindows.stderr, `hammer-load binary-package: ${path.resolve(hammerBin)} ` +
                                      'is a linux-x64 binary, not one for win32-x64\n');
  assert.equal(fs.existsSync(path.join(sandbox, 'w')), false, 'nothing laid out');
  const unshipped = stageCli(['binary-package', path.join(sandbox, 'a'), hammerBin,
                              'linux-arm64']);
  assert.equal(unshipped.status, 1);
  assert.match(unshipped.stderr, /^hammer-load binary-package: linux-arm64: not a platform /);
  const script = path.join(sandbox, 'hammer.sh');
  fs.writeFileSync(script, '#!/bin/sh\necho hammer\n');
  const notBinary = stageCli(['binary-package', path.join(sandbox, 's'), script, 'linux-x64']);
  assert.equal(notBinary.status, 1);
  assert.match(notBinary.stderr, /is not an ELF, PE or Mach-O executable, not one for linux-x64\n$/);
});

test('@hammer-load/win32-x64 from the MinGW-w64 hammer.exe: its layout, its pack, and the ' +
     'install step\'s verification', { skip: noWindowsExe, timeout: 120000 }, async (t) => {
  const sandbox = tempDir(t, 'hammer-win32-package-');
  const dir = path.join(sandbox, 'win32-x64');
  const made = stageCli(['binary-package', dir, windowsExe, 'win32-x64']);
  assert.equal(made.status, 0, made.stderr);
  const digest = sha256(windowsExe);
  assert.equal(made.stdout, `win32-x64 ${digest}\n`);

  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  assert.deepEqual(
    { name: manifest.name, version: manifest.version, os: manifest.os, cpu: manifest.cpu,
      files: manifest.files, hammer: manifest.hammer },
    { name: '@hammer-load/win32-x64', version, os: ['win32'], cpu: ['x64'],
      files: ['bin/hammer.exe'], hammer: { binary: 'bin/hammer.exe', sha256: digest } });
  // What install.js on Windows accepts: this version, the declared and the recorded SHA-256.
  assert.equal(install.verifiedBinary(dir, { key: 'win32-x64', version,
                                             checksums: { 'win32-x64': digest } }),
               path.join(dir, 'bin', 'hammer.exe'));

  const out = path.join(sandbox, 'dist');
  fs.mkdirSync(out);
  const packed = await npm(['pack', '--pack-destination', out],
                           { cwd: dir, env: npmEnv(sandbox) });
  assert.equal(packed.status, 0, packed.output);
  const tarball = path.join(out, `hammer-load-win32-x64-${version}.tgz`);
  const listing = childProcess.execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
  assert.deepEqual(listing.trim().split('\n').sort(),
                   ['package/README.md', 'package/bin/hammer.exe', 'package/package.json']);
  const unpacked = path.join(sandbox, 'unpacked');
  fs.mkdirSync(unpacked);
  childProcess.execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
  assert.equal(sha256(path.join(unpacked, 'package', 'bin', 'hammer.exe')), digest,
               'the packed hammer.exe is the checked build, byte for byte');
});
